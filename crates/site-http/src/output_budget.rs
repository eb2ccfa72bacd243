//! The records reader's output budget (issue 41): the bytes of `POST /api/records/read`
//! answers one client address (an IPv6 client is its /64) may take per minute. A request
//! that finds its address's budget spent is answered 429 `rate_limited` with `Retry-After`
//! before any reading; one that still has budget is read and its whole answer counted, so an
//! address overshoots its budget by one answer at most (at most 1 MiB: the reader's answer
//! is at most four times its 256 KiB of text, `site::records_read::max_answer`).
//!
//! Counted per process in fixed minutes, one per address starting at its first answer.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use site_model::error::{ErrorCode, SiteError};

/// The length of one budget window.
const WINDOW: Duration = Duration::from_secs(60);
/// Addresses remembered before the ones whose window is over are forgotten.
const MAX_ADDRESSES: usize = 100_000;

/// Bytes of answers per address and minute, and what each address spent in its minute.
#[derive(Debug)]
pub struct OutputBudget {
    per_minute: u64,
    spent: Mutex<HashMap<IpAddr, (Instant, u64)>>,
}

impl OutputBudget {
    /// A budget of `per_minute` bytes per address and minute.
    pub fn new(per_minute: u64) -> OutputBudget {
        OutputBudget {
            per_minute,
            spent: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, (Instant, u64)>> {
        self.spent.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Ok while `address` has budget left in its minute; else 429 `rate_limited` with
    /// `Retry-After` (the seconds until its minute is over).
    pub fn check(&self, address: IpAddr) -> Result<(), SiteError> {
        let spent = self.lock();
        let Some((start, bytes)) = spent.get(&address) else {
            return Ok(());
        };
        let age = start.elapsed();
        if age >= WINDOW || *bytes < self.per_minute {
            return Ok(());
        }
        let wait = (WINDOW - age).as_secs() + 1;
        Err(SiteError::new(
            ErrorCode::RateLimited,
            format!(
                "your address read {bytes} bytes of records in the last minute (at most {} a \
                 minute): try again in {wait} s",
                self.per_minute
            ),
        )
        .retry_after(wait))
    }

    /// Counts an answer of `bytes` bytes to `address`.
    pub fn spend(&self, address: IpAddr, bytes: u64) {
        let mut spent = self.lock();
        if spent.len() >= MAX_ADDRESSES {
            spent.retain(|_, (start, _)| start.elapsed() < WINDOW);
        }
        let entry = spent.entry(address).or_insert((Instant::now(), 0));
        if entry.0.elapsed() >= WINDOW {
            *entry = (Instant::now(), 0);
        }
        entry.1 = entry.1.saturating_add(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_refused_once_its_minute_is_spent_and_others_are_not() {
        let budget = OutputBudget::new(1000);
        let a: IpAddr = "10.0.0.1".parse().expect("ip");
        let b: IpAddr = "10.0.0.2".parse().expect("ip");
        assert!(budget.check(a).is_ok());
        budget.spend(a, 600);
        assert!(budget.check(a).is_ok(), "budget left");
        budget.spend(a, 600);
        let e = budget.check(a).expect_err("spent");
        assert_eq!(e.code, ErrorCode::RateLimited);
        assert!(e.retry_after_s.is_some_and(|s| (1..=60).contains(&s)));
        assert!(budget.check(b).is_ok());
    }
}
