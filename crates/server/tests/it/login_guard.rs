//! The per-account log-in guard (issue 41, site::accounts::guard): 40 addresses behind a
//! trusted proxy (`X-Forwarded-For`) guess one account through two server processes sharing
//! one database; the checked guesses (the 401s: a 429 is answered before the check) stay
//! within 5 at once plus the growing delay, a missing user is answered exactly as the real
//! one, a new address with the right password waits, the owner's known address gets in.

use std::time::Instant;

use crate::common::*;
use serde_json::{Value, json};
use server::client::Answer;
use server::{ServiceOptions, SiteOptions};
use site_model::time::WallTime;

/// `POST path` with `{"username", "password"}` as the proxy would pass it from `address`.
async fn from(srv: &TestServer, path: &str, name: &str, password: &str, address: &str) -> Answer {
    let body = json!({"username": name, "password": password}).to_string();
    srv.client()
        .send_with_headers(
            "POST",
            path,
            &[
                ("content-type", "application/json"),
                ("x-forwarded-for", address),
            ],
            Some(body.into_bytes()),
        )
        .await
        .expect("post")
}

/// The most checks the guard may let through in `seconds` from a first burst: 5 at once,
/// then one per delay of 15 s, 30 s, 60 s ... (and never more than 10 in a minute).
fn most_checks(seconds: u64) -> usize {
    let mut checks = 5;
    let mut waited = 0;
    let mut delay = 15;
    while waited + delay <= seconds {
        waited += delay;
        delay *= 2;
        checks += 1;
    }
    checks
}

/// An error body with its figures left out (a wait in seconds may differ by one).
fn wording(a: &Answer) -> Value {
    let mut body = a.body.clone();
    if let Some(m) = body["error"]["message"].as_str() {
        let words: String = m.chars().filter(|c| !c.is_ascii_digit()).collect();
        body["error"]["message"] = Value::String(words);
    }
    body
}

/// 40 addresses, `rounds` guesses each at every name of `names`, spread over both processes;
/// the answers per name.
async fn wave(
    servers: [&TestServer; 2],
    names: &[&str],
    first_address: usize,
    rounds: usize,
) -> Vec<Vec<Answer>> {
    let mut answers = vec![Vec::new(); names.len()];
    for i in 0..40 {
        let address = format!("203.0.113.{}", first_address + i);
        for round in 0..rounds {
            for (n, name) in names.iter().enumerate() {
                let srv = servers[(round + n) % 2];
                let a = from(srv, "/api/session", name, "wrong horse", &address).await;
                assert!(a.status == 401 || a.status == 429, "{}", a.text);
                answers[n].push(a);
            }
        }
    }
    answers
}

fn checked(answers: &[Answer]) -> usize {
    answers.iter().filter(|a| a.status == 401).count()
}

async fn guessing_crowd(url: &str) {
    let time = WallTime::system();
    let options = || SiteOptions {
        trust_proxy: true,
        services: ServiceOptions {
            time: time.clone(),
            ..ServiceOptions::default()
        },
        ..SiteOptions::default()
    };
    let a = TestServer::start_with(url, options()).await;
    let b = TestServer::start_with(url, options()).await;
    let victim = unique("victim");
    let missing = unique("nobody");
    let home = "198.51.100.7";
    let r = from(&a, "/api/accounts", &victim, "correct horse", home).await;
    assert_eq!(r.status, 201, "{}", r.text);

    // 40 addresses x 5 guesses at the account and as many at a name nobody has.
    let started = Instant::now();
    let answers = wave([&a, &b], &[&victim, &missing], 1, 5).await;
    let seconds = started.elapsed().as_secs();
    let (at_victim, at_missing) = (checked(&answers[0]), checked(&answers[1]));
    eprintln!(
        "200 guesses at one account from 40 addresses in {seconds} s: {at_victim} checked \
         (a missing name: {at_missing})"
    );
    for (n, count) in [at_victim, at_missing].into_iter().enumerate() {
        assert!(
            (5..=most_checks(seconds).min(10)).contains(&count),
            "name {n}: {count} checks in {seconds} s"
        );
    }
    // A missing user and a wrong password: the same answers, 401 and 429 alike.
    for status in [401, 429] {
        let of = |n: usize| {
            answers[n]
                .iter()
                .find(|x| x.status == status)
                .map(wording)
                .expect("an answer of the status")
        };
        assert_eq!(of(0), of(1), "status {status}");
    }
    let limited = answers[0].iter().find(|x| x.status == 429).expect("429");
    assert_error(limited, 429, "rate_limited");
    let wait: u64 = limited.headers["retry-after"]
        .to_str()
        .ok()
        .and_then(|s| s.parse().ok())
        .expect("Retry-After");
    assert!((1..=60).contains(&wait), "{wait}");

    // The right password from a new address after the failures waits (no check) ...
    let newcomer = "192.0.2.50";
    let r = from(&b, "/api/session", &victim, "correct horse", newcomer).await;
    assert_error(&r, 429, "rate_limited");
    let wait: u64 = r.headers["retry-after"]
        .to_str()
        .ok()
        .and_then(|s| s.parse().ok())
        .expect("Retry-After");
    // ... and gets in once the wait is over.
    time.advance(std::time::Duration::from_secs(wait + 1));
    let r = from(&b, "/api/session", &victim, "correct horse", newcomer).await;
    assert_eq!(r.status, 200, "{}", r.text);

    // A second crowd: the owner's addresses (the registration's, the last log-in's) get in
    // while the account is closed to the crowd. (A minute later: the bucket is full again.)
    time.advance(std::time::Duration::from_secs(60));
    let started = Instant::now();
    let answers = wave([&a, &b], &[&victim], 101, 5).await;
    let seconds = started.elapsed().as_secs();
    let count = checked(&answers[0]);
    assert!(
        (5..=most_checks(seconds).min(10)).contains(&count),
        "{count} checks in {seconds} s"
    );
    let r = from(&a, "/api/session", &victim, "wrong horse", "203.0.113.250").await;
    assert_error(&r, 429, "rate_limited");
    for address in [home, newcomer] {
        let r = from(&a, "/api/session", &victim, "correct horse", address).await;
        assert_eq!(r.status, 200, "{address}: {}", r.text);
    }
    a.stop().await;
    b.stop().await;
}

both_databases! {
    async fn forty_addresses_guessing_one_account_get_few_checks(url: &str) {
        guessing_crowd(url).await;
    }
}

#[test]
fn the_bound_follows_the_delays() {
    assert_eq!(most_checks(0), 5);
    assert_eq!(most_checks(14), 5);
    assert_eq!(most_checks(15), 6);
    assert_eq!(most_checks(45), 7);
}
