//! The process's allocator: mimalloc instead of glibc's malloc.
//!
//! Measured in docs/performance.md (2026-12-02, one server, SQLite, 200 games, no think): glibc's
//! malloc and free were about 17 % of the server's samples, and with mimalloc the site made
//! 6,130-6,609 moves/s against 5,041-5,221 in alternating runs. mimalloc is built with the crate's
//! `no_thp` feature: with transparent huge pages its arenas held about a third more resident
//! memory with 1,000 games open (100-111 KB a game against glibc's 82 KB); without them 80-82 KB.
//!
//! mimalloc gives freed pages back to the kernel only when the thread that holds them allocates
//! or frees again, so a site that goes quiet kept what its closed connections had used. The
//! server's runtime therefore calls [`collect_when_idle`] when a worker thread parks: with
//! 1,000 games open and the players' HTTP connections closed, 45-46 KB a game instead of 71-72,
//! and no change in the saturated rate (6,670 and 6,901 against 6,752 and 6,664 moves/s).

use std::cell::Cell;
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Gives the memory this thread has freed back to the kernel (`mi_collect`, not forced), at
/// most once a second per thread. Meant for tokio's `on_thread_park`, so it runs when a worker
/// has nothing to do.
pub fn collect_when_idle() {
    thread_local! {
        static LAST: Cell<Option<Instant>> = const { Cell::new(None) };
    }
    if LAST.with(|last| due(last, Instant::now())) {
        // SAFETY: mi_collect only walks mimalloc's own structures of this thread and the
        // shared arenas; it takes no pointer.
        unsafe { libmimalloc_sys::mi_collect(false) };
    }
}

/// Whether a collection is due at `now` after the one at `last`; if so, `now` becomes `last`.
fn due(last: &Cell<Option<Instant>>, now: Instant) -> bool {
    match last.get() {
        Some(t) if now.duration_since(t) < COLLECT_EVERY => false,
        _ => {
            last.set(Some(now));
            true
        }
    }
}

/// The least time between two collections on one thread.
const COLLECT_EVERY: Duration = Duration::from_secs(1);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_collects_at_most_once_a_second() {
        let last = Cell::new(None);
        let t0 = Instant::now();
        assert!(due(&last, t0), "the first park collects");
        assert!(!due(&last, t0 + Duration::from_millis(999)));
        assert!(due(&last, t0 + Duration::from_millis(1000)));
        assert!(!due(&last, t0 + Duration::from_millis(1500)));
        // It runs for real, and twice in a row is harmless.
        collect_when_idle();
        collect_when_idle();
    }
}
