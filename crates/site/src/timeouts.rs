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
/// The sweeper's lease.
pub const LEASE: &str = "timeouts";
/// How long the lease outlives its holder's last look, ms.
pub const LEASE_MS: i64 = 5_000;

/// A lapse of the sweeper's lease longer than this past its expiry, ms, means that no process
/// could renew it: every process was down, or none could reach the database (a process that
/// dies is replaced within [`POLL`] of the expiry). Nobody could move meanwhile, so that time
/// is owed to the running clocks: no game is flagged until it is given back
/// (`Store::save_flag`), no move of a timed game is stored until its own clock has it
/// (`GameService::store_move`: it would be charged the outage; the give-back goes game by game,
/// one write each, and a game given it takes moves at once), and plain renewals leave such a
/// lease alone
/// (`Store::take_lease_unless_lapsed`). Shorter outages are not given back.
pub const OUTAGE_MS: i64 = 3_000;

/// The start of the outage a lapsed sweeper's lease that expired at `expired` (Unix ms) owes:
/// its last renewal. The clocks are given back the time since (`Clock::credit_outage`).
pub fn outage_start(expired: i64) -> i64 {
    expired - LEASE_MS
}

/// How long a read of the sweeper's lease stands for the moves of timed games
/// ([`SweeperLease`]).
pub const LEASE_READ_FRESH: Duration = Duration::from_millis(250);

/// The sweeper's lease expiry as last read by this process, shared by the moves of timed
/// games, which must see whether an outage is owed to their clocks ([`OUTAGE_MS`]): one read
/// per [`LEASE_READ_FRESH`] instead of one per move (a hostile review: a timed move cost a
/// read of the database of its own).
///
/// A reading up to that old lets no move through that a fresh one would refuse, as long as the
/// stored expiry only moves later: every writer of the lease sets it to its own `now` plus
/// [`LEASE_MS`] (a renewal, a take-over, the give-back), so it does on clocks that do not step
/// back; the lapse is measured against `now` at each check, so during a real outage (the
/// expiry stands still) an older reading and a fresh one agree. The other way, a reading can
/// refuse for up to [`LEASE_READ_FRESH`] more than a fresh one would: after a give-back, or a
/// renewal that came just in time; 503 `clocks_owed`, and the player's move goes again.
/// Tests that write the lease directly, moving it earlier, wait [`LEASE_READ_FRESH`] after.
///
/// No lock is held while reading: callers that find the reading stale read side by side (a
/// slow or failing database fails each of them at once, as before the sharing).
#[derive(Debug, Default)]
pub struct SweeperLease {
    /// When it was read, and the expiry read (Unix ms; `None`: no lease stored).
    last: std::sync::Mutex<Option<(std::time::Instant, Option<i64>)>>,
    reads: std::sync::atomic::AtomicU64,
}

impl SweeperLease {
    /// The expiry of [`LEASE`] (Unix ms), read again when the last reading is older than
    /// [`LEASE_READ_FRESH`]. Errors: the store's (nothing is kept then).
    pub async fn expiry(
        &self,
        store: &site_store::Store,
    ) -> Result<Option<i64>, site_store::StoreError> {
        if let Some((at, expiry)) = *self.lock()
            && at.elapsed() < LEASE_READ_FRESH
        {
            return Ok(expiry);
        }
        let started = std::time::Instant::now();
        let expiry = store.lease_expiry(LEASE).await?;
        self.reads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut last = self.lock();
        // Of readings side by side, the one begun last stands.
        if last.is_none_or(|(at, _)| at <= started) {
            *last = Some((started, expiry));
        }
        Ok(expiry)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<(std::time::Instant, Option<i64>)>> {
        // The guarded value is always whole: a poisoned lock is as good as any.
        self.last.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many times the lease was read from the database (diagnostics, tests).
    pub fn reads(&self) -> u64 {
        self.reads.load(std::sync::atomic::Ordering::Relaxed)
    }
}

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
