//! Blocks between accounts (issue 41, table `blocks`): the blocker's alone, never shown to
//! the blocked account. A block withdraws the blocker's open challenges to the blocked account
//! and the blocker's notifications of the blocked account's challenges in the same
//! transaction; the blocked account's follow stays (a follow reaches nothing); challenges and
//! lobby pairings read [`Store::blocked_either_way`].

use site_model::social::ChallengesFrom;
use sqlx::Row;

use super::conn::{commit, lock_players};
use super::follows::SocialRow;
use super::{Store, StoreError};

/// Most accounts one account may block (lichess: 500).
pub const MAX_BLOCKS: i64 = 500;

impl Store {
    /// `blocker` blocks `blocked` (account ids), in one transaction with the withdrawal of
    /// `blocker`'s open challenges to `blocked` and of `blocker`'s notifications of
    /// `blocked`'s challenges, under both players' lobby locks; false (nothing stored) when
    /// `blocker` already blocks the most allowed. `blocked`'s follow of `blocker` stays (see the module).
    pub async fn block(&self, blocker: &str, blocked: &str, now: i64) -> Result<bool, StoreError> {
        let sqlite = self.sqlite;
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    // Both players' lobby locks: a challenge either way that is being stored
                    // now commits first (and its notification goes below), or waits and sees
                    // the block (hostile finding 4 of round 6).
                    let hashes: Vec<String> = sqlx::query(
                        "SELECT player_hash AS p FROM accounts WHERE id IN ($1, $2) \
                         AND player_hash IS NOT NULL",
                    )
                    .bind(blocker)
                    .bind(blocked)
                    .fetch_all(&mut *tx)
                    .await?
                    .iter()
                    .map(|r| r.try_get("p"))
                    .collect::<Result<_, _>>()?;
                    let keys: Vec<&str> = hashes.iter().map(String::as_str).collect();
                    lock_players(&mut tx, sqlite, &keys).await?;
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
                    // The blocked player's follow stays (issue 41's hostile round: its end
                    // told them of the block); a follow is public and reaches nothing.
                    // The blocker's own open challenges to the blocked player go, as if
                    // cancelled (the blocked player sees a cancel, nothing more).
                    sqlx::query(
                        "DELETE FROM challenges WHERE status = 'open' AND challenger = \
                         (SELECT player_hash FROM accounts WHERE id = $1) AND challenged = \
                         (SELECT player_hash FROM accounts WHERE id = $2)",
                    )
                    .bind(blocker)
                    .bind(blocked)
                    .execute(&mut *tx)
                    .await?;
                    // The blocked player's challenges no longer reach the blocker: their
                    // notifications go too (issue 41's hostile round).
                    sqlx::query(
                        "DELETE FROM notifications WHERE kind = 'challenge' AND owner = \
                         (SELECT player_hash FROM accounts WHERE id = $1) AND event_key IN \
                         (SELECT 'challenge:' || c.id FROM challenges c WHERE c.challenged = \
                         (SELECT player_hash FROM accounts WHERE id = $1) AND c.challenger = \
                         (SELECT player_hash FROM accounts WHERE id = $2))",
                    )
                    .bind(blocker)
                    .bind(blocked)
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
            "SELECT a.id, a.username, a.player_hash, a.closed_at, b.created_at FROM blocks b \
             JOIN accounts a ON a.id = b.blocked_id WHERE b.blocker_id = $1 ORDER BY a.username_key"
                .to_string(),
            blocker,
            None,
        )
        .await
    }

    /// Whether the account whose seats hold `blocker` blocks the one whose seats hold
    /// `blocked` (player hashes).
    pub async fn blocks_player(&self, blocker: &str, blocked: &str) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    Ok(sqlx::query(
                        "SELECT 1 AS x FROM blocks k JOIN accounts x ON x.id = k.blocker_id \
                         JOIN accounts y ON y.id = k.blocked_id WHERE \
                         x.player_hash = $1 AND y.player_hash = $2",
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
    /// blocks (one way only).
    pub async fn hashes_blocked_by(&self, player_hash: &str) -> Result<Vec<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT y.player_hash AS h FROM accounts x \
                         JOIN blocks k ON k.blocker_id = x.id JOIN accounts y ON y.id = k.blocked_id \
                         WHERE x.player_hash = $1",
                    )
                    .bind(player_hash)
                    .fetch_all(conn.raw())
                    .await?;
                    let mut out = Vec::with_capacity(rows.len());
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

    /// Whom account `account_id` takes challenges from (NULL is everyone).
    pub async fn challenges_from(&self, account_id: &str) -> Result<ChallengesFrom, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query("SELECT challenges_from FROM accounts WHERE id = $1")
                        .bind(account_id)
                        .fetch_optional(conn.raw())
                        .await?;
                    let text: Option<String> = match row {
                        Some(r) => r.try_get("challenges_from")?,
                        None => None,
                    };
                    Ok(text
                        .as_deref()
                        .and_then(ChallengesFrom::parse)
                        .unwrap_or(ChallengesFrom::Everyone))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Sets whom account `account_id` takes challenges from.
    pub async fn set_challenges_from(
        &self,
        account_id: &str,
        from: ChallengesFrom,
    ) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    sqlx::query("UPDATE accounts SET challenges_from = $1 WHERE id = $2")
                        .bind(from.as_str())
                        .bind(account_id)
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

    /// Whether the account whose seats hold `challenged` takes a challenge from the one whose
    /// seats hold `challenger` (player hashes) by its setting: everyone; the players it
    /// follows; nobody. A seat without an account (anonymous) is taken by `everyone` only.
    pub async fn takes_challenge(
        &self,
        challenged: &str,
        challenger: &str,
    ) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT a.challenges_from AS c, (SELECT COUNT(*) FROM follows f \
                         JOIN accounts b ON b.id = f.followed_id WHERE f.follower_id = a.id \
                         AND b.player_hash = $2) AS n FROM accounts a WHERE a.player_hash = $1",
                    )
                    .bind(challenged)
                    .bind(challenger)
                    .fetch_optional(conn.raw())
                    .await?;
                    let Some(row) = row else { return Ok(true) };
                    let text: Option<String> = row.try_get("c")?;
                    let follows: i64 = row.try_get("n")?;
                    Ok(match text.as_deref().and_then(ChallengesFrom::parse) {
                        None | Some(ChallengesFrom::Everyone) => true,
                        Some(ChallengesFrom::Following) => follows > 0,
                        Some(ChallengesFrom::Nobody) => false,
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}

/// What stands between two players `a` and `b` (token hashes) in a transaction that would make
/// them meet (a challenge, a seek's accept, a rematch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Between {
    /// A moderator closed `a`'s account.
    AClosed,
    /// A moderator closed `b`'s account.
    BClosed,
    /// `a` blocks `b`.
    ABlocksB,
    /// `b` blocks `a`.
    BBlocksA,
}

