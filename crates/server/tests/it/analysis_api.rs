//! `POST /api/analysis` (issue 14): the engine's evaluation of any position over HTTP, through
//! the engine queue, with its errors and its per-player limit.

use crate::common::*;
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

/// The `data:` of every `event: name` of a server-sent event stream, as JSON.
fn events(body: &str, name: &str) -> Vec<Value> {
    body.split("\n\n")
        .filter(|block| block.lines().any(|l| l == format!("event: {name}")))
        .filter_map(|block| {
            let data: String = block
                .lines()
                .filter_map(|l| l.strip_prefix("data: "))
                .collect();
            serde_json::from_str(&data).ok()
        })
        .collect()
}

#[tokio::test]
async fn the_stream_sends_each_iteration_then_the_answer() {
    let srv = TestServer::start(&sqlite_url("analysis_stream")).await;
    let mut c = srv.client();
    let a = c
        .post(
            "/api/analysis/stream",
            json!({"variant": "antarctos", "fen": "B:Wa5,d2,d4:Ba7,c7", "movetime_ms": 1000}),
        )
        .await
        .expect("post");
    assert_eq!(a.status, 200, "{}", a.text);
    let iterations = events(&a.text, "iteration");
    assert!(!iterations.is_empty(), "{}", a.text);
    let depths: Vec<u64> = iterations
        .iter()
        .filter_map(|i| i["depth"].as_u64())
        .collect();
    assert!(
        depths.windows(2).all(|w| w[0] < w[1]),
        "deeper each time: {depths:?}"
    );
    let done = events(&a.text, "done");
    assert_eq!(done.len(), 1, "{}", a.text);
    assert_eq!(done[0]["score"], json!({"win": 3}));
    assert_eq!(done[0]["pv"], json!(["c7-b6", "a5xc7", "a7xc5xe3xc1"]));
    // The same checks as the one-shot answer; the stream's time may be left out (30 s cap).
    let bad = c
        .post(
            "/api/analysis/stream",
            json!({"variant": "antarctos", "fen": "W:Wc3:Bf6", "movetime_ms": 30001}),
        )
        .await
        .expect("post");
    assert_error(&bad, 400, "bad_request");
    srv.stop().await;
}

