//! The `api_tokens` table and `accounts.bot_since` (issue 44, the Bot API): personal API
//! tokens by the SHA-256 of their text, and the accounts that became BOT accounts.

use site_model::secrets::TokenHash;
use sqlx::Row;

use super::conn::commit;
use super::{Store, StoreError};

/// One API token as stored (never its text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiTokenRow {
    /// Its public id (to list and revoke it).
    pub id: String,
    /// The account it acts for.
    pub account_id: String,
    /// Its scopes' names joined by spaces (`site_model::api_tokens::Scopes::stored`).
    pub scopes: String,
    /// Unix ms.
    pub created_at: i64,
}

/// The account an API token acts for, as the request's log-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenAccount {
    /// The token's id.
    pub token_id: String,
    /// The account's id.
    pub account_id: String,
    /// The account's name.
    pub username: String,
    /// The token's scopes, as stored.
    pub scopes: String,
}

impl Store {
    /// Stores token `row` of hash `hash` unless its account holds `max` tokens already
    /// (`Ok(false)`); with `bot`, the account becomes a BOT account (if it is not one already)
    /// in the same transaction. The count is read after the account's row is written, so
    /// requests at the same moment, from any processes, wait for each other there and the cap
    /// holds (hostile round 5, F1: 30 tokens from 30 requests at once).
    pub async fn insert_api_token(
        &self,
        row: &ApiTokenRow,
        hash: &TokenHash,
        bot: bool,
        max: usize,
    ) -> Result<bool, StoreError> {
        let hash = hash.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    // A write to the account's row first: PostgreSQL's row lock (SQLite's
                    // write lock) serialises the count below.
                    sqlx::query("UPDATE accounts SET id = id WHERE id = $1")
                        .bind(row.account_id.as_str())
                        .execute(&mut *tx)
                        .await?;
                    let held: i64 =
                        sqlx::query("SELECT COUNT(*) AS n FROM api_tokens WHERE account_id = $1")
                            .bind(row.account_id.as_str())
                            .fetch_one(&mut *tx)
                            .await?
                            .try_get("n")?;
                    if held >= i64::try_from(max).unwrap_or(i64::MAX) {
                        return Ok(false);
                    }
                    sqlx::query(
                        "INSERT INTO api_tokens (id, account_id, token_hash, scopes, created_at) \
                         VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(row.id.as_str())
                    .bind(row.account_id.as_str())
                    .bind(hash)
                    .bind(row.scopes.as_str())
                    .bind(row.created_at)
                    .execute(&mut *tx)
                    .await?;
                    if bot {
                        sqlx::query(
                            "UPDATE accounts SET bot_since = $1 WHERE id = $2 AND bot_since IS NULL",
                        )
                        .bind(row.created_at)
                        .bind(row.account_id.as_str())
                        .execute(&mut *tx)
                        .await?;
                    }
                    commit(tx).await?;
                    Ok(true)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The open account token hash `hash` acts for (a closed account's tokens act for nobody).
    pub async fn api_token_account(
        &self,
        hash: &TokenHash,
    ) -> Result<Option<TokenAccount>, StoreError> {
        let hash = hash.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT t.id, t.scopes, a.id AS account_id, a.username \
                         FROM api_tokens t JOIN accounts a ON a.id = t.account_id \
                         WHERE t.token_hash = $1 AND a.closed_at IS NULL",
                    )
                    .bind(hash)
                    .fetch_optional(conn.raw())
                    .await?;
                    Ok(match row {
                        Some(r) => Some(TokenAccount {
                            token_id: r.try_get("id")?,
                            account_id: r.try_get("account_id")?,
                            username: r.try_get("username")?,
                            scopes: r.try_get("scopes")?,
                        }),
                        None => None,
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The tokens of account `account_id`, newest first.
    pub async fn api_tokens_of(&self, account_id: &str) -> Result<Vec<ApiTokenRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT id, account_id, scopes, created_at FROM api_tokens \
                         WHERE account_id = $1 ORDER BY created_at DESC, id",
                    )
                    .bind(account_id)
                    .fetch_all(conn.raw())
                    .await?;
                    rows.iter()
                        .map(|r| {
                            Ok(ApiTokenRow {
                                id: r.try_get("id")?,
                                account_id: r.try_get("account_id")?,
                                scopes: r.try_get("scopes")?,
                                created_at: r.try_get("created_at")?,
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

    /// Deletes token `id` of account `account_id`; whether there was one.
    pub async fn delete_api_token(&self, account_id: &str, id: &str) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let n = sqlx::query("DELETE FROM api_tokens WHERE id = $1 AND account_id = $2")
                        .bind(id)
                        .bind(account_id)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                    commit(tx).await?;
                    Ok(n > 0)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Whether the account whose player token hashes to `player_hash` is a BOT account.
    pub async fn is_bot_player(&self, player_hash: &TokenHash) -> Result<bool, StoreError> {
        let player_hash = player_hash.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query("SELECT bot_since FROM accounts WHERE player_hash = $1")
                        .bind(player_hash)
                        .fetch_optional(conn.raw())
                        .await?;
                    Ok(match row {
                        Some(r) => r.try_get::<Option<i64>, _>("bot_since")?.is_some(),
                        None => false,
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Which of the accounts named `usernames` (as registered) are BOT accounts.
    pub async fn bot_names(&self, usernames: &[String]) -> Result<Vec<String>, StoreError> {
        if usernames.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = usernames.iter().map(|u| u.to_lowercase()).collect();
        self.run(|mut conn| {
            let keys = keys.clone();
            Box::pin(async move {
                let result = async {
                    let mut found = Vec::new();
                    for key in &keys {
                        let row = sqlx::query(
                            "SELECT username FROM accounts \
                             WHERE username_key = $1 AND bot_since IS NOT NULL",
                        )
                        .bind(key)
                        .fetch_optional(conn.raw())
                        .await?;
                        if let Some(r) = row {
                            found.push(r.try_get("username")?);
                        }
                    }
                    Ok(found)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
