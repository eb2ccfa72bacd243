//! The clock of the search and the solver: [`Instant`] is `std::time::Instant` on every
//! target but `wasm32-unknown-unknown`, where the standard library has no clock
//! (`Instant::now` panics there). On that target it is a time in milliseconds read from a
//! source the embedder registers with [`set_source`] (the browser's `performance.now()`,
//! through `crates/engine-wasm`); without one, time stands still at 0, so a time limit never
//! fires and depth and node limits behave as everywhere.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use host::{Instant, set_source};

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    use std::ops::{Add, Sub};
    use std::sync::RwLock;
    use std::time::Duration;

    static SOURCE: RwLock<Option<fn() -> f64>> = RwLock::new(None);

    /// Registers the clock: a function returning milliseconds since any fixed origin, never
    /// decreasing (e.g. `performance.now()`). Replaces an earlier source.
    pub fn set_source(source: fn() -> f64) {
        *SOURCE.write().unwrap_or_else(|p| p.into_inner()) = Some(source);
    }

    fn now_ms() -> f64 {
        let source = *SOURCE.read().unwrap_or_else(|p| p.into_inner());
        source.map_or(0.0, |f| f()).max(0.0)
    }

    /// A point in time: milliseconds on the registered clock (the API of
    /// `std::time::Instant` that the engine uses).
    #[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now on the registered clock (0 ms without one).
        pub fn now() -> Instant {
            Instant(now_ms())
        }
        /// Time since `self` (zero if the clock went back).
        pub fn elapsed(&self) -> Duration {
            Instant::now() - *self
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }

    impl Sub for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }
    }
}
