//! The timeout sweeper's lease as the moves of timed games read it: whether a database outage
//! is owed to the running clocks. It lives below the sweeper (crate::timeouts, which
//! re-exports it) because play reads it at every timed move, and play imports no module above
//! it (issue 37).

use std::time::Duration;

/// The sweeper's lease.
pub const LEASE: &str = site_store::SWEEPER_LEASE;
/// How long the lease outlives its holder's last look, ms.
pub const LEASE_MS: i64 = 5_000;

/// A lapse of the sweeper's lease longer than this past its expiry, ms, means that no process
/// could renew it: every process was down, or none could reach the database (a process that
/// dies is replaced within the sweeper's `POLL` of the expiry). Nobody could move meanwhile, so that time
/// is owed to the running clocks: no game is flagged until it is given back
/// (`Store::save_flag`), no move of a timed game is stored until its own clock has it
/// (`GameService::store_move`: it would be charged the outage; the give-back goes game by game,
/// one write each, and a game given it takes moves at once), and plain renewals leave such a
/// lease alone
/// (`Store::take_lease_unless_lapsed`). Shorter outages are not given back.
pub const OUTAGE_MS: i64 = site_store::OUTAGE_MS;

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
