//! Helpers of the lobby's tests (`lobby.rs`, `lobby_pairing.rs`): a server with short
//! presence, accounts, seeks, and the lobby stream's events.

use std::time::Duration;

use serde_json::{Value, json};
use server::SiteOptions;
use server::client::{Answer, ApiClient, EventStream};
use server::options::RateLimits;

use super::TestServer;

/// Real-time offers lapse this soon after their owner's stream is gone, in these tests.
pub const PRESENCE: Duration = Duration::from_millis(1500);

/// A server on `url` without rate limits and with [`PRESENCE`].
pub async fn start(url: &str) -> TestServer {
    TestServer::start_with(
        url,
        SiteOptions {
            rate_limits: RateLimits::off(),
            services: server::ServiceOptions {
                lobby_presence: Some(PRESENCE),
                ..server::ServiceOptions::default()
            },
            ..SiteOptions::default()
        },
    )
    .await
}

/// A name of this run's own (a PostgreSQL database outlives the run).
pub fn name(prefix: &str) -> String {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() % 1_000_000_000_000)
        .unwrap_or(0);
    format!("{prefix}{}", n % 100_000_000)
}

/// A browser registered as a new account named `prefix` plus digits; its name.
pub async fn account(srv: &TestServer, prefix: &str) -> (ApiClient, String) {
    let name = name(prefix);
    (super::register(srv, &name).await, name)
}

/// Makes the account `name` a moderator (as `icebound admin grant-mod` does).
pub async fn make_mod(srv: &TestServer, name: &str) {
    let store = srv.site.services().play.store().clone();
    assert!(
        site::social::moderation::set_moderator(&store, name, true)
            .await
            .expect("grant")
    );
}

/// `POST path` with `body`.
pub async fn post(c: &mut ApiClient, path: &str, body: Value) -> Answer {
    c.post(path, body).await.expect("post")
}

/// `c` follows `name` (`POST /api/players/{name}/follow`), checked: 204.
pub async fn follow(c: &mut ApiClient, name: &str) {
    let r = post(c, &format!("/api/players/{name}/follow"), json!({})).await;
    assert_eq!(r.status, 204, "{name}: {}", r.text);
}

/// `DELETE path` with `{}`.
pub async fn delete(c: &mut ApiClient, path: &str) -> Answer {
    c.send("DELETE", path, Some(&json!({})))
        .await
        .expect("delete")
}

/// `GET path`; asserts 200.
pub async fn get(c: &mut ApiClient, path: &str) -> Answer {
    let a = c.get(path).await.expect("get");
    assert_eq!(a.status, 200, "{path}: {}", a.text);
    a
}

/// A real-time control's JSON.
pub fn realtime(initial_s: i64, increment_s: i64) -> Value {
    json!({"kind": "realtime", "initial_s": initial_s, "increment_s": increment_s})
}

/// Makes a seek; asserts 201; its id.
pub async fn seek(c: &mut ApiClient, body: Value) -> String {
    let a = post(c, "/api/seeks", body).await;
    assert_eq!(a.status, 201, "seek: {}", a.text);
    a.body["id"].as_str().expect("id").to_string()
}

/// The open seek `id` as `c` sees it in `GET /api/seeks`.
pub async fn listed(c: &mut ApiClient, id: &str) -> Option<Value> {
    let a = get(c, "/api/seeks").await;
    a.body
        .as_array()
        .expect("a list")
        .iter()
        .find(|s| s["id"] == id)
        .cloned()
}

/// Reads lobby events until one satisfies `pred` (10 s at most).
pub async fn wait_lobby(events: &mut EventStream, pred: impl Fn(&Value) -> bool) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let (name, data) = events.next_event().await.expect("the stream stays open");
            assert_eq!(name, "lobby");
            if pred(&data) {
                return data;
            }
        }
    })
    .await
    .expect("the lobby event arrives within 10 s")
}

/// Opens the lobby stream; asserts 200.
pub async fn stream(c: &ApiClient) -> EventStream {
    let (status, events) = c.events("/api/lobby").await.expect("stream");
    assert_eq!(status, 200);
    events
}

/// The first legal move of game `id` now.
pub async fn first_legal(c: &mut ApiClient, id: &str) -> String {
    let v = get(c, &format!("/api/games/{id}")).await;
    v.body["legal"][0]["text"]
        .as_str()
        .expect("a legal move")
        .to_string()
}
