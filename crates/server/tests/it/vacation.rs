//! Vacation (issue 38): an account sets days off ahead, at most 30 a calendar year; while it
//! lasts the account's correspondence clocks stop (the deadline moves on, the opponent's view
//! says until when), and a vacation ended early gives back only the days it lasted. Bad ranges
//! are 400, an overlap or a year's days passed 409 saying how many are left, an anonymous
//! player 401.

use std::time::Duration;

use chrono::{Datelike, TimeZone, Utc};
use serde_json::{Value, json};

use crate::clocks::{moved_time, wait_for};
use crate::common::*;

const DAY: i64 = 86_400_000;

async fn vacation(
    c: &mut server::client::ApiClient,
    start_ms: i64,
    days: i64,
) -> server::client::Answer {
    c.post(
        "/api/me/vacation",
        json!({"start_ms": start_ms, "days": days}),
    )
    .await
    .expect("request")
}

fn now(time: &site_model::time::WallTime) -> i64 {
    time.now_ms()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_stops_the_correspondence_clock_and_ending_it_starts_it_again() {
    let (time, options) = moved_time();
    let srv = TestServer::start_with(&sqlite_url("vacation-clock"), options).await;
    let mut ann = register(&srv, "Ann").await;
    let mut bob = register(&srv, "Bob").await;
    let control = json!({"kind": "correspondence", "days": 1});
    let g = create_and_join(
        &mut ann,
        &mut bob,
        json!({"variant": "iceage", "opponent": "friend", "color": "white", "time_control": control}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    // Both first moves (a game whose first move never comes is aborted, not lost).
    play(&mut ann, &id, "g1f3").await;
    play(&mut bob, &id, "g8f6").await;
    let g = wait_for(&mut bob, &id, 5, |g| g["clock"]["running"] == "white").await;
    let base = g["clock"]["deadline_ms"].as_i64().expect("deadline");
    assert_eq!(g["clock"]["vacation_until_ms"], Value::Null);

    // Ann (White, to move) takes three days from now.
    let start = now(&time);
    let r = vacation(&mut ann, start, 3).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["days_left"], 27, "{}", r.text);
    assert_eq!(r.body["vacations"][0]["current"], true);
    let start = r.body["vacations"][0]["start_ms"].as_i64().expect("start");
    let g = wait_for(&mut bob, &id, 5, |g| {
        g["clock"]["vacation_until_ms"].is_i64()
    })
    .await;
    assert_eq!(
        g["clock"]["vacation_until_ms"].as_i64(),
        Some(start + 3 * DAY),
        "{g}"
    );
    let held = g["clock"]["deadline_ms"].as_i64().expect("deadline");
    assert_eq!(
        held - base,
        start + 3 * DAY - start,
        "the deadline moves on by the vacation"
    );

    // Two days on, past the day Ann had: not lost.
    time.advance(Duration::from_millis((2 * DAY) as u64));
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let g = wait_for(&mut bob, &id, 5, |_| true).await;
    assert_eq!(g["status"], "ongoing", "not lost on vacation: {g}");

    // Ann comes back early: the two days she was away stay counted, the third is not.
    let back = now(&time);
    let r = ann
        .send(
            "DELETE",
            &format!("/api/me/vacation/{start}"),
            Some(&json!({})),
        )
        .await
        .expect("request");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["vacations"], json!([]), "{}", r.text);
    assert_eq!(
        r.body["days_left"], 27,
        "two days and a moment taken: three (a part of a day is a day): {}",
        r.text
    );
    let g = wait_for(&mut bob, &id, 5, |g| {
        g["clock"]["vacation_until_ms"].is_null()
    })
    .await;
    let after = now(&time);
    let deadline = g["clock"]["deadline_ms"].as_i64().expect("deadline");
    assert!(
        (base + (back - start)..=base + (after - start)).contains(&deadline),
        "the deadline moved on by the time away, ended when she came back: {g}"
    );
    // Her day runs out: lost on time.
    time.advance(Duration::from_millis((DAY + 60_000) as u64));
    let g = wait_for(&mut bob, &id, 15, |g| g["status"] == "finished").await;
    assert_eq!(g["result"]["reason"], "time forfeit");
    assert_eq!(g["result"]["winner"], "black");
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vacations_are_checked() {
    let (time, options) = moved_time();
    let srv = TestServer::start_with(&sqlite_url("vacation-checks"), options).await;
    let mut cy = register(&srv, "Cyd").await;
    let t = now(&time);
    for (start, days, what) in [
        (t, 0, "days"),
        (t, 31, "days"),
        (t - DAY, 3, "past"),
        (t + 400 * DAY, 3, "year ahead"),
    ] {
        let r = vacation(&mut cy, start, days).await;
        assert_error(&r, 400, "bad_request");
        assert!(r.text.contains(what), "{what}: {}", r.text);
    }
    // Next year's, so that the year is the same whatever day the test runs.
    let next = Utc.timestamp_millis_opt(t).single().expect("now").year() + 1;
    let jan = Utc
        .with_ymd_and_hms(next, 1, 2, 0, 0, 0)
        .single()
        .expect("date")
        .timestamp_millis();
    let r = vacation(&mut cy, jan, 20).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = vacation(&mut cy, jan + 5 * DAY, 2).await;
    assert_error(&r, 409, "conflict");
    assert!(r.text.contains("overlaps"), "{}", r.text);
    let r = vacation(&mut cy, jan + 30 * DAY, 11).await;
    assert_error(&r, 409, "conflict");
    assert!(r.text.contains("10 left"), "{}", r.text);
    let r = vacation(&mut cy, jan + 30 * DAY, 10).await;
    assert_eq!(r.status, 200, "ten more fill the year: {}", r.text);
    // Cancelled ahead of time: the days come back.
    let r = cy
        .send(
            "DELETE",
            &format!("/api/me/vacation/{jan}"),
            Some(&json!({})),
        )
        .await
        .expect("request");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.body["vacations"].as_array().map(Vec::len),
        Some(1),
        "{}",
        r.text
    );
    let r = cy
        .send(
            "DELETE",
            &format!("/api/me/vacation/{jan}"),
            Some(&json!({})),
        )
        .await
        .expect("request");
    assert_error(&r, 404, "not_found");
    let r = cy
        .send("DELETE", "/api/me/vacation/soon", Some(&json!({})))
        .await
        .expect("request");
    assert_error(&r, 400, "bad_request");
    let r = cy
        .post(
            "/api/me/vacation",
            json!({"start_ms": t, "days": 2, "why": "x"}),
        )
        .await
        .expect("request");
    assert_error(&r, 400, "bad_request");
    // Anonymous: 401.
    let mut anon = srv.client();
    assert_error(&vacation(&mut anon, t, 2).await, 401, "not_logged_in");
    let r = anon.get("/api/me/vacation").await.expect("request");
    assert_error(&r, 401, "not_logged_in");
    srv.stop().await;
}

/// Vacations asked for all at once (a tester's four 20-day ones and two overlapping ones, at
/// two processes on PostgreSQL): no more days than a year's 30 are stored, no two overlap, and
/// no request is a 500 (SQLite answered "database is locked" at once).
async fn vacations_at_once(a: &TestServer, b: &TestServer) {
    let name = format!("va{}", site_store::now_ms() % 1_000_000);
    let me = register(a, &name).await;
    let year = Utc
        .timestamp_millis_opt(site_store::now_ms())
        .single()
        .expect("now")
        .year()
        + 1;
    let jan = Utc
        .with_ymd_and_hms(year, 1, 10, 0, 0, 0)
        .single()
        .expect("a date")
        .timestamp_millis();
    let asks: Vec<(i64, i64)> = vec![
        (jan, 20),
        (jan + 40 * DAY, 20),
        (jan + 80 * DAY, 20),
        (jan + 120 * DAY, 20),
        (jan + 200 * DAY, 5),
        (jan + 202 * DAY, 5),
    ];
    let mut tasks = Vec::new();
    for (i, (start, days)) in asks.into_iter().enumerate() {
        let mut c = me.clone();
        c.set_addr(if i % 2 == 0 { a.addr } else { b.addr });
        tasks.push(tokio::spawn(async move {
            vacation(&mut c, start, days).await.status
        }));
    }
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.expect("task"));
    }
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 409),
        "{statuses:?}"
    );
    let mut me = me;
    let r = me.get("/api/me/vacation").await.expect("get");
    let stored = r.body["vacations"].as_array().expect("vacations").clone();
    let days: i64 = stored
        .iter()
        .map(|v| (v["end_ms"].as_i64().unwrap_or(0) - v["start_ms"].as_i64().unwrap_or(0)) / DAY)
        .sum();
    assert!(days <= 30, "{days} days stored: {}", r.text);
    for (i, x) in stored.iter().enumerate() {
        for y in &stored[i + 1..] {
            assert!(
                x["end_ms"].as_i64() <= y["start_ms"].as_i64()
                    || y["end_ms"].as_i64() <= x["start_ms"].as_i64(),
                "overlap: {}",
                r.text
            );
        }
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        stored.len(),
        "{statuses:?} {}",
        r.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vacations_asked_at_once_keep_the_limits_sqlite() {
    let url = sqlite_url("vacation-race");
    let a = TestServer::start(&url).await;
    vacations_at_once(&a, &a).await;
    a.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vacations_asked_at_once_keep_the_limits_postgres() {
    let Some(pg) = test_support::store::postgres_url() else {
        return;
    };
    let a = TestServer::start(&pg).await;
    let b = TestServer::start(&pg).await;
    vacations_at_once(&a, &b).await;
    a.stop().await;
    b.stop().await;
}
