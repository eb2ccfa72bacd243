//! Marks that last (issue 41, the hostile round's findings 2 and 3): a marked account's later
//! rated games change no ratings (`"unrated": "marked"`), and a booster mark refunds nobody: not
//! the accomplice who resigned at once, lost on the board, or resigned after a longer game.

use crate::common::lobby::{account, first_legal, get, make_mod, post, seek, start};
use crate::common::*;
use serde_json::{Value, json};
use server::client::ApiClient;

/// A rated correspondence game, `white` seeks and `black` accepts, two moves, `loser`
/// resigns; the loser's answer.
async fn quick_game(white: &mut ApiClient, black: &mut ApiClient, white_loses: bool) -> Value {
    let id = seek(
        white,
        json!({"variant": "antarctos", "time_control": {"kind": "correspondence", "days": 1},
               "rated": true, "color": "white"}),
    )
    .await;
    let g = post(black, &format!("/api/seeks/{id}/accept"), json!({})).await;
    assert_eq!(g.status, 201, "{}", g.text);
    let game = g.body["id"].as_str().expect("id").to_string();
    let m = first_legal(white, &game).await;
    play(white, &game, &m).await;
    let m = first_legal(black, &game).await;
    play(black, &game, &m).await;
    let loser = if white_loses { white } else { black };
    let over = post(loser, &format!("/api/games/{game}/resign"), json!({})).await;
    assert_eq!(over.status, 200, "{}", over.text);
    over.body
}

fn rating(p: &Value) -> f64 {
    p["ratings"]["antarctos"]["correspondence"]["rating"]
        .as_f64()
        .expect("rating")
}

