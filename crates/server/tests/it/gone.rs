//! A gone opponent (issue 38): when a real-time game's player's sockets have all closed, the
//! opponent sees `gone` with the time it may claim (10 s after a tab closed, 40 s after a lost
//! connection in a 3+2 game); a claim before is refused saying how long is left, after it ends
//! the game (a win or a draw, "abandoned"); a page that comes back cancels it.

use std::time::Duration;

use serde_json::{Value, json};

use crate::clocks::moved_time;
use crate::common::*;

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

#[tokio::test]
async fn a_gone_opponent_can_be_claimed_after_the_wait_and_a_return_cancels_it() {
    let (time, options) = moved_time();
    let srv = TestServer::start_with(&sqlite_url("gone"), options).await;
    let control = json!({"kind": "realtime", "initial_s": 180, "increment_s": 2});
    let body = json!({"variant": "antarctos", "opponent": "friend", "color": "white", "time_control": control});
    let mut white = srv.client();
    let mut black = srv.client();
    let g = create_and_join(&mut white, &mut black, body.clone()).await;
    let id = g["id"].as_str().unwrap().to_string();
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
    assert_error(&claim(&mut white, &id, "draw").await, 409, "conflict");
    let mut back = black.ws(&id).await.expect("ws");
    first_state(&mut back).await;
    wait_state(&mut w_ws, |g| g.get("gone").is_none_or(Value::is_null)).await;
    time.advance(Duration::from_secs(60));
    let r = claim(&mut white, &id, "draw").await;
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
    assert_error(&claim(&mut white, &id, "win").await, 409, "conflict");
    srv.stop().await;
}
