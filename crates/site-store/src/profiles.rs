//! A player's own settings and profile text (issue 41, "Also"; migration 36): the preferences
//! JSON (`accounts.prefs`), the bio and country (`accounts.bio`, `accounts.country`), and the
//! counts a profile's recent activity shows that no other module reads (puzzles solved, the
//! latest follows).

use sqlx::Row;

use super::{SocialRow, Store, StoreError};

impl Store {
    /// The stored preferences JSON of account `id`; `None` when never set (or no account).
    pub async fn prefs_of(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query("SELECT prefs FROM accounts WHERE id = $1")
                        .bind(id)
                        .fetch_optional(conn.raw())
                        .await?;
                    Ok(match row {
                        Some(r) => r.try_get::<Option<String>, _>("prefs")?,
                        None => None,
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Stores account `id`'s preferences JSON `text`.
    pub async fn set_prefs(&self, id: &str, text: &str) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    sqlx::query("UPDATE accounts SET prefs = $2 WHERE id = $1")
                        .bind(id)
                        .bind(text)
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

    /// Sets account `id`'s bio and country (each `None`: unchanged; `Some(None)`: removed).
    pub async fn set_profile_text(
        &self,
        id: &str,
        bio: Option<Option<String>>,
        country: Option<Option<String>>,
    ) -> Result<(), StoreError> {
        self.run(|mut conn| {
            let (bio, country) = (bio.clone(), country.clone());
            Box::pin(async move {
                let result = async {
                    if let Some(bio) = bio {
                        sqlx::query("UPDATE accounts SET bio = $2 WHERE id = $1")
                            .bind(id)
                            .bind(bio)
                            .execute(conn.raw())
                            .await?;
                    }
                    if let Some(country) = country {
                        sqlx::query("UPDATE accounts SET country = $2 WHERE id = $1")
                            .bind(id)
                            .bind(country)
                            .execute(conn.raw())
                            .await?;
                    }
                    Ok(())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Puzzles account `id` attempted and solved since `since` (Unix ms): `(attempted, solved)`.
    pub async fn puzzle_counts_since(
        &self,
        id: &str,
        since: i64,
    ) -> Result<(i64, i64), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT COUNT(*) AS n, CAST(COALESCE(SUM(solved), 0) AS BIGINT) AS solved \
                         FROM puzzle_attempts WHERE account_id = $1 AND at >= $2",
                    )
                    .bind(id)
                    .bind(since)
                    .fetch_one(conn.raw())
                    .await?;
                    Ok((row.try_get("n")?, row.try_get("solved")?))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The accounts `id` followed most recently, newest first, at most `limit`.
    pub async fn recent_follows(&self, id: &str, limit: i64) -> Result<Vec<SocialRow>, StoreError> {
        let sql = format!(
            "SELECT a.id, a.username, a.player_hash, f.created_at, a.closed_at FROM follows f \
             JOIN accounts a ON a.id = f.followed_id WHERE f.follower_id = $1 \
             AND a.closed_at IS NULL ORDER BY f.created_at DESC, a.username_key LIMIT {}",
            limit.clamp(0, 100)
        );
        self.social_list(sql, id, None).await
    }
}
