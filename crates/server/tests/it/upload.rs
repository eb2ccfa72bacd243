//! `POST /api/games/upload` (issue 42) on SQLite and, when `ICEBOUND_TEST_POSTGRES_URL` is
//! set, on PostgreSQL: a finished game against the computer played in the browser is stored
//! unrated, offline, and readable at `/api/games/{id}`; an illegal move is refused naming its
//! ply; a claimed result the rules disagree with is refused; an unfinished game is taken only as
//! the uploader's resignation; the same upload twice is one game;
//! the uploader's rating does not move.

use crate::common::*;
use antarctos::Antarctos;
use game::{Color, Variant};
use serde_json::{Value, json};
use server::SiteOptions;
use server::client::ApiClient;
use server::options::RateLimits;

fn options() -> SiteOptions {
    SiteOptions {
        rate_limits: RateLimits::off(),
        ..SiteOptions::default()
    }
}

/// A finished Antarctos game from the start: each side plays its first legal move (by move
/// text). Returns the moves and the result text.
fn finished_game() -> (Vec<String>, &'static str) {
    let mut pos = Antarctos::start_position();
    let mut moves = Vec::new();
    loop {
        if let Some(outcome) = Antarctos::outcome(&pos) {
            let result = match outcome.winner() {
                Some(Color::White) => "1-0",
                Some(Color::Black) => "0-1",
                None => "1/2-1/2",
            };
            return (moves, result);
        }
        let mut legal: Vec<_> = Antarctos::legal_moves(&pos)
            .into_iter()
            .map(|mv| (Antarctos::move_text(&pos, &mv), mv))
            .collect();
        legal.sort_by(|a, b| a.0.cmp(&b.0));
        let (text, mv) = legal.swap_remove(0);
        pos = Antarctos::play(&pos, &mv).expect("a legal move plays");
        moves.push(text);
        assert!(moves.len() < 500, "the game ends");
    }
}

async fn upload(c: &mut ApiClient, body: Value) -> server::client::Answer {
    c.post("/api/games/upload", body).await.expect("upload")
}

