//! QA of the site as a newcomer and an attacker would use it: each test is a bug found by
//! playing the API of `docs/api.md` against a real server, kept so that it stays fixed.

use crate::common::*;
use serde_json::json;

/// A retry resent in another accepted form of the same move (A17: the final-square short form
/// `a7xc1` of `a7xc5xe3xc1`) is the same move: the answer is the game, not a `conflict`.
#[tokio::test]
async fn a17_retry_of_a_short_form_move_is_answered_not_refused() {
    let srv = TestServer::start(&sqlite_url("qa-retry")).await;
    let mut c = srv.client();
    let g = create(
        &mut c,
        json!({"variant": "antarctos", "opponent": "local", "fen": "B:Wa5,d2,d4:Ba7,c7"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/moves");
    for (mv, ply) in [("c7-b6", 0), ("a5xc7", 1), ("a7xc1", 2)] {
        let a = c
            .post(&path, json!({"move": mv, "ply": ply}))
            .await
            .expect("move");
        assert_eq!(a.status, 200, "{mv}: {}", a.text);
    }
    let retry = c
        .post(&path, json!({"move": "a7xc1", "ply": 2}))
        .await
        .expect("retry");
    assert_eq!(retry.status, 200, "retry: {}", retry.text);
    assert_eq!(retry.body["ply"], 3);
    assert_eq!(retry.body["moves"][2]["text"], "a7xc5xe3xc1");
    // Another move sent for the old ply is still a conflict.
    let other = c
        .post(&path, json!({"move": "a7-b6", "ply": 2}))
        .await
        .expect("other");
    assert_error(&other, 409, "conflict");
    srv.stop().await;
}

/// Ice Age Chess: a retry in UCI of a move sent in SAN (C13: both accepted) is the same move.
#[tokio::test]
async fn c13_retry_in_uci_of_a_san_move_is_answered() {
    let srv = TestServer::start(&sqlite_url("qa-retry-uci")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "iceage", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/moves");
    let a = c
        .post(&path, json!({"move": "Nxa3", "ply": 0}))
        .await
        .expect("move");
    assert_eq!(a.status, 200, "{}", a.text);
    let retry = c
        .post(&path, json!({"move": "b1a3", "ply": 0}))
        .await
        .expect("retry");
    assert_eq!(retry.status, 200, "retry: {}", retry.text);
    assert_eq!(retry.body["ply"], 1);
    srv.stop().await;
}

/// An unknown game id of any length gets a short `not_found` message, not the whole id back.
#[tokio::test]
async fn unknown_long_game_id_is_quoted_short() {
    let srv = TestServer::start(&sqlite_url("qa-longid")).await;
    let mut c = srv.client();
    let long = "a".repeat(5000);
    for path in [
        format!("/api/games/{long}"),
        format!("/api/games/{long}/record"),
    ] {
        let a = c.get(&path).await.expect("get");
        assert_error(&a, 404, "not_found");
        let message = a.body["error"]["message"].as_str().unwrap_or_default();
        assert!(message.len() < 200, "message of {} bytes", message.len());
    }
    let a = c
        .post(&format!("/api/join/{long}"), json!({}))
        .await
        .expect("join");
    assert_error(&a, 404, "not_found");
    srv.stop().await;
}

/// A 10 KiB variant, colour, opponent or draw action (inside the 16 KiB body limit) is named in
/// the error by a short excerpt, not echoed whole.
#[tokio::test]
async fn long_unknown_words_are_quoted_short() {
    let srv = TestServer::start(&sqlite_url("qa-longword")).await;
    let mut c = srv.client();
    let long = "z".repeat(10_000);
    let bodies = [
        json!({"variant": long, "opponent": "local"}),
        json!({"variant": "antarctos", "opponent": long}),
        json!({"variant": "antarctos", "opponent": "friend", "color": long}),
    ];
    for body in bodies {
        let a = c.post("/api/games", body).await.expect("create");
        assert_error(&a, 400, "bad_request");
        assert!(a.text.len() < 300, "error of {} bytes", a.text.len());
    }
    let g = create(&mut c, json!({"variant": "iceage", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id");
    let a = c
        .post(&format!("/api/games/{id}/draw"), json!({"action": long}))
        .await
        .expect("draw");
    assert_error(&a, 400, "bad_request");
    assert!(a.text.len() < 300, "error of {} bytes", a.text.len());
    srv.stop().await;
}

/// A `ply` of `i64::MAX` sent after a move (the retry check computes the ply after it), or a
/// negative one, is a malformed request (`bad_request`, naming the ply), not an overflow panic
/// that drops the connection.
#[tokio::test]
async fn extreme_ply_is_a_bad_request_not_a_panic() {
    let srv = TestServer::start(&sqlite_url("qa-ply")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    play(&mut c, &id, "c3-d4").await;
    let path = format!("/api/games/{id}/moves");
    for ply in [i64::MAX, i64::MIN, -1] {
        let a = c
            .post(&path, json!({"move": "b6-a5", "ply": ply}))
            .await
            .expect("answer, not a dropped connection");
        assert_error(&a, 400, "bad_request");
        assert!(a.text.contains("ply"), "{}", a.text);
    }
    let a = c.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(a.body["ply"], 1);
    srv.stop().await;
}

/// A move retried over the WebSocket (same `ply`, the move already stored) changes nothing and
/// is not an error; its answer is the state that carries the move, already sent on this socket,
/// and it is not sent twice (issue 9: each ply once per client).
#[tokio::test]
async fn ws_retry_of_a_stored_move_is_answered_once() {
    let srv = TestServer::start(&sqlite_url("qa-ws-retry")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut ws = c.ws(&id).await.expect("ws");
    wait_state(&mut ws, |g| g["ply"] == 0).await;
    let mv = json!({"type": "move", "move": "c3-d4", "ply": 0});
    server::client::send_json(&mut ws, &mv).await.expect("send");
    wait_state(&mut ws, |g| g["ply"] == 1).await;
    server::client::send_json(&mut ws, &mv)
        .await
        .expect("resend");
    server::client::send_json(&mut ws, &json!({"type": "ping"}))
        .await
        .expect("ping");
    // Neither an error nor a second state of ply 1 comes before the pong.
    let next = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        server::client::next_json(&mut ws),
    )
    .await
    .expect("an answer")
    .expect("open");
    assert_eq!(next["type"], "pong", "{next}");
    let v = c.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(v.body["ply"], 1, "the retry was not played again");
    // A stale move that is not the stored one is still an error.
    let stale = json!({"type": "move", "move": "a3-b4", "ply": 0});
    server::client::send_json(&mut ws, &stale)
        .await
        .expect("send stale");
    assert_eq!(wait_error(&mut ws).await["code"], "conflict");
    srv.stop().await;
}

/// `a` is the refusal of a join with `code`, naming game `game`, its message holding `words`.
fn assert_join_refused(a: &server::client::Answer, code: &str, game: &str, words: &str) {
    assert_error(a, 409, code);
    assert_eq!(a.body["error"]["game"], game, "{}", a.text);
    let message = a.body["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(words), "{}", a.text);
}

/// `path` posted with `{}` by `c` answers 200.
async fn post_ok(c: &mut server::client::ApiClient, path: &str) {
    let a = c.post(path, json!({})).await.expect("request");
    assert_eq!(a.status, 200, "{path}: {}", a.text);
}

/// A used invitation says so (`invite_used`, the game under way or over) and a cancelled one
/// says it was cancelled (`invite_cancelled`), each naming the game so that the page can offer
/// to watch it; before, they answered `conflict` ("the game changed meanwhile") and `game_over`
/// without the game.
#[tokio::test]
async fn used_and_cancelled_invitations_say_what_happened_and_name_the_game() {
    let srv = TestServer::start(&sqlite_url("qa-invites")).await;
    let (mut alice, mut bob, mut eve) = (srv.client(), srv.client(), srv.client());
    let friend = json!({"variant": "antarctos", "opponent": "friend", "color": "white"});
    let g = create(&mut alice, friend.clone()).await;
    let id = g["id"].as_str().expect("id").to_string();
    let invite = format!("/api{}", g["invite_url"].as_str().expect("invite"));
    post_ok(&mut bob, &invite).await;
    let late = eve.post(&invite, json!({})).await.expect("join");
    assert_join_refused(&late, "invite_used", &id, "under way");
    // The named game can be watched by the late friend.
    let watched = eve.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(watched.status, 200, "{}", watched.text);
    assert_eq!(watched.body["you"], serde_json::Value::Null);
    // Over: the same code, the message says the game is over.
    post_ok(&mut alice, &format!("/api/games/{id}/resign")).await;
    let after = eve.post(&invite, json!({})).await.expect("join");
    assert_join_refused(&after, "invite_used", &id, "the game is over");

    let g = create(&mut alice, friend).await;
    let cancelled_id = g["id"].as_str().expect("id").to_string();
    let invite = format!("/api{}", g["invite_url"].as_str().expect("invite"));
    post_ok(&mut alice, &format!("/api/games/{cancelled_id}/abort")).await;
    let cancelled = bob.post(&invite, json!({})).await.expect("join");
    assert_join_refused(&cancelled, "invite_cancelled", &cancelled_id, "cancelled");
    // Its creator is told the same (it said "send it to a friend", for a dead invitation).
    let own = alice.post(&invite, json!({})).await.expect("join");
    assert_join_refused(&own, "invite_cancelled", &cancelled_id, "cancelled");
    // Errors about a game the caller named carry no `game` field.
    let unknown = bob
        .post("/api/join/nosuchinvite", json!({}))
        .await
        .expect("join");
    assert_error(&unknown, 404, "not_found");
    assert!(
        unknown.body["error"].get("game").is_none(),
        "{}",
        unknown.text
    );
}

/// The statistics' percentages are rounded half-up to one decimal: White 2 of 3 is 66.7 %
/// (was 66.66, truncated to two decimals).
#[tokio::test]
async fn stats_percentages_are_rounded_to_one_decimal() {
    let srv = TestServer::start(&sqlite_url("qa-stats-round")).await;
    let mut c = srv.client();
    // Three finished games of Antarctos: White wins two (Black resigns), Black one.
    for loser in ["black", "black", "white"] {
        let g = create(
            &mut c,
            json!({"variant": "antarctos", "opponent": "local", "color": "white"}),
        )
        .await;
        let id = g["id"].as_str().expect("id").to_string();
        // On one screen the side to move resigns: Black after three plies, White after two.
        let moves: &[&str] = if loser == "black" {
            &["c3-d4", "b6-a5", "a3-b4"]
        } else {
            &["c3-d4", "b6-a5"]
        };
        for mv in moves {
            play(&mut c, &id, mv).await;
        }
        let r = c
            .post(&format!("/api/games/{id}/resign"), json!({}))
            .await
            .expect("resign");
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(
            r.body["result"]["winner"],
            if loser == "black" { "white" } else { "black" },
            "{}",
            r.text
        );
    }
    let s = c.get("/api/stats").await.expect("stats").body;
    assert_eq!(s["antarctos"]["total"], 3, "{s}");
    assert_eq!(s["antarctos"]["white_pct"], 66.7, "{s}");
    assert_eq!(s["antarctos"]["black_pct"], 33.3, "{s}");
}
