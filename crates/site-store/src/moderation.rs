//! Moderation (issue 41): the moderator role, mutes, closed accounts, booster/cheater marks
//! with their rating refunds (lila's RatingRefund), and the mod log. Each action and its log
//! line are one transaction.

use site_model::ratings::RatingChange;
use site_model::social::{ModAction, ModMark};
use sqlx::{Any, Row, Transaction};

use super::conn::{commit, lock_players};
use super::{Store, StoreError, corrupt};

/// An account's moderation state.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ModState {
    /// Its id.
    pub id: String,
    /// Its name.
    pub username: String,
    /// Holds the moderator role.
    pub moderator: bool,
    /// No chat until then (Unix ms).
    pub muted_until: Option<i64>,
    /// Closed then (Unix ms): no log-in, no play.
    pub closed_at: Option<i64>,
    /// Marked booster or cheater.
    pub mark: Option<ModMark>,
}

/// A moderator's change to an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModChange {
    /// No chat until this time (Unix ms); `None` lifts a mute.
    Mute(Option<i64>),
    /// Closes the account: its sessions end, its open seeks and challenges go.
    Close,
    /// Marks the account; a cheater mark also refunds its opponents' points lost in rated
    /// games since the time given (Unix ms), once per game and opponent.
    Mark(ModMark, i64),
    /// Opens a closed account again (its player may log in again).
    Reopen,
    /// Takes a mark off; the refunds it made stay (they were owed to its opponents).
    Unmark,
}

/// One refund made by a mark.
#[derive(Debug, Clone, PartialEq)]
pub struct Refund {
    /// The game.
    pub game_id: String,
    /// The opponent refunded (name).
    pub username: String,
    /// Points given back.
    pub points: i64,
}

/// One line of the mod log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModLogRow {
    /// Its id.
    pub id: String,
    /// The moderator's name (`cli` for the command line).
    pub moderator: String,
    /// What was done.
    pub action: ModAction,
    /// The account it was done to (name), or the report's id.
    pub target: String,
    /// The reason and the details (minutes, mark, refunds).
    pub details: String,
    /// Unix ms.
    pub at: i64,
}

/// A new line of the mod log.
#[derive(Debug, Clone, Copy)]
pub struct ModLogEntry<'a> {
    /// Its id.
    pub id: &'a str,
    /// The moderator's name.
    pub moderator: &'a str,
    /// What was done.
    pub action: ModAction,
    /// The account's name or the report's id.
    pub target: &'a str,
    /// The reason and the details.
    pub details: &'a str,
    /// Unix ms.
    pub at: i64,
}

