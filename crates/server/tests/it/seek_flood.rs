//! Seeks against floods (issue 41, site::lobby): 200 anonymous correspondence seeks from 10
//! addresses (a fresh cookie each, behind a trusted proxy) leave a real logged-in player's
//! seek visible, first in the list; an address holds at most 3 anonymous seeks; anonymous
//! correspondence seeks lapse after 24 h, an account's stay.

use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use server::client::Answer;
use server::options::{Rate, RateLimits};
use server::{ServiceOptions, SiteOptions};
use site_model::time::WallTime;

/// `POST /api/seeks` of `body` by a new anonymous browser at `address`.
async fn anonymous_seek(srv: &TestServer, address: &str, body: &Value) -> Answer {
    srv.client()
        .send_with_headers(
            "POST",
            "/api/seeks",
            &[
                ("content-type", "application/json"),
                ("x-forwarded-for", address),
            ],
            Some(body.to_string().into_bytes()),
        )
        .await
        .expect("seek")
}

fn correspondence(rated: bool) -> Value {
    json!({"variant": "antarctos", "time_control": {"kind": "correspondence", "days": 2},
           "rated": rated})
}

/// The open seeks as a watcher sees them: (username or null, rated).
async fn listed(srv: &TestServer) -> Vec<(Value, bool)> {
    let a = srv.client().get("/api/seeks").await.expect("seeks");
    assert_eq!(a.status, 200, "{}", a.text);
    a.body
        .as_array()
        .expect("a list")
        .iter()
        .map(|s| (s["username"].clone(), s["rated"] == true))
        .collect()
}

async fn flood(url: &str) {
    let time = WallTime::system();
    let srv = TestServer::start_with(
        url,
        SiteOptions {
            trust_proxy: true,
            // The cap alone holds the flood: the per-address rate of offers is out of the way.
            rate_limits: RateLimits {
                create: Some(Rate::per_minute(60_000, 1_000)),
                ..RateLimits::default()
            },
            services: ServiceOptions {
                time: time.clone(),
                ..ServiceOptions::default()
            },
            ..SiteOptions::default()
        },
    )
    .await;
    // 200 seeks from 10 addresses, each from a fresh browser (a new cookie every time). The
    // addresses are this run's own (a PostgreSQL database outlives the run).
    let run: u32 = unique("").parse::<u32>().map_or(7, |n| n % 200 + 20);
    let address = |k: usize| format!("10.{run}.{k}.1");
    let mut made = 0;
    for i in 0..200 {
        let address = address(i % 10);
        let a = anonymous_seek(&srv, &address, &correspondence(false)).await;
        if a.status == 201 {
            made += 1;
        } else {
            assert_error(&a, 429, "too_many_seeks");
        }
    }
    assert_eq!(made, 30, "3 per address");

    // A real player logs in and seeks afterwards: rated, and casual.
    let name = unique("seeker");
    let mut real = register(&srv, &name).await;
    for rated in [false, true] {
        let a = real
            .post("/api/seeks", correspondence(rated))
            .await
            .expect("seek");
        assert_eq!(a.status, 201, "{}", a.text);
    }
    // Listed before every anonymous seek (other tests' accounts may seek meanwhile).
    let seeks = listed(&srv).await;
    let account = Value::String(name.clone());
    let at = |rated: bool| {
        seeks
            .iter()
            .position(|s| *s == (account.clone(), rated))
            .expect("listed")
    };
    let first_anonymous = seeks.iter().position(|(u, _)| u.is_null()).expect("some");
    assert!(
        at(true) < at(false) && at(false) < first_anonymous,
        "rated seeks of accounts, then the accounts' others, then anonymous ones: {seeks:?}"
    );
    let anonymous = seeks.iter().filter(|(u, _)| u.is_null()).count();
    assert!(anonymous >= 30, "{anonymous}");

    // A day later the anonymous correspondence seeks are gone, the account's stay, and the
    // addresses may seek again.
    time.advance(Duration::from_secs(24 * 3600 + 60));
    let seeks = listed(&srv).await;
    assert!(
        seeks.iter().all(|(u, _)| !u.is_null()),
        "no anonymous seek is left: {seeks:?}"
    );
    assert!(seeks.contains(&(account.clone(), true)) && seeks.contains(&(account, false)));
    let a = anonymous_seek(&srv, &address(0), &correspondence(false)).await;
    assert_eq!(a.status, 201, "{}", a.text);
    srv.stop().await;
}

both_databases! {
    async fn a_flood_of_anonymous_seeks_leaves_a_real_players_seek_visible(url: &str) {
        flood(url).await;
    }
}
