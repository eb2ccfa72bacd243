//! E-mail addresses of accounts and their one-time links (issue 38, site::mail): an address
//! with its verification (the SHA-256 of the link's token and its expiry), a new address
//! pending its link while a verified one stays, the kinds of mail it takes, its unsubscribe
//! token, and password resets (a token's hash, its expiry, whether it was used). A change of
//! address or password, or a reset used, voids every other reset link of the account.

use sqlx::Row;

use super::conn::commit;
use super::{Store, StoreError};

/// An account's address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailRow {
    /// The account.
    pub account_id: String,
    /// The address as given.
    pub email: String,
    /// Whether its link was followed.
    pub verified: bool,
    /// Whether it takes the daily digest.
    pub digest: bool,
    /// Whether it takes the low-time reminders.
    pub low_time: bool,
    /// The token of its unsubscribe links (it can only turn mail off).
    pub unsubscribe: String,
    /// A new address waiting for its link (the verified `email` stays until it is followed).
    pub pending: Option<String>,
}

fn row_of(r: &sqlx::any::AnyRow) -> Result<EmailRow, StoreError> {
    Ok(EmailRow {
        account_id: r.try_get("account_id")?,
        email: r.try_get("email")?,
        verified: r.try_get::<Option<i64>, _>("verified_at")?.is_some(),
        digest: r.try_get::<i64, _>("digest")? != 0,
        low_time: r.try_get::<i64, _>("low_time")? != 0,
        unsubscribe: r.try_get("unsubscribe")?,
        pending: r.try_get("pending")?,
    })
}

const COLUMNS: &str = "account_id, email, verified_at, digest, low_time, unsubscribe, pending";

/// Most reset links of one account alive at once: a flood of reset requests for one name
/// mails its owner at most this many an hour, whatever the addresses asking.
pub const MAX_LIVE_RESETS: i64 = 3;

