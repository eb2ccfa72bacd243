//! A gone opponent (issue 38): when a real-time game's player's sockets have all closed, the
//! opponent sees `gone` with the time it may claim (10 s after a tab closed, 40 s after a lost
//! connection in a 3+2 game); a claim before is refused saying how long is left, after it ends
//! the game (a win or a draw, "abandoned"); a page that comes back cancels it. The first side
//! to leave keeps the mark; a claimant out of time loses on time, and a claim before the second
//! move aborts the game.

use std::time::Duration;

use serde_json::{Value, json};

use crate::clocks::moved_time;
use crate::common::lobby::first_legal;
use crate::common::*;
use server::client::ApiClient;

async fn claim(
    c: &mut server::client::ApiClient,
    id: &str,
    action: &str,
) -> server::client::Answer {
    c.post(
        &format!("/api/games/{id}/claim"),
        json!({ "action": action }),
    )
    .await
    .expect("claim")
}

/// A real-time game (`initial_s` + `increment_s`) between two new browsers, White's and
/// Black's, with `moves` first moves played (the first legal ones).
async fn game(
    srv: &TestServer,
    initial_s: i64,
    increment_s: i64,
    moves: usize,
) -> (ApiClient, ApiClient, String) {
    let control = json!({"kind": "realtime", "initial_s": initial_s, "increment_s": increment_s});
    let body = json!({"variant": "antarctos", "opponent": "friend", "color": "white", "time_control": control});
    let mut white = srv.client();
    let mut black = srv.client();
    let g = create_and_join(&mut white, &mut black, body).await;
    let id = g["id"].as_str().unwrap().to_string();
    for n in 0..moves {
        let side = if n % 2 == 0 { &mut white } else { &mut black };
        let mv = first_legal(side, &id).await;
        play(side, &id, &mv).await;
    }
    (white, black, id)
}

#[tokio::test]
async fn a_gone_opponent_can_be_claimed_after_the_wait_and_a_return_cancels_it() {
    let (time, options) = moved_time();
    let srv = TestServer::start_with(&sqlite_url("gone"), options).await;
    let control = json!({"kind": "realtime", "initial_s": 180, "increment_s": 2});
    let body = json!({"variant": "antarctos", "opponent": "friend", "color": "white", "time_control": control});
    let (mut white, mut black, id) = game(&srv, 180, 2, 2).await;
    let mut w_ws = white.ws(&id).await.expect("ws");
    first_state(&mut w_ws).await;
    let mut b_ws = black.ws(&id).await.expect("ws");
    first_state(&mut b_ws).await;
    assert_error(&claim(&mut white, &id, "win").await, 409, "conflict");
    // Black closes its tab: a clean close, 10 s to wait.
    b_ws.close(None).await.expect("close");
    let g = wait_state(&mut w_ws, |g| g["gone"].is_object()).await;
    assert_eq!(g["gone"]["side"], "black");
    let since = g["gone"]["since_ms"].as_i64().unwrap();
    assert_eq!(g["gone"]["claim_at_ms"].as_i64().unwrap() - since, 10_000);
    let early = claim(&mut white, &id, "win").await;
    assert_error(&early, 409, "conflict");
    assert!(
        early.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("claim in"),
        "{}",
        early.text
    );
    // Nobody else claims: not the gone side, not a watcher.
    assert_error(&claim(&mut black, &id, "win").await, 409, "conflict");
    let mut watcher = srv.client();
    assert_error(&claim(&mut watcher, &id, "win").await, 403, "not_a_player");
    let r = claim(&mut white, &id, "resign").await;
    assert_error(&r, 400, "bad_request");
    time.advance(Duration::from_secs(11));
    let r = claim(&mut white, &id, "win").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["status"], "finished");
    assert_eq!(r.body["result"]["winner"], "white");
    assert_eq!(r.body["result"]["reason"], "abandoned");
    assert_eq!(r.body.get("gone"), None, "an ended game has nobody gone");

    // A lost connection waits 40 s, and a page that comes back cancels it.
    let g = create_and_join(&mut white, &mut black, body).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut w_ws = white.ws(&id).await.expect("ws");
    first_state(&mut w_ws).await;
    let mut b_ws = black.ws(&id).await.expect("ws");
    first_state(&mut b_ws).await;
    drop(b_ws);
    let g = wait_state(&mut w_ws, |g| g["gone"].is_object()).await;
    let wait = g["gone"]["claim_at_ms"].as_i64().unwrap() - g["gone"]["since_ms"].as_i64().unwrap();
    assert_eq!(wait, 40_000, "a lost connection: {g}");
    time.advance(Duration::from_secs(20));
    assert_error(&claim(&mut white, &id, "win").await, 409, "conflict");
    let mut back = black.ws(&id).await.expect("ws");
    first_state(&mut back).await;
    wait_state(&mut w_ws, |g| g.get("gone").is_none_or(Value::is_null)).await;
    time.advance(Duration::from_secs(60));
    let r = claim(&mut white, &id, "win").await;
    assert_error(&r, 409, "conflict");
    assert!(
        r.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("here"),
        "{}",
        r.text
    );
    srv.stop().await;
}

