//! Follows, blocks, reports and moderators (issue 41, site::social) through the real server:
//! follow lists public and the follower's own; a block refuses challenges with 403
//! `not_accepted` (the blocker sees nothing), takes the blocked follower off the public lists
//! (not off its own view) and
//! keeps the two apart in the lobby; reports are limited per reporter; moderators' pages and
//! actions are theirs alone (403, same-origin), logged, and a mark refunds once.

use crate::common::lobby::{
    account, delete, first_legal, follow, get, make_mod, post, realtime, seek, start,
};
use crate::common::*;
use serde_json::{Value, json};
use server::client::ApiClient;

fn corr() -> Value {
    json!({"kind": "correspondence", "days": 1})
}

fn names(list: &Value) -> Vec<String> {
    list["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["username"].as_str().expect("username").to_string())
        .collect()
}

/// Moves the site's clock past the age a new account must reach to report (10 minutes).
fn age_accounts(srv: &TestServer) {
    srv.site
        .services()
        .play
        .time()
        .advance(std::time::Duration::from_secs(11 * 60));
}

async fn follow_lists(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "fan").await;
    let (mut bob, bob_name) = account(&srv, "fbob").await;
    follow(&mut ann, &bob_name).await;
    // Twice is once.
    follow(&mut ann, &bob_name).await;
    let followers = get(&mut bob, &format!("/api/players/{bob_name}/followers")).await;
    assert_eq!(names(&followers.body), [ann_name.as_str()]);
    // Public: an anonymous browser reads who follows whom.
    let mut anon = srv.client();
    let following = get(&mut anon, &format!("/api/players/{ann_name}/following")).await;
    assert_eq!(names(&following.body), [bob_name.as_str()]);
    assert_eq!(following.body["count"], 1);
    let mine = get(&mut ann, "/api/me/following").await.body;
    assert_eq!(mine[0]["username"], bob_name, "{mine}");
    assert_eq!(mine[0]["playing"], json!([]), "{mine}");
    assert_eq!(mine[0]["online"], false, "{mine}");
    // Bob in a game: online, with its id.
    let s = seek(
        &mut bob,
        json!({"variant": "antarctos", "time_control": corr(), "color": "white"}),
    )
    .await;
    let (mut cat, _) = account(&srv, "fcat").await;
    let g = post(&mut cat, &format!("/api/seeks/{s}/accept"), json!({})).await;
    assert_eq!(g.status, 201, "{}", g.text);
    let game = g.body["id"].as_str().expect("id").to_string();
    let mine = get(&mut ann, "/api/me/following").await.body;
    assert_eq!(mine[0]["playing"], json!([game]), "{mine}");
    // A correspondence game of days is no presence (hostile finding 2 of round 4); a
    // real-time game is: the player is at a board now.
    assert_eq!(mine[0]["online"], false, "{mine}");
    // Nor is a real-time friend game whose seat nobody took (hostile finding 3 of round 5).
    let open = post(
        &mut bob,
        "/api/games",
        json!({"variant": "antarctos", "opponent": "friend", "color": "white",
               "time_control": realtime(10800, 60)}),
    )
    .await;
    assert_eq!(open.status, 201, "{}", open.text);
    let mine = get(&mut ann, "/api/me/following").await.body;
    assert_eq!(mine[0]["online"], false, "{mine}");
    let s = seek(
        &mut bob,
        json!({"variant": "antarctos", "time_control": realtime(300, 3), "color": "white"}),
    )
    .await;
    let g = post(&mut cat, &format!("/api/seeks/{s}/accept"), json!({})).await;
    assert_eq!(g.status, 201, "{}", g.text);
    let live = g.body["id"].as_str().expect("id").to_string();
    let mine = get(&mut ann, "/api/me/following").await.body;
    let friend = open.body["id"].as_str().expect("id");
    assert_eq!(mine[0]["playing"], json!([live, friend, game]), "{mine}");
    assert_eq!(mine[0]["online"], true, "{mine}");
    let social = get(&mut ann, &format!("/api/players/{bob_name}/social"))
        .await
        .body;
    assert_eq!(social["followers"], 1, "{social}");
    assert_eq!(social["you_follow"], true, "{social}");
    // Refusals: anonymous 401, oneself 400, unknown 404, a bad name 400.
    let r = post(
        &mut anon,
        &format!("/api/players/{bob_name}/follow"),
        json!({}),
    )
    .await;
    assert_error(&r, 401, "not_logged_in");
    let r = post(
        &mut ann,
        &format!("/api/players/{ann_name}/follow"),
        json!({}),
    )
    .await;
    assert_error(&r, 400, "bad_request");
    let r = post(&mut ann, "/api/players/nobody_here_x/follow", json!({})).await;
    assert_error(&r, 404, "not_found");
    let r = post(&mut ann, "/api/players/%3Cscript%3E/follow", json!({})).await;
    assert_error(&r, 400, "bad_request");
    // Unfollow.
    let r = delete(&mut ann, &format!("/api/players/{bob_name}/follow")).await;
    assert_eq!(r.status, 204, "{}", r.text);
    let followers = get(&mut bob, &format!("/api/players/{bob_name}/followers")).await;
    assert!(names(&followers.body).is_empty(), "{}", followers.text);
    srv.stop().await;
}