async fn void_resets(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    account_id: &str,
) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM password_resets WHERE account_id = $1")
        .bind(account_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

impl Store {
    /// Sets the address of `account_id` to confirm with the token hashing to `verify_hash`,
    /// valid until `expires_at`. A verified address stays (the new one is `pending` until its
    /// link is followed); otherwise the new one replaces it, mail kinds on, with the
    /// unsubscribe token `unsubscribe`. Voids the account's reset links either way.
    pub async fn set_email(
        &self,
        account_id: &str,
        email: &str,
        verify_hash: &str,
        expires_at: i64,
        unsubscribe: &str,
    ) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    void_resets(&mut tx, account_id).await?;
                    let kept = sqlx::query(
                        "UPDATE account_emails SET pending = $1, verify_hash = $2, \
                         verify_expires = $3 WHERE account_id = $4 AND verified_at IS NOT NULL \
                         AND email <> $1",
                    )
                    .bind(email)
                    .bind(verify_hash)
                    .bind(expires_at)
                    .bind(account_id)
                    .execute(&mut *tx)
                    .await?;
                    if kept.rows_affected() == 0 {
                        sqlx::query("DELETE FROM account_emails WHERE account_id = $1")
                            .bind(account_id)
                            .execute(&mut *tx)
                            .await?;
                        sqlx::query(
                            "INSERT INTO account_emails (account_id, email, verify_hash, \
                             verify_expires, digest, low_time, unsubscribe) \
                             VALUES ($1, $2, $3, $4, 1, 1, $5)",
                        )
                        .bind(account_id)
                        .bind(email)
                        .bind(verify_hash)
                        .bind(expires_at)
                        .bind(unsubscribe)
                        .execute(&mut *tx)
                        .await?;
                    }
                    commit(tx).await
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The address of `account_id`, if any.
    pub async fn email_of(&self, account_id: &str) -> Result<Option<EmailRow>, StoreError> {
        self.email_where("account_id", account_id).await
    }

    /// The address whose unsubscribe token is `token`, if any.
    pub async fn email_by_unsubscribe(&self, token: &str) -> Result<Option<EmailRow>, StoreError> {
        self.email_where("unsubscribe", token).await
    }

    async fn email_where(&self, column: &str, value: &str) -> Result<Option<EmailRow>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM account_emails WHERE {column} = $1");
        self.run(|mut conn| {
            let sql = sql.clone();
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(&sql)
                        .bind(value)
                        .fetch_optional(conn.raw())
                        .await?;
                    row.as_ref().map(row_of).transpose()
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Follows a verification link: the address whose token hashes to `verify_hash`, not
    /// expired at `now_ms`, is verified and the token spent. The account, or `None`.
    pub async fn verify_email(
        &self,
        verify_hash: &str,
        now_ms: i64,
    ) -> Result<Option<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let Some(row) = sqlx::query(
                        "SELECT account_id FROM account_emails WHERE verify_hash = $1 \
                         AND verify_expires > $2",
                    )
                    .bind(verify_hash)
                    .bind(now_ms)
                    .fetch_optional(&mut *tx)
                    .await?
                    else {
                        return Ok(None);
                    };
                    let account: String = row.try_get("account_id")?;
                    // A pending address becomes the address; the old one's reset links go.
                    sqlx::query(
                        "UPDATE account_emails SET verified_at = $1, verify_hash = NULL, \
                         email = COALESCE(pending, email), pending = NULL \
                         WHERE account_id = $2",
                    )
                    .bind(now_ms)
                    .bind(&account)
                    .execute(&mut *tx)
                    .await?;
                    void_resets(&mut tx, &account).await?;
                    commit(tx).await?;
                    Ok(Some(account))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Removes the address of `account_id` (and its reset links); whether there was one.
    pub async fn delete_email(&self, account_id: &str) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    void_resets(&mut tx, account_id).await?;
                    let done = sqlx::query("DELETE FROM account_emails WHERE account_id = $1")
                        .bind(account_id)
                        .execute(&mut *tx)
                        .await?;
                    commit(tx).await?;
                    Ok(done.rows_affected() > 0)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Sets which kinds of mail the address of `account_id` takes; whether it has one.
    pub async fn set_email_kinds(
        &self,
        account_id: &str,
        digest: bool,
        low_time: bool,
    ) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let done = sqlx::query(
                        "UPDATE account_emails SET digest = $1, low_time = $2 \
                         WHERE account_id = $3",
                    )
                    .bind(i64::from(digest))
                    .bind(i64::from(low_time))
                    .bind(account_id)
                    .execute(conn.raw())
                    .await?;
                    Ok(done.rows_affected() > 0)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Stores a password reset of `account_id`: its token's hash, valid until `expires_at`,
    /// unless the account already has [`MAX_LIVE_RESETS`] unused ones alive at `now_ms`.
    /// Whether it was stored (and may be mailed).
    pub async fn add_password_reset(
        &self,
        token_hash: &str,
        account_id: &str,
        now_ms: i64,
        expires_at: i64,
    ) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let live: i64 = sqlx::query(
                        "SELECT COUNT(*) AS n FROM password_resets WHERE account_id = $1 \
                         AND used_at IS NULL AND expires_at > $2",
                    )
                    .bind(account_id)
                    .bind(now_ms)
                    .fetch_one(&mut *tx)
                    .await?
                    .try_get("n")?;
                    if live >= MAX_LIVE_RESETS {
                        return Ok(false);
                    }
                    sqlx::query(
                        "INSERT INTO password_resets (token_hash, account_id, expires_at) \
                         VALUES ($1, $2, $3)",
                    )
                    .bind(token_hash)
                    .bind(account_id)
                    .bind(expires_at)
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

    /// Spends the reset whose token hashes to `token_hash` if it is unused and not expired at
    /// `now_ms`: sets the account's password to `password_hash` and ends all its sessions, in
    /// one transaction. The account, or `None` (the link is unknown, used or expired).
    pub async fn use_password_reset(
        &self,
        token_hash: &str,
        now_ms: i64,
        password_hash: &str,
    ) -> Result<Option<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let spent = sqlx::query(
                        "UPDATE password_resets SET used_at = $1 WHERE token_hash = $2 \
                         AND used_at IS NULL AND expires_at > $1",
                    )
                    .bind(now_ms)
                    .bind(token_hash)
                    .execute(&mut *tx)
                    .await?;
                    if spent.rows_affected() == 0 {
                        return Ok(None);
                    }
                    let row =
                        sqlx::query("SELECT account_id FROM password_resets WHERE token_hash = $1")
                            .bind(token_hash)
                            .fetch_one(&mut *tx)
                            .await?;
                    let account: String = row.try_get("account_id")?;
                    sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
                        .bind(password_hash)
                        .bind(&account)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                        .bind(&account)
                        .execute(&mut *tx)
                        .await?;
                    // Every other link mailed for the account is void now.
                    sqlx::query(
                        "DELETE FROM password_resets WHERE account_id = $1 AND token_hash <> $2",
                    )
                    .bind(&account)
                    .bind(token_hash)
                    .execute(&mut *tx)
                    .await?;
                    commit(tx).await?;
                    Ok(Some(account))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}

/// An address that takes the daily digest, with its account's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DigestTarget {
    /// The account.
    pub account_id: String,
    /// Its name (as the games' seats hold it).
    pub username: String,
    /// The address.
    pub email: String,
    /// Its unsubscribe token.
    pub unsubscribe: String,
}

/// A game waiting for a player's move, for the digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitingGame {
    /// The game.
    pub id: String,
    /// Its variant's name as stored.
    pub variant: String,
    /// Unix ms its running side's time runs out, if known.
    pub deadline: Option<i64>,
}

impl Store {
    /// The verified addresses that take the digest and have not been claimed for `day` yet.
    pub async fn digest_targets(&self, day: &str) -> Result<Vec<DigestTarget>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT e.account_id, a.username, e.email, e.unsubscribe \
                         FROM account_emails e JOIN accounts a ON a.id = e.account_id \
                         WHERE e.verified_at IS NOT NULL AND e.digest = 1 AND NOT EXISTS \
                         (SELECT 1 FROM digest_claims d WHERE d.account_id = e.account_id \
                         AND d.day = $1)",
                    )
                    .bind(day)
                    .fetch_all(conn.raw())
                    .await?;
                    rows.iter()
                        .map(|r| {
                            Ok(DigestTarget {
                                account_id: r.try_get("account_id")?,
                                username: r.try_get("username")?,
                                email: r.try_get("email")?,
                                unsubscribe: r.try_get("unsubscribe")?,
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

    /// The ongoing correspondence games in which `username` is to move, soonest deadline first.
    pub async fn games_waiting_for(&self, username: &str) -> Result<Vec<WaitingGame>, StoreError> {
        let name = username.to_string();
        self.run(|mut conn| {
            let name = name.clone();
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT id, variant, clock_deadline FROM games WHERE status = 'ongoing' \
                         AND speed = 'correspondence' AND \
                         ((turn = 'white' AND LOWER(white_name) = LOWER($1)) OR \
                         (turn = 'black' AND LOWER(black_name) = LOWER($1))) \
                         ORDER BY clock_deadline",
                    )
                    .bind(&name)
                    .fetch_all(conn.raw())
                    .await?;
                    rows.iter()
                        .map(|r| {
                            Ok(WaitingGame {
                                id: r.try_get("id")?,
                                variant: r.try_get("variant")?,
                                deadline: r.try_get("clock_deadline")?,
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

    /// Gives back the claim of `account_id`'s digest for `day` (its mail could not be sent):
    /// a later look, of any process, sends it.
    pub async fn release_digest(&self, account_id: &str, day: &str) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    sqlx::query("DELETE FROM digest_claims WHERE account_id = $1 AND day = $2")
                        .bind(account_id)
                        .bind(day)
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

    /// Claims the digest of `account_id` for `day`: true for the one caller (of any process)
    /// whose insert made the row; the unique key makes it once.
    pub async fn claim_digest(
        &self,
        account_id: &str,
        day: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let done = sqlx::query(
                        "INSERT INTO digest_claims (account_id, day, claimed_at) \
                         VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    )
                    .bind(account_id)
                    .bind(day)
                    .bind(now_ms)
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
}