async fn uploads(url: &str) {
    let srv = TestServer::start_with(url, options()).await;
    let name = unique("ola_");
    let mut c = register(&srv, &name).await;
    let before = c
        .get(&format!("/api/players/{name}"))
        .await
        .expect("profile");
    assert_eq!(before.status, 200, "{}", before.text);

    let (moves, result) = finished_game();
    let body = json!({"variant": "antarctos", "moves": moves, "level": 3, "color": "white", "result": result});
    let first = upload(&mut c, body.clone()).await;
    assert_eq!(first.status, 201, "{}", first.text);
    let id = first.body["id"].as_str().expect("an id").to_string();
    assert_eq!(first.body["offline"], true, "{}", first.text);
    assert_eq!(first.body["rated"], false);
    assert_eq!(first.body["ratings"], Value::Null);
    assert_eq!(first.body["status"], "finished");
    assert_eq!(first.body["result"]["result"], result);
    assert_eq!(first.body["you"], "white");
    assert_eq!(first.body["white"]["username"], name.as_str());
    assert_eq!(first.body["black"], json!({"kind": "engine", "level": 3}));

    // Readable by anyone, with every move.
    let mut other = srv.client();
    let read = other.get(&format!("/api/games/{id}")).await.expect("read");
    assert_eq!(read.status, 200, "{}", read.text);
    assert_eq!(read.body["offline"], true);
    assert_eq!(
        read.body["moves"].as_array().map(Vec::len),
        Some(moves.len())
    );
    assert_eq!(read.body["ply"], moves.len());
    assert!(
        read.body["legal"].as_array().is_some_and(Vec::is_empty),
        "a finished game has no legal move"
    );

    // The same upload again: the same game, nothing stored twice.
    let again = upload(&mut c, body.clone()).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.body["id"], id.as_str());
    let mine = c.get("/api/my-games").await.expect("my games");
    let ids: Vec<&str> = mine
        .body
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(ids, vec![id.as_str()], "one game: {}", mine.text);
    // Another player's same game is that player's own.
    let theirs = upload(&mut other, body.clone()).await;
    assert_eq!(theirs.status, 201, "{}", theirs.text);
    assert_ne!(theirs.body["id"], id.as_str());

    // No rating moved: the profile is as it was.
    let after = c
        .get(&format!("/api/players/{name}"))
        .await
        .expect("profile");
    assert_eq!(
        after.body["ratings"], before.body["ratings"],
        "{}",
        after.text
    );
    // Nor its tally: an upload is unverified, so it is no one's win or loss.
    assert_eq!(after.body["games"], before.body["games"], "{}", after.text);
    assert_eq!(after.body["games"]["total"], 0, "{}", after.text);
    for speed in ["realtime", "correspondence"] {
        let r = &after.body["ratings"]["antarctos"][speed];
        assert_eq!(
            (&r["games"], &r["rating"]),
            (&json!(0), &json!(1500)),
            "{}",
            after.text
        );
    }

    // An illegal move: refused, naming its ply; nothing stored.
    let mut bad = moves.clone();
    bad[2] = "a1-h8".to_string();
    let refused = upload(
        &mut c,
        json!({"variant": "antarctos", "moves": bad, "level": 3, "color": "white", "result": result}),
    )
    .await;
    assert_error(&refused, 422, "illegal_move");
    let message = refused.body["error"]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("ply 3") && message.contains("a1-h8"),
        "{message}"
    );

    // A result the rules disagree with.
    let wrong = if result == "1-0" { "0-1" } else { "1-0" };
    let refused = upload(
        &mut c,
        json!({"variant": "antarctos", "moves": moves, "level": 3, "color": "white", "result": wrong}),
    )
    .await;
    assert_error(&refused, 400, "bad_request");
    let message = refused.body["error"]["message"].as_str().unwrap_or("");
    assert!(message.contains("disagrees"), "{message}");

    // An unfinished game claimed as the uploader's win or a draw, and bad fields.
    for claim in ["1-0", "1/2-1/2"] {
        let refused = upload(
            &mut c,
            json!({"variant": "antarctos", "moves": moves[..4], "level": 3, "color": "white", "result": claim}),
        )
        .await;
        assert_error(&refused, 400, "bad_request");
        let message = refused.body["error"]["message"].as_str().unwrap_or("");
        assert!(message.contains("not over"), "{claim}: {message}");
    }
    for (field, value) in [
        ("variant", json!("go")),
        ("level", json!(9)),
        ("color", json!("green")),
        ("result", json!("*")),
    ] {
        let mut b = body.clone();
        b[field] = value;
        let refused = upload(&mut c, b).await;
        assert_error(&refused, 400, "bad_request");
    }
    let ids_after: Vec<String> = c
        .get("/api/my-games")
        .await
        .expect("my games")
        .body
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|g| g["id"].as_str().map(str::to_string))
        .collect();
    assert_eq!(ids_after, vec![id.clone()], "refused uploads store nothing");

    // An unfinished game the uploader lost: a resignation, stored as one.
    let resigned = upload(
        &mut c,
        json!({"variant": "antarctos", "moves": moves[..4], "level": 3, "color": "white", "result": "0-1"}),
    )
    .await;
    assert_eq!(resigned.status, 201, "{}", resigned.text);
    assert_eq!(resigned.body["status"], "finished");
    assert_eq!(
        resigned.body["result"]["winner"], "black",
        "{}",
        resigned.text
    );
    assert_eq!(resigned.body["result"]["reason"], "resignation");
    assert_eq!(resigned.body["ply"], 4);
    srv.stop().await;
}

both_databases! {
    async fn offline_games_upload(url: &str) {
        uploads(url).await;
    }
}