async fn blocks(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "bann").await;
    let (mut bob, bob_name) = account(&srv, "bbob").await;
    // Ann follows Bob and challenges him; then Bob blocks Ann.
    follow(&mut ann, &bob_name).await;
    let challenge = json!({"username": bob_name, "variant": "antarctos", "time_control": corr()});
    let before = post(&mut ann, "/api/challenges", challenge.clone()).await;
    assert_eq!(before.status, 201, "{}", before.text);
    let before_id = before.body["id"].as_str().expect("id").to_string();
    let r = post(
        &mut bob,
        &format!("/api/players/{ann_name}/block"),
        json!({}),
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.text);
    let blocked = get(&mut bob, "/api/me/blocked").await.body;
    assert_eq!(blocked[0]["username"], ann_name, "{blocked}");
    // Ann's follow stays, as any follow (its end would tell her); following again is alike.
    follow(&mut ann, &bob_name).await;
    // But her name leaves Bob's public followers (no message on his profile, hostile 13),
    // for him and for anybody else; she alone still finds herself there.
    let followers = get(&mut bob, &format!("/api/players/{bob_name}/followers")).await;
    assert_eq!(
        names(&followers.body),
        Vec::<String>::new(),
        "{}",
        followers.text
    );
    assert_eq!(followers.body["count"], 0, "{}", followers.text);
    let mut anon = srv.client();
    let followers = get(&mut anon, &format!("/api/players/{bob_name}/followers")).await;
    assert_eq!(
        names(&followers.body),
        Vec::<String>::new(),
        "{}",
        followers.text
    );
    let followers = get(&mut ann, &format!("/api/players/{bob_name}/followers")).await;
    assert_eq!(
        names(&followers.body),
        vec![ann_name.clone()],
        "{}",
        followers.text
    );
    let social = get(&mut bob, &format!("/api/players/{bob_name}/social"))
        .await
        .body;
    assert_eq!(social["followers"], 0, "{social}");
    let social = get(&mut ann, &format!("/api/players/{bob_name}/social"))
        .await
        .body;
    assert_eq!(social["you_follow"], true, "{social}");
    assert_eq!(social["followers"], 1, "{social}");
    // Ann's earlier challenge stays in her own list, waiting; Bob never sees it.
    let mine = get(&mut ann, "/api/challenges").await.body;
    assert_eq!(mine["outgoing"][0]["id"], before_id.as_str(), "{mine}");
    // Ann's challenges: 403 not_accepted, and Bob's list stays empty (the earlier one too).
    for _ in 0..3 {
        let r = post(&mut ann, "/api/challenges", challenge.clone()).await;
        assert_error(&r, 403, "not_accepted");
    }
    let lists = get(&mut bob, "/api/challenges").await.body;
    assert_eq!(lists["incoming"], json!([]), "{lists}");
    let r = post(
        &mut bob,
        &format!("/api/challenges/{before_id}/accept"),
        json!({}),
    )
    .await;
    assert_error(&r, 404, "not_found");
    // Ann is not told: her profile of Bob says nothing of it.
    let social = get(&mut ann, &format!("/api/players/{bob_name}/social"))
        .await
        .body;
    assert_eq!(social["you_block"], false, "{social}");
    // Bob's own challenge to Ann is refused with words that blame nobody but the block.
    let back = json!({"username": ann_name, "variant": "antarctos", "time_control": corr()});
    let r = post(&mut bob, "/api/challenges", back).await;
    assert_error(&r, 409, "conflict");
    assert!(r.text.contains("you have blocked"), "{}", r.text);
    // Unblocked: challenges reach Bob again.
    let r = delete(&mut bob, &format!("/api/players/{ann_name}/block")).await;
    assert_eq!(r.status, 204, "{}", r.text);
    let r = post(&mut ann, "/api/challenges", challenge).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let followers = get(&mut anon, &format!("/api/players/{bob_name}/followers")).await;
    assert_eq!(
        names(&followers.body),
        vec![ann_name.clone()],
        "{}",
        followers.text
    );
    // A closed account leaves every public list and count (its name is no message either).
    let (mut cat, cat_name) = account(&srv, "bcat").await;
    follow(&mut cat, &bob_name).await;
    follow(&mut bob, &cat_name).await;
    let (mut modr, mod_name) = account(&srv, "bkeeper").await;
    make_mod(&srv, &mod_name).await;
    let r = post(
        &mut modr,
        &format!("/api/mod/players/{cat_name}/close"),
        json!({"reason": "offensive name"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let followers = get(&mut anon, &format!("/api/players/{bob_name}/followers")).await;
    assert_eq!(
        names(&followers.body),
        vec![ann_name.clone()],
        "{}",
        followers.text
    );
    let following = get(&mut anon, &format!("/api/players/{bob_name}/following")).await;
    assert_eq!(
        names(&following.body),
        Vec::<String>::new(),
        "{}",
        following.text
    );
    let social = get(&mut anon, &format!("/api/players/{bob_name}/social"))
        .await
        .body;
    assert_eq!(
        (social["followers"].clone(), social["following"].clone()),
        (json!(1), json!(0)),
        "{social}"
    );
    srv.stop().await;
}

async fn lobby_blocks(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "lann").await;
    let (mut bob, _) = account(&srv, "lbob").await;
    let (mut cat, _) = account(&srv, "lcat").await;
    let r = post(
        &mut bob,
        &format!("/api/players/{ann_name}/block"),
        json!({}),
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.text);
    let terms = json!({"variant": "iceage", "time_control": corr(), "rated": false});
    // Bob waits by quick pairing; Ann's quick pairing makes her own seek, no game.
    let q = post(&mut bob, "/api/seeks/quick", terms.clone()).await;
    assert!(q.status == 200 || q.status == 201, "{}", q.text);
    let bob_seek = q.body["seek"]["id"].as_str().expect("seek").to_string();
    let q = post(&mut ann, "/api/seeks/quick", terms.clone()).await;
    assert!(q.status == 200 || q.status == 201, "{}", q.text);
    assert!(q.body["game"].is_null(), "{}", q.text);
    assert!(q.body["seek"]["id"].is_string(), "{}", q.text);
    // Neither sees the other's seek, and accepting it by id is refused.
    let seen = get(&mut ann, "/api/seeks").await.body;
    assert!(
        !seen
            .as_array()
            .expect("list")
            .iter()
            .any(|s| s["id"] == bob_seek),
        "{seen}"
    );
    let r = post(
        &mut ann,
        &format!("/api/seeks/{bob_seek}/accept"),
        json!({}),
    )
    .await;
    assert_error(&r, 404, "not_found");
    // A third player is paired with the older seek, Bob's.
    let q = post(&mut cat, "/api/seeks/quick", terms).await;
    assert!(q.status == 200 || q.status == 201, "{}", q.text);
    assert!(q.body["game"]["id"].is_string(), "{}", q.text);
    let lists = get(&mut bob, "/api/seeks").await.body;
    assert!(
        !lists
            .as_array()
            .expect("list")
            .iter()
            .any(|s| s["id"] == bob_seek),
        "Bob's seek was taken: {lists}"
    );
    srv.stop().await;
}

async fn reports(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "rann").await;
    let mut targets = Vec::new();
    for i in 0..3 {
        targets.push(account(&srv, &format!("rt{i}x")).await.1);
    }
    age_accounts(&srv);
    let report =
        |user: &str, reason: &str| json!({"username": user, "reason": reason, "text": "x"});
    let r = post(&mut ann, "/api/reports", report(&targets[0], "cheating")).await;
    assert_eq!(r.status, 201, "{}", r.text);
    // The same target and reason again: refused while open.
    let r = post(&mut ann, "/api/reports", report(&targets[0], "cheating")).await;
    assert_error(&r, 429, "too_many_reports");
    // Edge checks, each naming its field.
    let r = post(&mut ann, "/api/reports", report(&targets[0], "rude")).await;
    assert_error(&r, 400, "bad_request");
    assert!(r.text.contains("reason"), "{}", r.text);
    let r = post(
        &mut ann,
        "/api/reports",
        json!({"username": targets[0], "reason": "other", "extra": 1}),
    )
    .await;
    assert_error(&r, 400, "bad_request");
    let long = "é".repeat(2001);
    let r = post(
        &mut ann,
        "/api/reports",
        json!({"username": targets[0], "reason": "other", "text": long}),
    )
    .await;
    assert_error(&r, 413, "too_large");
    let r = post(
        &mut ann,
        "/api/reports",
        json!({"username": targets[0], "reason": "other", "game": "../x"}),
    )
    .await;
    assert_error(&r, 400, "bad_request");
    let r = post(&mut ann, "/api/reports", report(&ann_name, "other")).await;
    assert_error(&r, 400, "bad_request");
    let mut anon = srv.client();
    let r = post(&mut anon, "/api/reports", report(&targets[0], "other")).await;
    assert_error(&r, 401, "not_logged_in");
    // Ten open reports at most.
    let reasons = ["cheating", "abuse", "boosting", "sandbagging", "other"];
    let mut made = 1;
    'fill: for t in &targets[..2] {
        for reason in reasons {
            if made == 10 {
                break 'fill;
            }
            if t == &targets[0] && reason == "cheating" {
                continue;
            }
            let r = post(&mut ann, "/api/reports", report(t, reason)).await;
            assert_eq!(r.status, 201, "{}", r.text);
            made += 1;
        }
    }
    let r = post(&mut ann, "/api/reports", report(&targets[2], "abuse")).await;
    assert_error(&r, 429, "too_many_reports");
    srv.stop().await;
}

