//! Vacations of accounts (issue 38, site::vacation): `[starts_at, ends_at)` Unix ms per
//! account (by its lower-case name, as the games' seats name it), and the ongoing
//! correspondence games whose clocks they stop.

use sqlx::Row;

use super::{Store, StoreError};

/// One vacation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VacationRow {
    /// Unix ms it starts (also its id among the account's).
    pub starts_at: i64,
    /// Unix ms it ends.
    pub ends_at: i64,
}

/// Why a vacation was not stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VacationRefusal {
    /// It overlaps one already set (its start and end).
    Overlaps(VacationRow),
    /// The year's days would pass the most allowed: the days already taken or set that year.
    TooManyDays {
        /// The days taken or set in the year of its start.
        taken: i64,
    },
}

impl Store {
    /// The vacations of `username` ending after `after_ms`, by start.
    pub async fn vacations(
        &self,
        username: &str,
        after_ms: i64,
    ) -> Result<Vec<VacationRow>, StoreError> {
        let key = username.to_lowercase();
        self.run(|mut conn| {
            let key = key.clone();
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT starts_at, ends_at FROM vacations WHERE username_key = $1 \
                         AND ends_at > $2 ORDER BY starts_at",
                    )
                    .bind(&key)
                    .bind(after_ms)
                    .fetch_all(conn.raw())
                    .await?;
                    rows.iter()
                        .map(|r| {
                            Ok(VacationRow {
                                starts_at: r.try_get("starts_at")?,
                                ends_at: r.try_get("ends_at")?,
                            })
                        })
                        .collect()
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Stores vacation `v` of `username` unless it overlaps another or its days
    /// (`days_of(v)`), with those of the vacations starting in `[year_start, year_end)`, pass
    /// `max_days`; the checks and the insert are one transaction.
    #[allow(clippy::too_many_arguments)]
    pub async fn add_vacation(
        &self,
        username: &str,
        v: VacationRow,
        year: [i64; 2],
        max_days: i64,
        days_of: fn(i64, i64) -> i64,
        now_ms: i64,
    ) -> Result<Result<(), VacationRefusal>, StoreError> {
        let key = username.to_lowercase();
        let sqlite = self.sqlite;
        self.run(|mut conn| {
            let key = key.clone();
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    if !sqlite {
                        // The check reads, then the insert writes: two requests at once under
                        // READ COMMITTED would both pass it (a tester stored 90 days). One
                        // account's additions go one at a time. SQLite: BEGIN IMMEDIATE does.
                        sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))")
                            .bind(format!("vacations:{key}"))
                            .execute(&mut *tx)
                            .await?;
                    }
                    let rows = sqlx::query(
                        "SELECT starts_at, ends_at FROM vacations WHERE username_key = $1",
                    )
                    .bind(&key)
                    .fetch_all(&mut *tx)
                    .await?;
                    let mut taken = 0;
                    for r in &rows {
                        let other = VacationRow {
                            starts_at: r.try_get("starts_at")?,
                            ends_at: r.try_get("ends_at")?,
                        };
                        if other.starts_at < v.ends_at && v.starts_at < other.ends_at {
                            return Ok(Err(VacationRefusal::Overlaps(other)));
                        }
                        if year[0] <= other.starts_at && other.starts_at < year[1] {
                            taken += days_of(other.starts_at, other.ends_at);
                        }
                    }
                    if taken + days_of(v.starts_at, v.ends_at) > max_days {
                        return Ok(Err(VacationRefusal::TooManyDays { taken }));
                    }
                    sqlx::query(
                        "INSERT INTO vacations (username_key, starts_at, ends_at, created_at) \
                         VALUES ($1, $2, $3, $4)",
                    )
                    .bind(&key)
                    .bind(v.starts_at)
                    .bind(v.ends_at)
                    .bind(now_ms)
                    .execute(&mut *tx)
                    .await?;
                    super::conn::commit(tx).await?;
                    Ok(Ok(()))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Ends the vacation of `username` that starts at `starts_at` at `now_ms`: one not begun
    /// is deleted, one under way ends now. The vacation as it stands after, or `None` when
    /// there was none (or it was over).
    pub async fn end_vacation(
        &self,
        username: &str,
        starts_at: i64,
        now_ms: i64,
    ) -> Result<Option<Option<VacationRow>>, StoreError> {
        let key = username.to_lowercase();
        self.run(|mut conn| {
            let key = key.clone();
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let Some(row) = sqlx::query(
                        "SELECT ends_at FROM vacations WHERE username_key = $1 AND starts_at = $2",
                    )
                    .bind(&key)
                    .bind(starts_at)
                    .fetch_optional(&mut *tx)
                    .await?
                    else {
                        return Ok(None);
                    };
                    let ends_at: i64 = row.try_get("ends_at")?;
                    if ends_at <= now_ms {
                        return Ok(None);
                    }
                    let after = if starts_at >= now_ms {
                        sqlx::query(
                            "DELETE FROM vacations WHERE username_key = $1 AND starts_at = $2",
                        )
                        .bind(&key)
                        .bind(starts_at)
                        .execute(&mut *tx)
                        .await?;
                        None
                    } else {
                        sqlx::query(
                            "UPDATE vacations SET ends_at = $3 WHERE username_key = $1 \
                             AND starts_at = $2",
                        )
                        .bind(&key)
                        .bind(starts_at)
                        .bind(now_ms)
                        .execute(&mut *tx)
                        .await?;
                        Some(VacationRow {
                            starts_at,
                            ends_at: now_ms,
                        })
                    };
                    super::conn::commit(tx).await?;
                    Ok(Some(after))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The ids of the ongoing games in which `username` holds a seat.
    pub async fn ongoing_games_of(&self, username: &str) -> Result<Vec<String>, StoreError> {
        let name = username.to_string();
        self.run(|mut conn| {
            let name = name.clone();
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT id FROM games WHERE status = 'ongoing' AND \
                         (LOWER(white_name) = LOWER($1) OR LOWER(black_name) = LOWER($1))",
                    )
                    .bind(&name)
                    .fetch_all(conn.raw())
                    .await?;
                    rows.iter()
                        .map(|r| r.try_get::<String, _>("id").map_err(StoreError::from))
                        .collect()
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
