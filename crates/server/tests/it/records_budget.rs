//! The records reader against amplification (issue 41): one request's answer is at most four
//! times its text (at least 64 KiB), and one address's answers share a budget of bytes per
//! minute (429 with `Retry-After` past it; another address is still served).

use crate::common::*;
use serde_json::json;
use server::SiteOptions;
use server::client::Answer;
use server::options::RateLimits;

/// `POST /api/records/read` of Antarctos `text` from `address` (behind the trusted proxy).
async fn read(srv: &TestServer, text: &str, address: &str) -> Answer {
    read_body(srv, json!({"variant": "antarctos", "text": text}), address).await
}

/// `POST /api/records/read` of `body` from `address`.
async fn read_body(srv: &TestServer, body: serde_json::Value, address: &str) -> Answer {
    let body = body.to_string();
    srv.client()
        .send_with_headers(
            "POST",
            "/api/records/read",
            &[
                ("content-type", "application/json"),
                ("x-forwarded-for", address),
            ],
            Some(body.into_bytes()),
        )
        .await
        .expect("read")
}

#[tokio::test]
async fn an_answer_is_at_most_four_times_its_text() {
    let srv = TestServer::start_with(
        &sqlite_url("records_ratio"),
        SiteOptions {
            trust_proxy: true,
            ..SiteOptions::default()
        },
    )
    .await;
    // 200 short games: each move comes back with its position, path and notes.
    let short = "[Event \"x\"]\n\n1. c3-d4 f6-g5 *\n\n".repeat(200);
    let a = read(&srv, &short, "10.9.0.1").await;
    assert_error(&a, 413, "answer_too_large");
    let message = a.body["error"]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("more than 4 times")
            && message.contains(&short.len().to_string())
            && !message.contains("  "),
        "{message}"
    );
    eprintln!("{} bytes of text: {message}", short.len());
    // A file with long games of its own reads as before.
    let annotated = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/records/annotated.pdn"
    ))
    .expect("annotated.pdn");
    let a = read(&srv, &annotated, "10.9.0.1").await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert!(a.text.len() <= (annotated.len() * 4).max(64 * 1024));
    srv.stop().await;
}

#[tokio::test]
async fn an_address_that_spent_its_bytes_waits_and_others_do_not() {
    let budget = 200_000;
    let srv = TestServer::start_with(
        &sqlite_url("records_budget"),
        SiteOptions {
            trust_proxy: true,
            rate_limits: RateLimits {
                records_bytes: Some(budget),
                ..RateLimits::default()
            },
            ..SiteOptions::default()
        },
    )
    .await;
    // 50 games with long tags: about as many bytes back as sent.
    let game = format!("[Event \"{}\"]\n\n1. c3-d4 *\n\n", "e".repeat(1000));
    let text = game.repeat(50);
    let mut sizes = Vec::new();
    let limited = loop {
        let a = read(&srv, &text, "10.9.1.1").await;
        if a.status != 200 {
            break a;
        }
        sizes.push(a.text.len() as u64);
        assert!(sizes.len() < 20, "never limited: {sizes:?}");
    };
    assert_error(&limited, 429, "rate_limited");
    let wait: u64 = limited.headers["retry-after"]
        .to_str()
        .ok()
        .and_then(|s| s.parse().ok())
        .expect("Retry-After");
    assert!((1..=60).contains(&wait), "{wait}");
    // Served while under the budget, refused once at or past it.
    let total: u64 = sizes.iter().sum();
    let last = sizes.last().copied().unwrap_or(0);
    assert!(
        total >= budget && total - last < budget,
        "{sizes:?} against {budget}"
    );
    eprintln!(
        "{} answers of {} bytes ({} bytes of text each), then 429 for {wait} s",
        sizes.len(),
        last,
        text.len()
    );
    let other = read(&srv, &text, "10.9.1.2").await;
    assert_eq!(other.status, 200, "another address: {}", other.text);
    srv.stop().await;
}

/// `games` legal Antarctos games of at most 60 plies (a fixed walk through the legal moves),
/// as one PDN file.
fn legal_games(games: usize) -> String {
    let mut text = String::new();
    for g in 0..games {
        let mut pos = antarctos::Position::start();
        text.push_str(&format!("[Event \"game {g}\"]\n[Result \"*\"]\n\n"));
        for ply in 0..60 {
            if pos.outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            let mv = &moves[(g * 7 + ply * 3) % moves.len()];
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            text.push_str(&antarctos::notation::move_text(&pos, mv));
            text.push(' ');
            pos = pos.play(mv).expect("legal");
        }
        text.push_str("*\n\n");
    }
    text
}

/// `POST /api/records/read` of `text` with `"positions": false` from `address`.
async fn read_lean(srv: &TestServer, text: &str, address: &str) -> Answer {
    let body = json!({"variant": "antarctos", "text": text, "positions": false});
    read_body(srv, body, address).await
}

/// The clients' round (finding 12): with positions, a file of a dozen real games is past the
/// cap, and the refusal says how to ask; without them (`"positions": false`) the whole file is
/// read, each move's text and notes kept, under four times the text.
#[tokio::test]
async fn whole_files_are_read_without_the_positions() {
    let srv = TestServer::start_with(
        &sqlite_url("records_lean"),
        SiteOptions {
            trust_proxy: true,
            ..SiteOptions::default()
        },
    )
    .await;
    let text = legal_games(40);
    let full = read(&srv, &text, "10.9.0.3").await;
    assert_error(&full, 413, "answer_too_large");
    let message = full.body["error"]["message"].as_str().unwrap_or("");
    assert!(message.contains("\"positions\": false"), "{message}");
    let lean = read_lean(&srv, &text, "10.9.0.3").await;
    assert_eq!(lean.status, 200, "{}", lean.text);
    assert!(
        lean.text.len() <= text.len() * 4,
        "{} bytes for {} of text",
        lean.text.len(),
        text.len()
    );
    eprintln!(
        "40 games, {} bytes of text: lean answer {} bytes ({:.2}x)",
        text.len(),
        lean.text.len(),
        lean.text.len() as f64 / text.len() as f64
    );
    let games = lean.body["games"].as_array().expect("games");
    assert_eq!(games.len(), 40, "{}", lean.text);
    assert!(lean.body["errors"].as_array().expect("errors").is_empty());
    // The moves are the file's, in order; the standard start is left out.
    let first = &games[0];
    assert!(first.get("start_fen").is_none(), "{first}");
    let written: Vec<&str> = text
        .split("\n\n")
        .nth(1)
        .expect("game 1's moves")
        .split_whitespace()
        .filter(|t| !t.ends_with('.') && *t != "*")
        .collect();
    let read_back: Vec<&str> = first["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["text"].as_str().expect("text"))
        .collect();
    assert_eq!(read_back, written);
    assert!(first["moves"][0].get("fen").is_none());
    srv.stop().await;
}