pub(super) async fn log_line(
    tx: &mut Transaction<'_, Any>,
    e: &ModLogEntry<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO mod_log (id, moderator, action, target, details, at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(e.id)
    .bind(e.moderator)
    .bind(e.action.as_str())
    .bind(e.target)
    .bind(e.details)
    .bind(e.at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Refunds the opponents of `target` (id and name) for the rated games it played since
/// `since`, once per game and opponent (`rating_refunds`' key).
///
/// Only a cheater mark refunds, as lila's RatingRefund follows an engine mark: a booster's
/// opponents are its accomplices far more often than its victims, and however long their games
/// (issue 41's hostile rounds: 11, then 20 plies), a refund gave them back the points they threw
/// away. Under a cheater mark an accomplice is not refunded either: no refund for a game
/// against an account that is marked itself, nor for any game of a pair that reached the
/// per-pair cap or a sandbagging hold in the window (a game between them stored `unrated` as
/// `pair_limit` or `sandbag`).
async fn refund(
    tx: &mut Transaction<'_, Any>,
    mark: ModMark,
    target: &str,
    target_name: &str,
    since: i64,
    now: i64,
) -> Result<Vec<Refund>, StoreError> {
    let rows = sqlx::query(
        "SELECT h.game_id, h.variant, h.speed, g.rating_diff FROM rating_history h \
         JOIN games g ON g.id = h.game_id WHERE h.account_id = $1 AND h.at > $2 \
         ORDER BY h.at",
    )
    .bind(target)
    .bind(since)
    .fetch_all(&mut **tx)
    .await?;
    let mut refunds = Vec::new();
    if mark == ModMark::Booster {
        return Ok(refunds);
    }
    for r in &rows {
        let game_id: String = r.try_get("game_id")?;
        let variant: String = r.try_get("variant")?;
        let speed: String = r.try_get("speed")?;
        let Some(text) = r.try_get::<Option<String>, _>("rating_diff")? else {
            continue;
        };
        let change: RatingChange =
            serde_json::from_str(&text).map_err(|e| corrupt("rating_diff", e.to_string()))?;
        let other = if change.white.username.eq_ignore_ascii_case(target_name) {
            &change.black
        } else {
            &change.white
        };
        if other.diff >= 0 {
            continue;
        }
        let Some(opponent) = sqlx::query(
            "SELECT account_id FROM rating_history WHERE game_id = $1 AND account_id <> $2",
        )
        .bind(&game_id)
        .bind(target)
        .fetch_optional(&mut **tx)
        .await?
        else {
            continue;
        };
        let opponent: String = opponent.try_get("account_id")?;
        if accomplice(tx, target, &opponent, since).await? {
            continue;
        }
        let points = -other.diff;
        let fresh = sqlx::query(
            "INSERT INTO rating_refunds (game_id, account_id, points, at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT DO NOTHING",
        )
        .bind(&game_id)
        .bind(&opponent)
        .bind(points as f64)
        .bind(now)
        .execute(&mut **tx)
        .await?
        .rows_affected()
            == 1;
        if !fresh {
            continue;
        }
        sqlx::query(
            "UPDATE ratings SET rating = rating + $1 WHERE account_id = $2 AND variant = $3 \
             AND speed = $4",
        )
        .bind(points as f64)
        .bind(&opponent)
        .bind(&variant)
        .bind(&speed)
        .execute(&mut **tx)
        .await?;
        refunds.push(Refund {
            game_id,
            username: other.username.clone(),
            points,
        });
    }
    Ok(refunds)
}

/// Whether `opponent` looks like `target`'s accomplice (see [`refund`]).
async fn accomplice(
    tx: &mut Transaction<'_, Any>,
    target: &str,
    opponent: &str,
    since: i64,
) -> Result<bool, sqlx::Error> {
    let marked: i64 =
        sqlx::query("SELECT COUNT(*) AS n FROM accounts WHERE id = $1 AND mark IS NOT NULL")
            .bind(opponent)
            .fetch_one(&mut **tx)
            .await?
            .try_get("n")?;
    let capped: i64 = sqlx::query(
        "SELECT COUNT(*) AS n FROM games g JOIN accounts a ON a.id = $1 \
         JOIN accounts b ON b.id = $2 WHERE g.created_at > $3 \
         AND g.unrated IN ('pair_limit', 'sandbag') AND \
         ((g.white_token = a.player_hash AND g.black_token = b.player_hash) OR \
          (g.white_token = b.player_hash AND g.black_token = a.player_hash))",
    )
    .bind(target)
    .bind(opponent)
    .bind(since)
    .fetch_one(&mut **tx)
    .await?
    .try_get("n")?;
    Ok(marked + capped > 0)
}

impl Store {
    /// The moderation state of the account named `username` (without regard to case).
    pub async fn mod_state(&self, username: &str) -> Result<Option<ModState>, StoreError> {
        let key = username.to_lowercase();
        self.mod_state_where("username_key", key).await
    }

    /// Whether the player whose token hashes to `player_hash` is an account a moderator closed
    /// (a closed account holds no seat as an account any more, so
    /// [`Store::account_by_player_hash`] does not find it).
    pub async fn player_closed(&self, player_hash: &str) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = sqlx::query(
                    "SELECT 1 AS one FROM accounts WHERE player_hash = $1 AND closed_at IS NOT NULL",
                )
                .bind(player_hash)
                .fetch_optional(conn.raw())
                .await
                .map(|r| r.is_some())
                .map_err(StoreError::from);
                (conn, result)
            })
        })
        .await
    }

    /// The moderation state of account `id`.
    pub async fn mod_state_of(&self, id: &str) -> Result<Option<ModState>, StoreError> {
        self.mod_state_where("id", id.to_string()).await
    }

    async fn mod_state_where(
        &self,
        column: &'static str,
        value: String,
    ) -> Result<Option<ModState>, StoreError> {
        self.run(|mut conn| {
            let value = value.clone();
            Box::pin(async move {
                let result =
                    async {
                        let Some(r) = sqlx::query(&format!(
                            "SELECT id, username, moderator, muted_until, closed_at, mark \
                         FROM accounts WHERE {column} = $1"
                        ))
                        .bind(value)
                        .fetch_optional(conn.raw())
                        .await?
                        else {
                            return Ok(None);
                        };
                        let mark: Option<String> = r.try_get("mark")?;
                        Ok(Some(ModState {
                            id: r.try_get("id")?,
                            username: r.try_get("username")?,
                            moderator: r.try_get::<i64, _>("moderator")? != 0,
                            muted_until: r.try_get("muted_until")?,
                            closed_at: r.try_get("closed_at")?,
                            mark: match mark {
                                Some(m) => Some(ModMark::parse(&m).ok_or_else(|| {
                                    corrupt("mark", format!("unknown mark '{m}'"))
                                })?),
                                None => None,
                            },
                        }))
                    }
                    .await;
                (conn, result)
            })
        })
        .await
    }

    /// Gives (`on`) or takes back the moderator role of the account named `username`, with
    /// its log line; false when there is no such account.
    pub async fn set_moderator(
        &self,
        username: &str,
        on: bool,
        log: &ModLogEntry<'_>,
    ) -> Result<bool, StoreError> {
        let key = username.to_lowercase();
        self.run(|mut conn| {
            let key = key.clone();
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let n =
                        sqlx::query("UPDATE accounts SET moderator = $1 WHERE username_key = $2")
                            .bind(i64::from(on))
                            .bind(&key)
                            .execute(&mut *tx)
                            .await?
                            .rows_affected();
                    if n != 1 {
                        return Ok(false);
                    }
                    log_line(&mut tx, log).await?;
                    commit(tx).await?;
                    Ok(true)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Applies `change` to account `target` (its state as read) with its log line, in one
    /// transaction; the refunds a mark made (none for a mark already given: the refunds'
    /// key holds them to once).
    pub async fn moderate(
        &self,
        target: &ModState,
        player_hash: Option<&str>,
        change: ModChange,
        log: &ModLogEntry<'_>,
    ) -> Result<Vec<Refund>, StoreError> {
        let sqlite = self.sqlite;
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let mut refunds = Vec::new();
                    match change {
                        ModChange::Mute(until) => {
                            sqlx::query("UPDATE accounts SET muted_until = $1 WHERE id = $2")
                                .bind(until)
                                .bind(&target.id)
                                .execute(&mut *tx)
                                .await?;
                        }
                        ModChange::Close => {
                            // The player's lobby lock: a challenge or seek being stored now
                            // commits first (and goes below), or waits and sees the close
                            // (hostile finding 5 of round 6).
                            if let Some(hash) = player_hash {
                                lock_players(&mut tx, sqlite, &[hash]).await?;
                            }
                            sqlx::query(
                                "UPDATE accounts SET closed_at = $1 WHERE id = $2 \
                                 AND closed_at IS NULL",
                            )
                            .bind(log.at)
                            .bind(&target.id)
                            .execute(&mut *tx)
                            .await?;
                            sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                                .bind(&target.id)
                                .execute(&mut *tx)
                                .await?;
                            if let Some(hash) = player_hash {
                                sqlx::query(
                                    "DELETE FROM seeks WHERE owner = $1 AND status = 'open'",
                                )
                                .bind(hash)
                                .execute(&mut *tx)
                                .await?;
                                // The bell entries of its challenges lead nowhere now.
                                sqlx::query(
                                    "DELETE FROM notifications WHERE kind = 'challenge' AND \
                                     event_key IN (SELECT 'challenge:' || id FROM challenges \
                                     WHERE challenger = $1 AND status = 'open')",
                                )
                                .bind(hash)
                                .execute(&mut *tx)
                                .await?;
                                sqlx::query(
                                    "DELETE FROM challenges WHERE (challenger = $1 OR \
                                     challenged = $1) AND status = 'open'",
                                )
                                .bind(hash)
                                .execute(&mut *tx)
                                .await?;
                            }
                        }
                        ModChange::Reopen => {
                            sqlx::query("UPDATE accounts SET closed_at = NULL WHERE id = $1")
                                .bind(&target.id)
                                .execute(&mut *tx)
                                .await?;
                        }
                        ModChange::Unmark => {
                            sqlx::query("UPDATE accounts SET mark = NULL WHERE id = $1")
                                .bind(&target.id)
                                .execute(&mut *tx)
                                .await?;
                        }
                        ModChange::Mark(mark, since) => {
                            sqlx::query("UPDATE accounts SET mark = $1 WHERE id = $2")
                                .bind(mark.as_str())
                                .bind(&target.id)
                                .execute(&mut *tx)
                                .await?;
                            refunds =
                                refund(&mut tx, mark, &target.id, &target.username, since, log.at)
                                    .await?;
                        }
                    }
                    let mut details = log.details.to_string();
                    if !refunds.is_empty() {
                        let total: i64 = refunds.iter().map(|r| r.points).sum();
                        details.push_str(&format!(
                            " (refunded {total} points in {} games)",
                            refunds.len()
                        ));
                    }
                    log_line(
                        &mut tx,
                        &ModLogEntry {
                            details: &details,
                            ..*log
                        },
                    )
                    .await?;
                    commit(tx).await?;
                    Ok(refunds)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Writes one line of the mod log alone (a report closed).
    pub async fn mod_log_line(&self, log: &ModLogEntry<'_>) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    log_line(&mut tx, log).await?;
                    commit(tx).await?;
                    Ok(())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The mod log, newest first, at most `limit` lines.
    pub async fn mod_log(&self, limit: i64) -> Result<Vec<ModLogRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT id, moderator, action, target, details, at FROM mod_log \
                         ORDER BY at DESC, id LIMIT $1",
                    )
                    .bind(limit)
                    .fetch_all(conn.raw())
                    .await?;
                    rows.iter()
                        .map(|r| {
                            let action: String = r.try_get("action")?;
                            Ok(ModLogRow {
                                id: r.try_get("id")?,
                                moderator: r.try_get("moderator")?,
                                action: ModAction::parse(&action).ok_or_else(|| {
                                    corrupt("action", format!("unknown action '{action}'"))
                                })?,
                                target: r.try_get("target")?,
                                details: r.try_get("details")?,
                                at: r.try_get("at")?,
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
}
