//! The store's integration tests: a [`Store`] opened on a database URL, no server, no HTTP.
//! One binary, in the quick tier (README, "Tests"): SQLite always, PostgreSQL when
//! `.ci/setup-postgres.sh` gave a URL (`both_databases!`). The tests that need a running server
//! stay in crates/server/tests/it/storage.rs.

mod consistency;
mod group_commit;
mod migrations;
mod move_update;
mod search_bench;

use site_model::state::{GameKind, ReviewStatus};
use site_store::{LeaseTake, ReviewRow, Store};
use test_support::store::sqlite_url;

/// Issue 12's leases: a free lease is taken; a holder renews its own; another process gets it
/// only once it expired; a lapse longer than the caller allows is reported and left alone, and
/// of two processes that move the same lapsed lease on, one wins.
#[tokio::test]
async fn a_lease_passes_on_only_when_expired_and_a_long_lapse_is_moved_on_once() {
    let store = Store::open(&sqlite_url("leases")).await.expect("store");
    let t = 1_000_000;
    assert!(store.take_lease("sweep", "a", t, 5_000).await.unwrap());
    assert!(
        store
            .take_lease("sweep", "a", t + 1_000, 5_000)
            .await
            .unwrap()
    );
    assert_eq!(store.lease_expiry("sweep").await.unwrap(), Some(t + 6_000));
    assert!(
        !store
            .take_lease("sweep", "b", t + 5_999, 5_000)
            .await
            .unwrap()
    );
    assert!(
        store
            .take_lease("sweep", "b", t + 6_001, 5_000)
            .await
            .unwrap()
    );
    assert_eq!(store.lease_expiry("sweep").await.unwrap(), Some(t + 11_001));

    // Expired 1 s ago, 3 s allowed: taken as usual.
    let take = |holder: &'static str, now: i64| {
        let store = store.clone();
        async move {
            store
                .take_lease_unless_lapsed("sweep", holder, now, 5_000, 3_000)
                .await
                .unwrap()
        }
    };
    assert_eq!(take("a", t + 12_001).await, LeaseTake::Held);
    assert_eq!(take("b", t + 12_002).await, LeaseTake::Other);
    // Expired 10 s ago: reported, untouched, for the holder too.
    let expired = t + 17_001;
    for holder in ["a", "b"] {
        assert_eq!(
            take(holder, expired + 10_000).await,
            LeaseTake::Lapsed {
                expires_at: expired
            }
        );
    }
    assert_eq!(store.lease_expiry("sweep").await.unwrap(), Some(expired));
    assert!(
        store
            .move_lapsed_lease("sweep", "b", expired, expired + 20_000)
            .await
            .unwrap()
    );
    assert!(
        !store
            .move_lapsed_lease("sweep", "a", expired, expired + 20_000)
            .await
            .unwrap()
    );
    assert_eq!(take("b", expired + 11_000).await, LeaseTake::Held);
    // A lease never taken is taken, whatever the bound.
    assert!(matches!(
        store
            .take_lease_unless_lapsed("fresh", "a", t, 5_000, 0)
            .await
            .unwrap(),
        LeaseTake::Held
    ));
}

/// `/healthz`'s write writes every time, even while another process's probe holds the row
/// with a later expiry (a `take_lease` would have changed nothing, so a full disk went unseen).
#[tokio::test]
async fn the_healthz_write_probe_writes_whoever_wrote_last() {
    let store = Store::open(&sqlite_url("probe")).await.expect("open");
    let t = 1_800_000_000_000;
    assert!(
        store
            .take_lease("healthz", "other", t, 60_000)
            .await
            .unwrap()
    );
    store.write_probe("me", t).await.expect("probe");
    assert_eq!(store.lease_expiry("healthz").await.unwrap(), Some(t));
    store.write_probe("other", t + 1).await.expect("probe");
    assert_eq!(store.lease_expiry("healthz").await.unwrap(), Some(t + 1));
    store.close().await;
}

/// A review row whose status or variant text is no known one (edited by hand, written by a
/// newer version) is refused with words naming the column and the row, never read as a
/// default; the row as written reads back typed.
#[tokio::test]
async fn a_review_row_with_unknown_text_is_refused_naming_the_row() {
    let url = sqlite_url("review-texts");
    let store = Store::open(&url).await.expect("store");
    let row = ReviewRow {
        subject: "game/abc123".into(),
        variant: GameKind::IceAge,
        owner: site_model::secrets::TokenHash::from_stored("00".repeat(32)),
        status: ReviewStatus::Running,
        nodes: 1_000,
        total: 3,
        done: 0,
        evals: "[]".into(),
        created_at: 1,
        updated_at: 1,
    };
    assert_eq!(store.start_review(&row).await.expect("start"), row);
    store.close().await;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.expect("raw pool");
    for (column, text, words) in [
        (
            "status",
            "paused",
            "review game/abc123: unknown status 'paused'",
        ),
        (
            "variant",
            "chess",
            "review game/abc123: unknown variant 'chess'",
        ),
    ] {
        sqlx::query(&format!(
            "UPDATE reviews SET status = 'running', variant = 'iceage', {column} = $1"
        ))
        .bind(text)
        .execute(&pool)
        .await
        .expect("damage");
        let store = Store::open(&url).await.expect("reopen");
        let err = store
            .load_review("game/abc123")
            .await
            .expect_err("an unknown text");
        let message = err.to_string();
        assert!(message.contains(column), "{message}");
        assert!(message.contains(words), "{message}");
        store.close().await;
    }
    pool.close().await;
}
