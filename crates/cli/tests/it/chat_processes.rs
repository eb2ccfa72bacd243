//! Chat across processes (issue 41): two `icebound serve --redis` processes on one PostgreSQL
//! database. A message sent through one process reaches the game sockets and the lobby and
//! tournament streams held by the other, and the chat rate (5 messages in 10 s per author)
//! holds across the two: sequential sendings through both, and a burst at once through both.
//!
//! Needs `ICEBOUND_TEST_POSTGRES_URL` (`.ci/setup-postgres.sh`) and Debian's `redis-server`
//! (`.ci/setup-redis.sh`); without them it says so and is not run (under CI=true it fails).

use crate::common;

use std::time::Duration;

use common::serve::*;
use serde_json::{Value, json};
use server::client::{ApiClient, EventStream, WsStream, next_json, send_json};
use test_support::redis::Redis;
use test_support::services::{postgres_url, redis_server};

/// A socket on game `id`, past its first state.
async fn socket(c: &ApiClient, id: &str) -> WsStream {
    let mut ws = c.ws_as_browser(id).await.expect("socket");
    loop {
        let m = next_json(&mut ws).await.expect("socket open");
        if m["type"] == "state" {
            return ws;
        }
    }
}

/// The next chat message on `ws` (20 s at most), skipping states.
async fn next_chat(ws: &mut WsStream) -> Value {
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let msg = next_json(ws).await.expect("socket open");
            match msg["type"].as_str() {
                Some("chat") => return msg["message"].clone(),
                Some("error") => panic!("an error where a chat message was awaited: {msg}"),
                _ => {}
            }
        }
    })
    .await
    .expect("a chat message within 20 s")
}

/// The next `chat` event of a stream (20 s at most).
async fn next_stream_chat(events: &mut EventStream) -> Value {
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let (name, data) = events.next_event().await.expect("the stream stays open");
            if name == "chat" {
                return data;
            }
        }
    })
    .await
    .expect("a chat event within 20 s")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_reaches_other_processes_and_its_rate_holds_across_them() {
    let Some(url) = postgres_url() else { return };
    let Some(redis_bin) = redis_server() else {
        return;
    };
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
    let n = std::process::id() % 100_000;
    let mut ann = register(a, &format!("cpa{n}")).await;
    let mut bob = register(b, &format!("cpb{n}")).await;
    let mut cat = register(b, &format!("cpc{n}")).await;

    // A game: Ann (white) through A, Bob through B; Cat watches through B.
    let g = ann
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
    let mut ann_ws = socket(&ann, &id).await;
    let mut bob_ws = socket(&bob, &id).await;
    let mut cat_ws = socket(&cat, &id).await;

    // The players' room: Ann's message through A reaches Bob's socket on B (and never Cat's).
    send_json(
        &mut ann_ws,
        &json!({"type": "chat", "room": "players", "phrase": "good_luck"}),
    )
    .await
    .expect("send");
    let m = next_chat(&mut bob_ws).await;
    assert_eq!(m["phrase"], "good_luck", "{m}");
    assert_eq!(m["room"], "players", "{m}");
    assert_eq!(m["author"], format!("cpa{n}"), "{m}");
    assert_eq!(next_chat(&mut ann_ws).await["phrase"], "good_luck");
    // The watchers' room is closed to the players until the game ends: Ann resigns first.
    let r = ann
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await
        .expect("resign");
    assert_eq!(r.status, 200, "{}", r.text);
    // The watchers' room: Ann's through A reaches Cat's socket on B; Cat's first chat message
    // is this one (the players' room never reached her).
    send_json(
        &mut ann_ws,
        &json!({"type": "chat", "room": "watchers", "phrase": "have_fun"}),
    )
    .await
    .expect("send");
    let m = next_chat(&mut cat_ws).await;
    assert_eq!(m["phrase"], "have_fun", "{m}");
    assert_eq!(m["room"], "watchers", "{m}");
    // And the other way: Cat's through B reaches Ann's socket on A.
    send_json(
        &mut cat_ws,
        &json!({"type": "chat", "room": "watchers", "phrase": "thanks"}),
    )
    .await
    .expect("send");
    loop {
        let m = next_chat(&mut ann_ws).await;
        if m["phrase"] == "thanks" {
            assert_eq!(m["author"], format!("cpc{n}"), "{m}");
            break;
        }
    }

    // The lobby: Ann posts through A; Bob's lobby stream on B has it.
    let (status, mut bob_lobby) = bob.events("/api/lobby").await.expect("stream");
    assert_eq!(status, 200);
    let r = ann
        .post("/api/lobby/chat", json!({"phrase": "well_played"}))
        .await
        .expect("post");
    assert_eq!(r.status, 201, "{}", r.text);
    let m = next_stream_chat(&mut bob_lobby).await;
    assert_eq!(m["phrase"], "well_played", "{m}");
    assert_eq!(m["room"], "lobby", "{m}");

    // A tournament's room: Bob's through B reaches Cat's stream on A.
    let t = bob
        .post(
            "/api/tournaments",
            json!({"kind": "arena", "variant": "antarctos", "minutes": 10,
                   "time_control": {"kind": "realtime", "initial_s": 60, "increment_s": 0}}),
        )
        .await
        .expect("create");
    assert_eq!(t.status, 201, "{}", t.text);
    let tid = t.body["id"].as_str().expect("id").to_string();
    cat.set_addr(a);
    let (status, mut cat_t) = cat
        .events(&format!("/api/tournaments/{tid}/stream"))
        .await
        .expect("stream");
    assert_eq!(status, 200);
    let r = bob
        .post(
            &format!("/api/tournaments/{tid}/chat"),
            json!({"phrase": "good_game"}),
        )
        .await
        .expect("post");
    assert_eq!(r.status, 201, "{}", r.text);
    let m = next_stream_chat(&mut cat_t).await;
    assert_eq!(m["phrase"], "good_game", "{m}");
    assert_eq!(m["room"], "tournament", "{m}");

    // The rate across processes: Dan's five through A, then a sixth through B is refused.
    let mut dan = register(a, &format!("cpd{n}")).await;
    for _ in 0..5 {
        let r = dan
            .post("/api/lobby/chat", json!({"phrase": "thanks"}))
            .await
            .expect("post");
        assert_eq!(r.status, 201, "{}", r.text);
    }
    dan.set_addr(b);
    let r = dan
        .post("/api/lobby/chat", json!({"phrase": "thanks"}))
        .await
        .expect("post");
    assert_eq!(r.status, 429, "{}", r.text);
    assert_eq!(r.body["error"]["code"], "rate_limited", "{}", r.text);

    // A burst at once: Eve's twelve sendings, half through each process, store five.
    let eve = register(b, &format!("cpe{n}")).await;
    let sends: Vec<_> = (0..12)
        .map(|i| {
            let mut c = eve.clone();
            c.set_addr(if i % 2 == 0 { a } else { b });
            tokio::spawn(async move {
                c.post("/api/lobby/chat", json!({"phrase": "good_luck"}))
                    .await
                    .expect("post")
                    .status
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for s in sends {
        statuses.push(s.await.expect("task"));
    }
    let stored = statuses.iter().filter(|s| **s == 201).count();
    let refused = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!((stored, refused), (5, 7), "{statuses:?}");
    let h = bob.get("/api/lobby/chat").await.expect("history").body;
    let eves = h["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter(|m| m["author"] == format!("cpe{n}").as_str())
        .count();
    assert_eq!(eves, 5, "{h}");
    drop((pa, pb));
}
