//! A session's end reaches its open sockets and streams (issue 41, round 3; clients finding 8):
//! after a log-out or a new password set elsewhere, a game socket opened under the ended
//! session gets a close frame 1008 "log-in ended" at once, not the players' chat that follows,
//! and its notification stream a last `ended` event; the account's other sessions keep theirs.

use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{Value, json};
use server::client::{ApiClient, EventStream, WsStream, next_json, send_json};
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

/// Another browser of account `name` (password "correct horse"), logged in.
async fn log_in(srv: &TestServer, name: &str) -> ApiClient {
    let mut c = srv.client();
    let r = c
        .post(
            "/api/session",
            json!({"username": name, "password": "correct horse"}),
        )
        .await
        .expect("log in");
    assert_eq!(r.status, 200, "{}", r.text);
    c
}

/// Reads `ws` until its close frame (5 s at most): the messages before it and the frame's code
/// and reason. Panics when the connection ends without one.
async fn until_close(ws: &mut WsStream) -> (Vec<Value>, u16, String) {
    until_close_within(ws, Duration::from_secs(5)).await
}

/// [`until_close`] waiting `bound` at most.
async fn until_close_within(ws: &mut WsStream, bound: Duration) -> (Vec<Value>, u16, String) {
    tokio::time::timeout(bound, async {
        let mut before = Vec::new();
        while let Some(msg) = ws.next().await {
            match msg {
                Ok(Message::Close(Some(f))) => {
                    return (before, u16::from(f.code), f.reason.to_string());
                }
                Ok(Message::Close(None)) => panic!("a close frame without a code"),
                Ok(Message::Text(t)) => before.push(serde_json::from_str(&t).expect("JSON")),
                Ok(_) => {}
                Err(e) => panic!("the connection ended without a close frame: {e}"),
            }
        }
        panic!("the connection ended without a close frame");
    })
    .await
    .expect("a close frame within the bound")
}

/// A socket on game `id`, past its first state and reading (a ping answered).
async fn socket(c: &ApiClient, id: &str) -> WsStream {
    let mut ws = c.ws_as_browser(id).await.expect("ws");
    let first = first_state(&mut ws).await;
    assert_eq!(first["you"], "white", "{first}");
    send_json(&mut ws, &json!({"type": "ping"}))
        .await
        .expect("ping");
    loop {
        if next_json(&mut ws).await.expect("open")["type"] == "pong" {
            return ws;
        }
    }
}

/// The next chat message of `ws` (5 s at most).
async fn next_chat(ws: &mut WsStream) -> Value {
    tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            let m = next_json(ws).await.expect("open");
            if m["type"] == "chat" {
                return m["message"].clone();
            }
        }
    })
    .await
    .expect("a chat message within 5 s")
}

/// A notification stream of `c`, past its first event.
async fn notification_stream(c: &ApiClient) -> EventStream {
    let (status, mut events) = c.events("/api/notifications/stream").await.expect("stream");
    assert_eq!(status, 200);
    let (name, _) = events.next_event().await.expect("a first event");
    assert_eq!(name, "notify");
    events
}

/// A lobby stream of `c` (`GET /api/lobby`), past its first event.
async fn lobby_stream(c: &ApiClient) -> EventStream {
    let (status, mut events) = c.events("/api/lobby").await.expect("lobby stream");
    assert_eq!(status, 200);
    let (name, _) = events.next_event().await.expect("a first event");
    assert_eq!(name, "lobby");
    events
}

/// The end of `events` within `bound` (whatever events come before it).
async fn stream_ends(events: &mut EventStream, bound: Duration) {
    tokio::time::timeout(bound, async {
        while events.next_event().await.is_some() {}
    })
    .await
    .expect("the stream ends within the bound");
}

/// The `ended` event of `events`, then its end (5 s at most).
async fn ended(events: &mut EventStream) {
    ended_within(events, Duration::from_secs(5)).await
}

/// [`ended`] waiting `bound` at most.
async fn ended_within(events: &mut EventStream, bound: Duration) {
    tokio::time::timeout(bound, async {
        loop {
            match events.next_event().await {
                Some((name, data)) if name == "ended" => {
                    assert_eq!(data["reason"], "log-in ended", "{data}");
                    break;
                }
                Some(_) => {}
                None => panic!("the stream ended without an `ended` event"),
            }
        }
        assert!(events.next_event().await.is_none(), "the stream ends");
    })
    .await
    .expect("the end of the stream within the bound");
}

