//! The site's health as `GET /healthz` reports it: whether the database answers a read and a
//! small write within [`PROBE_TIMEOUT`] (SQLite: and whether a checkpoint a storage error left
//! owed now succeeds), and, when the site runs with a bus between processes
//! (Redis), whether the bus delivers and takes announcements.

use std::time::Duration;

use site_store::now_ms;

use crate::play::GameService;

/// How long the database has to answer the probe's read and write.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// One health check's findings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Health {
    /// `Ok` when the database answered the read and the write in time; otherwise why not, in
    /// words (the store's error, or `no answer within 5 s`).
    pub database: Result<(), String>,
    /// Whether the bus between processes is up; `None` when the site runs alone.
    pub bus_up: Option<bool>,
}

impl Health {
    /// Whether every part checked is healthy.
    pub fn ok(&self) -> bool {
        self.database.is_ok() && self.bus_up != Some(false)
    }
}

/// Checks `play`'s database and bus. A read and a write: a database that reads but cannot
/// write (read-only file, full disk, a lock held elsewhere) cannot take a move, so it is not
/// healthy. Nor is a SQLite database whose write-ahead log cannot be checkpointed after a
/// storage error: small writes pass, moves soon fail (`serve_fsize`).
pub async fn check(play: &GameService) -> Health {
    let probe = async {
        play.store().ping().await?;
        play.store()
            .write_probe(play.process_id(), now_ms())
            .await?;
        Ok::<_, site_store::StoreError>(play.store().checkpoint_health().await)
    };
    let database = match tokio::time::timeout(PROBE_TIMEOUT, probe).await {
        Ok(Ok(checkpoint)) => checkpoint,
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within {} s", PROBE_TIMEOUT.as_secs())),
    };
    Health {
        database,
        bus_up: play.bus().map(|bus| bus.is_up()),
    }
}
