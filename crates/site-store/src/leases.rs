//! Leases (issue 12): work that must happen on exactly one of the processes sharing the
//! database (an engine's move, the timeout sweep) is done by the holder of its lease; a
//! lease expires, so the work passes to another process when its holder dies.

use super::{Store, StoreError};

/// What [`Store::take_lease_unless_lapsed`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaseTake {
    /// The caller holds the lease now.
    Held,
    /// Another holder's lease has not expired.
    Other,
    /// The lease expired at `expires_at` (Unix ms), longer ago than the caller allows: only
    /// [`Store::move_lapsed_lease`] moves it on.
    Lapsed {
        /// When it expired, Unix ms.
        expires_at: i64,
    },
}

/// A lapse bound no expired lease exceeds: [`Store::take_lease`] takes any expired lease.
const NEVER_LAPSED: i64 = i64::MAX;

impl Store {
    /// Takes or renews lease `name` for `holder` until `now + ttl_ms` (Unix ms): `true` when
    /// `holder` has it now (it was free, expired, or already its own).
    pub async fn take_lease(
        &self,
        name: &str,
        holder: &str,
        now: i64,
        ttl_ms: i64,
    ) -> Result<bool, StoreError> {
        let taken = self
            .take_lease_unless_lapsed(name, holder, now, ttl_ms, NEVER_LAPSED)
            .await?;
        Ok(taken == LeaseTake::Held)
    }

    /// The write of `GET /healthz`: sets the row `healthz` of the leases table to `holder`
    /// and `now` whoever had it, so every call writes (a database that cannot write fails
    /// it). A [`Store::take_lease`] would write nothing while another process held that row.
    pub async fn write_probe(&self, holder: &str, now: i64) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = sqlx::query(
                    "INSERT INTO leases (name, holder, expires_at) VALUES ('healthz', $1, $2) \
                     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, \
                     expires_at = excluded.expires_at",
                )
                .bind(holder)
                .bind(now)
                .execute(conn.raw())
                .await
                .map(|_| ())
                .map_err(StoreError::from);
                (conn, result)
            })
        })
        .await
    }

    /// [`Store::take_lease`], except that a lease expired more than `max_lapse_ms` before `now`
    /// is left as it is and reported as [`LeaseTake::Lapsed`]: a lapse that long says that no
    /// process could reach the database, and whoever ends it owes something for it first
    /// (site::timeouts). A lease never taken is taken.
    pub async fn take_lease_unless_lapsed(
        &self,
        name: &str,
        holder: &str,
        now: i64,
        ttl_ms: i64,
        max_lapse_ms: i64,
    ) -> Result<LeaseTake, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let done = sqlx::query(
                        "INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3) \
                         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, \
                         expires_at = excluded.expires_at \
                         WHERE (leases.holder = excluded.holder OR leases.expires_at < $4) \
                         AND leases.expires_at >= $5",
                    )
                    .bind(name)
                    .bind(holder)
                    .bind(now.saturating_add(ttl_ms))
                    .bind(now)
                    .bind(now.saturating_sub(max_lapse_ms))
                    .execute(conn.raw())
                    .await?;
                    if done.rows_affected() == 1 {
                        return Ok(LeaseTake::Held);
                    }
                    if max_lapse_ms == NEVER_LAPSED {
                        return Ok(LeaseTake::Other);
                    }
                    let row = sqlx::query("SELECT expires_at FROM leases WHERE name = $1")
                        .bind(name)
                        .fetch_optional(conn.raw())
                        .await?;
                    let expires_at = match row {
                        Some(r) => sqlx::Row::try_get::<i64, _>(&r, "expires_at")?,
                        None => return Ok(LeaseTake::Other),
                    };
                    Ok(if expires_at < now.saturating_sub(max_lapse_ms) {
                        LeaseTake::Lapsed { expires_at }
                    } else {
                        LeaseTake::Other
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Moves lease `name` to `holder` until `expires_at` (Unix ms) if it still expires at
    /// `lapsed`, the value its caller read: of several processes that saw the same lapsed
    /// lease, one gets `true`.
    pub async fn move_lapsed_lease(
        &self,
        name: &str,
        holder: &str,
        lapsed: i64,
        expires_at: i64,
    ) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let done = sqlx::query(
                        "UPDATE leases SET holder = $1, expires_at = $2 \
                         WHERE name = $3 AND expires_at = $4",
                    )
                    .bind(holder)
                    .bind(expires_at)
                    .bind(name)
                    .bind(lapsed)
                    .execute(conn.raw())
                    .await?;
                    Ok(done.rows_affected() == 1)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Gives lease `name` up if `holder` has it.
    pub async fn release_lease(&self, name: &str, holder: &str) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    sqlx::query("DELETE FROM leases WHERE name = $1 AND holder = $2")
                        .bind(name)
                        .bind(holder)
                        .execute(conn.raw())
                        .await?;
                    Ok(())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// When lease `name` expires (Unix ms), if it was ever taken.
    pub async fn lease_expiry(&self, name: &str) -> Result<Option<i64>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query("SELECT expires_at FROM leases WHERE name = $1")
                        .bind(name)
                        .fetch_optional(conn.raw())
                        .await?;
                    Ok(match row {
                        Some(r) => Some(sqlx::Row::try_get::<i64, _>(&r, "expires_at")?),
                        None => None,
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}

/// The timeout sweeper's lease (site::play::lease::LEASE).
pub const SWEEPER_LEASE: &str = "timeouts";
/// A lapse of [`SWEEPER_LEASE`] past its expiry longer than this, ms, is an outage owed to
/// the running clocks (site::play::lease::OUTAGE_MS explains why).
pub const OUTAGE_MS: i64 = 3_000;

impl Store {
    /// Whether an outage is owed to the running clocks now (the sweeper's lease lapsed more
    /// than [`OUTAGE_MS`] ago and was not given back yet): deadlines read now are short by
    /// the outage, so the low-time reminders and the digest wait for the give-back.
    pub async fn outage_owed(&self) -> Result<bool, StoreError> {
        let now = super::now_ms();
        Ok(self
            .lease_expiry(SWEEPER_LEASE)
            .await?
            .is_some_and(|expired| now - expired > OUTAGE_MS))
    }
}
