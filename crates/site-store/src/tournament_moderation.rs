//! Moderation of tournaments (issue 41, hostile finding 2): a moderator renames an event to
//! its default name (logged in the same transaction), and closing an account cancels the
//! events it made that have not started.

use super::conn::commit;
use super::{ModLogEntry, Store, StoreError};

impl Store {
    /// Renames event `id` to `name`, writing `log` in the same transaction: `false` (nothing
    /// logged) when no event has this id.
    pub async fn rename_tournament(
        &self,
        id: &str,
        name: &str,
        log: &ModLogEntry<'_>,
    ) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let done = sqlx::query(
                        "UPDATE tournaments SET name = $2, version = version + 1 WHERE id = $1",
                    )
                    .bind(id)
                    .bind(name)
                    .execute(&mut *tx)
                    .await?;
                    if done.rows_affected() == 0 {
                        return Ok(false);
                    }
                    super::moderation::log_line(&mut tx, log).await?;
                    commit(tx).await?;
                    Ok(true)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Cancels the events account `account` (id) made that have not started, at `now` (Unix
    /// ms): how many.
    pub async fn cancel_created_tournaments_of(
        &self,
        account: &str,
        now: i64,
    ) -> Result<u64, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let done = sqlx::query(
                        "UPDATE tournaments SET status = 'canceled', finished_at = $2, \
                         winners = '[]', version = version + 1 \
                         WHERE created_by = $1 AND status = 'created'",
                    )
                    .bind(account)
                    .bind(now)
                    .execute(conn.raw())
                    .await?;
                    Ok(done.rows_affected())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
