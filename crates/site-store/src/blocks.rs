//! Blocks between accounts (issue 41, table `blocks`): the blocker's alone, never shown to
//! the blocked account. A block ends the blocked account's follow of the blocker in the same
//! transaction; challenges and lobby pairings read [`Store::blocked_either_way`].

use sqlx::Row;

use super::conn::commit;
use super::follows::SocialRow;
use super::{Store, StoreError};

/// Most accounts one account may block (lichess: 500).
pub const MAX_BLOCKS: i64 = 500;

impl Store {
    /// `blocker` blocks `blocked` (account ids), and `blocked`'s follow of `blocker` ends, in
    /// one transaction; false (nothing stored) when `blocker` already blocks the most allowed.
    pub async fn block(&self, blocker: &str, blocked: &str, now: i64) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let n: i64 =
                        sqlx::query("SELECT COUNT(*) AS n FROM blocks WHERE blocker_id = $1")
                            .bind(blocker)
                            .fetch_one(&mut *tx)
                            .await?
                            .try_get("n")?;
                    if n >= MAX_BLOCKS {
                        return Ok(false);
                    }
                    sqlx::query(
                        "INSERT INTO blocks (blocker_id, blocked_id, created_at) \
                         VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    )
                    .bind(blocker)
                    .bind(blocked)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query("DELETE FROM follows WHERE follower_id = $1 AND followed_id = $2")
                        .bind(blocked)
                        .bind(blocker)
                        .execute(&mut *tx)
                        .await?;
                    commit(tx).await?;
                    Ok(true)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// `blocker` no longer blocks `blocked`; whether it did.
    pub async fn unblock(&self, blocker: &str, blocked: &str) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    Ok(
                        sqlx::query("DELETE FROM blocks WHERE blocker_id = $1 AND blocked_id = $2")
                            .bind(blocker)
                            .bind(blocked)
                            .execute(conn.raw())
                            .await?
                            .rows_affected()
                            > 0,
                    )
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The accounts `blocker` blocks, by name.
    pub async fn blocked_by(&self, blocker: &str) -> Result<Vec<SocialRow>, StoreError> {
        self.social_list(
            "SELECT a.id, a.username, a.player_hash, b.created_at FROM blocks b \
             JOIN accounts a ON a.id = b.blocked_id WHERE b.blocker_id = $1 ORDER BY a.username_key"
                .to_string(),
            blocker,
        )
        .await
    }

    /// Whether one of the accounts whose seats hold `a` and `b` (player hashes) blocks the
    /// other.
    pub async fn blocked_either_way(&self, a: &str, b: &str) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    Ok(sqlx::query(
                        "SELECT 1 AS x FROM blocks k JOIN accounts x ON x.id = k.blocker_id \
                         JOIN accounts y ON y.id = k.blocked_id WHERE \
                         (x.player_hash = $1 AND y.player_hash = $2) OR \
                         (x.player_hash = $2 AND y.player_hash = $1)",
                    )
                    .bind(a)
                    .bind(b)
                    .fetch_optional(conn.raw())
                    .await?
                    .is_some())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The player hashes of the accounts that the account whose seats hold `player_hash`
    /// blocks or is blocked by: the lobby hides their seeks and never pairs them.
    pub async fn blocked_hashes(&self, player_hash: &str) -> Result<Vec<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT y.player_hash AS h FROM accounts x \
                         JOIN blocks k ON k.blocker_id = x.id JOIN accounts y ON y.id = k.blocked_id \
                         WHERE x.player_hash = $1 \
                         UNION SELECT y.player_hash AS h FROM accounts x \
                         JOIN blocks k ON k.blocked_id = x.id JOIN accounts y ON y.id = k.blocker_id \
                         WHERE x.player_hash = $1",
                    )
                    .bind(player_hash)
                    .fetch_all(conn.raw())
                    .await?;
                    let mut out = Vec::new();
                    for r in &rows {
                        if let Some(h) = r.try_get::<Option<String>, _>("h")? {
                            out.push(h);
                        }
                    }
                    Ok(out)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}

impl Store {
    /// Whether account `blocker` blocks account `blocked` (ids).
    pub async fn blocks(&self, blocker: &str, blocked: &str) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    Ok(sqlx::query(
                        "SELECT 1 AS x FROM blocks WHERE blocker_id = $1 AND blocked_id = $2",
                    )
                    .bind(blocker)
                    .bind(blocked)
                    .fetch_optional(conn.raw())
                    .await?
                    .is_some())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
