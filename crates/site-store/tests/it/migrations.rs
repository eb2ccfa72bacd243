//! Migrations of stores opened at once on a new database: the losers of a concurrent migration
//! retry, and every store ends with the whole schema (moved from the server's tests: they need
//! no server).

use site_store::Store;
use test_support::store::{postgres_url, sqlite_url};

/// Opens `stores` stores on `url` at the same instant (as processes started together do) and
/// checks every one migrated the whole schema: the losers of a concurrent migration retry.
async fn open_together(url: &str, stores: usize) {
    let opens = (0..stores).map(|_| {
        let url = url.to_string();
        tokio::spawn(async move { Store::open(&url).await })
    });
    let opens: Vec<_> = opens.collect();
    for (i, opened) in opens.into_iter().enumerate() {
        let store = opened
            .await
            .expect("task")
            .unwrap_or_else(|e| panic!("store {i}: {e}"));
        // The newest table of the schema is there for each.
        store.ping().await.expect("ping");
        assert!(
            store
                .lease_expiry("nobody")
                .await
                .expect("leases table")
                .is_none(),
            "store {i}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_stores_opened_at_once_on_a_new_file_all_migrate() {
    for round in 0..5 {
        open_together(&sqlite_url(&format!("migrate-race-{round}")), 4).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_stores_opened_at_once_on_a_new_database_all_migrate() {
    for _ in 0..2 {
        if let Some(url) = postgres_url() {
            open_together(&url, 4).await;
        }
    }
}
