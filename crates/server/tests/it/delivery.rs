//! Issue 9, section 7: every client gets each ply once, in order (a watcher that connects
//! while a move is being stored got it twice), and a resent move is answered, never played
//! as the next side's move (`ply` is required).

use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use server::client::{WsStream, next_json, send_json};

/// Reads states until one at `ply` arrives; returns the plies of every state read.
async fn plies_until(ws: &mut WsStream, ply: u64) -> Vec<u64> {
    let mut seen = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let msg = next_json(ws).await.expect("websocket open");
            if msg["type"] != "state" {
                continue;
            }
            let p = msg["game"]["ply"].as_u64().expect("ply");
            seen.push(p);
            if p >= ply {
                return;
            }
        }
    })
    .await
    .expect("the state arrives");
    seen
}

fn first_legal(view: &Value) -> String {
    view["legal"][0]["id"]
        .as_str()
        .expect("a legal move")
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watchers_connecting_mid_move_get_each_ply_once() {
    // About 200 requests on one game within a second or two: above the per-address lookup
    // limit (tested in limits.rs), which is not what this test is about.
    let options = server::SiteOptions {
        rate_limits: server::options::RateLimits::off(),
        ..server::SiteOptions::default()
    };
    let srv = TestServer::start_with(&sqlite_url("once"), options).await;
    let mut me = srv.client();
    let mut watchers = 0;
    let mut twice = 0;
    for _ in 0..4 {
        let g = create(
            &mut me,
            json!({"variant": "antarctos", "opponent": "local"}),
        )
        .await;
        let id = g["id"].as_str().expect("id").to_string();
        let mut view = g;
        for _ in 0..12 {
            if view["status"] != "ongoing" {
                break;
            }
            let ply = view["ply"].as_u64().expect("ply");
            // A watcher connects while the move is being stored.
            let eve = srv.client();
            let path = format!("/api/games/{id}/moves");
            let body = json!({"move": first_legal(&view), "ply": ply});
            let mut mover = me.clone();
            let (ws, moved) = tokio::join!(eve.ws(&id), mover.post(&path, body));
            let mut ws = ws.expect("ws");
            let moved = moved.expect("move");
            assert_eq!(moved.status, 200, "{}", moved.text);
            view = moved.body;
            if view["status"] != "ongoing" {
                break;
            }
            // A second move is the barrier: a repeated state of the first would come before it.
            let next = play(&mut me, &id, &first_legal(&view)).await;
            let seen = plies_until(&mut ws, ply + 2).await;
            watchers += 1;
            if seen.windows(2).any(|w| w[0] >= w[1]) {
                twice += 1;
                eprintln!("watcher got plies {seen:?}");
            }
            view = next;
        }
    }
    eprintln!("{twice} of {watchers} watchers got a ply twice");
    assert!(watchers >= 20, "only {watchers} watchers");
    assert_eq!(twice, 0, "every watcher gets each ply once, in order");
    srv.stop().await;
}

#[tokio::test]
async fn resent_moves_are_answered_not_played_again() {
    let srv = TestServer::start(&sqlite_url("resend")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/moves");

    // A double click: the same move twice at once. One is stored; both are answered 200.
    let (a, b) = {
        let (mut c1, mut c2) = (c.clone(), c.clone());
        let body = json!({"move": "c3-d4", "ply": 0});
        tokio::join!(c1.post(&path, body.clone()), c2.post(&path, body))
    };
    let (a, b) = (a.expect("a"), b.expect("b"));
    assert_eq!((a.status, b.status), (200, 200), "{} / {}", a.text, b.text);
    // A retry after a timeout.
    let retry = c
        .post(&path, json!({"move": "c3-d4", "ply": 0}))
        .await
        .expect("retry");
    assert_eq!(retry.status, 200, "{}", retry.text);
    assert_eq!(retry.body["ply"], 1);
    // A move without `ply` (which could not be told from a resend) is refused.
    let bare = c.post(&path, json!({"move": "f6-e5"})).await.expect("bare");
    assert_error(&bare, 400, "bad_request");

    // Over the WebSocket: the resend changes nothing and no state is sent twice.
    let mut ws = c.ws(&id).await.expect("ws");
    assert_eq!(plies_until(&mut ws, 1).await, [1]);
    for _ in 0..2 {
        send_json(&mut ws, &json!({"type": "move", "move": "f6-e5", "ply": 1}))
            .await
            .expect("send");
    }
    send_json(&mut ws, &json!({"type": "move", "move": "d4xf6", "ply": 2}))
        .await
        .expect("send");
    assert_eq!(plies_until(&mut ws, 3).await, [2, 3]);
    let v = c.get(&format!("/api/games/{id}")).await.expect("get");
    let texts: Vec<&str> = v.body["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter_map(|m| m["text"].as_str())
        .collect();
    assert_eq!(texts, ["c3-d4", "f6-e5", "d4xf6"]);
    srv.stop().await;
}
