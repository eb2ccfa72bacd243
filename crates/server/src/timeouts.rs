//! The clock's referee (issue 13): flags a side whose time ran out even when nobody is
//! connected, and after a restart. One task per process sleeps until the earliest stored
//! deadline (`games.clock_deadline`, at most [`POLL`] ahead, so deadlines set by other
//! processes are seen) and flags every game past it. Several processes may race on one game:
//! the version check of the store lets one write win; the others reload and find it over.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::game_service::GameService;
use crate::store::now_ms;

/// Longest sleep between looks at the stored deadlines.
pub const POLL: Duration = Duration::from_secs(1);
/// Most games flagged per look (the rest at the next, at once).
const BATCH: i64 = 200;
/// The sweeper's lease.
pub const LEASE: &str = "timeouts";
/// How long the lease outlives its holder's last look, ms.
pub const LEASE_MS: i64 = 5_000;

/// A site outage longer than this (no process swept the clocks) is given back to the running
/// clocks, ms.
pub const OUTAGE_MS: i64 = 3_000;

/// When the sweeper's lease lapsed longer than [`OUTAGE_MS`] ago, every process was down
/// (another would have taken it within a second): nobody could move meanwhile, so the time
/// since its last renewal is given back to every running clock (as a paused clock).
async fn credit_outage(service: &Arc<GameService>) {
    let now = now_ms();
    let Ok(Some(expired)) = service.store().lease_expiry(LEASE).await else {
        return;
    };
    let down = now - (expired - LEASE_MS);
    if now - expired < OUTAGE_MS || down <= 0 {
        return;
    }
    match service.store().running_clocks().await {
        Ok(ids) => {
            for id in &ids {
                if let Err(e) = service.credit_clock(id, down).await {
                    tracing::warn!(game = %id, error = %e, "cannot give the outage back");
                }
            }
            if !ids.is_empty() {
                tracing::info!(
                    games = ids.len(),
                    seconds = down / 1000,
                    "the site was down: its time was given back to the running clocks"
                );
            }
        }
        Err(e) => tracing::warn!(error = %e, "cannot read the running clocks"),
    }
}

/// Runs until `shutdown` turns true.
pub async fn run(service: Arc<GameService>, mut shutdown: watch::Receiver<bool>) {
    // The lease is renewed at most once per POLL (a write), not at every wake-up: moves of
    // timed games wake the sweeper often.
    let mut renewed: Option<std::time::Instant> = None;
    loop {
        if renewed.is_none_or(|at| at.elapsed() >= POLL) {
            if renewed.is_none() {
                credit_outage(&service).await;
            }
            let holder = service
                .store()
                .take_lease(LEASE, service.process_id(), now_ms(), LEASE_MS)
                .await
                .unwrap_or_else(|e| {
                    tracing::warn!(error = %e, "cannot take the timeout sweeper's lease");
                    false
                });
            renewed = holder.then(std::time::Instant::now);
        }
        if renewed.is_none() {
            tokio::select! {
                _ = tokio::time::sleep(POLL) => continue,
                _ = shutdown.changed() => return,
            }
        }
        let wait = match service.store().next_clock_deadline().await {
            Ok(Some(deadline)) => {
                let ms = (deadline + 1 - now_ms()).clamp(0, POLL.as_millis() as i64);
                Duration::from_millis(ms as u64)
            }
            Ok(None) => POLL,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the clocks' deadlines; retrying");
                POLL
            }
        };
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = service.clock_changed.notified() => continue,
            _ = shutdown.changed() => return,
        }
        if *shutdown.borrow() {
            return;
        }
        match service.store().due_clocks(now_ms(), BATCH).await {
            Ok(ids) => {
                for id in ids {
                    if let Err(e) = service.flag_if_due(&id).await {
                        tracing::warn!(game = %id, error = %e, "cannot flag the game");
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot read the games out of time"),
        }
    }
}
