//! Background work's reads of the `games` table: the clocks' deadlines (`clock_deadline`,
//! migration 7) for the timeout sweeper (site::timeouts), and overdue engine moves for the
//! engine supervisor (site::engine_player::supervise).

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
        self.game_ids(
            "SELECT id FROM games WHERE clock_deadline IS NOT NULL \
             AND clock_deadline < $1 AND status = 'ongoing' \
             ORDER BY clock_deadline LIMIT $2",
            &[now, limit],
        )
        .await
    }

    /// Ids of unfinished games where an engine seat is to move since before `cutoff` (Unix
    /// ms): moves whose search died with its process.
    pub async fn stalled_engine_games(&self, cutoff: i64) -> Result<Vec<String>, StoreError> {
        self.game_ids(
            "SELECT id FROM games WHERE status = 'ongoing' AND updated_at < $1 AND \
             ((turn = 'white' AND white_kind = 'engine') OR \
              (turn = 'black' AND black_kind = 'engine')) LIMIT 500",
            &[cutoff],
        )
        .await
    }

    /// Ids of unfinished games whose clock runs.
    pub async fn running_clocks(&self) -> Result<Vec<String>, StoreError> {
        self.game_ids(
            "SELECT id FROM games WHERE clock_deadline IS NOT NULL AND status = 'ongoing'",
            &[],
        )
        .await
    }

    /// The `id` column of `sql`'s rows, with `args` bound as `$1`, `$2`, ...
    async fn game_ids(&self, sql: &'static str, args: &[i64]) -> Result<Vec<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut query = sqlx::query(sql);
                    for a in args {
                        query = query.bind(*a);
                    }
                    let rows = query.fetch_all(conn.raw()).await?;
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
