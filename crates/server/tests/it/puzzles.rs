//! The puzzle trainer's API (issue 39): a fresh site has the shipped puzzles; attempts are
//! judged by the server; an account's first attempt alone is rated, once, even when sent
//! many times at once; an anonymous player's rating lives in the request; bad input is a
//! 400 that says what is wrong.

use game::Variant;
use serde_json::{Value, json};

use crate::common::*;

/// A legal first move of `p` that is not the solution's first.
pub(crate) fn wrong_first_move(p: &Value) -> String {
    let fen = p["fen"].as_str().expect("fen");
    let right = p["solution"][0].as_str().expect("solution");
    let texts: Vec<String> = match p["variant"].as_str() {
        Some("antarctos") => {
            let pos = antarctos::Antarctos::parse_position(fen).expect("fen");
            antarctos::Antarctos::legal_moves(&pos)
                .iter()
                .map(|m| antarctos::Antarctos::move_text(&pos, m))
                .collect()
        }
        _ => {
            let pos = iceage::IceAge::parse_position(fen).expect("fen");
            iceage::IceAge::legal_moves(&pos)
                .iter()
                .map(|m| iceage::IceAge::move_text(&pos, m))
                .collect()
        }
    };
    texts
        .into_iter()
        .find(|t| t != right)
        .expect("a puzzle's first move is never the only legal one")
}

fn solution(p: &Value) -> Vec<Value> {
    p["solution"].as_array().expect("solution").clone()
}

async fn attempt(
    c: &mut server::client::ApiClient,
    id: &str,
    body: Value,
) -> server::client::Answer {
    c.post(&format!("/api/puzzles/{id}/attempt"), body)
        .await
        .expect("attempt")
}

