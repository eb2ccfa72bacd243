//! The wall clock the site's game clocks read (issue 37): Unix milliseconds from the system,
//! plus an offset that only a test moves ([`WallTime::advance`]), so a clock test flags a
//! 15-second game without sleeping 15 seconds. Leases and outages keep the system's time: they
//! measure whether processes are alive, which no test may fake.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

/// Milliseconds since the Unix epoch by the system's clock (0 before 1970).
pub fn system_now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The time the game clocks run on: the system's, moved forward by every
/// [`WallTime::advance`] made on it or on a clone (clones share the offset). The default is
/// the system's time, never moved in production.
#[derive(Clone, Debug, Default)]
pub struct WallTime {
    skew_ms: Arc<AtomicI64>,
}

impl WallTime {
    /// The system's time.
    pub fn system() -> WallTime {
        WallTime::default()
    }

    /// Now, in Unix milliseconds.
    pub fn now_ms(&self) -> i64 {
        system_now_ms().saturating_add(self.skew_ms.load(Ordering::SeqCst))
    }

    /// Moves this time and its clones forward by `by` (tests: a clock runs out without a
    /// sleep). Saturates at `i64::MAX` ms.
    pub fn advance(&self, by: Duration) {
        let ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.skew_ms.fetch_add(ms, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advance_moves_every_clone_and_nothing_else() {
        let time = WallTime::system();
        let clone = time.clone();
        let other = WallTime::system();
        time.advance(Duration::from_secs(3_600));
        let (a, b, c) = (time.now_ms(), clone.now_ms(), other.now_ms());
        assert!(a - c >= 3_600_000 - 1_000, "{a} {c}");
        assert!((a - b).abs() < 1_000, "{a} {b}");
        assert!((c - system_now_ms()).abs() < 1_000);
    }
}