async fn moderation(url: &str) {
    let srv = start(url).await;
    let (mut ann, _) = account(&srv, "mann").await;
    let (mut bob, bob_name) = account(&srv, "mbob").await;
    let (mut modr, mod_name) = account(&srv, "mmod").await;
    age_accounts(&srv);
    let r = post(
        &mut ann,
        "/api/reports",
        json!({"username": bob_name, "reason": "abuse", "text": "<img src=x onerror=alert(1)>"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let report_id = r.body["id"].as_str().expect("id").to_string();
    // Not a moderator yet: 403 everywhere, and anonymous 401.
    for path in ["/api/mod/reports", "/api/mod/log"] {
        let a = modr.get(path).await.expect("get");
        assert_error(&a, 403, "not_moderator");
        let a = srv.client().get(path).await.expect("get");
        assert_error(&a, 401, "not_logged_in");
    }
    let r = post(
        &mut modr,
        &format!("/api/mod/players/{bob_name}/mute"),
        json!({"minutes": 10, "reason": "x"}),
    )
    .await;
    assert_error(&r, 403, "not_moderator");
    let r = post(
        &mut modr,
        &format!("/api/mod/reports/{report_id}/close"),
        json!({}),
    )
    .await;
    assert_error(&r, 403, "not_moderator");
    make_mod(&srv, &mod_name).await;
    assert_eq!(
        get(&mut modr, "/api/me/moderation").await.body["moderator"],
        true
    );
    let open = get(&mut modr, "/api/mod/reports").await.body;
    assert_eq!(open[0]["id"], report_id, "{open}");
    assert_eq!(open[0]["username"], bob_name, "{open}");
    // What is in force on the reported account (browser finding 14): nothing yet.
    assert_eq!(
        open[0]["standing"],
        json!({"muted_until": null, "mark": null, "closed_at": null, "open_reports": 1}),
        "{open}"
    );
    // Typed bodies: fields of another action, a missing reason, a bad mark, an unknown action.
    let act = |a: &str| format!("/api/mod/players/{bob_name}/{a}");
    let r = post(
        &mut modr,
        &act("mute"),
        json!({"minutes": 10, "mark": "booster", "reason": "x"}),
    )
    .await;
    assert_error(&r, 400, "bad_request");
    let r = post(
        &mut modr,
        &act("mute"),
        json!({"minutes": 0, "reason": "x"}),
    )
    .await;
    assert_error(&r, 400, "bad_request");
    let r = post(
        &mut modr,
        &act("mute"),
        json!({"minutes": 10, "reason": " "}),
    )
    .await;
    assert_error(&r, 400, "bad_request");
    let r = post(
        &mut modr,
        &act("mark"),
        json!({"mark": "saint", "reason": "x"}),
    )
    .await;
    assert_error(&r, 400, "bad_request");
    let r = post(&mut modr, &act("ban"), json!({"reason": "x"})).await;
    assert_error(&r, 404, "not_found");
    // Same-origin: another site's page with the moderator's cookie is refused.
    let host = srv.addr.to_string();
    let cookie = format!("icebound_session={}", modr.session().expect("session"));
    let body = json!({"minutes": 10, "reason": "csrf"})
        .to_string()
        .into_bytes();
    let forged = srv
        .client()
        .send_with_headers(
            "POST",
            &act("mute"),
            &[
                ("host", &host),
                ("origin", "https://evil.example"),
                ("cookie", &cookie),
                ("content-type", "application/json"),
            ],
            Some(body),
        )
        .await
        .expect("send");
    assert_error(&forged, 403, "cross_origin");
    // Mute: Bob is muted; the log says who did it and why.
    let r = post(
        &mut modr,
        &act("mute"),
        json!({"minutes": 10, "reason": "insults"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let me = get(&mut bob, "/api/me/moderation").await.body;
    assert_eq!(me["is_muted"], true, "{me}");
    let open = get(&mut modr, "/api/mod/reports").await.body;
    let until = open[0]["standing"]["muted_until"]
        .as_i64()
        .expect("muted until");
    assert!(
        until > site_store::now_ms() + 9 * 60_000,
        "the report shows the 10-minute mute in force: {open}"
    );
    let r = post(&mut modr, &act("unmute"), json!({"reason": "served"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let open = get(&mut modr, "/api/mod/reports").await.body;
    assert_eq!(open[0]["standing"]["muted_until"], Value::Null, "{open}");
    assert_eq!(
        get(&mut bob, "/api/me/moderation").await.body["is_muted"],
        false
    );
    let r = post(
        &mut modr,
        &format!("/api/mod/reports/{report_id}/close"),
        json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["status"], "closed");
    let r = post(
        &mut modr,
        &format!("/api/mod/reports/{report_id}/close"),
        json!({}),
    )
    .await;
    assert_error(&r, 404, "not_found");
    assert_eq!(get(&mut modr, "/api/mod/reports").await.body, json!([]));
    let closed = get(&mut modr, "/api/mod/reports?status=closed").await.body;
    assert_eq!(closed[0]["closed_by"], mod_name, "{closed}");
    // Close: Bob's session ends and he cannot log in again; his profile stays.
    let r = post(&mut modr, &act("close"), json!({"reason": "abuse"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.body["closed_at"].is_i64(), "{}", r.text);
    let me = get(&mut bob, "/api/me").await.body;
    assert!(me["username"].is_null(), "{me}");
    let social = get(&mut ann, &format!("/api/players/{bob_name}/social"))
        .await
        .body;
    assert_eq!(social["closed"], true, "{social}");
    let mut again = srv.client();
    let r = post(
        &mut again,
        "/api/session",
        json!({"username": bob_name, "password": "correct horse"}),
    )
    .await;
    assert_error(&r, 403, "account_closed");
    let r = post(
        &mut ann,
        "/api/challenges",
        json!({"username": bob_name, "variant": "antarctos", "time_control": corr()}),
    )
    .await;
    assert_error(&r, 404, "not_found");
    let log = get(&mut modr, "/api/mod/log").await.body;
    let actions: Vec<&str> = log
        .as_array()
        .expect("log")
        .iter()
        .map(|l| l["action"].as_str().expect("action"))
        .collect();
    for a in ["grant_mod", "mute", "unmute", "close_report", "close"] {
        assert!(actions.contains(&a), "{a} missing: {log}");
    }
    assert!(
        log.as_array()
            .expect("log")
            .iter()
            .any(|l| l["action"] == "mute"
                && l["moderator"] == mod_name
                && l["details"].as_str().is_some_and(|d| d.contains("insults"))),
        "{log}"
    );
    // A moderator's rights are not a player's: Ann still gets 403.
    let a = ann.get("/api/mod/log").await.expect("get");
    assert_error(&a, 403, "not_moderator");
    srv.stop().await;
}

/// Ann loses two rated games to Bob; Bob is marked a cheater: Ann gets her points back once.
async fn refund(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "zann").await;
    let (mut bob, bob_name) = account(&srv, "zbob").await;
    let (mut modr, mod_name) = account(&srv, "zmod").await;
    make_mod(&srv, &mod_name).await;
    let rating = |v: &Value| {
        v["ratings"]["antarctos"]["correspondence"]["rating"]
            .as_f64()
            .expect("rating")
    };
    let mut lost = 0;
    for _ in 0..2 {
        let id = seek(&mut ann, json!({"variant": "antarctos", "time_control": corr(), "rated": true, "color": "white"})).await;
        let g = post(&mut bob, &format!("/api/seeks/{id}/accept"), json!({})).await;
        assert_eq!(g.status, 201, "{}", g.text);
        let game = g.body["id"].as_str().expect("id").to_string();
        let m = first_legal(&mut ann, &game).await;
        play(&mut ann, &game, &m).await;
        let m = first_legal(&mut bob, &game).await;
        play(&mut bob, &game, &m).await;
        let over = post(&mut ann, &format!("/api/games/{game}/resign"), json!({})).await;
        assert_eq!(over.status, 200, "{}", over.text);
        let white = &over.body["ratings"]["white"];
        assert_eq!(white["username"], ann_name, "{}", over.text);
        lost += -white["diff"].as_i64().expect("diff");
    }
    assert!(lost > 0);
    let before = rating(
        &get(&mut ann, &format!("/api/players/{ann_name}"))
            .await
            .body,
    );
    let path = format!("/api/mod/players/{bob_name}/mark");
    let r = post(
        &mut modr,
        &path,
        json!({"mark": "cheater", "reason": "engine"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let refunds = r.body["refunds"].as_array().expect("refunds").clone();
    assert_eq!(refunds.len(), 2, "{}", r.text);
    let total: i64 = refunds
        .iter()
        .map(|x| x["points"].as_i64().expect("points"))
        .sum();
    assert_eq!(total, lost, "{}", r.text);
    let after = rating(
        &get(&mut ann, &format!("/api/players/{ann_name}"))
            .await
            .body,
    );
    assert!(
        (after - before - lost as f64).abs() < 1.0,
        "{before} -> {after}, lost {lost}"
    );
    // Marked twice: no second refund.
    let r = post(
        &mut modr,
        &path,
        json!({"mark": "booster", "reason": "again"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["refunds"], json!([]), "{}", r.text);
    let twice = rating(
        &get(&mut ann, &format!("/api/players/{ann_name}"))
            .await
            .body,
    );
    assert!((twice - after).abs() < 1e-9, "{after} -> {twice}");
    // The mark is on the profile's social view.
    let social = get(&mut ann, &format!("/api/players/{bob_name}/social"))
        .await
        .body;
    assert_eq!(social["mark"], "booster", "{social}");
    let log = get(&mut modr, "/api/mod/log").await.body;
    assert!(
        log.as_array()
            .expect("log")
            .iter()
            .any(|l| l["action"] == "mark"
                && l["details"]
                    .as_str()
                    .is_some_and(|d| d.contains("refunded"))),
        "{log}"
    );
    let _: &ApiClient = &bob;
    srv.stop().await;
}

/// Whether `name` is online in `c`'s following list, asked until it is `want` (at most 5 s).
async fn online_becomes(c: &mut ApiClient, name: &str, want: bool) -> Value {
    let mut list = Value::Null;
    for _ in 0..50 {
        list = get(c, "/api/me/following").await.body;
        let entry = list
            .as_array()
            .and_then(|l| l.iter().find(|e| e["username"] == name));
        if entry.is_some_and(|e| e["online"] == want) {
            return list;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{name} never became online = {want}: {list}");
}

/// `c` logs in as `name` and opens a page: its notification stream, past its first event.
async fn logged_in_page(c: &mut ApiClient, name: &str) -> server::client::EventStream {
    let r = post(
        c,
        "/api/session",
        json!({"username": name, "password": "correct horse"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let (status, mut page) = c.events("/api/notifications/stream").await.expect("stream");
    assert_eq!(status, 200);
    assert_eq!(page.next_event().await.expect("first").0, "notify");
    page
}

/// Browser finding 2: "online" is any page of the site open (its notification stream), in
/// any process, not only the lobby page here; the last page's close ends it at once.
async fn online_means_any_page_in_any_process(url: &str) {
    let srv = start(url).await;
    let other = start(url).await;
    let (mut ann, _) = account(&srv, "oann").await;
    let bob_name = crate::common::lobby::name("obob");
    let _bob = register(&srv, &bob_name).await;
    follow(&mut ann, &bob_name).await;
    online_becomes(&mut ann, &bob_name, false).await;
    // Bob reads the rules on the other process: his page holds a notification stream there.
    let mut bob_there = other.client();
    let page = logged_in_page(&mut bob_there, &bob_name).await;
    online_becomes(&mut ann, &bob_name, true).await;
    // A second tab, then both closed: online until the last one goes, then offline at once.
    let (_, mut tab) = bob_there
        .events("/api/notifications/stream")
        .await
        .expect("stream");
    assert_eq!(tab.next_event().await.expect("first").0, "notify");
    drop(page);
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    online_becomes(&mut ann, &bob_name, true).await;
    drop(tab);
    online_becomes(&mut ann, &bob_name, false).await;
    // Logged out, the same browser (its player cookie kept) opens a page: an anonymous
    // stream, which makes no account online.
    let r = delete(&mut bob_there, "/api/session").await;
    assert_eq!(r.status, 200, "{}", r.text);
    let (_, mut anon_page) = bob_there
        .events("/api/notifications/stream")
        .await
        .expect("stream");
    assert_eq!(anon_page.next_event().await.expect("first").0, "notify");
    for _ in 0..5 {
        let list = get(&mut ann, "/api/me/following").await.body;
        assert_eq!(list[0]["online"], false, "{list}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    // A graceful stop of the process (a deploy) ends the presence of the pages it served at
    // once, not 40 s later (hostile finding 9 of round 4).
    let again = logged_in_page(&mut bob_there, &bob_name).await;
    online_becomes(&mut ann, &bob_name, true).await;
    other.stop().await;
    online_becomes(&mut ann, &bob_name, false).await;
    drop((again, anon_page));
    srv.stop().await;
}

both_databases! {
    async fn online_is_any_page_open_in_any_process(url: &str) {
        online_means_any_page_in_any_process(url).await;
    }
}

both_databases! {
    async fn follows_are_public_and_the_followers_list_shows_games(url: &str) {
        follow_lists(url).await;
    }
}

both_databases! {
    async fn a_block_refuses_challenges_and_takes_the_follower_off_the_public_list(url: &str) {
        blocks(url).await;
    }
}

both_databases! {
    async fn blocked_players_are_never_paired_in_the_lobby(url: &str) {
        lobby_blocks(url).await;
    }
}

both_databases! {
    async fn reports_are_limited_per_reporter(url: &str) {
        reports(url).await;
    }
}

both_databases! {
    async fn moderators_alone_act_and_every_action_is_logged(url: &str) {
        moderation(url).await;
    }
}

both_databases! {
    async fn a_mark_refunds_the_opponents_once(url: &str) {
        refund(url).await;
    }
}