#[tokio::test]
async fn closing_the_stream_stops_the_search_and_frees_the_player() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let srv = TestServer::start(&sqlite_url("analysis_close")).await;
    let mut me = srv.client();
    assert_eq!(me.get("/api/my-games").await.expect("get").status, 200);
    let token = me.token().expect("token").to_string();
    let body = json!({"variant": "iceage", "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}).to_string();
    // Two 30 s searches, read until their first event, then the connections are dropped.
    for _ in 0..2 {
        let mut tcp = tokio::net::TcpStream::connect(srv.addr)
            .await
            .expect("connect");
        let request = format!(
            "POST /api/analysis/stream HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\nx-icebound-player: {token}\r\ncontent-length: {}\r\n\r\n{body}",
            srv.addr,
            body.len()
        );
        tcp.write_all(request.as_bytes()).await.expect("write");
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        while !String::from_utf8_lossy(&seen).contains("event: iteration") {
            let n = tokio::time::timeout(std::time::Duration::from_secs(20), tcp.read(&mut buf))
                .await
                .expect("an iteration within 20 s")
                .expect("read");
            assert!(n > 0, "{}", String::from_utf8_lossy(&seen));
            seen.extend_from_slice(&buf[..n]);
        }
        assert!(String::from_utf8_lossy(&seen).starts_with("HTTP/1.1 200"));
    }
    // Both closed: within a few seconds the player may analyse again, twice at once.
    let quick = json!({"variant": "iceage", "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "movetime_ms": 50});
    let t = std::time::Instant::now();
    loop {
        let a = me.post("/api/analysis", quick.clone()).await.expect("post");
        if a.status == 200 {
            break;
        }
        assert_error(&a, 429, "too_many_analyses");
        assert!(
            t.elapsed().as_secs() < 10,
            "the closed streams still hold the player"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let load = srv.site.service().engine_queue().load();
    assert_eq!(load.running + load.paused + load.waiting, 0, "{load:?}");
    srv.stop().await;
}

#[tokio::test]
async fn positions_give_every_legal_move_and_where_it_leads() {
    let srv = TestServer::start(&sqlite_url("positions")).await;
    let mut c = srv.client();
    let start = c
        .post(
            "/api/positions",
            json!({"variant": "antarctos", "fen": "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"}),
        )
        .await
        .expect("post");
    assert_eq!(start.status, 200, "{}", start.text);
    assert_eq!(start.body["turn"], "white");
    assert_eq!(start.body["result"], Value::Null);
    let legal = start.body["legal"].as_array().expect("legal");
    assert_eq!(legal.len(), 7, "A5: seven simple moves from the start");
    let c3d4 = legal.iter().find(|m| m["text"] == "c3-d4").expect("c3-d4");
    assert_eq!(c3d4["path"], json!(["c3", "d4"]));
    // The position after it is the one the rules give.
    let after = c
        .post(
            "/api/positions",
            json!({"variant": "antarctos", "fen": c3d4["fen"]}),
        )
        .await
        .expect("post");
    assert_eq!(after.body["turn"], "black");
    assert_eq!(after.body["fen"], c3d4["fen"]);
    // Seed example 1's end: over, with its result in words and no moves (A14).
    let over = c
        .post(
            "/api/positions",
            json!({"variant": "antarctos", "fen": "W:Wc7:Bc1:Id2,d4"}),
        )
        .await
        .expect("post");
    assert_eq!(over.status, 200, "{}", over.text);
    assert_eq!(over.body["legal"], json!([]));
    assert_eq!(over.body["result"]["winner"], "black");
    assert_eq!(over.body["result"]["reason"], "breakthrough");
    // Ice Age Chess: the countdown, and the move that brings an Ice Age says so (C5).
    let ice = c
        .post(
            "/api/positions",
            json!({"variant": "iceage", "fen": "4k3/8/8/8/8/8/8/4K3 b - - 0 20"}),
        )
        .await
        .expect("post");
    assert_eq!(ice.status, 200, "{}", ice.text);
    assert_eq!(ice.body["ice_age_in"], 1);
    assert!(
        ice.body["legal"]
            .as_array()
            .is_some_and(|l| l.iter().all(|m| m["event"].is_string())),
        "{}",
        ice.text
    );
    let bad = c
        .post(
            "/api/positions",
            json!({"variant": "antarctos", "fen": "W:Wz9"}),
        )
        .await
        .expect("post");
    assert_error(&bad, 400, "bad_request");
    srv.stop().await;
}

#[tokio::test]
async fn solve_proves_the_seed_examples_with_their_lines() {
    let srv = TestServer::start(&sqlite_url("solve")).await;
    let mut c = srv.client();
    // antarctos.md, examples 1 and 2: Black wins, then White wins, each in 3 plies.
    let one = c
        .post(
            "/api/solve",
            json!({"variant": "antarctos", "fen": "B:Wa5,d2,d4:Ba7,c7"}),
        )
        .await
        .expect("post");
    assert_eq!(one.status, 200, "{}", one.text);
    assert_eq!(one.body["result"], "win");
    assert_eq!(one.body["winner"], "black");
    assert_eq!(one.body["plies"], 3);
    assert_eq!(one.body["line"], json!(["c7-b6", "a5xc7", "a7xc5xe3xc1"]));
    let two = c
        .post(
            "/api/solve",
            json!({"variant": "antarctos", "fen": "W:Wb4,e3,f2:Bc7,d6:Ic3", "max_plies": 10}),
        )
        .await
        .expect("post");
    assert_eq!(two.status, 200, "{}", two.text);
    assert_eq!(two.body["winner"], "white", "{}", two.text);
    assert_eq!(two.body["line"][0], "b4-c5", "{}", two.text);
    // Nothing forced in 2 plies from the start.
    let none = c
        .post(
            "/api/solve",
            json!({"variant": "iceage", "fen": "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "max_plies": 2}),
        )
        .await
        .expect("post");
    assert_eq!(none.status, 200, "{}", none.text);
    assert_eq!(none.body["result"], "unknown");
    assert_eq!(none.body["max_plies"], 2);
    assert_eq!(none.body["line"], json!([]));
    for (body, says) in [
        (
            json!({"variant": "antarctos", "fen": "B:Wa5,d2,d4:Ba7,c7", "max_plies": 101}),
            "max_plies",
        ),
        (
            json!({"variant": "antarctos", "fen": "B:Wa5,d2,d4:Ba7,c7", "movetime_ms": 10001}),
            "movetime_ms",
        ),
        (
            json!({"variant": "antarctos", "fen": "W:Wc7:Bc1:Id2,d4"}),
            "finished",
        ),
    ] {
        let a = c.post("/api/solve", body.clone()).await.expect("post");
        assert_eq!(a.status, 400, "{body}: {}", a.text);
        assert!(a.text.contains(says), "{body}: {}", a.text);
    }
    srv.stop().await;
}

#[tokio::test]
async fn record_files_open_as_move_trees_with_their_errors() {
    let srv = TestServer::start(&sqlite_url("records_read")).await;
    let mut c = srv.client();
    // Seed example 1 with a variation and a comment, then a game with an illegal move.
    let text = "[Event \"one\"]\n[FEN \"B:Wa5,d2,d4:Ba7,c7\"]\n\n1... c7-b6 {the only way} (1... c7-d6 2. a5-b6) 2. a5xc7 a7xc5xe3xc1 0-1\n\n\
                [Event \"two\"]\n\n1. c3-d4 f6-g5 2. d4-e7 *\n";
    let a = c
        .post(
            "/api/records/read",
            json!({"variant": "antarctos", "text": text}),
        )
        .await
        .expect("post");
    assert_eq!(a.status, 200, "{}", a.text);
    let games = a.body["games"].as_array().expect("games");
    assert_eq!(games.len(), 1, "{}", a.text);
    let moves = games[0]["moves"].as_array().expect("moves");
    let texts: Vec<&str> = moves.iter().filter_map(|m| m["text"].as_str()).collect();
    assert_eq!(texts, ["c7-b6", "a5xc7", "a7xc5xe3xc1"]);
    assert_eq!(moves[0]["comments"], json!(["the only way"]));
    assert_eq!(moves[0]["variations"][0][0]["text"], "c7-d6");
    assert_eq!(moves[0]["variations"][0][1]["text"], "a5-b6");
    assert_eq!(moves[2]["fen"], "W:Wc7:Bc1:Id2,d4");
    assert_eq!(games[0]["result"], "0-1");
    assert_eq!(games[0]["game"], 1);
    let errors = a.body["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), 1, "{}", a.text);
    assert_eq!(errors[0]["game"], 2);
    assert!(
        errors[0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("d4-e7"),
        "the error names the move: {}",
        a.text
    );
    // Larger than the 16 KiB of other requests, up to 256 KiB of text.
    let many = "[Event \"x\"]\n\n1. c3-d4 *\n\n".repeat(1500);
    assert!(many.len() > 16 * 1024);
    let big = c
        .post(
            "/api/records/read",
            json!({"variant": "antarctos", "text": many}),
        )
        .await
        .expect("post");
    assert_eq!(big.status, 200, "{}", &big.text[..big.text.len().min(300)]);
    assert_eq!(big.body["games"].as_array().map(Vec::len), Some(200));
    let huge = c
        .post(
            "/api/records/read",
            json!({"variant": "antarctos", "text": "x".repeat(300 * 1024)}),
        )
        .await
        .expect("post");
    assert_error(&huge, 413, "too_large");
    srv.stop().await;
}

/// What the reader repaired is said (the third clients' round, finding 1): a variation cut at
/// its first move is left out and named in `warnings`, as is a repeated tag; both answers,
/// with and without positions.
#[tokio::test]
async fn record_reading_says_what_it_left_out() {
    let srv = TestServer::start(&sqlite_url("records_warn")).await;
    let mut c = srv.client();
    let text = "[White \"A\"]\n[Black \"B\"]\n[Black \"C\"]\n\n\
                1. c3-d4 (1. c3-c4 d6-e5) d6-e5 2. b2-c3 e7-d6 *\n";
    for positions in [true, false] {
        let a = c
            .post(
                "/api/records/read",
                json!({"variant": "antarctos", "text": text, "positions": positions}),
            )
            .await
            .expect("post");
        assert_eq!(a.status, 200, "{}", a.text);
        let moves = a.body["games"][0]["moves"].as_array().expect("moves");
        assert_eq!(moves.len(), 4, "{}", a.text);
        let variations = &moves[0]["variations"];
        assert!(
            variations.is_null() || variations == &json!([]),
            "no empty variation: {}",
            a.text
        );
        let warnings: Vec<&str> = a.body["warnings"]
            .as_array()
            .expect("warnings")
            .iter()
            .filter_map(|w| w["message"].as_str())
            .collect();
        assert!(
            warnings.iter().any(
                |w| w.contains("variation opened on line 5 is cut here") && w.contains("c3-c4")
            ),
            "{warnings:?}"
        );
        assert!(
            warnings.iter().any(|w| w.contains("tag [Black] repeated")),
            "{warnings:?}"
        );
        assert_eq!(a.body["warnings"][0]["game"], 1, "{}", a.text);
    }
    srv.stop().await;
}