#[tokio::test]
async fn a_log_out_or_a_new_password_closes_the_sessions_sockets_and_streams() {
    let srv = TestServer::start(&sqlite_url("ws-session-end")).await;
    let eve_name = unique("wse");
    let mut eve = register(&srv, &eve_name).await;
    let mut bob = register(&srv, &unique("wsb")).await;
    let body = json!({"variant": "antarctos", "opponent": "friend", "color": "white"});
    let g = create_and_join(&mut eve, &mut bob, body).await;
    let id = g["id"].as_str().unwrap().to_string();

    // Eve's three browsers, each its own session, each with the game open.
    let mut tab2 = log_in(&srv, &eve_name).await;
    let tab3 = log_in(&srv, &eve_name).await;
    let mut eve_ws = socket(&eve, &id).await;
    let mut ws2 = socket(&tab2, &id).await;
    let mut ws3 = socket(&tab3, &id).await;
    let mut stream2 = notification_stream(&tab2).await;
    let mut lobby2 = lobby_stream(&tab2).await;
    let mut stream_eve = notification_stream(&eve).await;

    // Tab 2 logs out: its socket is closed with 1008 and its reason, before any more private
    // chat; its notification stream ends.
    let out = tab2
        .send("DELETE", "/api/session", Some(&json!({})))
        .await
        .expect("log out");
    assert_eq!(out.status, 200, "{}", out.text);
    let (before, code, reason) = until_close(&mut ws2).await;
    assert_eq!(code, 1008, "{reason}");
    assert_eq!(reason, "log-in ended: reload the page");
    assert!(
        before.iter().all(|m| m["type"] != "chat"),
        "no chat before the close: {before:?}"
    );
    ended(&mut stream2).await;
    // So does its lobby stream, which carried the account's challenges (hostile 2, round 5).
    stream_ends(&mut lobby2, Duration::from_secs(5)).await;

    // Bob's players' chat still reaches Eve's live sessions (tab 1 and tab 3).
    let mut bob_ws = bob.ws_as_browser(&id).await.expect("ws");
    first_state(&mut bob_ws).await;
    send_json(
        &mut bob_ws,
        &json!({"type": "chat", "room": "players", "phrase": "good_luck"}),
    )
    .await
    .expect("send");
    assert_eq!(next_chat(&mut eve_ws).await["phrase"], "good_luck");
    assert_eq!(next_chat(&mut ws3).await["phrase"], "good_luck");

    // Tab 1 sets a new password, which ends the account's other sessions: tab 3's socket is
    // closed the same way; tab 1's socket and stream stay.
    let r = eve
        .post(
            "/api/me/password",
            json!({"old_password": "correct horse", "new_password": "battery staple"}),
        )
        .await
        .expect("password");
    assert_eq!(r.status, 200, "{}", r.text);
    let (before, code, reason) = until_close(&mut ws3).await;
    assert_eq!(
        (code, reason.as_str()),
        (1008, "log-in ended: reload the page")
    );
    assert!(before.iter().all(|m| m["type"] != "chat"), "{before:?}");
    send_json(
        &mut bob_ws,
        &json!({"type": "chat", "room": "players", "phrase": "have_fun"}),
    )
    .await
    .expect("send");
    assert_eq!(next_chat(&mut eve_ws).await["phrase"], "have_fun");
    // A challenge from Bob reaches tab 1's stream, which was not ended.
    let c = bob
        .post(
            "/api/challenges",
            json!({"username": eve_name, "variant": "antarctos",
                   "time_control": {"kind": "correspondence", "days": 3}}),
        )
        .await
        .expect("challenge");
    assert_eq!(c.status, 201, "{}", c.text);
    let (name, data) = tokio::time::timeout(Duration::from_secs(5), stream_eve.next_event())
        .await
        .expect("an event within 5 s")
        .expect("the stream is open");
    assert_eq!(name, "notify", "{data}");
    srv.stop().await;
}

/// Hostile finding 1 of round 4: with two processes on one database and no bus between them
/// (no Redis, or Redis down), a new password set through one process still ends the other's
/// game socket and notification stream of the ended session: each reads its session again
/// every `SESSION_RECHECK` (10 s), through a cache of `SESSION_CACHE` (10 s). Before, they lived
/// on, the socket with the players' chat and the stream with the account's notifications.
#[tokio::test]
async fn without_a_bus_another_process_ends_the_sessions_sockets_and_streams_by_itself() {
    let url = sqlite_url("ws-session-end-nobus");
    let srv = TestServer::start(&url).await;
    let other = TestServer::start(&url).await;
    let eve_name = unique("wsn");
    let mut eve = register(&srv, &eve_name).await;
    let mut bob = register(&srv, &unique("wsm")).await;
    let body = json!({"variant": "antarctos", "opponent": "friend", "color": "white"});
    let g = create_and_join(&mut eve, &mut bob, body).await;
    let id = g["id"].as_str().unwrap().to_string();
    // Eve's second browser, on the first process: its socket and stream.
    let tab2 = log_in(&srv, &eve_name).await;
    let mut ws2 = socket(&tab2, &id).await;
    let mut stream2 = notification_stream(&tab2).await;
    let mut lobby2 = lobby_stream(&tab2).await;
    // Eve sets a new password through the other process: tab 2's session ends in the store.
    let mut there = log_in(&other, &eve_name).await;
    let r = there
        .post(
            "/api/me/password",
            json!({"old_password": "correct horse", "new_password": "battery staple"}),
        )
        .await
        .expect("password");
    assert_eq!(r.status, 200, "{}", r.text);
    // Within two rechecks and a cache's life, both end by themselves.
    let bound = Duration::from_secs(35);
    let (_, code, reason) = until_close_within(&mut ws2, bound).await;
    assert_eq!(
        (code, reason.as_str()),
        (1008, "log-in ended: reload the page")
    );
    ended_within(&mut stream2, bound).await;
    stream_ends(&mut lobby2, bound).await;
    other.stop().await;
    srv.stop().await;
}
