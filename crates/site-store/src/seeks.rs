//! The `seeks` table (migration 8, site::lobby): open offers to play anyone, and the ones
//! just accepted (kept a while so that the seeker's lobby stream can send them to the game).
//!
//! Accepting is one transaction: a conditional `UPDATE ... WHERE status = 'open'` of the seek
//! and the new game's `INSERT`. Two players (or two processes) accepting at once: the
//! database lets one update match the row; the other matches nothing and rolls back.

use site_model::secrets::TokenHash;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::blocks::{Between, standing_between};
use super::conn::{commit, lock_players};
use super::games::insert;
use super::{GameRow, Store, StoreError, corrupt};
use site_model::clock::TimeControl;
use site_model::state::GameKind;
use site_model::state::{SeekColor, SeekStatus};

/// What a seek or a challenge offers: the game, its clock, rated or not, the offerer's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terms {
    /// The game.
    pub variant: GameKind,
    /// Its time control (validated).
    pub control: TimeControl,
    /// Whether the game is rated (both players need an account).
    pub rated: bool,
    /// The side the offerer asked for.
    pub color: SeekColor,
}

impl Terms {
    /// The control as stored: its JSON, the same text for equal controls (quick pairing
    /// compares it).
    pub fn control_text(&self) -> String {
        serde_json::to_string(&self.control).unwrap_or_default()
    }

    pub(super) fn from_row(row: &AnyRow) -> Result<Terms, sqlx::Error> {
        let variant: String = row.try_get("variant")?;
        let control: String = row.try_get("time_control")?;
        let color: String = row.try_get("color")?;
        Ok(Terms {
            variant: GameKind::parse(&variant)
                .ok_or_else(|| corrupt("variant", format!("unknown value '{variant}'")))?,
            control: serde_json::from_str(&control)
                .map_err(|e| corrupt("time_control", format!("'{control}': {e}")))?,
            rated: row.try_get::<i64, _>("rated")? != 0,
            color: SeekColor::parse(&color)
                .ok_or_else(|| corrupt("color", format!("unknown value '{color}'")))?,
        })
    }
}

/// One seek as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeekRow {
    /// Public id (12 letters and digits).
    pub id: String,
    /// SHA-256 of the seeker's player token.
    pub owner: TokenHash,
    /// The seeker's account name; `None` for an anonymous player.
    pub username: Option<String>,
    /// What it offers.
    pub terms: Terms,
    /// Open or accepted.
    pub status: SeekStatus,
    /// The game, once accepted.
    pub game_id: Option<String>,
    /// Unix ms.
    pub created_at: i64,
    /// Unix ms of the last change of status.
    pub updated_at: i64,
    /// Unix ms after which an open seek is gone (its owner left, or an anonymous
    /// correspondence seek's day is over); `None`: never.
    pub expires_at: Option<i64>,
    /// The digest of an anonymous seeker's address (`site_model::secrets::address_digest`),
    /// counted against the cap per address; `None` for an account.
    pub address: Option<String>,
    /// The ratings, both ends included, of the accounts that may see and accept it (issue 41;
    /// migration 35); `None`: anyone.
    pub rating_range: Option<(i64, i64)>,
}

const COLUMNS: &str = "id, owner, username, variant, time_control, rated, color, status, \
     game_id, created_at, updated_at, expires_at, address, rating_min, rating_max";

/// An open seek that has not expired at `$1`: the condition every read and accept uses.
const LIVE: &str = "status = 'open' AND (expires_at IS NULL OR expires_at > $1)";

fn from_row(row: &AnyRow) -> Result<SeekRow, sqlx::Error> {
    Ok(SeekRow {
        id: row.try_get("id")?,
        owner: TokenHash::from_stored(row.try_get("owner")?),
        username: row.try_get("username")?,
        terms: Terms::from_row(row)?,
        status: status_of(row, SeekStatus::parse)?,
        game_id: row.try_get("game_id")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        expires_at: row.try_get("expires_at")?,
        address: row.try_get("address")?,
        rating_range: match (
            row.try_get::<Option<i64>, _>("rating_min")?,
            row.try_get::<Option<i64>, _>("rating_max")?,
        ) {
            (Some(min), Some(max)) => Some((min, max)),
            (None, None) => None,
            _ => {
                return Err(corrupt(
                    "rating_min",
                    "one end of a rating range is missing".into(),
                ));
            }
        },
    })
}