async fn get(c: &mut server::client::ApiClient, path: &str) -> server::client::Answer {
    c.get(path).await.expect("get")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fresh_site_has_the_shipped_puzzles_and_an_anonymous_player_solves_one() {
    let srv = TestServer::start(&sqlite_url("puzzles-fresh")).await;
    let mut c = srv.client();
    for (variant, file) in [
        ("antarctos", site::puzzles::shipped::ANTARCTOS),
        ("iceage", site::puzzles::shipped::ICE_AGE),
    ] {
        let r = get(&mut c, &format!("/api/puzzles/themes?variant={variant}")).await;
        assert_eq!(r.status, 200, "{}", r.text);
        let rows = file.lines().skip(1).filter(|l| !l.is_empty()).count() as i64;
        assert_eq!(
            r.body["total"], rows,
            "every shipped {variant} puzzle is stored"
        );
    }
    // The seeds' worked examples are Antarctos puzzles, with the seed's words as the hint.
    for n in 1..=3 {
        let r = get(&mut c, &format!("/api/puzzles/seed-{n}")).await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert!(
            r.body["hint"]
                .as_str()
                .is_some_and(|h| h.contains("begins and wins")),
            "{}",
            r.text
        );
    }
    let r = get(&mut c, "/api/puzzles/streak?variant=antarctos").await;
    assert_eq!(r.status, 200, "{}", r.text);
    let streak = r.body["puzzles"].as_array().expect("puzzles").clone();
    assert!(!streak.is_empty());
    let ratings: Vec<i64> = streak
        .iter()
        .map(|p| p["rating"].as_i64().expect("rating"))
        .collect();
    assert!(
        ratings.windows(2).all(|w| w[0] <= w[1]),
        "easiest first: {ratings:?}"
    );

    let r = get(&mut c, "/api/puzzles/next?variant=antarctos").await;
    assert_eq!(r.status, 200, "{}", r.text);
    let p = r.body.clone();
    assert_eq!(
        p["you"],
        Value::Null,
        "an anonymous player has no stored rating"
    );
    assert_eq!(
        p["length"].as_u64().expect("length") as usize,
        solution(&p).len().div_ceil(2)
    );
    let id = p["id"].as_str().expect("id").to_string();
    let r = attempt(&mut c, &id, json!({"moves": solution(&p), "rated": true})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["solved"], true, "{}", r.text);
    assert_eq!(r.body["failed_at"], Value::Null);
    assert_eq!(r.body["rating"]["before"], 1500);
    assert!(
        r.body["rating"]["after"].as_i64().expect("after") > 1500,
        "{}",
        r.text
    );
    let session = r.body["session_rating"].clone();
    assert!(
        session["deviation"].as_f64().expect("rd") < 350.0,
        "{session}"
    );
    assert_eq!(
        r.body["puzzle"]["plays"], 0,
        "an anonymous attempt is no play"
    );
    assert_eq!(
        r.body["puzzle"]["rating"], p["rating"],
        "nor does it move the puzzle"
    );

    // The next rated attempt starts from the session rating the page kept.
    let other = get(
        &mut c,
        &format!("/api/puzzles/next?variant=antarctos&exclude={id}"),
    )
    .await;
    assert_eq!(other.status, 200, "{}", other.text);
    assert_ne!(
        other.body["id"],
        json!(id),
        "an excluded puzzle is not offered"
    );
    let oid = other.body["id"].as_str().expect("id").to_string();
    let wrong = wrong_first_move(&other.body);
    let r = attempt(
        &mut c,
        &oid,
        json!({"moves": [wrong], "rated": true, "session_rating": session}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["solved"], false);
    assert_eq!(r.body["failed_at"], 0);
    let before = r.body["rating"]["before"].as_i64().expect("before");
    assert_eq!(
        before,
        session["rating"].as_f64().expect("rating").round() as i64
    );
    assert!(
        r.body["rating"]["after"].as_i64().expect("after") < before,
        "{}",
        r.text
    );

    // The daily puzzle is one puzzle for the whole day.
    let a = get(&mut c, "/api/puzzles/daily?variant=antarctos").await;
    let b = get(&mut srv.client(), "/api/puzzles/daily?variant=antarctos").await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["id"], b.body["id"]);
    assert_eq!(
        a.body["date"].as_str().map(str::len),
        Some(10),
        "{}",
        a.text
    );
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accounts_first_attempt_alone_is_rated_once_and_the_dashboard_shows_it() {
    rated_once(&sqlite_url("puzzles-rated")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_too_a_first_attempt_is_rated_once() {
    let Some(url) = postgres_url() else { return };
    rated_once(&url).await;
}

/// Two servers on the database at `url`; an account's first attempt sent six times at once
/// through both.
async fn rated_once(url: &str) {
    let srv = TestServer::start(url).await;
    // A second server on the same database: two processes' requests race on one row.
    let other = TestServer::start(url).await;
    let mut ann = register(&srv, "Ann").await;
    let r = get(&mut ann, "/api/puzzles/next?variant=antarctos").await;
    assert_eq!(r.status, 200, "{}", r.text);
    let p = r.body.clone();
    assert_eq!(p["you"]["rating"], 1500, "{}", r.text);
    assert_eq!(p["you"]["attempted"], false);
    let id = p["id"].as_str().expect("id").to_string();
    let wrong = json!({"moves": [wrong_first_move(&p)], "rated": true});

    // The same first attempt sent six times at once, through both servers.
    let mut tasks = Vec::new();
    for i in 0..6 {
        let mut c = ann.clone();
        c.set_addr(if i % 2 == 0 { srv.addr } else { other.addr });
        let (id, body) = (id.clone(), wrong.clone());
        tasks.push(tokio::spawn(
            async move { attempt(&mut c, &id, body).await },
        ));
    }
    let mut rated = 0;
    for t in tasks {
        let r = t.await.expect("task");
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.body["solved"], false);
        if r.body["rating"].is_object() {
            rated += 1;
            assert!(r.body["rating"]["after"].as_i64() < r.body["rating"]["before"].as_i64());
        }
        assert_eq!(
            r.body["session_rating"],
            Value::Null,
            "an account's rating is stored"
        );
    }
    assert_eq!(rated, 1, "one attempt rated");

    // Solving it now counts for nothing.
    let r = attempt(&mut ann, &id, json!({"moves": solution(&p), "rated": true})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["solved"], true);
    assert_eq!(
        r.body["rating"],
        Value::Null,
        "a second rated attempt: {}",
        r.text
    );
    assert_eq!(r.body["puzzle"]["plays"], 1, "{}", r.text);
    assert!(
        r.body["puzzle"]["rating"].as_i64() > p["rating"].as_i64(),
        "the puzzle won"
    );

    let r = get(&mut ann, &format!("/api/puzzles/{id}")).await;
    assert_eq!(r.body["you"]["attempted"], true, "{}", r.text);
    let mine = r.body["you"]["rating"].as_i64().expect("rating");
    assert!(mine < 1500, "{}", r.text);

    // An unrated first attempt is stored but moves no rating.
    let r = get(&mut ann, "/api/puzzles/next?variant=antarctos").await;
    let q = r.body.clone();
    assert_ne!(
        q["id"],
        json!(id),
        "an attempted puzzle is not offered again"
    );
    let qid = q["id"].as_str().expect("id").to_string();
    let r = attempt(
        &mut ann,
        &qid,
        json!({"moves": solution(&q), "rated": false}),
    )
    .await;
    assert_eq!(r.body["solved"], true, "{}", r.text);
    assert_eq!(r.body["rating"], Value::Null);

    let r = get(&mut ann, "/api/puzzles/dashboard").await;
    assert_eq!(r.status, 200, "{}", r.text);
    let d = &r.body;
    assert_eq!(d["ratings"]["antarctos"]["rating"], mine, "{d}");
    assert_eq!(d["ratings"]["antarctos"]["attempts"], 2, "{d}");
    assert_eq!(d["ratings"]["antarctos"]["solved"], 1, "{d}");
    assert_eq!(d["ratings"]["iceage"], Value::Null);
    let recent = d["recent"].as_array().expect("recent");
    assert_eq!(recent.len(), 2, "{d}");
    let first = recent
        .iter()
        .find(|a| a["id"] == json!(id))
        .expect("listed");
    assert_eq!(first["solved"], false);
    assert_eq!(first["rated"], true);
    assert_eq!(first["rating_after"], mine);
    assert_eq!(first["rating_before"], 1500, "{d}");
    for t in d["themes"].as_array().expect("themes") {
        assert_eq!(
            t["failed"].as_i64().expect("failed"),
            t["attempts"].as_i64().expect("attempts") - t["solved"].as_i64().expect("solved")
        );
    }
    other.stop().await;
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_puzzle_requests_say_what_is_wrong() {
    let srv = TestServer::start(&sqlite_url("puzzles-bad")).await;
    let mut c = srv.client();
    let r = get(&mut c, "/api/puzzles/next?variant=antarctos").await;
    let p = r.body.clone();
    let id = p["id"].as_str().expect("id").to_string();
    let cases: Vec<(&str, u16, &str, &str)> = vec![
        ("/api/puzzles/next", 400, "bad_request", "variant: missing"),
        (
            "/api/puzzles/next?variant=go",
            400,
            "bad_request",
            "unknown game 'go'",
        ),
        (
            "/api/puzzles/next?variant=antarctos&theme=fork",
            400,
            "bad_request",
            "unknown theme 'fork'",
        ),
        (
            "/api/puzzles/next?variant=antarctos&theme=mate",
            400,
            "bad_request",
            "no Antarctos theme",
        ),
        (
            "/api/puzzles/next?variant=antarctos&themes=mate",
            400,
            "bad_request",
            "unknown query parameter 'themes'",
        ),
        (
            "/api/puzzles/next?variant=antarctos&rating=high",
            400,
            "bad_request",
            "rating",
        ),
        (
            "/api/puzzles/nonesuch",
            404,
            "not_found",
            "no puzzle 'nonesuch'",
        ),
        ("/api/puzzles/dashboard", 401, "not_logged_in", "log in"),
    ];
    for (path, status, code, words) in cases {
        let r = get(&mut c, path).await;
        assert_error(&r, status, code);
        assert!(r.text.contains(words), "{path}: {}", r.text);
    }
    let many: Vec<String> = (0..101).map(|i| format!("p{i}")).collect();
    let r = get(
        &mut c,
        &format!(
            "/api/puzzles/next?variant=antarctos&exclude={}",
            many.join(",")
        ),
    )
    .await;
    assert_error(&r, 400, "bad_request");

    let mut moves = solution(&p);
    let bodies: Vec<(Value, &str)> = vec![
        (json!({"moves": [], "rated": false}), "no move"),
        (
            json!({"moves": ["z9-z8"], "rated": false}),
            "'z9-z8' is not a legal move",
        ),
        (
            json!({"moves": [moves[0].clone()], "rated": false}),
            "stops after 1 ply,",
        ),
        (
            json!({"moves": vec!["a1-b2"; 40], "rated": false}),
            "at most 32",
        ),
        (
            json!({"moves": moves.clone(), "rated": true, "session_rating": {"rating": 9000, "deviation": 50, "volatility": 0.06}}),
            "session_rating.rating: 9000 is outside 400-4000",
        ),
        (
            json!({"moves": moves.clone(), "rated": false, "hint": 1}),
            "hint",
        ),
    ];
    for (body, words) in bodies {
        let r = attempt(&mut c, &id, body.clone()).await;
        if moves.len() == 1 && words.starts_with("stops") {
            continue;
        }
        assert_error(&r, 400, "bad_request");
        assert!(r.text.contains(words), "{body}: {}", r.text);
    }
    moves.push(json!("a1-b2"));
    let r = attempt(&mut c, &id, json!({"moves": moves, "rated": false})).await;
    assert_error(&r, 400, "bad_request");
    assert!(
        r.text.contains("already over") || r.text.contains("has only"),
        "{}",
        r.text
    );
    let r = attempt(
        &mut c,
        "nonesuch",
        json!({"moves": ["a1-b2"], "rated": false}),
    )
    .await;
    assert_error(&r, 404, "not_found");
    srv.stop().await;
}