/// An uploaded game is marked `offline` in the uploader's game lists (`/api/my-games` and the
/// profile's `/api/players/{name}/games`; other games carry no such field), and it is not
/// counted in the site's statistics (`/api/stats`): it is unverified.
#[tokio::test]
async fn uploaded_games_are_marked_offline_and_not_counted() {
    let srv = TestServer::start_with(&sqlite_url("offlinemark"), options()).await;
    let name = unique("oda_");
    let mut c = register(&srv, &name).await;
    let local = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let local_id = local["id"].as_str().expect("id").to_string();
    let stats = |a: server::client::Answer| {
        assert_eq!(a.status, 200, "{}", a.text);
        (a.body["antarctos"].clone(), a.body["iceage"].clone())
    };
    let before = stats(c.get("/api/stats").await.expect("stats"));
    let (moves, result) = finished_game();
    let up = upload(
        &mut c,
        json!({"variant": "antarctos", "moves": moves, "level": 8,
               "color": if result == "0-1" { "black" } else { "white" }, "result": result}),
    )
    .await;
    assert_eq!(up.status, 201, "{}", up.text);
    let up_id = up.body["id"].as_str().expect("id").to_string();
    let resigned = upload(
        &mut c,
        json!({"variant": "antarctos", "moves": moves[..4], "level": 3, "color": "black", "result": "1-0"}),
    )
    .await;
    assert_eq!(resigned.status, 201, "{}", resigned.text);
    assert_eq!(
        stats(c.get("/api/stats").await.expect("stats")),
        before,
        "uploads are not counted"
    );
    // A game played on the site is counted (resigned at its second move: before it, a game is
    // aborted, not resigned).
    play(&mut c, &local_id, &moves[0]).await;
    play(&mut c, &local_id, &moves[1]).await;
    let r = c
        .post(&format!("/api/games/{local_id}/resign"), json!({}))
        .await
        .expect("resign");
    assert_eq!(r.status, 200, "{}", r.text);
    let after = stats(c.get("/api/stats").await.expect("stats"));
    assert_eq!(
        after.0["total"],
        before.0["total"].as_i64().unwrap_or(0) + 1
    );
    // The profile's tally counts neither the two uploads (unverified) nor the game on one
    // screen (no one's win or loss).
    let profile = c
        .get(&format!("/api/players/{name}"))
        .await
        .expect("profile");
    assert_eq!(
        profile.body["games"],
        json!({"total": 0, "wins": 0, "losses": 0, "draws": 0}),
        "{}",
        profile.text
    );

    let mine = c.get("/api/my-games").await.expect("my games");
    assert_eq!(mine.status, 200, "{}", mine.text);
    let listed = mine.body.as_array().expect("a list");
    assert_eq!(listed.len(), 3, "{}", mine.text);
    for g in listed {
        let uploaded = g["id"] != local_id.as_str();
        assert_eq!(g.get("offline").is_some(), uploaded, "{g}");
        if uploaded {
            assert_eq!(g["offline"], true, "{g}");
        }
    }
    let profile = c
        .get(&format!("/api/players/{name}/games"))
        .await
        .expect("profile games");
    assert_eq!(profile.status, 200, "{}", profile.text);
    // A profile leaves one-screen games out: the two uploads.
    let lines = profile.body["games"].as_array().expect("games");
    assert_eq!(lines.len(), 2, "{}", profile.text);
    for g in lines {
        assert_eq!(g["offline"], true, "{g}");
        if g["id"] == up_id.as_str() {
            assert_eq!(g["offline"], true, "{g}");
            assert_eq!(g["opponent"]["level"], 8, "{g}");
        }
    }
    srv.stop().await;
}

/// Issue 42: a game of fewer than two moves is aborted, not resigned (docs/api.md), so an
/// upload of one that the rules did not end is refused whatever its claim, stores nothing and
/// leaves `/api/stats` as it was; from the second move an unfinished game is the uploader's
/// resignation again.
async fn early_uploads(url: &str) {
    let srv = TestServer::start_with(url, options()).await;
    let mut c = srv.client();
    let stats = |s: &Value| s["antarctos"]["total"].as_i64().expect("a total");
    let before = stats(&c.get("/api/stats").await.expect("stats").body);
    let (moves, _) = finished_game();
    for plies in [0, 1] {
        for claim in ["0-1", "1-0", "1/2-1/2"] {
            let refused = upload(
                &mut c,
                json!({"variant": "antarctos", "moves": moves[..plies], "level": 1, "color": "white", "result": claim}),
            )
            .await;
            assert_error(&refused, 400, "bad_request");
            let message = refused.body["error"]["message"].as_str().unwrap_or("");
            assert!(
                message.contains("fewer than 2 moves is aborted"),
                "{plies} plies, {claim}: {message}"
            );
        }
    }
    let mine = c.get("/api/my-games").await.expect("my games");
    assert_eq!(mine.body, json!([]), "nothing stored: {}", mine.text);
    assert_eq!(
        stats(&c.get("/api/stats").await.expect("stats").body),
        before
    );
    let resigned = upload(
        &mut c,
        json!({"variant": "antarctos", "moves": moves[..4], "level": 1, "color": "white", "result": "0-1"}),
    )
    .await;
    assert_eq!(resigned.status, 201, "{}", resigned.text);
    assert_eq!(resigned.body["result"]["reason"], "resignation");
    // Stored, and still not counted: uploads are unverified.
    assert_eq!(
        stats(&c.get("/api/stats").await.expect("stats").body),
        before
    );
    srv.stop().await;
}

both_databases! {
    async fn uploads_before_the_second_move_are_refused(url: &str) {
        early_uploads(url).await;
    }
}

