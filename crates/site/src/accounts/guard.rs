//! The per-account log-in guard (issue 41): besides the per-address limit of the HTTP edge, at
//! most [`CHECKS_AT_ONCE`] password checks at once for one username and one more every
//! [`CHECK_INTERVAL_MS`] (so never more than 10 in any minute), from every address and every
//! process together (counted in the database, `site_store::login_guard`); past it the answer
//! is 429 `rate_limited` with `Retry-After`, and the password is not checked.
//!
//! After [`FREE_FAILURES`] wrong passwords in a row, each next check from an address the
//! account never logged in from waits a growing delay ([`delay_ms`]: 15 s, doubling, at most
//! 15 min), the right password included: a log-in from a new address after many failures
//! waits. An address the account logged in or registered from before (its digest is stored)
//! skips both the delay and the per-account pace, so a guessing crowd cannot lock the owner
//! out; only its per-address limit holds.
//!
//! The guard keys by the name as typed (lower case), whether an account has it or not, so a
//! missing user and a wrong password get the same answers, 401 and 429 alike.

use std::net::IpAddr;

use site_model::error::{ErrorCode, SiteError};
use site_store::{Admission, LoginPace, Store};

/// Checks allowed at once for one username.
pub const CHECKS_AT_ONCE: i64 = 5;
/// Milliseconds until one more check is allowed (5 at once plus one every 12 s: at most 10
/// checks in any minute).
pub const CHECK_INTERVAL_MS: i64 = 12_000;
/// Wrong passwords in a row before the growing delay starts.
pub const FREE_FAILURES: i64 = 5;
/// The first delay (ms), doubled at each further failure ...
pub const FIRST_DELAY_MS: i64 = 15_000;
/// ... up to this (ms).
pub const MAX_DELAY_MS: i64 = 900_000;

/// How long a check from an unknown address waits after `failures` wrong passwords in a
/// row (ms): 0 below [`FREE_FAILURES`], then 15 s, 30 s, 1 min ... at most 15 min.
pub fn delay_ms(failures: i64) -> i64 {
    if failures < FREE_FAILURES {
        return 0;
    }
    let doublings = (failures - FREE_FAILURES).min(16) as u32;
    FIRST_DELAY_MS
        .saturating_mul(1i64 << doublings)
        .min(MAX_DELAY_MS)
}

/// The stored form of a client's address ([`site_model::secrets::address_digest`]).
pub fn address_digest(address: IpAddr) -> String {
    site_model::secrets::address_digest(address)
}

/// The guard's key of a username as typed.
pub(super) fn key(username: &str) -> String {
    username.to_lowercase()
}

/// Counts one check for `username` at `now` (Unix ms), or answers 429 `rate_limited` with
/// `Retry-After` when the account's pace or delay says wait.
pub(super) async fn admit(store: &Store, username: &str, now: i64) -> Result<(), SiteError> {
    let pace = LoginPace {
        interval_ms: CHECK_INTERVAL_MS,
        burst: CHECKS_AT_ONCE,
    };
    match store.admit_login(&key(username), now, pace).await? {
        Admission::Check => Ok(()),
        Admission::Wait(ms) => {
            let seconds = u64::try_from(ms.saturating_add(999) / 1000)
                .unwrap_or(1)
                .max(1);
            Err(SiteError::new(
                ErrorCode::RateLimited,
                format!(
                    "too many log-in attempts for this username from all addresses: try again \
                     in {seconds} s"
                ),
            )
            .retry_after(seconds))
        }
    }
}

/// Records a wrong password for `username` at `now`.
pub(super) async fn failed(store: &Store, username: &str, now: i64) -> Result<(), SiteError> {
    store.login_failed(&key(username), now, delay_ms).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_grows_from_the_sixth_failure_and_stops_at_15_minutes() {
        assert_eq!(delay_ms(0), 0);
        assert_eq!(delay_ms(4), 0);
        assert_eq!(delay_ms(5), 15_000);
        assert_eq!(delay_ms(6), 30_000);
        assert_eq!(delay_ms(10), 480_000);
        assert_eq!(delay_ms(11), MAX_DELAY_MS);
        assert_eq!(delay_ms(i64::MAX), MAX_DELAY_MS);
    }

    #[test]
    fn addresses_are_stored_as_digests() {
        let a = address_digest("10.0.0.1".parse().expect("ip"));
        assert_eq!(a.len(), 64);
        assert!(!a.contains("10.0.0.1"));
        assert_ne!(a, address_digest("10.0.0.2".parse().expect("ip")));
    }
}
