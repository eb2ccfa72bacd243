//! The `accounts` and `sessions` tables (issue 13, accounts): one row per registered player,
//! and one per log-in session (the SHA-256 of its cookie token).

use site_model::secrets::TokenHash;
use site_model::usernames::skeleton_key;
use sqlx::{Any, Row, Transaction};

use super::conn::commit;
use super::{Store, StoreError};

/// One account as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountRow {
    /// Public id (12 letters and digits).
    pub id: String,
    /// The name as registered.
    pub username: String,
    /// argon2id PHC string of the password.
    pub password_hash: String,
    /// Unix milliseconds.
    pub created_at: i64,
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// Why [`Store::insert_account`] stored nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameClash {
    /// The name is taken, without regard to case.
    Taken,
    /// The name looks like this taken one (same skeleton key).
    LooksLike(String),
}

/// Migration 26's data step: the skeleton key of every account made before, oldest first; a
/// later account whose key an older one holds keeps NULL (the older one stands for both), so
/// that the key can then be unique.
pub(super) async fn fill_skeletons(tx: &mut Transaction<'_, Any>) -> Result<(), StoreError> {
    let rows = sqlx::query("SELECT id, username FROM accounts ORDER BY created_at, id")
        .fetch_all(&mut **tx)
        .await?;
    let mut seen = std::collections::HashSet::new();
    for row in &rows {
        let id: String = row.try_get("id")?;
        let name: String = row.try_get("username")?;
        let key = skeleton_key(&name);
        if seen.insert(key.clone()) {
            sqlx::query("UPDATE accounts SET username_skeleton = $1 WHERE id = $2")
                .bind(key)
                .bind(id)
                .execute(&mut **tx)
                .await?;
        }
    }
    sqlx::query(
        "CREATE UNIQUE INDEX IF NOT EXISTS accounts_skeleton ON accounts (username_skeleton)",
    )
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl Store {
    /// Stores a new account with its first session, and gives it the seats held by
    /// `player_hash` (the anonymous games of the registering browser) as `account_hash`, in one
    /// transaction. `Ok(Some(clash))`: the name is taken (without regard to case) or looks like
    /// a taken one (its skeleton key is unique), and nothing was stored.
    pub async fn insert_account(
        &self,
        account: &AccountRow,
        session_hash: &TokenHash,
        player_hash: &TokenHash,
        account_hash: &TokenHash,
    ) -> Result<Option<NameClash>, StoreError> {
        let key = skeleton_key(&account.username);
        let stored = self
            .insert_account_keyed(account, &key, session_hash, player_hash, account_hash)
            .await?;
        if stored {
            return Ok(None);
        }
        Ok(Some(match self.name_like(&account.username).await? {
            Some(other) if other.to_lowercase() != account.username.to_lowercase() => {
                NameClash::LooksLike(other)
            }
            _ => NameClash::Taken,
        }))
    }

    /// Up to `limit` names of open accounts whose lower-case name starts with `prefix` (given
    /// in lower case), in name order (the player search).
    pub async fn names_with_prefix(
        &self,
        prefix: &str,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        let prefix = prefix.to_string();
        // Character count of a name of ASCII letters, digits, '_' and '-' (checked by site).
        let len = i32::try_from(prefix.len()).unwrap_or(i32::MAX);
        self.run(|mut conn| {
            let prefix = prefix.clone();
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT username FROM accounts WHERE substr(username_key, 1, $1) = $2 \
                         AND closed_at IS NULL ORDER BY username_key LIMIT $3",
                    )
                    .bind(len)
                    .bind(&prefix)
                    .bind(limit)
                    .fetch_all(conn.raw())
                    .await?;
                    rows.iter()
                        .map(|r| r.try_get::<String, _>("username").map_err(StoreError::from))
                        .collect::<Result<Vec<_>, _>>()
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The taken name whose skeleton key is `name`'s, if any (one indexed query).
    pub async fn name_like(&self, name: &str) -> Result<Option<String>, StoreError> {
        let key = skeleton_key(name);
        self.run(|mut conn| {
            let key = key.clone();
            Box::pin(async move {
                let result = async {
                    let row =
                        sqlx::query("SELECT username FROM accounts WHERE username_skeleton = $1")
                            .bind(&key)
                            .fetch_optional(conn.raw())
                            .await?;
                    Ok(match row {
                        Some(r) => Some(r.try_get("username")?),
                        None => None,
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    async fn insert_account_keyed(
        &self,
        account: &AccountRow,
        key: &str,
        session_hash: &TokenHash,
        player_hash: &TokenHash,
        account_hash: &TokenHash,
    ) -> Result<bool, StoreError> {
        let session_hash = session_hash.as_str();
        let player_hash = player_hash.as_str();
        let account_hash = account_hash.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let inserted = sqlx::query(
                        "INSERT INTO accounts (id, username, username_key, password_hash, created_at, \
                         player_hash, username_skeleton) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    )
                    .bind(&account.id)
                    .bind(&account.username)
                    .bind(account.username.to_lowercase())
                    .bind(&account.password_hash)
                    .bind(account.created_at)
                    .bind(account_hash)
                    .bind(key)
                    .execute(&mut *tx)
                    .await;
                    match inserted {
                        Err(e) if is_unique_violation(&e) => return Ok(false),
                        other => other?,
                    };
                    sqlx::query(
                        "INSERT INTO sessions (token_hash, account_id, created_at) VALUES ($1, $2, $3)",
                    )
                    .bind(session_hash)
                    .bind(&account.id)
                    .bind(account.created_at)
                    .execute(&mut *tx)
                    .await?;
                    for column in ["white_token", "black_token"] {
                        sqlx::query(&format!(
                            "UPDATE games SET {column} = $1, version = version + 1 WHERE {column} = $2"
                        ))
                        .bind(account_hash)
                        .bind(player_hash)
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

    /// The account named `username` (without regard to case).
    pub async fn account_named(&self, username: &str) -> Result<Option<AccountRow>, StoreError> {
        let key = username.to_lowercase();
        self.account_where("username_key", &key).await
    }

    /// The account `id`.
    pub async fn account(&self, id: &str) -> Result<Option<AccountRow>, StoreError> {
        self.account_where("id", id).await
    }

    /// The account whose seats hold `player_hash` (the SHA-256 of its player token), if the
    /// player is an account.
    pub async fn account_by_player_hash(
        &self,
        player_hash: &TokenHash,
    ) -> Result<Option<AccountRow>, StoreError> {
        let player_hash = player_hash.as_str();
        self.account_where("player_hash", player_hash).await
    }

    /// Fills `player_hash` of accounts made before the column existed (migration 7), with
    /// `hash_of(id)`; returns how many.
    pub async fn fill_player_hashes(
        &self,
        hash_of: &(dyn Fn(&str) -> TokenHash + Sync),
    ) -> Result<usize, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let ids: Vec<String> =
                        sqlx::query("SELECT id FROM accounts WHERE player_hash IS NULL")
                            .fetch_all(conn.raw())
                            .await?
                            .iter()
                            .map(|r| r.try_get("id"))
                            .collect::<Result<_, _>>()?;
                    for id in &ids {
                        sqlx::query("UPDATE accounts SET player_hash = $1 WHERE id = $2")
                            .bind(hash_of(id).into_string())
                            .bind(id)
                            .execute(conn.raw())
                            .await?;
                    }
                    Ok(ids.len())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    async fn account_where(
        &self,
        column: &'static str,
        value: &str,
    ) -> Result<Option<AccountRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    // A closed account (issue 41, store/moderation.rs) no longer holds its seats
                    // as an account: no challenge, seek or rated game in its name.
                    let open = if column == "player_hash" { " AND closed_at IS NULL" } else { "" };
                    let row = sqlx::query(&format!(
                        "SELECT id, username, password_hash, created_at FROM accounts WHERE {column} = $1{open}"
                    ))
                    .bind(value)
                    .fetch_optional(conn.raw())
                    .await?;
                    let Some(r) = row else { return Ok(None) };
                    Ok(Some(AccountRow {
                        id: r.try_get("id")?,
                        username: r.try_get("username")?,
                        password_hash: r.try_get("password_hash")?,
                        created_at: r.try_get("created_at")?,
                    }))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Stores a session of `account_id`.
    pub async fn insert_session(
        &self,
        session_hash: &TokenHash,
        account_id: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let session_hash = session_hash.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    sqlx::query(
                        "INSERT INTO sessions (token_hash, account_id, created_at) VALUES ($1, $2, $3)",
                    )
                    .bind(session_hash)
                    .bind(account_id)
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

    /// The account id and name of the session whose token hashes to `session_hash`, if it
    /// began after `since` (Unix ms: older sessions have expired).
    pub async fn session_account(
        &self,
        session_hash: &str,
        since: i64,
    ) -> Result<Option<(String, String)>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT a.id, a.username FROM sessions s JOIN accounts a ON a.id = s.account_id \
                         WHERE s.token_hash = $1 AND s.created_at > $2 AND a.closed_at IS NULL",
                    )
                    .bind(session_hash)
                    .bind(since)
                    .fetch_optional(conn.raw())
                    .await?;
                    Ok(match row {
                        Some(r) => Some((r.try_get("id")?, r.try_get("username")?)),
                        None => None,
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Ends the session whose token hashes to `session_hash`.
    pub async fn delete_session(&self, session_hash: &TokenHash) -> Result<(), StoreError> {
        let session_hash = session_hash.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                        .bind(session_hash)
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

    /// Sets the password of `account_id`, ends its sessions other than `keep_hash`'s and voids
    /// its outstanding password-reset links.
    pub async fn set_password(
        &self,
        account_id: &str,
        password_hash: &str,
        keep_hash: &str,
    ) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
                        .bind(password_hash)
                        .bind(account_id)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2")
                        .bind(account_id)
                        .bind(keep_hash)
                        .execute(&mut *tx)
                        .await?;
                    // A reset link mailed before the change must not undo it.
                    sqlx::query("DELETE FROM password_resets WHERE account_id = $1")
                        .bind(account_id)
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
}
