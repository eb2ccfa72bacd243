//! Notifications exactly once through real processes (issue 38): two `icebound serve --redis`
//! processes on one SQLite file play a correspondence game between two accounts, moves going
//! through either; one process is killed (SIGKILL) with a move in flight, then started again.
//! Every stored move made one "your move" notification for the player to move, never two, and
//! none was made for a move that was not stored; the end made one "game over" each.

use crate::common;

use std::time::Duration;

use common::serve::*;
use serde_json::{Value, json};
use server::client::ApiClient;
use test_support::redis::Redis;
use test_support::services::redis_server as redis_binary;

async fn view(c: &mut ApiClient, id: &str) -> Value {
    let v = c.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(v.status, 200, "{}", v.text);
    v.body
}

/// Plays the first legal move through `c`, answered or not (the process may be killed).
async fn try_move(c: &mut ApiClient, id: &str, v: &Value) -> Option<u16> {
    let mv = v["legal"][0]["id"].as_str()?.to_string();
    let body = json!({"move": mv, "ply": v["ply"].clone()});
    c.post(&format!("/api/games/{id}/moves"), body)
        .await
        .ok()
        .map(|a| a.status)
}

/// `c`'s notifications of `kind`.
async fn count(c: &mut ApiClient, kind: &str) -> usize {
    let a = c.get("/api/notifications").await.expect("notifications");
    assert_eq!(a.status, 200, "{}", a.text);
    a.body["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|n| n["kind"] == kind)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_stored_move_notifies_once_through_a_kill() {
    let Some(binary) = redis_binary() else { return };
    let redis = Redis::start(binary);
    let dir = temp_dir("notify-kill");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("site.db").display());
    let redis_url = redis.url();
    let args = ["--redis", redis_url.as_str()];
    let (a1, a2) = (free_addr(), free_addr());
    let mut p1 = start(&url, a1, &args);
    let mut p2 = start(&url, a2, &args);
    wait_ready(&mut p1, a1).await;
    wait_ready(&mut p2, a2).await;
    let n = std::process::id() % 100_000;
    let mut white = register(a1, &format!("kw{n}")).await;
    let mut black = register(a2, &format!("kb{n}")).await;
    let g = white
        .post(
            "/api/games",
            json!({"variant": "antarctos", "opponent": "friend", "color": "white",
                   "time_control": {"kind": "correspondence", "days": 3}}),
        )
        .await
        .expect("create");
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.body["id"].as_str().expect("id").to_string();
    let invite = g.body["invite_url"].as_str().expect("invite").to_string();
    let j = black
        .post(&format!("/api{invite}"), json!({}))
        .await
        .expect("join");
    assert_eq!(j.status, 200, "{}", j.text);

    // Twelve plies, through the two processes in turn.
    for i in 0..12 {
        let mover = if i % 2 == 0 { &mut white } else { &mut black };
        mover.set_addr(if i % 4 < 2 { a1 } else { a2 });
        let v = view(mover, &id).await;
        assert_eq!(try_move(mover, &id, &v).await, Some(200));
    }
    // A move through process 1, killed while it is in flight.
    white.set_addr(a1);
    let v = view(&mut white, &id).await;
    let mut in_flight = white.clone();
    let sent = tokio::spawn(async move { try_move(&mut in_flight, &id_of(&v), &v).await });
    tokio::time::sleep(Duration::from_millis(3)).await;
    p1.kill().expect("SIGKILL");
    let _ = p1.wait();
    let answered = sent.await.expect("task");
    // The game goes on through process 2, from what is stored.
    white.set_addr(a2);
    black.set_addr(a2);
    for _ in 0..6 {
        let v = view(&mut white, &id).await;
        let mover = if v["turn"] == "white" {
            &mut white
        } else {
            &mut black
        };
        assert_eq!(try_move(mover, &id, &v).await, Some(200));
    }
    // Process 1 comes back on the same file; the last moves go through both again.
    let mut p1 = start(&url, a1, &args);
    wait_ready(&mut p1, a1).await;
    for i in 0..4 {
        let addr = if i % 2 == 0 { a1 } else { a2 };
        white.set_addr(addr);
        black.set_addr(addr);
        let v = view(&mut white, &id).await;
        let mover = if v["turn"] == "white" {
            &mut white
        } else {
            &mut black
        };
        assert_eq!(try_move(mover, &id, &v).await, Some(200));
    }
    let v = view(&mut white, &id).await;
    let plies = v["ply"].as_u64().expect("ply") as usize;
    assert!(
        (22..=23).contains(&plies),
        "22 moves answered, and the one in flight stored or not ({answered:?}): {plies}"
    );
    // Each stored White move told Black once, and each Black move told White once.
    assert_eq!(count(&mut black, "your_move").await, plies.div_ceil(2));
    assert_eq!(count(&mut white, "your_move").await, plies / 2);
    // The end, through process 1: one "game over" each, read through either process.
    white.set_addr(a1);
    let r = white
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await
        .expect("resign");
    assert_eq!(r.status, 200, "{}", r.text);
    black.set_addr(a1);
    white.set_addr(a2);
    assert_eq!(count(&mut black, "game_over").await, 1);
    assert_eq!(count(&mut white, "game_over").await, 1);
    drop(p2);
    drop(p1);
}

fn id_of(v: &Value) -> String {
    v["id"].as_str().expect("id").to_string()
}
