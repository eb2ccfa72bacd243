//! Every game-socket frame counts against a per-socket rate (issue 41, round 3; hostile
//! finding 1): a watcher flooding refused `resign` frames, or a player flooding pings, is
//! answered from memory past the rate and closed with 1008 once its refused frames pile up,
//! and the server keeps answering the others.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use server::client::WsStream;
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

/// Sends `frame` `n` times (a failed send, the server having closed, ends it), then reads until
/// the close frame (20 s at most): the count of each error code and of pongs, and the code.
async fn flood(ws: &mut WsStream, frame: &Value, n: usize) -> (Vec<(String, usize)>, u16) {
    let text = frame.to_string();
    for _ in 0..n {
        if ws.send(Message::Text(text.clone().into())).await.is_err() {
            break;
        }
    }
    let mut counts: Vec<(String, usize)> = Vec::new();
    let code = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(msg) = ws.next().await {
            match msg {
                Ok(Message::Text(t)) => {
                    let v: Value = serde_json::from_str(t.as_str()).expect("json");
                    let key = match v["type"].as_str() {
                        Some("error") => v["error"]["code"].as_str().unwrap_or("?").to_string(),
                        Some(other) => other.to_string(),
                        None => "?".to_string(),
                    };
                    match counts.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, c)) => *c += 1,
                        None => counts.push((key, 1)),
                    }
                }
                Ok(Message::Close(Some(f))) => return u16::from(f.code),
                Ok(Message::Close(None)) => panic!("a close frame without a code"),
                Ok(_) => {}
                Err(e) => panic!("the socket broke without a close frame: {e}"),
            }
        }
        panic!("the socket ended without a close frame");
    })
    .await
    .expect("the socket closes within 20 s");
    (counts, code)
}

fn count(counts: &[(String, usize)], key: &str) -> usize {
    counts.iter().find(|(k, _)| k == key).map_or(0, |(_, c)| *c)
}

#[tokio::test]
async fn flooded_move_resign_and_ping_frames_are_limited_and_close_the_socket() {
    let srv = TestServer::start(&sqlite_url("ws-flood")).await;
    let mut white = srv.client();
    let mut black = srv.client();
    let body = json!({"variant": "antarctos", "opponent": "friend", "color": "white"});
    let g = create_and_join(&mut white, &mut black, body).await;
    let id = g["id"].as_str().unwrap().to_string();

    // A watcher's resignations: refused by the game (not a player) until the strikes close it.
    let watcher = srv.client();
    let mut ws = watcher.ws(&id).await.expect("ws");
    first_state(&mut ws).await;
    let (counts, code) = flood(&mut ws, &json!({"type": "resign"}), 2000).await;
    assert_eq!(code, 1008, "{counts:?}");
    assert!(
        (1..=30).contains(&count(&counts, "not_a_player")),
        "{counts:?}"
    );

    // A watcher's moves likewise.
    let mut ws = watcher.ws(&id).await.expect("ws");
    first_state(&mut ws).await;
    let mv = json!({"type": "move", "move": "c3-d4", "ply": 0});
    let (counts, code) = flood(&mut ws, &mv, 2000).await;
    assert_eq!(code, 1008, "{counts:?}");
    assert!(count(&counts, "not_a_player") <= 30, "{counts:?}");

    // A player's pings: answered within the burst, then refused by the rate from memory, then
    // closed.
    let mut ws = white.ws(&id).await.expect("ws");
    first_state(&mut ws).await;
    let (counts, code) = flood(&mut ws, &json!({"type": "ping"}), 2000).await;
    assert_eq!(code, 1008, "{counts:?}");
    let pongs = count(&counts, "pong");
    assert!((60..200).contains(&pongs), "{counts:?}");
    assert!(
        (1..=30).contains(&count(&counts, "rate_limited")),
        "{counts:?}"
    );

    // The server answers, and the player plays over a new socket.
    let mut ws = white.ws(&id).await.expect("ws");
    first_state(&mut ws).await;
    let moved = play(&mut white, &id, "c3-d4").await;
    assert_eq!(moved["ply"], 1, "{moved}");
    wait_state(&mut ws, |g| g["ply"] == 1).await;
    srv.stop().await;
}
