//! The clocks' deadlines in the `games` table (`clock_deadline`, migration 7), read by the
//! timeout sweeper (crate::timeouts).

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// The earliest deadline of a running clock, Unix ms.
    pub async fn next_clock_deadline(&self) -> Result<Option<i64>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT MIN(clock_deadline) AS d FROM games \
                         WHERE clock_deadline IS NOT NULL AND status = 'ongoing'",
                    )
                    .fetch_one(conn.raw())
                    .await?;
                    Ok(row.try_get::<Option<i64>, _>("d")?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Ids of unfinished games whose running clock's deadline is before `now` (at most
    /// `limit`, earliest first).
    pub async fn due_clocks(&self, now: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT id FROM games WHERE clock_deadline IS NOT NULL \
                         AND clock_deadline < $1 AND status = 'ongoing' \
                         ORDER BY clock_deadline LIMIT $2",
                    )
                    .bind(now)
                    .bind(limit)
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows
                        .iter()
                        .map(|r| r.try_get("id"))
                        .collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
