//! The per-account log-in guard (issue 41, tables `login_guards` and `login_addresses`): how
//! many passwords were checked for one username lately, from every address and every process
//! sharing the database, and the addresses that logged in to an account before. The policy
//! (rates, the growing delay) is `site::accounts::guard`'s; this file only counts, atomically.

use sqlx::Row;

use super::conn::commit;
use super::{Store, StoreError};

/// The guard's pace for one username: a token bucket kept as a "theoretical arrival time"
/// (GCRA), so that one conditional `UPDATE` admits a check or not, across processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoginPace {
    /// Milliseconds one check costs (60,000 / checks a minute on average).
    pub interval_ms: i64,
    /// Checks allowed at once (at least 1).
    pub burst: i64,
}

/// What [`Store::admit_login`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// The password may be checked now (the check is counted).
    Check,
    /// Not now: wait this many milliseconds (at least 1).
    Wait(i64),
}

impl Store {
    /// Counts a password check for `key` (a lower-case username, existing or not) at `now`
    /// (Unix ms) if the pace and the growing delay allow it; otherwise how long to wait.
    pub async fn admit_login(
        &self,
        key: &str,
        now: i64,
        pace: LoginPace,
    ) -> Result<Admission, StoreError> {
        let tolerance = pace.interval_ms * (pace.burst.max(1) - 1);
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    sqlx::query(
                        "INSERT INTO login_guards (username_key, tat, failures, next_at) \
                         VALUES ($1, 0, 0, 0) ON CONFLICT (username_key) DO NOTHING",
                    )
                    .bind(key)
                    .execute(&mut *tx)
                    .await?;
                    // One statement decides: two processes cannot both take the last check.
                    let admitted = sqlx::query(
                        "UPDATE login_guards SET tat = \
                         (CASE WHEN tat > $2 THEN tat ELSE $2 END) + $3 \
                         WHERE username_key = $1 AND tat <= $2 + $4 AND next_at <= $2",
                    )
                    .bind(key)
                    .bind(now)
                    .bind(pace.interval_ms)
                    .bind(tolerance)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
                        == 1;
                    let answer = if admitted {
                        Admission::Check
                    } else {
                        let row = sqlx::query(
                            "SELECT tat, next_at FROM login_guards WHERE username_key = $1",
                        )
                        .bind(key)
                        .fetch_one(&mut *tx)
                        .await?;
                        let tat: i64 = row.try_get("tat")?;
                        let next_at: i64 = row.try_get("next_at")?;
                        Admission::Wait((tat - tolerance - now).max(next_at - now).max(1))
                    };
                    commit(tx).await?;
                    Ok(answer)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Records a wrong password for `key` at `now`: one more failure in a row, and the next
    /// check from an unknown address waits `delay_ms(failures)`. Returns the failures in a row.
    pub async fn login_failed(
        &self,
        key: &str,
        now: i64,
        delay_ms: fn(i64) -> i64,
    ) -> Result<i64, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    sqlx::query(
                        "UPDATE login_guards SET failures = failures + 1 WHERE username_key = $1",
                    )
                    .bind(key)
                    .execute(&mut *tx)
                    .await?;
                    let failures: i64 =
                        sqlx::query("SELECT failures FROM login_guards WHERE username_key = $1")
                            .bind(key)
                            .fetch_optional(&mut *tx)
                            .await?
                            .map(|r| r.try_get("failures"))
                            .transpose()?
                            .unwrap_or(0);
                    sqlx::query("UPDATE login_guards SET next_at = $2 WHERE username_key = $1")
                        .bind(key)
                        .bind(now.saturating_add(delay_ms(failures)))
                        .execute(&mut *tx)
                        .await?;
                    commit(tx).await?;
                    Ok(failures)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Records a log-in of `account_id` (username key `key`) from `address` (a digest of the
    /// client's address) at `now`: the failures in a row start again from 0 and the address
    /// is known to the account from now on.
    pub async fn login_succeeded(
        &self,
        key: &str,
        account_id: &str,
        address: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    sqlx::query(
                        "UPDATE login_guards SET failures = 0, next_at = 0 WHERE username_key = $1",
                    )
                    .bind(key)
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query(
                        "INSERT INTO login_addresses (account_id, address, at) VALUES ($1, $2, $3) \
                         ON CONFLICT (account_id, address) DO UPDATE SET at = excluded.at",
                    )
                    .bind(account_id)
                    .bind(address)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                    commit(tx).await
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Whether `account_id` logged in (or registered) from `address` before (a digest of the
    /// client's address, as [`Store::login_succeeded`] stored it).
    pub async fn login_address_known(
        &self,
        account_id: &str,
        address: &str,
    ) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT 1 FROM login_addresses WHERE account_id = $1 AND address = $2",
                    )
                    .bind(account_id)
                    .bind(address)
                    .fetch_optional(conn.raw())
                    .await?;
                    Ok(row.is_some())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
