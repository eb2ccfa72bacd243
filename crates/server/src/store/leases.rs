//! Leases (issue 12): work that must happen on exactly one of the processes sharing the
//! database (an engine's move, the timeout sweep) is done by the holder of its lease; a
//! lease expires, so the work passes to another process when its holder dies.

use super::{Store, StoreError};

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
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let done = sqlx::query(
                        "INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3) \
                         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, \
                         expires_at = excluded.expires_at \
                         WHERE leases.holder = excluded.holder OR leases.expires_at < $4",
                    )
                    .bind(name)
                    .bind(holder)
                    .bind(now.saturating_add(ttl_ms))
                    .bind(now)
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
