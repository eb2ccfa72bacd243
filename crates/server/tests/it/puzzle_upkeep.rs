//! What a hostile tester found in the puzzle trainer (issue 39), through the real server:
//! rows mangled in the database are retired at start with their fault and the others are
//! served; a retired puzzle is out of service but the daily puzzle still comes; an
//! anonymous session rating answered is always taken back; moves after the first wrong one
//! are not read; streak batches climb and differ.

use serde_json::{Value, json};
use sqlx::{AnyConnection, Connection};

use crate::common::*;
use server::SiteOptions;

async fn get(c: &mut server::client::ApiClient, path: &str) -> server::client::Answer {
    c.get(path).await.expect("get")
}

async fn exec(url: &str, sql: &str) {
    sqlx::any::install_default_drivers();
    let mut conn = AnyConnection::connect(url).await.expect("connects");
    sqlx::query(sql).execute(&mut conn).await.expect(sql);
    conn.close().await.expect("closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mangled_rows_are_retired_at_start_and_the_daily_puzzle_survives_them() {
    let url = sqlite_url("puzzles-upkeep");
    let srv = TestServer::start(&url).await;
    let mut c = srv.client();
    let daily = get(&mut c, "/api/puzzles/daily?variant=iceage").await;
    assert_eq!(daily.status, 200, "{}", daily.text);
    let daily_id = daily.body["id"].as_str().expect("id").to_string();
    let total = get(&mut c, "/api/puzzles/themes?variant=antarctos")
        .await
        .body["total"]
        .as_i64()
        .expect("total");
    srv.stop().await;

    // The tester's mangling: a position and moves that do not read, a game that is not one,
    // a rating that is text (it broke `next` near 3000 for everyone), a theme unknown; and
    // today's daily deleted (it comes back from the shipped file, after the others).
    exec(
        &url,
        "UPDATE puzzles SET fen = 'garbage fen' WHERE id = 'seed-3'",
    )
    .await;
    exec(
        &url,
        "UPDATE puzzles SET moves = 'zz-yy' WHERE id = 'seed-2'",
    )
    .await;
    exec(
        &url,
        "UPDATE puzzles SET rating = 'abc' WHERE variant = 'iceage' AND ordinal = 2",
    )
    .await;
    exec(
        &url,
        "UPDATE puzzles SET variant = 'chess' WHERE variant = 'iceage' AND ordinal = 3",
    )
    .await;
    exec(
        &url,
        "UPDATE puzzles SET themes = 'mate nonsense' WHERE variant = 'antarctos' AND ordinal = 5",
    )
    .await;
    exec(
        &url,
        &format!("DELETE FROM puzzle_themes WHERE puzzle_id = '{daily_id}'"),
    )
    .await;
    exec(
        &url,
        &format!("DELETE FROM puzzles WHERE id = '{daily_id}'"),
    )
    .await;

    let srv = TestServer::start(&url).await;
    let mut c = srv.client();
    for id in ["seed-3", "seed-2"] {
        let r = get(&mut c, &format!("/api/puzzles/{id}")).await;
        assert_eq!(r.status, 404, "{}", r.text);
        assert!(
            r.text.contains("out of service: start-up check:"),
            "{}",
            r.text
        );
    }
    let r = get(&mut c, "/api/puzzles/seed-3").await;
    assert!(r.text.contains("fen:"), "the fault is named: {}", r.text);
    let r = get(&mut c, "/api/puzzles/themes?variant=antarctos").await;
    assert_eq!(
        r.body["total"],
        total - 3,
        "three Antarctos rows retired: {}",
        r.text
    );
    for rating in [400, 1500, 3000, 4000] {
        for variant in ["antarctos", "iceage"] {
            let r = get(
                &mut c,
                &format!("/api/puzzles/next?variant={variant}&rating={rating}"),
            )
            .await;
            assert_eq!(r.status, 200, "{variant} near {rating}: {}", r.text);
        }
    }
    // The daily puzzle of any day comes: a place among the puzzles in service.
    let r = get(&mut c, "/api/puzzles/daily?variant=iceage").await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = get(&mut c, "/api/puzzles/daily?variant=antarctos").await;
    assert_eq!(r.status, 200, "{}", r.text);
    // The deleted daily came back, in service, at the end.
    let r = get(&mut c, &format!("/api/puzzles/{daily_id}")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    srv.stop().await;

    // The operator retires the daily for good: it stays out after a restart.
    let store = site_store::Store::open(&url).await.expect("opens");
    assert!(
        store
            .retire_puzzle(&daily_id, "wrong")
            .await
            .expect("retires")
    );
    assert!(
        !store
            .retire_puzzle("no-such", "wrong")
            .await
            .expect("answers")
    );
    store.close().await;
    let srv = TestServer::start(&url).await;
    let mut c = srv.client();
    let r = get(&mut c, &format!("/api/puzzles/{daily_id}")).await;
    assert_eq!(r.status, 404, "{}", r.text);
    assert!(r.text.contains("out of service: wrong"), "{}", r.text);
    let r = c
        .post(
            &format!("/api/puzzles/{daily_id}/attempt"),
            json!({"moves": ["Kh1"], "rated": true}),
        )
        .await
        .expect("attempt");
    assert_eq!(r.status, 404, "{}", r.text);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_anonymous_session_rating_answered_is_always_taken_back() {
    // Many attempts from one address: the attempts' limit is not what is tested here.
    let options = SiteOptions {
        rate_limits: server::options::RateLimits {
            analysis: None,
            ..Default::default()
        },
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(&sqlite_url("puzzles-session"), options).await;
    let mut c = srv.client();
    let p = get(&mut c, "/api/puzzles/seed-1").await.body;
    let wrong = crate::puzzles::wrong_first_move(&p);
    let right: Vec<Value> = p["solution"].as_array().expect("solution").clone();
    // At the edges: failing at the floor, solving at the ceiling with the most volatility.
    for (session, moves) in [
        (
            json!({"rating": 400.0, "deviation": 350.0, "volatility": 0.2}),
            json!([wrong]),
        ),
        (
            json!({"rating": 400.0, "deviation": 30.0, "volatility": 0.01}),
            json!([wrong]),
        ),
        (
            json!({"rating": 4000.0, "deviation": 30.0, "volatility": 0.2}),
            json!(right),
        ),
        (
            json!({"rating": 3999.0, "deviation": 350.0, "volatility": 0.2}),
            json!(right),
        ),
    ] {
        let mut session = session;
        for _ in 0..3 {
            let r = c
                .post(
                    "/api/puzzles/seed-1/attempt",
                    json!({"moves": moves, "rated": true, "session_rating": session}),
                )
                .await
                .expect("attempt");
            assert_eq!(r.status, 200, "{session}: {}", r.text);
            session = r.body["session_rating"].clone();
            assert!(session.is_object(), "{}", r.text);
        }
    }
    // A range error names its field.
    let r = c
        .post(
            "/api/puzzles/seed-1/attempt",
            json!({"moves": [wrong], "session_rating": {"rating": 1500, "deviation": 0, "volatility": 0.06}}),
        )
        .await
        .expect("attempt");
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.text.contains("session_rating.deviation"), "{}", r.text);
    // `rated` may be left out; moves after the first wrong one are not read.
    let r = c
        .post(
            "/api/puzzles/seed-1/attempt",
            json!({"moves": [wrong, "x", "y"]}),
        )
        .await
        .expect("attempt");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["failed_at"], 0, "{}", r.text);
    // A hostile id is not echoed back in full.
    let long = "a".repeat(5_000);
    let r = get(&mut c, &format!("/api/puzzles/{long}")).await;
    assert_eq!(r.status, 404);
    assert!(r.text.len() < 400, "{} bytes", r.text.len());
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streak_batches_climb_differ_and_go_on_after_the_last() {
    let srv = TestServer::start(&sqlite_url("puzzles-streak")).await;
    let mut c = srv.client();
    let ids = |v: &Value| -> Vec<String> {
        v["puzzles"]
            .as_array()
            .expect("puzzles")
            .iter()
            .map(|p| p["id"].as_str().expect("id").to_string())
            .collect()
    };
    let a = get(&mut c, "/api/puzzles/streak?variant=antarctos").await;
    assert_eq!(a.status, 200, "{}", a.text);
    let first = ids(&a.body);
    assert_eq!(first.len(), 30);
    // Rising: by rating, then by length (every puzzle starts at 1500).
    let lengths: Vec<i64> = a.body["puzzles"]
        .as_array()
        .expect("puzzles")
        .iter()
        .map(|p| p["length"].as_i64().expect("length"))
        .collect();
    assert!(lengths.windows(2).all(|w| w[0] <= w[1]), "{lengths:?}");
    assert!(lengths.last() > lengths.first(), "{lengths:?}");
    let mut differ = false;
    for _ in 0..3 {
        let b = get(&mut c, "/api/puzzles/streak?variant=antarctos").await;
        differ |= ids(&b.body) != first;
    }
    assert!(differ, "batches are drawn, not fixed");
    // The next batch starts above the last puzzle and leaves out those played.
    let last = first.last().expect("a last");
    let exclude = first[..5].join(",");
    let r = get(
        &mut c,
        &format!("/api/puzzles/streak?variant=antarctos&after={last}&exclude={exclude}"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let next = ids(&r.body);
    assert!(next.iter().all(|id| !first[..5].contains(id)), "{next:?}");
    assert!(next.len() <= 30);
    let r = get(&mut c, "/api/puzzles/streak?variant=antarctos&after=nope").await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(
        r.text.contains("after: no Antarctos puzzle 'nope'"),
        "{}",
        r.text
    );
    let r = get(&mut c, "/api/puzzles/streak?variant=antarctos&later=1").await;
    assert_eq!(r.status, 400, "{}", r.text);
    srv.stop().await;
}