/// `modr` marks `boosted` a booster: no refund, and `helper` (who lost to it below 1500)
/// keeps its `what`.
async fn mark_refunds_nothing(
    modr: &mut ApiClient,
    boosted: &str,
    helper: &mut ApiClient,
    helper_name: &str,
    what: &str,
) {
    let before = rating(
        &get(helper, &format!("/api/players/{helper_name}"))
            .await
            .body,
    );
    assert!(before < 1500.0, "{before}");
    let r = post(
        modr,
        &format!("/api/mod/players/{boosted}/mark"),
        json!({"mark": "booster", "reason": "farm"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["refunds"], json!([]), "{}", r.text);
    let after = rating(
        &get(helper, &format!("/api/players/{helper_name}"))
            .await
            .body,
    );
    assert_eq!(before, after, "the accomplice keeps its {what}");
}

async fn cheater_mark_lasts(url: &str) {
    let srv = start(url).await;
    let (mut cheat, cheat_name) = account(&srv, "chx").await;
    let (mut vic, vic_name) = account(&srv, "vix").await;
    let (mut modr, mod_name) = account(&srv, "mdx").await;
    make_mod(&srv, &mod_name).await;
    let over = quick_game(&mut vic, &mut cheat, true).await;
    assert!(!over["ratings"].is_null(), "{over}");
    let r = post(
        &mut modr,
        &format!("/api/mod/players/{cheat_name}/mark"),
        json!({"mark": "cheater", "reason": "engine"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.body["refunds"].as_array().map(Vec::len),
        Some(1),
        "{}",
        r.text
    );
    let before = (
        get(&mut vic, &format!("/api/players/{cheat_name}"))
            .await
            .body,
        get(&mut vic, &format!("/api/players/{vic_name}"))
            .await
            .body,
    );
    // The next rated game against the marked account changes no rating.
    let over = quick_game(&mut vic, &mut cheat, true).await;
    assert!(over["ratings"].is_null(), "{over}");
    assert_eq!(over["unrated"], "marked", "{over}");
    let after = (
        get(&mut vic, &format!("/api/players/{cheat_name}"))
            .await
            .body,
        get(&mut vic, &format!("/api/players/{vic_name}"))
            .await
            .body,
    );
    assert_eq!(rating(&before.0), rating(&after.0));
    assert_eq!(rating(&before.1), rating(&after.1));
    srv.stop().await;
}

async fn booster_accomplice(url: &str) {
    let srv = start(url).await;
    let (mut boosted, boosted_name) = account(&srv, "bst").await;
    let (mut helper, helper_name) = account(&srv, "hlp").await;
    let (mut modr, mod_name) = account(&srv, "mdb").await;
    make_mod(&srv, &mod_name).await;
    // The helper resigns at once, three times: its points go to the boosted account.
    for _ in 0..3 {
        let over = quick_game(&mut helper, &mut boosted, true).await;
        assert!(!over["ratings"].is_null(), "{over}");
    }
    mark_refunds_nothing(
        &mut modr,
        &boosted_name,
        &mut helper,
        &helper_name,
        "losses",
    )
    .await;
    srv.stop().await;
}

both_databases! {
    async fn a_cheater_mark_stops_its_games_counting(url: &str) {
        cheater_mark_lasts(url).await;
    }
}

/// The accomplice loses on the board in 11 plies instead of resigning (the hostile round's
/// finding 15): no refund either.
async fn booster_board_accomplice(url: &str) {
    let srv = start(url).await;
    let (mut boosted, boosted_name) = account(&srv, "bsb").await;
    let (mut helper, helper_name) = account(&srv, "hlb").await;
    let (mut modr, mod_name) = account(&srv, "mdc").await;
    make_mod(&srv, &mod_name).await;
    for _ in 0..3 {
        let id = seek(
            &mut boosted,
            json!({"variant": "antarctos", "time_control": {"kind": "correspondence", "days": 1},
                   "rated": true, "color": "white"}),
        )
        .await;
        let g = post(&mut helper, &format!("/api/seeks/{id}/accept"), json!({})).await;
        assert_eq!(g.status, 201, "{}", g.text);
        let game = g.body["id"].as_str().expect("id").to_string();
        let v = crate::sandbag::hand_over_a_breakthrough(&mut boosted, &mut helper, &game).await;
        assert_eq!(v["status"], "finished", "{v}");
    }
    mark_refunds_nothing(
        &mut modr,
        &boosted_name,
        &mut helper,
        &helper_name,
        "board losses",
    )
    .await;
    srv.stop().await;
}

both_databases! {
    async fn a_booster_mark_refunds_no_accomplice_who_lost_on_the_board(url: &str) {
        booster_board_accomplice(url).await;
    }
}

both_databases! {
    async fn a_booster_mark_refunds_no_accomplice(url: &str) {
        booster_accomplice(url).await;
    }
}

/// The accomplice plays 24 plies before resigning (the third hostile round's finding 10: a
/// refund still followed a loss of 20 plies or more): no refund.
async fn booster_long_accomplice(url: &str) {
    let srv = start(url).await;
    let (mut boosted, boosted_name) = account(&srv, "bsl").await;
    let (mut helper, helper_name) = account(&srv, "hll").await;
    let (mut modr, mod_name) = account(&srv, "mdl").await;
    make_mod(&srv, &mod_name).await;
    let mut long = 0;
    for _ in 0..3 {
        let id = seek(
            &mut boosted,
            json!({"variant": "iceage", "time_control": {"kind": "correspondence", "days": 1},
                   "rated": true, "color": "white"}),
        )
        .await;
        let g = post(&mut helper, &format!("/api/seeks/{id}/accept"), json!({})).await;
        assert_eq!(g.status, 201, "{}", g.text);
        let game = g.body["id"].as_str().expect("id").to_string();
        let mut plies = 0;
        for ply in 0..24 {
            let mover = if ply % 2 == 0 {
                &mut boosted
            } else {
                &mut helper
            };
            let view = get(mover, &format!("/api/games/{game}")).await.body;
            if view["status"] != "ongoing" {
                break;
            }
            let m = first_legal(mover, &game).await;
            play(mover, &game, &m).await;
            plies += 1;
        }
        let view = get(&mut helper, &format!("/api/games/{game}")).await.body;
        if view["status"] == "ongoing" {
            let over = post(&mut helper, &format!("/api/games/{game}/resign"), json!({})).await;
            assert_eq!(over.status, 200, "{}", over.text);
            assert!(!over.body["ratings"].is_null(), "{}", over.text);
            long += usize::from(plies >= 20);
        }
    }
    assert!(long >= 1, "no game reached 20 plies");
    let before = get(&mut helper, &format!("/api/players/{helper_name}"))
        .await
        .body;
    let before = before["ratings"]["iceage"]["correspondence"]["rating"]
        .as_f64()
        .expect("rating");
    assert!(before < 1500.0, "{before}");
    let r = post(
        &mut modr,
        &format!("/api/mod/players/{boosted_name}/mark"),
        json!({"mark": "booster", "reason": "farm"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["refunds"], json!([]), "{}", r.text);
    let after = get(&mut helper, &format!("/api/players/{helper_name}"))
        .await
        .body;
    assert_eq!(
        after["ratings"]["iceage"]["correspondence"]["rating"].as_f64(),
        Some(before),
        "{after}"
    );
    srv.stop().await;
}

both_databases! {
    async fn a_booster_mark_refunds_no_accomplice_after_a_long_game(url: &str) {
        booster_long_accomplice(url).await;
    }
}