/// A page whose browser went offline closes its socket with code 4001 (docs/api.md,
/// WebSocket): a lost connection, not a closed tab, so the opponent waits 40 s in a 3+2 game,
/// not 10 s.
#[tokio::test]
async fn a_close_for_going_offline_waits_as_a_lost_connection() {
    use tokio_tungstenite::tungstenite::protocol::CloseFrame;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

    let (_time, options) = moved_time();
    let srv = TestServer::start_with(&sqlite_url("gone-offline"), options).await;
    let control = json!({"kind": "realtime", "initial_s": 180, "increment_s": 2});
    let body = json!({"variant": "antarctos", "opponent": "friend", "color": "white", "time_control": control});
    let mut white = srv.client();
    let mut black = srv.client();
    let g = create_and_join(&mut white, &mut black, body).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut w_ws = white.ws(&id).await.expect("ws");
    first_state(&mut w_ws).await;
    let mut b_ws = black.ws(&id).await.expect("ws");
    first_state(&mut b_ws).await;
    b_ws.close(Some(CloseFrame {
        code: CloseCode::from(4001),
        reason: "offline".into(),
    }))
    .await
    .expect("close");
    let g = wait_state(&mut w_ws, |g| g["gone"].is_object()).await;
    assert_eq!(g["gone"]["side"], "black");
    let wait = g["gone"]["claim_at_ms"].as_i64().unwrap() - g["gone"]["since_ms"].as_i64().unwrap();
    assert_eq!(
        wait, 40_000,
        "a close for going offline is a lost connection: {g}"
    );
    srv.stop().await;
}

#[tokio::test]
async fn correspondence_players_are_never_gone() {
    let srv = TestServer::start(&sqlite_url("gone-corr")).await;
    let mut white = srv.client();
    let mut black = srv.client();
    let g = create_and_join(
        &mut white,
        &mut black,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white",
               "time_control": {"kind": "correspondence", "days": 2}}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut b_ws = black.ws(&id).await.expect("ws");
    first_state(&mut b_ws).await;
    b_ws.close(None).await.expect("close");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let g = white.get(&format!("/api/games/{id}")).await.unwrap().body;
    assert_eq!(g.get("gone"), None, "{g}");
    let r = claim(&mut white, &id, "win").await;
    assert_error(&r, 409, "conflict");
    assert!(r.text.contains("real-time games only"), "{}", r.text);
    srv.stop().await;
}

/// Waits for the server to take a socket's opening or closing in (no state shows it when the
/// mark stays), then reads the game's `gone`.
async fn gone_now(c: &mut ApiClient, id: &str) -> Value {
    tokio::time::sleep(Duration::from_millis(400)).await;
    let g = c.get(&format!("/api/games/{id}")).await.unwrap().body;
    g.get("gone").cloned().unwrap_or(Value::Null)
}

/// A hostile tester: White closed its page, then Black's connection blipped (dropped without a
/// close frame, then back); the blip took the mark over and its return erased it, so Black
/// could not claim against the really gone White.
#[tokio::test]
async fn a_blip_of_one_side_keeps_the_other_sides_gone_mark() {
    let (time, options) = moved_time();
    let srv = TestServer::start_with(&sqlite_url("gone-blip"), options).await;
    let (white, mut black, id) = game(&srv, 180, 2, 2).await;
    let mut w_ws = white.ws(&id).await.expect("ws");
    first_state(&mut w_ws).await;
    let mut b_ws = black.ws(&id).await.expect("ws");
    first_state(&mut b_ws).await;
    w_ws.close(None).await.expect("close");
    let g = wait_state(&mut b_ws, |g| g["gone"].is_object()).await;
    assert_eq!(g["gone"]["side"], "white");
    drop(b_ws);
    assert_eq!(gone_now(&mut black, &id).await["side"], "white");
    let mut back = black.ws(&id).await.expect("ws");
    first_state(&mut back).await;
    assert_eq!(gone_now(&mut black, &id).await["side"], "white");
    time.advance(Duration::from_secs(11));
    let r = claim(&mut black, &id, "win").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["result"]["winner"], "black");
    assert_eq!(r.body["result"]["reason"], "abandoned");
    srv.stop().await;
}

/// Both sides left: the first keeps the mark; when it comes back, the other is marked gone
/// since it left.
#[tokio::test]
async fn when_both_left_the_first_to_return_finds_the_other_gone() {
    let srv = TestServer::start(&sqlite_url("gone-both")).await;
    let (white, mut black, id) = game(&srv, 180, 2, 2).await;
    let mut w_ws = white.ws(&id).await.expect("ws");
    first_state(&mut w_ws).await;
    let mut b_ws = black.ws(&id).await.expect("ws");
    first_state(&mut b_ws).await;
    w_ws.close(None).await.expect("close");
    wait_state(&mut b_ws, |g| g["gone"].is_object()).await;
    b_ws.close(None).await.expect("close");
    let first = gone_now(&mut black, &id).await;
    assert_eq!(first["side"], "white", "{first}");
    let mut back = white.ws(&id).await.expect("ws");
    let g = wait_state(&mut back, |g| g["gone"]["side"] == "black").await;
    assert!(g["gone"]["since_ms"].as_i64() >= first["since_ms"].as_i64());
    srv.stop().await;
}