/// The `status` column of `row`, read by `parse`: a text it does not know is an error naming
/// the column, never a default.
pub(super) fn status_of<T>(row: &AnyRow, parse: fn(&str) -> Option<T>) -> Result<T, sqlx::Error> {
    let text: String = row.try_get("status")?;
    parse(&text).ok_or_else(|| corrupt("status", format!("unknown value '{text}'")))
}

/// How an accept ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AcceptOutcome {
    /// The game is stored.
    Won,
    /// The seek was no longer open (taken, withdrawn or expired) or is the acceptor's own.
    Lost,
    /// The acceptor's own seek, to be withdrawn in the same transaction, was taken first:
    /// nothing changed.
    OwnTaken,
    /// One of the two players blocks the other: nothing changed.
    Blocked,
    /// A moderator closed the acceptor's account: nothing changed.
    AcceptorClosed,
}

/// Why [`Store::insert_seek`] stored nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeekRefusal {
    /// The owner (or its address, when anonymous) has the most live seeks allowed.
    TooMany,
    /// The owner's account was closed by a moderator.
    OwnerClosed,
}

impl Store {
    /// Stores `seek` unless its owner, or its address ([`SeekRow::address`], when anonymous),
    /// already has `cap` live seeks at `seek.created_at`, or its owner's account was closed.
    /// One transaction under the owner's lobby lock, which a moderator's close takes too, so
    /// a close at the same moment cannot leave a seek behind (hostile finding 5 of round 6).
    pub async fn insert_seek(
        &self,
        seek: &SeekRow,
        cap: i64,
    ) -> Result<Result<(), SeekRefusal>, StoreError> {
        let sqlite = self.sqlite;
        // A correspondence seek's end, when it has one, is fixed: presence never moves it.
        let lasting = i64::from(matches!(
            seek.terms.control,
            TimeControl::Correspondence { .. }
        ));
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    lock_players(&mut tx, sqlite, &[seek.owner.as_str()]).await?;
                    let closed = sqlx::query(
                        "SELECT 1 AS x FROM accounts WHERE player_hash = $1 \
                         AND closed_at IS NOT NULL",
                    )
                    .bind(seek.owner.as_str())
                    .fetch_optional(&mut *tx)
                    .await?;
                    if closed.is_some() {
                        return Ok(Err(SeekRefusal::OwnerClosed));
                    }
                    // One statement: the counts and the insert see the same rows. A NULL
                    // address matches no row: an account is counted by its owner alone.
                    let done = sqlx::query(&format!(
                        "INSERT INTO seeks ({COLUMNS}, lasting) SELECT $2, $3, $4, $5, $6, $7, \
                         $8, $9, $10, $11, $12, $13, $15, $17, $18, $16 WHERE (SELECT COUNT(*) FROM seeks \
                         WHERE owner = $3 AND {LIVE}) < $14 AND (SELECT COUNT(*) FROM seeks \
                         WHERE address = $15 AND {LIVE}) < $14"
                    ))
                    .bind(seek.created_at)
                    .bind(&seek.id)
                    .bind(seek.owner.as_str())
                    .bind(&seek.username)
                    .bind(seek.terms.variant.as_str())
                    .bind(seek.terms.control_text())
                    .bind(i64::from(seek.terms.rated))
                    .bind(seek.terms.color.as_str())
                    .bind(seek.status.as_str())
                    .bind(&seek.game_id)
                    .bind(seek.created_at)
                    .bind(seek.updated_at)
                    .bind(seek.expires_at)
                    .bind(cap)
                    .bind(&seek.address)
                    .bind(lasting)
                    .bind(seek.rating_range.map(|r| r.0))
                    .bind(seek.rating_range.map(|r| r.1))
                    .execute(&mut *tx)
                    .await?;
                    if done.rows_affected() != 1 {
                        return Ok(Err(SeekRefusal::TooMany));
                    }
                    commit(tx).await?;
                    Ok(Ok(()))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The live seeks at `now` (at most `limit`): rated seeks (all of accounts) first, then
    /// the other seeks of accounts, then anonymous ones, each oldest first. A flood of
    /// anonymous seeks cannot push an account's seek out of the list.
    pub async fn open_seeks(&self, now: i64, limit: i64) -> Result<Vec<SeekRow>, StoreError> {
        self.seeks_where(
            &format!(
                "{LIVE} ORDER BY CASE WHEN username IS NULL THEN 2 WHEN rated = 1 THEN 0 \
                 ELSE 1 END, created_at, id LIMIT $2"
            ),
            now,
            limit,
        )
        .await
    }

    /// The live seeks at `now` that match `terms` (variant, control and rated flag; any
    /// colour), oldest first (at most 20).
    pub async fn matching_seeks(
        &self,
        now: i64,
        terms: &Terms,
    ) -> Result<Vec<SeekRow>, StoreError> {
        let variant = terms.variant.as_str();
        let control = terms.control_text();
        let rated = i64::from(terms.rated);
        self.run(|mut conn| {
            let control = control.clone();
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(&format!(
                        "SELECT {COLUMNS} FROM seeks WHERE {LIVE} AND variant = $2 AND \
                         time_control = $3 AND rated = $4 ORDER BY created_at, id LIMIT 20"
                    ))
                    .bind(now)
                    .bind(variant)
                    .bind(&control)
                    .bind(rated)
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows.iter().map(from_row).collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The seek `id`, whatever its status.
    pub async fn seek(&self, id: &str) -> Result<Option<SeekRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(&format!("SELECT {COLUMNS} FROM seeks WHERE id = $1"))
                        .bind(id)
                        .fetch_optional(conn.raw())
                        .await?;
                    Ok(row.as_ref().map(from_row).transpose()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The games started since `since` (Unix ms) from the seeks `player` made and the
    /// challenges it sent, oldest first.
    pub async fn started_games(&self, player: &str, since: i64) -> Result<Vec<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT game_id, updated_at FROM seeks WHERE owner = $1 AND status = \
                         'accepted' AND updated_at >= $2 AND game_id IS NOT NULL \
                         UNION ALL SELECT game_id, updated_at FROM challenges WHERE \
                         challenger = $1 AND status = 'accepted' AND updated_at >= $2 AND \
                         game_id IS NOT NULL ORDER BY updated_at",
                    )
                    .bind(player)
                    .bind(since)
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows
                        .iter()
                        .map(|r| r.try_get("game_id"))
                        .collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    async fn seeks_where(
        &self,
        condition: &str,
        first: i64,
        second: i64,
    ) -> Result<Vec<SeekRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows =
                        sqlx::query(&format!("SELECT {COLUMNS} FROM seeks WHERE {condition}"))
                            .bind(first)
                            .bind(second)
                            .fetch_all(conn.raw())
                            .await?;
                    Ok(rows.iter().map(from_row).collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Removes the open seek `id` of `owner`; `Ok(false)` if there is none (taken, gone,
    /// someone else's).
    pub async fn delete_seek(&self, id: &str, owner: &TokenHash) -> Result<bool, StoreError> {
        let owner = owner.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let done = sqlx::query(
                        "DELETE FROM seeks WHERE id = $1 AND owner = $2 AND status = 'open'",
                    )
                    .bind(id)
                    .bind(owner)
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

    /// Accepts the live seek `id` for `acceptor` (the SHA-256 of its token, never the seek's
    /// owner) and stores `game`, in one transaction; first withdraws the acceptor's own open
    /// seek `withdraw` when given (quick pairing), which must still be open. Nothing changes
    /// when one of the two blocks the other or the acceptor's account is closed, read under
    /// both players' lobby locks.
    pub async fn accept_seek(
        &self,
        id: &str,
        acceptor: &TokenHash,
        game: &GameRow,
        withdraw: Option<&str>,
    ) -> Result<AcceptOutcome, StoreError> {
        let acceptor = acceptor.as_str();
        let sqlite = self.sqlite;
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    // Both players' lobby locks, then what stands between them: a block or a
                    // close committed meanwhile is seen (hostile findings 1 and 2 of round 7).
                    let owner: Option<String> =
                        sqlx::query("SELECT owner FROM seeks WHERE id = $1")
                            .bind(id)
                            .fetch_optional(&mut *tx)
                            .await?
                            .map(|r| r.try_get("owner"))
                            .transpose()?;
                    let Some(owner) = owner else {
                        return Ok(AcceptOutcome::Lost);
                    };
                    lock_players(&mut tx, sqlite, &[acceptor, &owner]).await?;
                    match standing_between(&mut tx, acceptor, &owner).await? {
                        None => {}
                        Some(Between::AClosed) => return Ok(AcceptOutcome::AcceptorClosed),
                        // A close withdraws its seeks (under this lock): gone.
                        Some(Between::BClosed) => return Ok(AcceptOutcome::Lost),
                        Some(Between::ABlocksB | Between::BBlocksA) => {
                            return Ok(AcceptOutcome::Blocked);
                        }
                    }
                    if let Some(own) = withdraw
                        && !take_open(&mut tx, own, None, None, game.created_at).await?
                    {
                        return Ok(AcceptOutcome::OwnTaken);
                    }
                    if !take_open(&mut tx, id, Some(acceptor), Some(&game.id), game.created_at)
                        .await?
                    {
                        return Ok(AcceptOutcome::Lost);
                    }
                    insert(&mut tx, game).await?;
                    commit(tx).await?;
                    Ok(AcceptOutcome::Won)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Keeps the real-time offers of `player` (seeks it owns, challenges it made) alive until
    /// `until`: its lobby stream is open.
    pub async fn refresh_presence(&self, player: &str, until: i64) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    for (table, column, fixed) in [
                        ("seeks", "owner", " AND lasting = 0"),
                        ("challenges", "challenger", ""),
                    ] {
                        sqlx::query(&format!(
                            "UPDATE {table} SET expires_at = $1 WHERE {column} = $2 AND \
                             status = 'open' AND expires_at IS NOT NULL AND expires_at < $1{fixed}"
                        ))
                        .bind(until)
                        .bind(player)
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

    /// Ends the presence of `player` at `now`: its offers that live only while it is
    /// connected (real-time seeks, challenges it made) are no longer listed or accepted.
    pub async fn end_presence(&self, player: &str, now: i64) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    for (table, column, fixed) in [
                        ("seeks", "owner", " AND lasting = 0"),
                        ("challenges", "challenger", ""),
                    ] {
                        sqlx::query(&format!(
                            "UPDATE {table} SET expires_at = $1 WHERE {column} = $2 AND \
                             status = 'open' AND expires_at IS NOT NULL AND expires_at > $1{fixed}"
                        ))
                        .bind(now)
                        .bind(player)
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

    /// Deletes expired open offers, and answered ones older than `keep_ms`.
    pub async fn sweep_lobby(&self, now: i64, keep_ms: i64) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    for table in ["seeks", "challenges"] {
                        sqlx::query(&format!(
                            "DELETE FROM {table} WHERE (status = 'open' AND expires_at IS NOT \
                             NULL AND expires_at <= $1) OR (status <> 'open' AND updated_at < $2)"
                        ))
                        .bind(now)
                        .bind(now - keep_ms)
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
}

/// Marks the live seek `id` accepted (with `game`) or, without a game, deletes it (withdrawn),
/// if it is still open at `now` and not `acceptor`'s own: whether it was.
async fn take_open(
    tx: &mut Transaction<'_, Any>,
    id: &str,
    acceptor: Option<&str>,
    game: Option<&str>,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = match game {
        Some(game) => {
            sqlx::query(&format!(
                "UPDATE seeks SET status = 'accepted', game_id = $2, updated_at = $1 \
                 WHERE id = $3 AND owner <> $4 AND {LIVE}"
            ))
            .bind(now)
            .bind(game)
            .bind(id)
            .bind(acceptor.unwrap_or(""))
            .execute(&mut **tx)
            .await?
        }
        None => {
            sqlx::query(&format!("DELETE FROM seeks WHERE id = $2 AND {LIVE}"))
                .bind(now)
                .bind(id)
                .execute(&mut **tx)
                .await?
        }
    };
    Ok(done.rows_affected() == 1)
}
