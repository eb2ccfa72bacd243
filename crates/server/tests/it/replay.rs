//! Replay after a reconnect (issue 38): a socket that comes back with `?since=V` (the game
//! version it holds) gets every state it missed, in order, each carrying its version, counted
//! from the moves it held; nothing missed gets the current state with no new moves; a gap past
//! the 4 kept states gets the state whole. A bad `since` is a 400 that names it.

use std::time::Duration;

use serde_json::{Value, json};
use server::client::{ApiClient, WsStream, next_json};

use crate::common::*;

/// The next message of `ws` (a state), within 5 s.
async fn next_state(ws: &mut WsStream) -> Value {
    let m = tokio::time::timeout(Duration::from_secs(5), next_json(ws))
        .await
        .expect("a state within 5 s")
        .expect("open");
    assert_eq!(m["type"], "state", "{m}");
    m
}

/// Nothing more within `ms`.
async fn quiet(ws: &mut WsStream, ms: u64) {
    if let Ok(m) = tokio::time::timeout(Duration::from_millis(ms), next_json(ws)).await {
        panic!("nothing more was expected, got {m:?}");
    }
}

/// Plays the first legal move `n` times on the one-screen game `id`.
async fn play_n(c: &mut ApiClient, id: &str, n: usize) -> Value {
    let mut g = c.get(&format!("/api/games/{id}")).await.expect("get").body;
    for _ in 0..n {
        let mv = g["legal"][0]["id"]
            .as_str()
            .expect("a legal move")
            .to_string();
        g = play(c, id, &mv).await;
        assert_eq!(g["status"], "ongoing", "{g}");
    }
    g
}

async fn local_game(srv: &TestServer) -> (ApiClient, String) {
    let mut me = srv.client();
    let g = create(&mut me, json!({"variant": "iceage", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    (me, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_that_comes_back_gets_each_missed_state_in_order() {
    let srv = TestServer::start(&sqlite_url("replay-order")).await;
    let (mut me, id) = local_game(&srv).await;
    play_n(&mut me, &id, 2).await;
    let mut ws = me.ws_query(&id, "moves=changes").await.expect("ws");
    let held = next_state(&mut ws).await;
    let since = held["game"]["version"].as_i64().expect("version");
    let mut moves = held["game"]["moves"].as_array().expect("moves").clone();
    assert_eq!(moves.len(), 2);
    drop(ws);
    // Two moves while away.
    let now = play_n(&mut me, &id, 2).await;
    let mut ws = me
        .ws_query(&id, &format!("moves=changes&since={since}"))
        .await
        .expect("ws");
    for k in 1..=2 {
        let m = next_state(&mut ws).await;
        assert_eq!(
            m["game"]["version"].as_i64(),
            Some(since + k),
            "in order: {m}"
        );
        assert_eq!(m["moves_from"].as_u64(), Some(moves.len() as u64), "{m}");
        let new = m["game"]["moves"].as_array().expect("moves");
        assert_eq!(new.len(), 1, "one move per state: {m}");
        moves.extend(new.iter().cloned());
    }
    assert_eq!(
        Value::Array(moves.clone()),
        now["moves"],
        "the kept list is the game's"
    );
    quiet(&mut ws, 300).await;
    // The socket goes on as any other: the next move comes once.
    let after = play_n(&mut me, &id, 1).await;
    let m = next_state(&mut ws).await;
    assert_eq!(m["game"]["version"], after["version"]);
    assert_eq!(m["moves_from"].as_u64(), Some(4));

    // The same replay whole, on a socket that does not keep the list.
    let mut ws = me
        .ws_query(&id, &format!("since={since}"))
        .await
        .expect("ws");
    for k in 1..=3 {
        let m = next_state(&mut ws).await;
        assert_eq!(m["game"]["version"].as_i64(), Some(since + k), "{m}");
        assert!(m.get("moves_from").is_none(), "{m}");
        assert_eq!(
            m["game"]["moves"].as_array().map(Vec::len),
            Some(2 + k as usize)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_missed_is_one_state_without_new_moves_and_a_long_gap_is_whole() {
    let srv = TestServer::start(&sqlite_url("replay-gap")).await;
    let (mut me, id) = local_game(&srv).await;
    let mut ws = me.ws_query(&id, "moves=changes").await.expect("ws");
    let first = next_state(&mut ws).await;
    let since = first["game"]["version"].as_i64().expect("version");
    drop(ws);
    // Nothing missed: the current state, no new moves (its clocks and offers are current).
    let mut ws = me
        .ws_query(&id, &format!("moves=changes&since={since}"))
        .await
        .expect("ws");
    let m = next_state(&mut ws).await;
    assert_eq!(m["game"]["version"].as_i64(), Some(since));
    assert_eq!(m["moves_from"].as_u64(), Some(0));
    assert_eq!(m["game"]["moves"], json!([]));
    quiet(&mut ws, 300).await;
    drop(ws);
    // 25 changes away: past the 4 kept, the state comes whole, once.
    let now = play_n(&mut me, &id, 25).await;
    let mut ws = me
        .ws_query(&id, &format!("moves=changes&since={since}"))
        .await
        .expect("ws");
    let m = next_state(&mut ws).await;
    assert!(m.get("moves_from").is_none(), "whole: {m}");
    assert_eq!(m["game"]["moves"], now["moves"]);
    quiet(&mut ws, 300).await;
    // A version the game never had (ahead of it): the state whole.
    let mut ws = me
        .ws_query(&id, "moves=changes&since=100000")
        .await
        .expect("ws");
    let m = next_state(&mut ws).await;
    assert!(m.get("moves_from").is_none(), "whole: {m}");
    assert_eq!(m["game"]["version"], now["version"]);
    // A bad since: 400 naming it.
    for bad in ["since=-1", "since=x", "since=1.5"] {
        let a = me
            .get(&format!("/api/games/{id}/ws?{bad}"))
            .await
            .expect("request");
        assert_error(&a, 400, "bad_request");
        assert!(a.text.contains("since="), "{bad}: {}", a.text);
    }
}
