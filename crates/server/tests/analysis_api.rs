//! `POST /api/analysis` (issue 14): the engine's evaluation of any position over HTTP, through
//! the engine queue, with its errors and its per-player limit.

mod common;

use common::*;
use serde_json::{Value, json};

async fn analyse(c: &mut server::client::ApiClient, body: Value) -> server::client::Answer {
    c.post("/api/analysis", body).await.expect("post")
}

#[tokio::test]
async fn seed_example_1_is_a_win_in_three_plies_with_the_seed_line() {
    let srv = TestServer::start(&sqlite_url("analysis_seed")).await;
    let mut c = srv.client();
    // antarctos.md, example 1: Black begins and wins (c7-b6 a5xc7 a7xc5xe3xc1).
    let a = analyse(
        &mut c,
        json!({"variant": "antarctos", "fen": "B:Wa5,d2,d4:Ba7,c7", "movetime_ms": 500}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["score"], json!({"win": 3}), "{}", a.text);
    assert_eq!(a.body["bestmove"], "c7-b6");
    assert_eq!(a.body["pv"], json!(["c7-b6", "a5xc7", "a7xc5xe3xc1"]));
    assert!(a.body["depth"].as_u64().unwrap_or(0) >= 3, "{}", a.text);
    assert!(a.body["nodes"].as_u64().unwrap_or(0) > 0, "{}", a.text);
    srv.stop().await;
}

#[tokio::test]
async fn ice_age_chess_start_gets_a_score_and_a_line_in_san() {
    let srv = TestServer::start(&sqlite_url("analysis_iceage")).await;
    let mut c = srv.client();
    let a = analyse(
        &mut c,
        json!({"variant": "iceage", "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "movetime_ms": 300}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text);
    let cp = a.body["score"]["cp"]
        .as_i64()
        .expect("a score in centi-units");
    assert!(cp.abs() < 300, "the start is about level: {cp}");
    let pv: Vec<&str> = a.body["pv"]
        .as_array()
        .map(|m| m.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert!(!pv.is_empty(), "{}", a.text);
    assert_eq!(a.body["bestmove"], pv[0]);
    // SAN (C13), never a UCI pair like e2e4.
    let uci = |m: &str| {
        let b = m.as_bytes();
        b.len() >= 4
            && (b'a'..=b'h').contains(&b[0])
            && b[1].is_ascii_digit()
            && (b'a'..=b'h').contains(&b[2])
            && b[3].is_ascii_digit()
    };
    assert!(!pv.iter().any(|m| uci(m)), "{pv:?}");
    srv.stop().await;
}

#[tokio::test]
async fn bad_requests_are_400_or_413_and_say_what_is_wrong() {
    let srv = TestServer::start(&sqlite_url("analysis_bad")).await;
    let mut c = srv.client();
    let cases = [
        (
            json!({"variant": "chess", "fen": "x", "movetime_ms": 100}),
            400,
            "unknown variant",
        ),
        (
            json!({"variant": "antarctos", "fen": "W:Wz9", "movetime_ms": 100}),
            400,
            "fen",
        ),
        // Seed example 1's end: Black has broken through (A14).
        (
            json!({"variant": "antarctos", "fen": "W:Wc7:Bc1:Id2,d4", "movetime_ms": 100}),
            400,
            "finished",
        ),
        (
            json!({"variant": "antarctos", "fen": "W:Wc3:Bf6", "movetime_ms": 0}),
            400,
            "movetime_ms 0",
        ),
        (
            json!({"variant": "antarctos", "fen": "W:Wc3:Bf6", "movetime_ms": 5001}),
            400,
            "1 to 5000",
        ),
        (
            json!({"variant": "antarctos", "fen": "W:Wc3:Bf6", "movetime_ms": 100, "depth": 3}),
            400,
            "depth",
        ),
        (
            json!({"variant": "antarctos", "fen": "W:Wc3:Bf6"}),
            400,
            "movetime_ms",
        ),
        (
            json!({"variant": "antarctos", "fen": "W".repeat(300), "movetime_ms": 100}),
            413,
            "256",
        ),
    ];
    for (body, status, says) in cases {
        let a = analyse(&mut c, body.clone()).await;
        assert_eq!(a.status, status, "{body}: {}", a.text);
        let message = a.body["error"]["message"].as_str().unwrap_or("");
        assert!(message.contains(says), "{body}: {message}");
    }
    srv.stop().await;
}

#[tokio::test]
async fn a_player_has_at_most_two_analyses_at_once() {
    let srv = TestServer::start(&sqlite_url("analysis_cap")).await;
    let mut me = srv.client();
    assert_eq!(me.get("/api/my-games").await.expect("get").status, 200);
    let body = json!({"variant": "iceage", "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "movetime_ms": 1500});
    let mut tasks = Vec::new();
    for _ in 0..3 {
        let mut c = me.clone();
        let body = body.clone();
        tasks.push(tokio::spawn(async move { analyse(&mut c, body).await }));
    }
    let mut statuses = Vec::new();
    for t in tasks {
        let a = t.await.expect("task");
        if a.status == 429 {
            assert_eq!(a.body["error"]["code"], "too_many_analyses", "{}", a.text);
        }
        statuses.push(a.status);
    }
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 200, 429], "the third waits for an answer");
    // Another player is not held up, and the first player may ask again once answered.
    let mut other = srv.client();
    assert_eq!(analyse(&mut other, body.clone()).await.status, 200);
    assert_eq!(analyse(&mut me, body).await.status, 200);
    srv.stop().await;
}
