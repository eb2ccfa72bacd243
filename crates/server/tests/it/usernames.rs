//! Usernames (issue 41, site_model::usernames): a name that looks like a taken one (`AIice`
//! with a capital i, `A1ice` with a one, against `Alice`) is refused by its UTS #39 skeleton,
//! reserved names (`admin`, `icebound` ...) and their lookalikes are refused, a case variant
//! is still "taken", and accounts made before the rule get their key at the migration.

use crate::common::*;
use serde_json::json;
use server::SiteOptions;
use server::client::Answer;
use server::options::RateLimits;

async fn try_register(srv: &TestServer, name: &str) -> Answer {
    srv.client()
        .post(
            "/api/accounts",
            json!({"username": name, "password": "correct horse"}),
        )
        .await
        .expect("register")
}

/// A server without the per-address limit on registrations (every test client is 127.0.0.1).
async fn start(url: &str) -> TestServer {
    TestServer::start_with(
        url,
        SiteOptions {
            rate_limits: RateLimits {
                login: None,
                ..RateLimits::default()
            },
            ..SiteOptions::default()
        },
    )
    .await
}

async fn lookalikes(url: &str) {
    let srv = start(url).await;
    // This run's own digits (a PostgreSQL database outlives the run).
    let digits = unique("");
    let digits = &digits[digits.len().saturating_sub(6)..];
    let alice = format!("Alice{digits}");
    let r = try_register(&srv, &alice).await;
    assert_eq!(r.status, 201, "{}", r.text);
    for look in [format!("AIice{digits}"), format!("A1ice{digits}")] {
        let r = try_register(&srv, &look).await;
        assert_error(&r, 409, "username_lookalike");
        let message = r.body["error"]["message"].as_str().unwrap_or("");
        assert!(message.contains(&alice), "names the taken one: {message}");
    }
    assert_error(
        &try_register(&srv, &alice.to_lowercase()).await,
        409,
        "conflict",
    );
    for reserved in [
        "admin",
        "Admin",
        "ADMIN",
        "adm1n",
        "moderator",
        "icebound",
        "IceBound",
        "system",
        "root",
        "support",
    ] {
        assert_error(
            &try_register(&srv, reserved).await,
            409,
            "username_reserved",
        );
    }
    let r = try_register(&srv, &format!("Alicia{digits}")).await;
    assert_eq!(r.status, 201, "a different name: {}", r.text);
    srv.stop().await;
}

both_databases! {
    async fn lookalike_and_reserved_usernames_are_refused(url: &str) {
        lookalikes(url).await;
    }
}

#[tokio::test]
async fn accounts_made_before_the_rule_get_their_key_at_the_migration() {
    use sqlx::Connection;
    let url = sqlite_url("usernames_backfill");
    let srv = start(&url).await;
    for name in ["Carl_x", "Dan_x"] {
        let r = try_register(&srv, name).await;
        assert_eq!(r.status, 201, "{}", r.text);
    }
    srv.stop().await;
    // Back to the schema before migration 26, with two lookalikes made before it.
    sqlx::any::install_default_drivers();
    let mut db = sqlx::AnyConnection::connect(&url).await.expect("connect");
    for statement in [
        "DROP INDEX accounts_skeleton",
        "ALTER TABLE accounts DROP COLUMN username_skeleton",
        "DELETE FROM icebound_schema WHERE version = 26",
        "UPDATE accounts SET username = 'CarI_x', username_key = 'cari_x' WHERE username = 'Dan_x'",
    ] {
        sqlx::query(statement)
            .execute(&mut db)
            .await
            .expect(statement);
    }
    db.close().await.expect("close");

    // The migration runs (the lookalikes do not stop its unique index) and fills the keys.
    let srv = start(&url).await;
    let r = try_register(&srv, "Car1_x").await;
    assert_error(&r, 409, "username_lookalike");
    for name in ["Carl_x", "CarI_x"] {
        let r = srv
            .client()
            .post(
                "/api/session",
                json!({"username": name, "password": "correct horse"}),
            )
            .await
            .expect("log in");
        assert_eq!(r.status, 200, "{name} still logs in: {}", r.text);
    }
    srv.stop().await;
    let mut db = sqlx::AnyConnection::connect(&url).await.expect("connect");
    let keys: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT username, username_skeleton FROM accounts ORDER BY created_at, id")
            .fetch_all(&mut db)
            .await
            .expect("keys");
    let filled: Vec<(&str, bool)> = keys
        .iter()
        .map(|(name, key)| (name.as_str(), key.is_some()))
        .collect();
    assert_eq!(
        filled,
        [("Carl_x", true), ("CarI_x", false)],
        "the oldest of a lookalike pair keeps the key"
    );
}
