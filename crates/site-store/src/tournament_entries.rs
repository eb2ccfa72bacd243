//! The `tournament_players` table (migration 23, issue 40): who entered an event, their
//! numbers, withdrawals and pauses. A change moves the event's `version` on (`bump`) in its
//! transaction, as every change a page shows does.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::conn::commit;
use super::tournaments::bump;
use super::{Store, StoreError};

/// One entry of an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryRow {
    /// The account's id.
    pub account_id: String,
    /// Its name.
    pub username: String,
    /// Its rating when it joined (rounded; the event's game and speed).
    pub rating: i64,
    /// The tournament pairing number, from the start (by rating, then entry).
    pub tpn: Option<i64>,
    /// Unix ms.
    pub joined_at: i64,
    /// Unix ms of a withdrawal (the player plays no more games).
    pub withdrawn_at: Option<i64>,
    /// An arena player who paused is not paired until they come back.
    pub paused: bool,
}

/// How a join ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinOutcome {
    /// The player is in (or was already).
    Joined,
    /// The event has its maximum of players.
    Full,
    /// The event takes no entries now (finished, or a started round robin).
    Closed,
    /// No such event.
    Missing,
    /// The account is in this many events not yet over: the most the caller allows.
    TooMany(i64),
}

fn entry_of(row: &AnyRow) -> Result<EntryRow, sqlx::Error> {
    Ok(EntryRow {
        account_id: row.try_get("account_id")?,
        username: row.try_get("username")?,
        rating: row.try_get("rating")?,
        tpn: row.try_get("tpn")?,
        joined_at: row.try_get("joined_at")?,
        withdrawn_at: row.try_get("withdrawn_at")?,
        paused: row.try_get::<i64, _>("paused")? != 0,
    })
}