/// Whether a closed account or a block stands between `a` and `b` (token hashes), read inside
/// `tx` after both players' lobby locks ([`super::conn::lock_players`]), so that a block or a
/// close committed meanwhile is seen (issue 41, hostile findings 4 and 5 of round 6, 1-3 of
/// round 7). A close is told before a block.
pub(super) async fn standing_between(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    a: &str,
    b: &str,
) -> Result<Option<Between>, StoreError> {
    let closed: Vec<String> = sqlx::query(
        "SELECT player_hash AS p FROM accounts WHERE player_hash IN ($1, $2) \
         AND closed_at IS NOT NULL",
    )
    .bind(a)
    .bind(b)
    .fetch_all(&mut **tx)
    .await?
    .iter()
    .map(|r| r.try_get("p"))
    .collect::<Result<_, _>>()?;
    if closed.iter().any(|p| p == a) {
        return Ok(Some(Between::AClosed));
    }
    if !closed.is_empty() {
        return Ok(Some(Between::BClosed));
    }
    let blocker: Option<String> = sqlx::query(
        "SELECT x.player_hash AS b FROM blocks k JOIN accounts x ON x.id = k.blocker_id \
         JOIN accounts y ON y.id = k.blocked_id WHERE (x.player_hash = $1 AND \
         y.player_hash = $2) OR (x.player_hash = $2 AND y.player_hash = $1) LIMIT 1",
    )
    .bind(a)
    .bind(b)
    .fetch_optional(&mut **tx)
    .await?
    .map(|r| r.try_get("b"))
    .transpose()?;
    Ok(blocker.map(|x| {
        if x == a {
            Between::ABlocksB
        } else {
            Between::BBlocksA
        }
    }))
}