/// Issue 42: an upload's `illegal_move` carries the move's fault as data, the same as the
/// moves route's for the same position, and a move after the end carries one too.
#[tokio::test]
async fn an_upload_refusal_carries_the_move() {
    let srv = TestServer::start_with(&sqlite_url("upload_move"), options()).await;
    let mut c = srv.client();
    let (moves, result) = finished_game();

    let mut bad = moves.clone();
    bad[2] = "a1-h8".to_string();
    let refused = upload(
        &mut c,
        json!({"variant": "antarctos", "moves": bad, "level": 3, "color": "white", "result": result}),
    )
    .await;
    assert_error(&refused, 422, "illegal_move");
    let fault = &refused.body["error"]["move"];
    assert_eq!(fault["text"], "a1-h8", "{}", refused.text);
    assert_eq!(fault["kind"], "no_match", "{}", refused.text);
    let local = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = local["id"].as_str().expect("id");
    play(&mut c, id, &moves[0]).await;
    play(&mut c, id, &moves[1]).await;
    let direct = c
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "a1-h8", "ply": 2}),
        )
        .await
        .expect("move");
    assert_error(&direct, 422, "illegal_move");
    assert_eq!(
        fault, &direct.body["error"]["move"],
        "the moves route: {}",
        direct.text
    );
    // A move after the end: refused with its fault too.
    let mut after = moves.clone();
    after.push("c3-d4".to_string());
    let refused = upload(
        &mut c,
        json!({"variant": "antarctos", "moves": after, "level": 3, "color": "white", "result": result}),
    )
    .await;
    assert_error(&refused, 422, "illegal_move");
    assert_eq!(
        refused.body["error"]["move"]["kind"], "no_match",
        "{}",
        refused.text
    );
    let message = refused.body["error"]["message"].as_str().unwrap_or("");
    assert!(message.contains("already over"), "{message}");
    srv.stop().await;
}

/// Issue 37: a body that is no JSON object, or a field of the wrong JSON type, is worded in
/// JSON's terms, as the other routes' (one extractor): no Rust type names.
#[tokio::test]
async fn upload_body_errors_word_the_json() {
    let srv = TestServer::start_with(&sqlite_url("upload_json"), options()).await;
    let mut c = srv.client();
    let no_rust = |a: &server::client::Answer| {
        let message = a.body["error"]["message"].as_str().unwrap_or("");
        for rust in ["struct", "UploadBody", "i64", "sequence", "elements"] {
            assert!(!message.contains(rust), "{rust}: {message}");
        }
        message.to_string()
    };
    for body in [&b"[]"[..], b" [1, 2]", b"null", b"\"x\"", b"7"] {
        let a = c
            .send_raw("POST", "/api/games/upload", Some(body.to_vec()))
            .await
            .expect("request");
        assert_error(&a, 400, "bad_request");
        let message = no_rust(&a);
        assert!(message.contains("JSON object"), "{message}");
    }
    let fine = json!({"variant": "antarctos", "moves": ["c3-d4"], "level": 1, "color": "white", "result": "0-1"});
    for (field, value, words) in [
        ("level", json!("x"), "a whole number"),
        ("moves", json!("c3-d4"), "an array"),
        ("moves", json!({"a": 1}), "an array"),
    ] {
        let mut b = fine.clone();
        b[field] = value;
        let a = upload(&mut c, b).await;
        assert_error(&a, 400, "bad_request");
        let message = no_rust(&a);
        assert!(
            message.contains(words) && message.contains(field),
            "{message}"
        );
    }
    srv.stop().await;
}

/// Issue 37: an upload's 413 speaks of the upload (not of `/api/import`), and `variant` and
/// `color` are exact lower case, as documented.
#[tokio::test]
async fn upload_limits_and_names_are_the_documented_ones() {
    let srv = TestServer::start_with(&sqlite_url("upload_names"), options()).await;
    let mut c = srv.client();
    let (moves, result) = finished_game();
    let huge = json!({"variant": "antarctos", "moves": vec!["c3-d4"; 4000], "level": 1, "color": "white", "result": "0-1"});
    let a = upload(&mut c, huge).await;
    assert_error(&a, 413, "too_large");
    let message = a.body["error"]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("upload") && !message.contains("/api/import"),
        "{message}"
    );

    for (field, value) in [
        ("variant", "Antarctos"),
        ("color", "White"),
        ("color", "w"),
        ("color", "BLACK"),
    ] {
        let mut b = json!({"variant": "antarctos", "moves": moves, "level": 3, "color": "white", "result": result});
        b[field] = json!(value);
        let a = upload(&mut c, b).await;
        assert_error(&a, 400, "bad_request");
        let message = a.body["error"]["message"].as_str().unwrap_or("");
        assert!(message.contains(value), "{message}");
    }
    srv.stop().await;
}