/// A hostile tester: a claimant whose own time ran out (within the grace the flag waits for a
/// move in flight) won the game. It loses on time instead.
#[tokio::test]
async fn a_claimant_out_of_time_loses_on_time() {
    let (time, options) = moved_time();
    let srv = TestServer::start_with(&sqlite_url("gone-flag"), options).await;
    let (mut white, black, id) = game(&srv, 15, 0, 2).await;
    let mut w_ws = white.ws(&id).await.expect("ws");
    first_state(&mut w_ws).await;
    let mut b_ws = black.ws(&id).await.expect("ws");
    first_state(&mut b_ws).await;
    b_ws.close(None).await.expect("close");
    wait_state(&mut w_ws, |g| g["gone"].is_object()).await;
    // White, to move, lets its clock run out: 50 ms over, within the flag's grace.
    let g = white.get(&format!("/api/games/{id}")).await.unwrap().body;
    let left = g["clock"]["white_ms"].as_u64().expect("white's time");
    time.advance(Duration::from_millis(left + 50));
    let r = claim(&mut white, &id, "win").await;
    assert_error(&r, 409, "game_over");
    let g = white.get(&format!("/api/games/{id}")).await.unwrap().body;
    assert_eq!(g["status"], "finished", "{g}");
    assert_eq!(g["result"]["winner"], "black", "{g}");
    assert_eq!(g["result"]["reason"], "time forfeit", "{g}");
    srv.stop().await;
}

/// A hostile tester: a claim before both sides had moved won a game with no moves. It aborts
/// the game, as resigning then does: no result, nothing counted.
#[tokio::test]
async fn a_claim_before_the_second_move_aborts_the_game() {
    let (time, options) = moved_time();
    let srv = TestServer::start_with(&sqlite_url("gone-early"), options).await;
    let (white, mut black, id) = game(&srv, 180, 2, 1).await;
    let mut w_ws = white.ws(&id).await.expect("ws");
    first_state(&mut w_ws).await;
    let mut b_ws = black.ws(&id).await.expect("ws");
    first_state(&mut b_ws).await;
    w_ws.close(None).await.expect("close");
    wait_state(&mut b_ws, |g| g["gone"].is_object()).await;
    time.advance(Duration::from_secs(11));
    let r = claim(&mut black, &id, "win").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["status"], "aborted", "{}", r.text);
    assert_eq!(r.body["result"], Value::Null, "{}", r.text);
    srv.stop().await;
}

/// A draw is claimed in Ice Age Chess only (Antarctos has none, A15): there it ends the game
/// drawn, "abandoned"; in Antarctos it is refused (400) while the win can still be claimed.
#[tokio::test]
async fn a_draw_is_claimed_in_ice_age_chess_and_refused_in_antarctos() {
    let (time, options) = moved_time();
    let srv = TestServer::start_with(&sqlite_url("gone-draw"), options).await;
    for variant in ["iceage", "antarctos"] {
        let control = json!({"kind": "realtime", "initial_s": 180, "increment_s": 2});
        let body = json!({"variant": variant, "opponent": "friend", "color": "white", "time_control": control});
        let mut white = srv.client();
        let mut black = srv.client();
        let g = create_and_join(&mut white, &mut black, body).await;
        let id = g["id"].as_str().unwrap().to_string();
        for n in 0..2 {
            let side = if n == 0 { &mut white } else { &mut black };
            let mv = first_legal(side, &id).await;
            play(side, &id, &mv).await;
        }
        let mut w_ws = white.ws(&id).await.expect("ws");
        first_state(&mut w_ws).await;
        let mut b_ws = black.ws(&id).await.expect("ws");
        first_state(&mut b_ws).await;
        b_ws.close(None).await.expect("close");
        wait_state(&mut w_ws, |g| g["gone"].is_object()).await;
        time.advance(Duration::from_secs(11));
        let r = claim(&mut white, &id, "draw").await;
        if variant == "iceage" {
            assert_eq!(r.status, 200, "{}", r.text);
            assert_eq!(r.body["status"], "finished", "{}", r.text);
            assert_eq!(r.body["result"]["winner"], Value::Null, "{}", r.text);
            assert_eq!(r.body["result"]["reason"], "abandoned", "{}", r.text);
        } else {
            assert_error(&r, 400, "bad_request");
            let r = claim(&mut white, &id, "win").await;
            assert_eq!(r.body["result"]["winner"], "white", "{}", r.text);
        }
    }
    srv.stop().await;
}
