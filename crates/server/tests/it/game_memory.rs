//! A finished game leaves this process's memory with its last socket (issue 44: finished games
//! kept until the cache's bound held 140-300 MB after a saturated run), and comes back whole
//! from the store when asked for; a game in play stays when its sockets close.

use std::time::Duration;

use serde_json::{Value, json};
use server::client::next_json;

use crate::common::*;

/// Waits up to 5 s for `cond` on the site's count of games in memory.
async fn memory_becomes(srv: &TestServer, cond: impl Fn(usize) -> bool) -> usize {
    for _ in 0..100 {
        let n = srv.site.service().games_in_memory();
        if cond(n) {
            return n;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    srv.site.service().games_in_memory()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_leaves_memory_with_its_last_socket_and_reloads_whole() {
    let srv = TestServer::start(&sqlite_url("game-memory")).await;
    let mut me = srv.client();
    let g = create(
        &mut me,
        json!({"variant": "antarctos", "opponent": "local"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut moved: Value = g;
    for _ in 0..3 {
        let mv = moved["legal"][0]["id"].as_str().expect("legal").to_string();
        moved = play(&mut me, &id, &mv).await;
    }
    let mut first = me.ws(&id).await.expect("ws");
    let mut second = me.ws(&id).await.expect("ws");
    for ws in [&mut first, &mut second] {
        let m = next_json(ws).await.expect("a state");
        assert_eq!(m["type"], "state", "{m}");
    }
    let held = srv.site.service().games_in_memory();
    assert!(held >= 1, "the game is in memory while watched");

    // In play: its sockets close, it stays.
    drop(first);
    drop(second);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        srv.site.service().games_in_memory(),
        held,
        "a game in play stays in memory without its sockets"
    );

    // Over, watched: it stays while a socket is open, and goes with the last one.
    let mut ws = me.ws(&id).await.expect("ws");
    next_json(&mut ws).await.expect("a state");
    let r = me
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await
        .expect("resign");
    assert_eq!(r.status, 200, "{}", r.text);
    let m = next_json(&mut ws).await.expect("the final state");
    assert_eq!(m["game"]["status"], "finished", "{m}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(srv.site.service().games_in_memory(), held, "still watched");
    drop(ws);
    let after = memory_becomes(&srv, |n| n < held).await;
    assert_eq!(after, held - 1, "the finished game left memory");

    // Asked for again: whole, from the store.
    let back = me.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(back.status, 200, "{}", back.text);
    assert_eq!(back.body["status"], "finished");
    assert_eq!(back.body["moves"], m["game"]["moves"], "the moves reload");
    assert_eq!(back.body["ply"], json!(3));
    // Reading a finished game does not keep it.
    assert_eq!(
        memory_becomes(&srv, |n| n < held).await,
        held - 1,
        "read, not kept"
    );
    // A game in play that is read stays.
    let live = create(&mut me, json!({"variant": "iceage", "opponent": "local"})).await;
    let live_id = live["id"].as_str().expect("id");
    let before = srv.site.service().games_in_memory();
    let read = me.get(&format!("/api/games/{live_id}")).await.expect("get");
    assert_eq!(read.status, 200, "{}", read.text);
    assert_eq!(srv.site.service().games_in_memory(), before, "kept");
}
