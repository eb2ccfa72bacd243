//! The hostile round's findings on reports, moderation and blocks (issue 41): report texts and
//! games are checked, the moderators' list pages and filters, a closed account can still be
//! unfollowed and unblocked, a moderator cannot close a moderator, a closed account can be
//! reopened and a mark taken off, a block withdraws the blocked player's challenge
//! notification and refuses their rematch offer.

use crate::common::lobby::{
    account, delete, first_legal, follow, get, make_mod, post, seek, start,
};
use crate::common::*;
use serde_json::{Value, json};

fn corr() -> Value {
    json!({"kind": "correspondence", "days": 1})
}

async fn reports_checked(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "kann").await;
    let (mut bob, bob_name) = account(&srv, "kbob").await;
    let (_, cid_name) = account(&srv, "kcid").await;
    let (mut modr, mod_name) = account(&srv, "kmod").await;
    make_mod(&srv, &mod_name).await;
    // New accounts: no report until 10 minutes old (or a finished game).
    let r = post(
        &mut ann,
        "/api/reports",
        json!({"username": bob_name, "reason": "other", "text": "too soon"}),
    )
    .await;
    assert_error(&r, 403, "not_eligible");
    assert!(r.text.contains("10 minutes"), "{}", r.text);
    srv.site
        .services()
        .play
        .time()
        .advance(std::time::Duration::from_secs(11 * 60));
    for text in [
        "nul\u{0}byte",
        "abc \u{202E}gnp.exe",
        "isolate \u{2067}x",
        "bell\u{7}",
    ] {
        let r = post(
            &mut ann,
            "/api/reports",
            json!({"username": bob_name, "reason": "other", "text": text}),
        )
        .await;
        assert_error(&r, 400, "bad_request");
        assert!(r.text.contains("text:"), "{}", r.text);
    }
    let r = post(
        &mut modr,
        &format!("/api/mod/players/{bob_name}/mute"),
        json!({"minutes": 1, "reason": "nul\u{0} x"}),
    )
    .await;
    assert_error(&r, 400, "bad_request");
    assert!(r.text.contains("reason:"), "{}", r.text);
    // A game that does not exist, and one the reported player did not play.
    let r = post(
        &mut ann,
        "/api/reports",
        json!({"username": bob_name, "reason": "other", "game": "AAAAAAAA"}),
    )
    .await;
    assert_error(&r, 400, "bad_request");
    assert!(r.text.contains("game:"), "{}", r.text);
    let c = post(
        &mut ann,
        "/api/challenges",
        json!({"username": bob_name, "variant": "antarctos", "time_control": corr()}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let cid = c.body["id"].as_str().expect("id").to_string();
    let g = post(
        &mut bob,
        &format!("/api/challenges/{cid}/accept"),
        json!({}),
    )
    .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let game = g.body["id"].as_str().expect("game").to_string();
    let r = post(
        &mut ann,
        "/api/reports",
        json!({"username": cid_name, "reason": "abuse", "game": game}),
    )
    .await;
    assert_error(&r, 400, "bad_request");
    assert!(r.text.contains("did not play"), "{}", r.text);
    let r = post(
        &mut ann,
        "/api/reports",
        json!({"username": bob_name, "reason": "abuse", "game": game, "text": "lines\nand\ttabs"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    // The list: by reason, by page, all with open first; repeated or unknown fields refused.
    let r = post(
        &mut bob,
        "/api/reports",
        json!({"username": ann_name, "reason": "cheating"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let cheat_id = r.body["id"].as_str().expect("id").to_string();
    let abuse = get(&mut modr, "/api/mod/reports?reason=abuse").await.body;
    assert!(
        abuse
            .as_array()
            .expect("list")
            .iter()
            .all(|x| x["reason"] == "abuse"),
        "{abuse}"
    );
    let closed = post(
        &mut modr,
        &format!("/api/mod/reports/{cheat_id}/close"),
        json!({}),
    )
    .await;
    assert_eq!(closed.status, 200, "{}", closed.text);
    let all = get(&mut modr, "/api/mod/reports?status=all").await.body;
    let statuses: Vec<&str> = all
        .as_array()
        .expect("list")
        .iter()
        .map(|x| x["status"].as_str().expect("status"))
        .collect();
    assert!(
        statuses
            .windows(2)
            .all(|w| !(w[0] == "closed" && w[1] == "open")),
        "{all}"
    );
    assert!(statuses.contains(&"closed"), "{all}");
    let far = get(&mut modr, "/api/mod/reports?status=all&page=1000")
        .await
        .body;
    assert_eq!(far, json!([]));
    for q in [
        "page=0",
        "page=1001",
        "page=x",
        "status=open&status=closed",
        "reason=rude",
        "limit=5",
    ] {
        let a = modr
            .get(&format!("/api/mod/reports?{q}"))
            .await
            .expect("get");
        assert_error(&a, 400, "bad_request");
    }
    srv.stop().await;
}

/// A new account that finished a real game may report at once; a one-screen game against
/// itself, an uploaded game or a game of two plies do not count (hostile finding 1).
async fn a_finished_game_lets_a_new_account_report(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "gann").await;
    let (mut bob, bob_name) = account(&srv, "gbob").await;
    // A local (one-screen) game of 4 plies, resigned: not a game against another player.
    let local = create(
        &mut ann,
        json!({"variant": "antarctos", "opponent": "local"}),
    )
    .await;
    let local = local["id"].as_str().expect("id").to_string();
    for _ in 0..4 {
        let m = first_legal(&mut ann, &local).await;
        play(&mut ann, &local, &m).await;
    }
    let r = post(&mut ann, &format!("/api/games/{local}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let early = json!({"username": bob_name, "reason": "other", "text": "after a solo game"});
    let r = post(&mut ann, "/api/reports", early.clone()).await;
    assert_error(&r, 403, "not_eligible");
    // An uploaded (offline) game, stored as the uploader's resignation: not played here.
    let moves = {
        let g = create(
            &mut ann,
            json!({"variant": "antarctos", "opponent": "local"}),
        )
        .await;
        let g = g["id"].as_str().expect("id").to_string();
        let mut moves = Vec::new();
        for _ in 0..4 {
            let m = first_legal(&mut ann, &g).await;
            play(&mut ann, &g, &m).await;
            moves.push(m);
        }
        moves
    };
    let r = post(
        &mut ann,
        "/api/games/upload",
        json!({"variant": "antarctos", "moves": moves, "level": 1, "color": "white", "result": "0-1"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let r = post(&mut ann, "/api/reports", early).await;
    assert_error(&r, 403, "not_eligible");
    let c = post(
        &mut bob,
        "/api/challenges",
        json!({"username": ann_name, "variant": "antarctos", "time_control": corr(),
               "color": "white"}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let cid = c.body["id"].as_str().expect("id").to_string();
    let g = post(
        &mut ann,
        &format!("/api/challenges/{cid}/accept"),
        json!({}),
    )
    .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let game = g.body["id"].as_str().expect("game").to_string();
    // Two plies by each side: a real game once it ends.
    for _ in 0..2 {
        let m = first_legal(&mut bob, &game).await;
        play(&mut bob, &game, &m).await;
        let m = first_legal(&mut ann, &game).await;
        play(&mut ann, &game, &m).await;
    }
    let report = json!({"username": bob_name, "reason": "abuse", "game": game});
    let r = post(&mut ann, "/api/reports", report.clone()).await;
    assert_error(&r, 403, "not_eligible");
    let r = post(&mut ann, &format!("/api/games/{game}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = post(&mut ann, "/api/reports", report).await;
    assert_eq!(r.status, 201, "{}", r.text);
    srv.stop().await;
}

async fn closed_accounts(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "qann").await;
    let (mut bob, bob_name) = account(&srv, "qbob").await;
    let (mut mod1, mod1_name) = account(&srv, "qmoda").await;
    let (_, mod2_name) = account(&srv, "qmodb").await;
    make_mod(&srv, &mod1_name).await;
    make_mod(&srv, &mod2_name).await;
    // Two correspondence games of Bob in play: one rated with two moves, one not yet begun.
    let id = seek(
        &mut ann,
        json!({"variant": "antarctos", "time_control": corr(), "rated": true, "color": "white"}),
    )
    .await;
    let g = post(&mut bob, &format!("/api/seeks/{id}/accept"), json!({})).await;
    assert_eq!(g.status, 201, "{}", g.text);
    let played = g.body["id"].as_str().expect("id").to_string();
    let m = first_legal(&mut ann, &played).await;
    play(&mut ann, &played, &m).await;
    let m = first_legal(&mut bob, &played).await;
    play(&mut bob, &played, &m).await;
    let c = post(
        &mut bob,
        "/api/challenges",
        json!({"username": ann_name, "variant": "antarctos", "time_control": corr()}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let cid = c.body["id"].as_str().expect("id").to_string();
    let g = post(
        &mut ann,
        &format!("/api/challenges/{cid}/accept"),
        json!({}),
    )
    .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let fresh = g.body["id"].as_str().expect("id").to_string();
    for path in ["follow", "block"] {
        let r = post(
            &mut ann,
            &format!("/api/players/{bob_name}/{path}"),
            json!({}),
        )
        .await;
        assert_eq!(r.status, 204, "{}", r.text);
    }
    // Bob has a lobby page open: online to his follower.
    let (status, _bob_lobby) = bob.events("/api/lobby").await.expect("stream");
    assert_eq!(status, 200);
    let f = get(&mut ann, "/api/me/following").await.body;
    assert_eq!(f[0]["online"], true, "{f}");
    let r = post(
        &mut mod1,
        &format!("/api/mod/players/{bob_name}/close"),
        json!({"reason": "abuse"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // Closed: offline with no games, although his lobby page is still open.
    let f = get(&mut ann, "/api/me/following").await.body;
    assert_eq!(f[0]["username"], bob_name.as_str(), "{f}");
    assert_eq!(f[0]["online"], false, "{f}");
    assert_eq!(f[0]["playing"], json!([]), "{f}");
    // Its games ended at once: the begun one lost by leaving (and rated), the other aborted.
    let v = get(&mut ann, &format!("/api/games/{played}")).await.body;
    assert_eq!(v["status"], "finished", "{v}");
    assert_eq!(v["result"]["reason"], "abandoned", "{v}");
    assert_eq!(v["result"]["winner"], "white", "{v}");
    assert!(!v["ratings"].is_null(), "{v}");
    let v = get(&mut ann, &format!("/api/games/{fresh}")).await.body;
    assert_eq!(v["status"], "aborted", "{v}");
    // Undone by the follower and the blocker, although the account is closed.
    for path in ["follow", "block"] {
        let r = delete(&mut ann, &format!("/api/players/{bob_name}/{path}")).await;
        assert_eq!(r.status, 204, "{path}: {}", r.text);
    }
    assert_eq!(get(&mut ann, "/api/me/blocked").await.body, json!([]));
    // A rematch offer to the closed account is refused at once, not left waiting for ever
    // (browser finding 20 of round 4).
    let r = post(&mut ann, &format!("/api/games/{played}/rematch"), json!({})).await;
    assert_error(&r, 403, "not_accepted");
    assert!(r.text.contains("closed"), "{}", r.text);
    assert!(
        get(&mut ann, &format!("/api/games/{played}")).await.body["rematch_offer"].is_null(),
        "no offer stands"
    );
    // A moderator cannot close a moderator.
    let r = post(
        &mut mod1,
        &format!("/api/mod/players/{mod2_name}/close"),
        json!({"reason": "rogue"}),
    )
    .await;
    assert_error(&r, 409, "conflict");
    // Reopened: Bob logs in again. Unmarked: the mark is gone. Both logged.
    let r = post(
        &mut mod1,
        &format!("/api/mod/players/{bob_name}/reopen"),
        json!({"reason": "appeal"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.body["closed_at"].is_null(), "{}", r.text);
    let mut bob = srv.client();
    let r = bob
        .post(
            "/api/session",
            json!({"username": bob_name, "password": "correct horse"}),
        )
        .await
        .expect("log in");
    assert!(r.status < 300, "{}", r.text);
    let r = post(
        &mut mod1,
        &format!("/api/mod/players/{bob_name}/mark"),
        json!({"mark": "cheater", "reason": "x"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = post(
        &mut mod1,
        &format!("/api/mod/players/{bob_name}/unmark"),
        json!({"reason": "wrong"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.body["mark"].is_null(), "{}", r.text);
    let log = get(&mut mod1, "/api/mod/log").await.body;
    let actions: Vec<&str> = log
        .as_array()
        .expect("log")
        .iter()
        .map(|l| l["action"].as_str().expect("action"))
        .collect();
    for a in ["reopen", "unmark"] {
        assert!(actions.contains(&a), "{a}: {log}");
    }
    srv.stop().await;
}

async fn blocks_reach_nothing(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "wann").await;
    let (mut bob, bob_name) = account(&srv, "wbob").await;
    // Ann challenges Bob; Bob's bell shows it; Bob blocks Ann: the notification goes.
    let c = post(
        &mut ann,
        "/api/challenges",
        json!({"username": bob_name, "variant": "antarctos", "time_control": corr()}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let kinds = |v: &Value| -> Vec<String> {
        v["items"]
            .as_array()
            .expect("items")
            .iter()
            .map(|n| n["kind"].as_str().expect("kind").to_string())
            .collect()
    };
    let notes = get(&mut bob, "/api/notifications").await.body;
    assert!(kinds(&notes).contains(&"challenge".to_string()), "{notes}");
    // A finished friend game first, for the rematch.
    let c2 = post(
        &mut bob,
        "/api/challenges",
        json!({"username": ann_name, "variant": "antarctos", "time_control": corr(),
               "color": "white"}),
    )
    .await;
    assert_eq!(c2.status, 201, "{}", c2.text);
    let c2 = c2.body["id"].as_str().expect("id").to_string();
    let g = post(&mut ann, &format!("/api/challenges/{c2}/accept"), json!({})).await;
    assert_eq!(g.status, 201, "{}", g.text);
    let game = g.body["id"].as_str().expect("game").to_string();
    let m = first_legal(&mut bob, &game).await;
    play(&mut bob, &game, &m).await;
    let m = first_legal(&mut ann, &game).await;
    play(&mut ann, &game, &m).await;
    let r = post(&mut bob, &format!("/api/games/{game}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = post(
        &mut bob,
        &format!("/api/players/{ann_name}/block"),
        json!({}),
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.text);
    let notes = get(&mut bob, "/api/notifications").await.body;
    assert!(!kinds(&notes).contains(&"challenge".to_string()), "{notes}");
    // Ann's rematch offer does not reach Bob; Bob's own is refused without blame.
    let r = post(&mut ann, &format!("/api/games/{game}/rematch"), json!({})).await;
    assert_error(&r, 403, "not_accepted");
    let seen = get(&mut bob, &format!("/api/games/{game}")).await.body;
    assert!(seen["rematch_offer"].is_null(), "{seen}");
    let r = post(&mut bob, &format!("/api/games/{game}/rematch"), json!({})).await;
    assert_error(&r, 409, "conflict");
    assert!(r.text.contains("you have blocked"), "{}", r.text);
    srv.stop().await;
}

/// "Takes challenges from": nobody gives the answer a block gives; following lets in only
/// the players followed.
async fn challenges_setting(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "sann").await;
    let (mut bob, bob_name) = account(&srv, "sbob").await;
    let (mut cid, cid_name) = account(&srv, "scid").await;
    let (mut dan, dan_name) = account(&srv, "sdan").await;
    assert_eq!(
        get(&mut ann, "/api/me/challenges-from").await.body,
        json!({"from": "everyone"})
    );
    let to_ann = json!({"username": ann_name, "variant": "antarctos", "time_control": corr()});
    let r = post(
        &mut ann,
        "/api/me/challenges-from",
        json!({"from": "nobody"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let refused = post(&mut bob, "/api/challenges", to_ann.clone()).await;
    assert_error(&refused, 403, "not_accepted");
    // A block gives the very same answer (Dan blocks Cid; Cid challenges Dan).
    let r = post(
        &mut dan,
        &format!("/api/players/{cid_name}/block"),
        json!({}),
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.text);
    let blocked = post(
        &mut cid,
        "/api/challenges",
        json!({"username": dan_name, "variant": "antarctos", "time_control": corr()}),
    )
    .await;
    assert_error(&blocked, 403, "not_accepted");
    assert_eq!(
        refused.body["error"]["message"]
            .as_str()
            .map(|m| m.replace(&ann_name, "X")),
        blocked.body["error"]["message"]
            .as_str()
            .map(|m| m.replace(&dan_name, "X")),
    );
    // Following: Ann follows Bob; Bob's challenge passes, Cid's does not.
    let r = post(
        &mut ann,
        "/api/me/challenges-from",
        json!({"from": "following"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    follow(&mut ann, &bob_name).await;
    let r = post(&mut bob, "/api/challenges", to_ann.clone()).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let r = post(&mut cid, "/api/challenges", to_ann).await;
    assert_error(&r, 403, "not_accepted");
    for body in [
        json!({"from": "friends"}),
        json!({"from": "nobody", "x": 1}),
        json!({}),
    ] {
        let r = post(&mut ann, "/api/me/challenges-from", body).await;
        assert_error(&r, 400, "bad_request");
    }
    let r = post(
        &mut srv.client(),
        "/api/me/challenges-from",
        json!({"from": "nobody"}),
    )
    .await;
    assert_error(&r, 401, "not_logged_in");
    srv.stop().await;
}

both_databases! {
    async fn takes_challenges_from_nobody_answers_as_a_block(url: &str) {
        challenges_setting(url).await;
    }
}

both_databases! {
    async fn report_texts_and_games_are_checked_and_the_mod_list_pages(url: &str) {
        reports_checked(url).await;
    }
}

both_databases! {
    async fn a_new_account_reports_after_a_finished_game(url: &str) {
        a_finished_game_lets_a_new_account_report(url).await;
    }
}

both_databases! {
    async fn closed_accounts_can_be_unfollowed_reopened_and_unmarked(url: &str) {
        closed_accounts(url).await;
    }
}

both_databases! {
    async fn a_block_withdraws_challenge_notes_and_rematch_offers(url: &str) {
        blocks_reach_nothing(url).await;
    }
}
