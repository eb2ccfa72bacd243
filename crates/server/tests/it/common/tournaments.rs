//! Helpers of the tournaments' tests (`tournaments.rs`, `tournament_limits.rs`): a server
//! without rate limits on a new SQLite file, an event made and read through the API, and a
//! wait for its view to reach a state.

use std::time::{Duration, Instant};

use serde_json::Value;
use server::SiteOptions;
use server::client::ApiClient;
use server::options::RateLimits;

use super::lobby::post;
use super::temp_dir;

/// Many accounts and games from one address: the limits have their own tests.
pub fn options() -> SiteOptions {
    SiteOptions {
        rate_limits: RateLimits::off(),
        ..SiteOptions::default()
    }
}

/// A new SQLite database's URL, in a folder named after `tag`.
pub fn sqlite(tag: &str) -> String {
    format!(
        "sqlite://{}?mode=rwc",
        temp_dir(tag).join("site.db").display()
    )
}

/// Unix ms a day from now: an event that starts when its creator says.
pub fn tomorrow() -> i64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock");
    now.as_millis() as i64 + 86_400_000
}

/// The event's view (`GET /api/tournaments/{id}`), which must answer 200.
pub async fn view(c: &mut ApiClient, id: &str) -> Value {
    let a = c.get(&format!("/api/tournaments/{id}")).await.expect("get");
    assert_eq!(a.status, 200, "{}", a.text);
    a.body
}

/// Creates the event `body` describes (must answer 201); its id.
pub async fn create(c: &mut ApiClient, body: Value) -> String {
    let a = post(c, "/api/tournaments", body).await;
    assert_eq!(a.status, 201, "create: {}", a.text);
    a.body["id"].as_str().expect("id").to_string()
}

/// Waits (30 s at most: a loaded machine runs many servers at once) until the view satisfies
/// `pred`; returns it.
pub async fn until(
    c: &mut ApiClient,
    id: &str,
    what: &str,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        let v = view(c, id).await;
        if pred(&v) {
            return v;
        }
        assert!(Instant::now() < end, "{what} within 30 s: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