impl Store {
    /// The entries of event `id`, in order of entry.
    pub async fn tournament_entries(&self, id: &str) -> Result<Vec<EntryRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT account_id, username, rating, tpn, joined_at, withdrawn_at, \
                         paused FROM tournament_players WHERE tournament_id = $1 \
                         ORDER BY joined_at, account_id",
                    )
                    .bind(id)
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows.iter().map(entry_of).collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Enters `account` (named `username`, rated `rating`) in event `id`, or brings back one
    /// who withdrew, in one transaction that counts the entries (so two joins at once cannot
    /// pass the maximum) and the account's other events not yet over (at most
    /// `max_joined`). Entries are taken while the event is created, and while an arena or a
    /// Swiss event runs (a Swiss late entry plays from the next round).
    pub async fn join_tournament(
        &self,
        id: &str,
        account: &str,
        username: &str,
        rating: i64,
        now: i64,
        max_joined: i64,
    ) -> Result<JoinOutcome, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    // Taking the event's row first serialises the joins of one event.
                    let bumped = sqlx::query(
                        "UPDATE tournaments SET version = version + 1 WHERE id = $1 AND \
                         (status = 'created' OR (status = 'started' AND kind <> 'round_robin'))",
                    )
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                    if bumped.rows_affected() == 0 {
                        let exists = sqlx::query("SELECT 1 FROM tournaments WHERE id = $1")
                            .bind(id)
                            .fetch_optional(&mut *tx)
                            .await?
                            .is_some();
                        return Ok(if exists {
                            JoinOutcome::Closed
                        } else {
                            JoinOutcome::Missing
                        });
                    }
                    let existing = sqlx::query(
                        "SELECT withdrawn_at FROM tournament_players WHERE tournament_id = $1 \
                         AND account_id = $2",
                    )
                    .bind(id)
                    .bind(account)
                    .fetch_optional(&mut *tx)
                    .await?;
                    if let Some(row) = &existing
                        && row.try_get::<Option<i64>, _>("withdrawn_at")?.is_none()
                    {
                        return Ok(JoinOutcome::Joined);
                    }
                    let max: i64 = sqlx::query("SELECT max_players FROM tournaments WHERE id = $1")
                        .bind(id)
                        .fetch_one(&mut *tx)
                        .await?
                        .try_get("max_players")?;
                    let count: i64 = sqlx::query(
                        "SELECT COUNT(*) AS n FROM tournament_players WHERE tournament_id = $1 \
                         AND withdrawn_at IS NULL",
                    )
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?
                    .try_get("n")?;
                    if count >= max {
                        return Ok(JoinOutcome::Full);
                    }
                    // The account's row next (always after the event's, so no two joins wait
                    // on each other in turn): its joins are counted one at a time.
                    sqlx::query("UPDATE accounts SET id = id WHERE id = $1")
                        .bind(account)
                        .execute(&mut *tx)
                        .await?;
                    let joined: i64 = sqlx::query(
                        "SELECT COUNT(*) AS n FROM tournament_players p JOIN tournaments t ON \
                         t.id = p.tournament_id WHERE p.account_id = $1 AND p.withdrawn_at IS \
                         NULL AND t.status IN ('created', 'started')",
                    )
                    .bind(account)
                    .fetch_one(&mut *tx)
                    .await?
                    .try_get("n")?;
                    if joined >= max_joined {
                        return Ok(JoinOutcome::TooMany(joined));
                    }
                    if existing.is_some() {
                        sqlx::query(
                            "UPDATE tournament_players SET withdrawn_at = NULL, paused = 0 \
                             WHERE tournament_id = $1 AND account_id = $2",
                        )
                        .bind(id)
                        .bind(account)
                        .execute(&mut *tx)
                        .await?;
                    } else {
                        sqlx::query(
                            "INSERT INTO tournament_players (tournament_id, account_id, \
                             username, rating, tpn, joined_at, withdrawn_at, paused) VALUES \
                             ($1, $2, $3, $4, NULL, $5, NULL, 0)",
                        )
                        .bind(id)
                        .bind(account)
                        .bind(username)
                        .bind(rating)
                        .bind(now)
                        .execute(&mut *tx)
                        .await?;
                    }
                    commit(tx).await?;
                    Ok(JoinOutcome::Joined)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Withdraws `account` from event `id` at `now`: `false` when it was not in (or already
    /// out).
    pub async fn withdraw_from_tournament(
        &self,
        id: &str,
        account: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.change_entry(
            id,
            "UPDATE tournament_players SET withdrawn_at = $3 WHERE tournament_id = $1 AND \
             account_id = $2 AND withdrawn_at IS NULL",
            account,
            now,
        )
        .await
    }

    /// Pauses (`paused`) or brings back an arena player: `false` when not in.
    pub async fn pause_in_tournament(
        &self,
        id: &str,
        account: &str,
        paused: bool,
    ) -> Result<bool, StoreError> {
        self.change_entry(
            id,
            "UPDATE tournament_players SET paused = $3 WHERE tournament_id = $1 AND \
             account_id = $2 AND withdrawn_at IS NULL",
            account,
            i64::from(paused),
        )
        .await
    }

    async fn change_entry(
        &self,
        id: &str,
        statement: &'static str,
        account: &str,
        value: i64,
    ) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let done = sqlx::query(statement)
                        .bind(id)
                        .bind(account)
                        .bind(value)
                        .execute(&mut *tx)
                        .await?;
                    if done.rows_affected() == 0 {
                        return Ok(false);
                    }
                    bump(&mut tx, id).await?;
                    commit(tx).await?;
                    Ok(true)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Numbers a late entry of a running event (`tpn`), once.
    pub async fn number_entry(&self, id: &str, account: &str, tpn: i64) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    sqlx::query(
                        "UPDATE tournament_players SET tpn = $3 WHERE tournament_id = $1 AND \
                         account_id = $2 AND tpn IS NULL",
                    )
                    .bind(id)
                    .bind(account)
                    .bind(tpn)
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

    /// The player hashes (`accounts.player_hash`, what a game's seat holds) of event `id`'s
    /// entries, by account id; an account without one is left out.
    pub async fn entry_player_hashes(
        &self,
        id: &str,
    ) -> Result<Vec<(String, site_model::secrets::TokenHash)>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT p.account_id AS account_id, a.player_hash AS player_hash FROM \
                         tournament_players p JOIN accounts a ON a.id = p.account_id WHERE \
                         p.tournament_id = $1 AND a.player_hash IS NOT NULL",
                    )
                    .bind(id)
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows
                        .iter()
                        .map(|r| {
                            Ok((
                                r.try_get("account_id")?,
                                site_model::secrets::TokenHash::from_stored(
                                    r.try_get("player_hash")?,
                                ),
                            ))
                        })
                        .collect::<Result<_, sqlx::Error>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The active entries of event `id` (account ids) that have a real-time game in progress
    /// anywhere on the site (another event's, a casual one, one against the engine): an arena
    /// does not pair them until it ends. Games with a seat still open do not count.
    pub async fn entries_in_realtime_games(&self, id: &str) -> Result<Vec<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut out = Vec::new();
                    for side in ["white_token", "black_token"] {
                        let rows = sqlx::query(&format!(
                            "SELECT DISTINCT p.account_id AS account_id FROM tournament_players \
                             p JOIN accounts a ON a.id = p.account_id JOIN games g ON \
                             g.{side} = a.player_hash WHERE p.tournament_id = $1 AND \
                             p.withdrawn_at IS NULL AND g.status = 'ongoing' AND g.speed = \
                             'realtime' AND g.white_kind <> 'open' AND g.black_kind <> 'open'"
                        ))
                        .bind(id)
                        .fetch_all(conn.raw())
                        .await?;
                        for r in &rows {
                            out.push(r.try_get::<String, _>("account_id")?);
                        }
                    }
                    out.sort();
                    out.dedup();
                    Ok(out)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// How many players are entered (not withdrawn) in each of the events `ids`, by id (an
    /// event without entries is left out). One query, for the lists.
    pub async fn entry_counts(
        &self,
        ids: &[String],
    ) -> Result<std::collections::HashMap<String, i64>, StoreError> {
        if ids.is_empty() {
            return Ok(Default::default());
        }
        let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT tournament_id, COUNT(*) AS n FROM tournament_players WHERE withdrawn_at IS \
             NULL AND tournament_id IN ({}) GROUP BY tournament_id",
            marks.join(", ")
        );
        let sql = &sql;
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut q = sqlx::query(sql);
                    for id in ids {
                        q = q.bind(id);
                    }
                    let rows = q.fetch_all(conn.raw()).await?;
                    Ok(rows
                        .iter()
                        .map(|r| Ok((r.try_get("tournament_id")?, r.try_get("n")?)))
                        .collect::<Result<_, sqlx::Error>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
