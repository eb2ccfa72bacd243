//! Sockets across processes (issue 41, round 3): two `icebound serve --redis` processes on one
//! PostgreSQL database. A player with the game open on both is not "gone" when the page on one
//! process closes (the other, holding a socket of the seat, ends the mark at once), and is gone
//! when the last page closes. A session ended through one process (a new password) closes its
//! socket on the other at once (1008) and leaves that process's session cache.
//!
//! Needs `ICEBOUND_TEST_POSTGRES_URL` (`.ci/setup-postgres.sh`) and Debian's `redis-server`
//! (`.ci/setup-redis.sh`); without them it says so and is not run (under CI=true it fails).

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use common::serve::*;
use serde_json::{Value, json};
use server::client::{ApiClient, WsStream, next_json, send_json};
use test_support::redis::Redis;
use test_support::services::{postgres_url, redis_server};

/// Another browser (its own session) of account `name`, through `addr`.
async fn log_in(addr: SocketAddr, name: &str) -> ApiClient {
    let mut c = ApiClient::new(addr);
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

/// A socket on game `id`, past its first state and counted for its seat's presence (a ping's
/// answer comes only once the socket reads, after that count).
async fn socket(c: &ApiClient, id: &str) -> WsStream {
    let mut ws = c.ws_as_browser(id).await.expect("socket");
    send_json(&mut ws, &json!({"type": "ping"}))
        .await
        .expect("ping");
    loop {
        let m = next_json(&mut ws).await.expect("socket open");
        if m["type"] == "pong" {
            return ws;
        }
    }
}

/// The next state of `ws` whose game satisfies `pred` (20 s at most); its game.
async fn state_where(ws: &mut WsStream, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let m = next_json(ws).await.expect("socket open");
            if m["type"] == "state" && pred(&m["game"]) {
                return m["game"].clone();
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no state with {what} within 20 s"))
}

/// Two processes, PostgreSQL and Redis: (process A's guard and address, B's, Redis).
pub(crate) async fn two_processes() -> Option<((Spawned, SocketAddr), (Spawned, SocketAddr), Redis)>
{
    let url = postgres_url()?;
    let redis_bin = redis_server()?;
    let redis = Redis::start(redis_bin);
    let redis_url = redis.url();
    let (a, b) = (free_addr(), free_addr());
    let args = ["--redis", redis_url.as_str(), "--no-rate-limits"];
    let mut pa = start(&url, a, &args);
    let mut pb = start(&url, b, &args);
    wait_ready(&mut pa, a).await;
    wait_ready(&mut pb, b).await;
    bus_up(a).await;
    bus_up(b).await;
    Some(((pa, a), (pb, b), redis))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_with_a_page_open_on_another_process_is_not_gone() {
    let Some(((_pa, a), (_pb, b), _redis)) = two_processes().await else {
        return;
    };
    let n = std::process::id() % 100_000;
    let ann_name = format!("gpa{n}");
    let mut ann = register(a, &ann_name).await;
    let mut bob = register(b, &format!("gpb{n}")).await;
    let mut ann_b = log_in(b, &ann_name).await;

    // A real-time friend game: Ann (white) through A, Bob through B.
    let control = json!({"kind": "realtime", "initial_s": 600, "increment_s": 0});
    let g = ann
        .post(
            "/api/games",
            json!({"variant": "antarctos", "opponent": "friend", "color": "white",
                   "time_control": control}),
        )
        .await
        .expect("create");
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.body["id"].as_str().expect("id").to_string();
    let invite = g.body["invite_url"].as_str().expect("invite").to_string();
    let j = bob
        .post(&format!("/api{invite}"), json!({}))
        .await
        .expect("join");
    assert_eq!(j.status, 200, "{}", j.text);

    // Ann's page on A, her second page on B (another session of hers), Bob's on B.
    let mut ann_ws_a = socket(&ann, &id).await;
    let mut ann_ws_b = socket(&ann_b, &id).await;
    let mut bob_ws = socket(&bob, &id).await;
    let v = ann_b.get(&format!("/api/games/{id}")).await.expect("game");
    assert_eq!(v.body["you"], "white", "{}", v.text);

    // Her page on A closes: A counted only its own sockets and marks her gone; B holds one of
    // hers and ends the mark at once.
    ann_ws_a.close(None).await.expect("close");
    let marked = state_where(&mut bob_ws, "a gone mark", |g| g["gone"].is_object()).await;
    assert_eq!(marked["gone"]["side"], "white", "{marked}");
    state_where(&mut bob_ws, "the gone mark ended", |g| g["gone"].is_null()).await;
    for addr in [a, b] {
        bob.set_addr(addr);
        let v = bob.get(&format!("/api/games/{id}")).await.expect("game");
        assert!(v.body["gone"].is_null(), "through {addr}: {}", v.text);
        let c = bob
            .post(&format!("/api/games/{id}/claim"), json!({"action": "win"}))
            .await
            .expect("claim");
        assert_eq!(c.status, 409, "{}", c.text);
        assert!(
            c.body["error"]["message"]
                .as_str()
                .unwrap_or("")
                .contains("your opponent is here"),
            "{}",
            c.text
        );
    }

    // Her last page (on B) closes: now she is gone, on both processes.
    ann_ws_b.close(None).await.expect("close");
    let marked = state_where(&mut bob_ws, "a gone mark", |g| g["gone"].is_object()).await;
    assert_eq!(marked["gone"]["side"], "white", "{marked}");
    for addr in [a, b] {
        bob.set_addr(addr);
        let v = bob.get(&format!("/api/games/{id}")).await.expect("game");
        assert_eq!(
            v.body["gone"]["side"], "white",
            "through {addr}: {}",
            v.text
        );
    }
}

/// Reads `ws` until its close frame (20 s at most): its code and reason.
async fn close_of(ws: &mut WsStream) -> (u16, String) {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(msg) = ws.next().await {
            match msg {
                Ok(Message::Close(Some(f))) => return (u16::from(f.code), f.reason.to_string()),
                Ok(Message::Close(None)) => panic!("a close frame without a code"),
                Ok(_) => {}
                Err(e) => panic!("the connection ended without a close frame: {e}"),
            }
        }
        panic!("the connection ended without a close frame");
    })
    .await
    .expect("a close frame within 20 s")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_ended_through_one_process_ends_in_the_other_at_once() {
    let Some(((_pa, a), (_pb, b), _redis)) = two_processes().await else {
        return;
    };
    let n = std::process::id() % 100_000;
    let eve_name = format!("sea{n}");
    let mut eve = register(a, &eve_name).await;
    let mut bob = register(b, &format!("seb{n}")).await;
    let g = eve
        .post(
            "/api/games",
            json!({"variant": "antarctos", "opponent": "friend", "color": "white"}),
        )
        .await
        .expect("create");
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.body["id"].as_str().expect("id").to_string();
    let invite = g.body["invite_url"].as_str().expect("invite").to_string();
    let j = bob
        .post(&format!("/api{invite}"), json!({}))
        .await
        .expect("join");
    assert_eq!(j.status, 200, "{}", j.text);

    // Eve's second browser works through B: B caches its session, and its socket is on B.
    let mut tab2 = log_in(b, &eve_name).await;
    let me = tab2.get("/api/me").await.expect("me");
    assert_eq!(me.body["username"], eve_name.as_str(), "{}", me.text);
    let mut ws2 = socket(&tab2, &id).await;

    // A new password set through A ends tab 2's session: B's socket is closed with 1008 at
    // once, and B no longer knows the session (no 10 s of its cache).
    let r = eve
        .post(
            "/api/me/password",
            json!({"old_password": "correct horse", "new_password": "battery staple"}),
        )
        .await
        .expect("password");
    assert_eq!(r.status, 200, "{}", r.text);
    let (code, reason) = close_of(&mut ws2).await;
    assert_eq!(code, 1008, "{reason}");
    assert_eq!(reason, "log-in ended: reload the page");
    let me = tab2.get("/api/me").await.expect("me");
    assert!(me.body["username"].is_null(), "{}", me.text);
    let f = tab2
        .post(&format!("/api/players/seb{n}/follow"), json!({}))
        .await
        .expect("follow");
    assert_eq!(f.status, 401, "{}", f.text);
}
