//! The process's allocator: mimalloc instead of glibc's malloc (cargo feature `mimalloc`, on by
//! default; `--no-default-features` builds with the system allocator, which heap profilers such
//! as heaptrack and valgrind need).
//!
//! docs/performance.md ("mimalloc without transparent huge pages") has the measurements: glibc's
//! malloc and free were about a sixth of a saturated server's samples, and mimalloc raised the
//! saturated rate. It is built with the crate's `no_thp` feature, because with transparent huge
//! pages its arenas held about a third more resident memory with 1,000 games open.
//!
//! mimalloc gives freed pages back to the kernel only when the thread that holds them allocates
//! or frees again, so a server that goes quiet kept what its closed connections had used. The
//! server's runtime therefore calls [`collect_when_idle`] when a worker thread parks. It applies
//! to `serve` only; the other subcommands just use the allocator.

use std::cell::Cell;
use std::time::{Duration, Instant};

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Gives the memory this thread has freed back to the kernel (`mi_collect`, not forced), at
/// most once a second per thread. Meant for tokio's `on_thread_park`, so it runs when a worker
/// has nothing to do. A park within a second of the last collection collects nothing; the
/// next park after that second does (a live site's timers, such as the WebSockets' pings,
/// wake every worker often enough). Without the `mimalloc` feature it does nothing.
pub fn collect_when_idle() {
    thread_local! {
        static LAST: Cell<Option<Instant>> = const { Cell::new(None) };
    }
    if LAST.with(|last| due(last, Instant::now())) {
        // SAFETY: mi_collect only walks mimalloc's own structures of this thread and the
        // shared arenas; it takes no pointer.
        #[cfg(feature = "mimalloc")]
        unsafe {
            libmimalloc_sys::mi_collect(false)
        };
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
        // A real collection on a fresh thread (its first park is due) returns.
        std::thread::spawn(collect_when_idle)
            .join()
            .expect("collects");
    }
}
