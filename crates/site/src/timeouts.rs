//! The clock's referee (issue 13): flags a side whose time ran out even when nobody is
//! connected, and after a restart. One task per process sleeps until the earliest stored
//! deadline (`games.clock_deadline`, at most [`POLL`] ahead, so deadlines set by other
//! processes are seen) and flags every game past it. Several processes may race on one game:
//! the version check of the store lets one write win; the others reload and find it over.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::play::GameService;
use site_model::error::ErrorCode;
use site_store::{LeaseTake, now_ms};

/// Longest sleep between looks at the stored deadlines.
pub const POLL: Duration = Duration::from_secs(1);
/// Most games flagged per look (the rest at the next, at once).
const BATCH: i64 = 200;
pub use crate::play::lease::{
    LEASE, LEASE_MS, LEASE_READ_FRESH, OUTAGE_MS, SweeperLease, outage_start,
};

/// The lease of the process giving an outage back: one at a time, renewed while it gives. It
/// outlives a process that dies while giving by at most [`CREDIT_LEASE_MS`]; the next one
/// gives the outage again to the clocks that did not have it (`Clock::given_back`): one that
/// had it was played since, and is owed nothing more.
const CREDIT_LEASE: &str = "timeouts:credit";
const CREDIT_LEASE_MS: i64 = 5_000;

/// Renews the sweeper's lease, or ends its lapse by giving the outage back first. True when
/// this process holds the lease now.
async fn renew(service: &Arc<GameService>) -> bool {
    let store = service.store();
    match store
        .take_lease_unless_lapsed(LEASE, service.process_id(), now_ms(), LEASE_MS, OUTAGE_MS)
        .await
    {
        Ok(LeaseTake::Held) => true,
        Ok(LeaseTake::Other) => false,
        Ok(LeaseTake::Lapsed { .. }) => {
            let pid = service.process_id();
            match store
                .take_lease(CREDIT_LEASE, pid, now_ms(), CREDIT_LEASE_MS)
                .await
            {
                Ok(true) => {}
                Ok(false) => return false,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot take the lease to give an outage back");
                    return false;
                }
            }
            let held = credit_outage(service).await;
            if let Err(e) = store.release_lease(CREDIT_LEASE, pid).await {
                tracing::warn!(error = %e, "cannot release the lease to give an outage back");
            }
            held
        }
        Err(e) => {
            tracing::warn!(error = %e, "cannot take the timeout sweeper's lease");
            false
        }
    }
}

/// Holding [`CREDIT_LEASE`]: if the sweeper's lease is still lapsed (read again: another
/// process may have ended the lapse just before), gives the time since its last renewal back
/// to every running clock (as a paused clock), then moves the lease on to this process.
async fn credit_outage(service: &Arc<GameService>) -> bool {
    let store = service.store();
    let expired = match store.lease_expiry(LEASE).await {
        Ok(Some(expired)) => expired,
        Ok(None) => return false,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read the timeout sweeper's lease");
            return false;
        }
    };
    let now = now_ms();
    if now - expired <= OUTAGE_MS {
        return false;
    }
    let from = outage_start(expired);
    let down = now - from;
    match store.running_clocks().await {
        Ok(ids) => {
            let mut renewed = std::time::Instant::now();
            for id in &ids {
                if renewed.elapsed() >= POLL {
                    // Many games: the giver's lease is kept short (a giver that dies holds the
                    // clocks up only that long) and renewed while it gives.
                    let pid = service.process_id();
                    match store
                        .take_lease(CREDIT_LEASE, pid, now_ms(), CREDIT_LEASE_MS)
                        .await
                    {
                        Ok(true) => renewed = std::time::Instant::now(),
                        Ok(false) | Err(_) => {
                            tracing::warn!("lost the lease to give an outage back; stopped");
                            return false;
                        }
                    }
                }
                // A move stored meanwhile makes the write stale: read the game again.
                for attempt in 1..=3 {
                    match service.credit_clock(id, from, now_ms()).await {
                        Ok(()) => break,
                        Err(e) if attempt < 3 && e.code == ErrorCode::Conflict => {}
                        Err(e) => {
                            tracing::warn!(game = %id, error = %e, "cannot give the outage back");
                            break;
                        }
                    }
                }
            }
            tracing::warn!(
                games = ids.len(),
                seconds = down / 1000,
                "the site or its database was out of reach: that time was given back to the \
                 running clocks"
            );
        }
        Err(e) => {
            tracing::warn!(error = %e, "cannot read the running clocks");
            return false;
        }
    }
    store
        .move_lapsed_lease(LEASE, service.process_id(), expired, now_ms() + LEASE_MS)
        .await
        .unwrap_or_else(|e| {
            tracing::warn!(error = %e, "cannot move the timeout sweeper's lease on");
            false
        })
}

/// Runs until `shutdown` turns true.
pub async fn run(service: Arc<GameService>, mut shutdown: watch::Receiver<bool>) {
    // The lease is renewed at most once per POLL (a write), not at every wake-up: moves of
    // timed games wake the sweeper often.
    let mut renewed: Option<std::time::Instant> = None;
    loop {
        if renewed.is_none_or(|at| at.elapsed() >= POLL) {
            let started = std::time::Instant::now();
            renewed = renew(&service).await.then_some(started);
        }
        if renewed.is_none() {
            tokio::select! {
                _ = tokio::time::sleep(POLL) => continue,
                _ = shutdown.changed() => return,
            }
        }
        let wait = match service.store().next_clock_deadline().await {
            Ok(Some(deadline)) => {
                let ms = (deadline + 1 - service.time().now_ms()).clamp(0, POLL.as_millis() as i64);
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
        match service
            .store()
            .due_clocks(service.time().now_ms(), BATCH)
            .await
        {
            Ok(ids) => {
                for id in ids {
                    // A long batch (a slow database) renews as it goes: a lease left to lapse
                    // past OUTAGE_MS while the database answered would read as an outage and
                    // give every clock free time.
                    if renewed.is_none_or(|at| at.elapsed() >= POLL) {
                        let started = std::time::Instant::now();
                        renewed = renew(&service).await.then_some(started);
                        if renewed.is_none() {
                            break;
                        }
                    }
                    match service.flag_if_due(&id).await {
                        Ok(_) => {}
                        Err(e) if e.code == ErrorCode::ClocksOwed => {
                            // An outage is owed to the clocks (OUTAGE_MS): renew first.
                            renewed = None;
                            break;
                        }
                        Err(e) => tracing::warn!(game = %id, error = %e, "cannot flag the game"),
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot read the games out of time"),
        }
    }
}
