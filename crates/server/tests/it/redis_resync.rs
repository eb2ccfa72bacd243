//! Redis coming back after an outage (found by a code review): a game a process holds in
//! memory without a socket may have missed what was published meanwhile (the fallback polling
//! resyncs only watched games). When the subscription is back such games are dropped from
//! memory, and watched ones stay, fresh.
//!
//! No answer of the API shows a stale copy (every move and read checks the store), so the
//! test looks at the process's memory: `GameService::version_in_memory`.

use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::json;
use server::SiteOptions;
use test_support::redis::Redis;
use test_support::services::redis_server as redis_binary;

/// A server on `url` and the bus at `redis`, once its subscription is live.
async fn on_bus(url: &str, redis: &Redis) -> TestServer {
    let srv = TestServer::start_with(
        url,
        SiteOptions {
            services: server::ServiceOptions {
                redis: Some(redis.url()),
                ..server::ServiceOptions::default()
            },
            ..SiteOptions::default()
        },
    )
    .await;
    bus_is(&srv, true).await;
    srv
}

/// Waits (10 s at most) until the bus of `srv` (started with its serving) is up (`true`) or
/// down.
async fn bus_is(srv: &TestServer, up: bool) {
    let end = Instant::now() + Duration::from_secs(10);
    while srv.site.service().bus().map(|b| b.is_up()) != Some(up) {
        assert!(Instant::now() < end, "the bus is not up={up} within 10 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn after_redis_returns_games_in_memory_without_a_socket_are_dropped() {
    let Some(binary) = redis_binary() else { return };
    let mut redis = Redis::start(binary);
    let url = sqlite_url("redis-resync");
    let a = on_bus(&url, &redis).await;
    let b = on_bus(&url, &redis).await;
    let mut white = a.client();
    let mut black = a.client();
    let body = json!({"variant": "antarctos", "opponent": "friend", "color": "white"});
    let idle = create_and_join(&mut white, &mut black, body.clone()).await;
    let idle = idle["id"].as_str().expect("id").to_string();
    let watched = create_and_join(&mut white, &mut black, body).await;
    let watched = watched["id"].as_str().expect("id").to_string();
    // B reads both games (so holds them in memory); only `watched` has a socket on B.
    let mut at_b = b.client();
    for id in [&idle, &watched] {
        let answer = at_b.get(&format!("/api/games/{id}")).await.expect("get");
        assert_eq!(answer.status, 200, "{}", answer.text);
    }
    let mut ws = at_b.ws(&watched).await.expect("a socket on B");
    first_state(&mut ws).await;
    let service = b.site.service();
    let held = service.version_in_memory(&idle).await.expect("B holds it");

    // Redis goes down; a move through A misses B: A dies before Redis is back, so its kept
    // announcement is never sent (as with a queue that overflowed).
    redis.down();
    bus_is(&b, false).await;
    play(&mut white, &idle, "c3-d4").await;
    play(&mut white, &watched, "c3-d4").await;
    a.crash().await;
    assert_eq!(
        service.version_in_memory(&idle).await,
        Some(held),
        "B's copy without a socket missed the move"
    );

    redis.up();
    bus_is(&b, true).await;
    let end = Instant::now() + Duration::from_secs(10);
    while service.version_in_memory(&idle).await.is_some() {
        assert!(
            Instant::now() < end,
            "B still holds the game it has no socket on, at version {:?} (stored: newer)",
            service.version_in_memory(&idle).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The watched game stays in memory, fresh, and its socket got the move.
    wait_state(&mut ws, |g| g["ply"] == 1).await;
    let stored = service
        .store()
        .load_game(&watched)
        .await
        .expect("load")
        .expect("game")
        .0
        .version;
    assert_eq!(service.version_in_memory(&watched).await, Some(stored));
    // The dropped game is read from the store at its next use.
    let view = at_b.get(&format!("/api/games/{idle}")).await.expect("get");
    assert_eq!(view.body["ply"], 1, "{}", view.text);
    drop(ws);
    b.stop().await;
}
