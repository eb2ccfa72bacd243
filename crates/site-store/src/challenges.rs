//! The `challenges` table (migration 8, site::lobby): an offer from one account to another
//! named one. Open until accepted, declined or cancelled; a real-time one also ends when its
//! challenger leaves (`expires_at`, as seeks). Accepting is one transaction: a conditional
//! `UPDATE ... WHERE status = 'open'` and the game's `INSERT`.

use site_model::secrets::TokenHash;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::blocks::{Between, standing_between};
use super::conn::{commit, lock_players};
use super::games::insert;
use super::notifications::{NewNotification, insert_many};
use super::seeks::status_of;
use super::{GameRow, Store, StoreError, Terms};
use site_model::state::ChallengeStatus;

/// How a challenge ends short of a game ([`Store::end_challenge`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChallengeEnd {
    /// The challenged player declines it: it stays, declined, for the challenger to see.
    Decline,
    /// The challenger cancels it (or dismisses an answered one): deleted.
    Cancel,
}

/// One challenge as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRow {
    /// Public id (12 letters and digits).
    pub id: String,
    /// SHA-256 of the challenger's player token (its account's).
    pub challenger: TokenHash,
    /// The challenger's account name.
    pub challenger_name: String,
    /// SHA-256 of the challenged account's player token.
    pub challenged: TokenHash,
    /// The challenged account's name.
    pub challenged_name: String,
    /// What it offers (`color` is the challenger's side).
    pub terms: Terms,
    /// Open, accepted or declined (a cancelled one is deleted).
    pub status: ChallengeStatus,
    /// The game, once accepted.
    pub game_id: Option<String>,
    /// Unix ms.
    pub created_at: i64,
    /// Unix ms of the last change of status.
    pub updated_at: i64,
    /// Unix ms after which an open challenge is gone (its challenger left); `None`: never.
    pub expires_at: Option<i64>,
}

const COLUMNS: &str = "id, challenger, challenger_name, challenged, challenged_name, variant, \
     time_control, rated, color, status, game_id, created_at, updated_at, expires_at";

/// An open challenge that has not expired at `$1`.
const LIVE: &str = "status = 'open' AND (expires_at IS NULL OR expires_at > $1)";

fn from_row(row: &AnyRow) -> Result<ChallengeRow, sqlx::Error> {
    Ok(ChallengeRow {
        id: row.try_get("id")?,
        challenger: TokenHash::from_stored(row.try_get("challenger")?),
        challenger_name: row.try_get("challenger_name")?,
        challenged: TokenHash::from_stored(row.try_get("challenged")?),
        challenged_name: row.try_get("challenged_name")?,
        terms: Terms::from_row(row)?,
        status: status_of(row, ChallengeStatus::parse)?,
        game_id: row.try_get("game_id")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        expires_at: row.try_get("expires_at")?,
    })
}

/// The limits [`Store::insert_challenge`] holds in its transaction.
#[derive(Debug, Clone, Copy)]
pub struct ChallengeLimits {
    /// Live challenges one challenger may have out.
    pub open: i64,
    /// Challenges from one challenger to one player since `since`.
    pub per_pair: i64,
    /// The start of the per-pair window, Unix ms.
    pub since: i64,
}

/// Why [`Store::insert_challenge`] stored nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChallengeRefusal {
    /// The challenger has [`ChallengeLimits::open`] live challenges out.
    TooManyOpen,
    /// The challenger challenged this player [`ChallengeLimits::per_pair`] times in the window.
    TooManyToPlayer,
    /// The challenger blocks the challenged player.
    ChallengerBlocks,
    /// The challenged player blocks the challenger.
    Blocked,
    /// The challenger's account was closed by a moderator.
    ChallengerClosed,
    /// The challenged player's account was closed by a moderator.
    ChallengedClosed,
}

/// Whether a block or a closed account stands between `c`'s two players, read inside the
/// insert's transaction (after their lobby locks).
async fn standing(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    c: &ChallengeRow,
) -> Result<Option<ChallengeRefusal>, StoreError> {
    Ok(
        standing_between(tx, c.challenger.as_str(), c.challenged.as_str())
            .await?
            .map(|b| match b {
                Between::AClosed => ChallengeRefusal::ChallengerClosed,
                Between::BClosed => ChallengeRefusal::ChallengedClosed,
                Between::ABlocksB => ChallengeRefusal::ChallengerBlocks,
                Between::BBlocksA => ChallengeRefusal::Blocked,
            }),
    )
}

impl Store {
    /// Stores `c` with `note` (the challenged player's notification) unless its challenger
    /// has `limits.open` live challenges out, or challenged the same player
    /// `limits.per_pair` times since `limits.since` (Unix ms; counted by the notifications,
    /// so a cancelled challenge still counts), or one of the two blocks the other, or a
    /// moderator closed either account. The checks and the insert are one transaction under
    /// both players' lobby locks ([`lock_players`]; blocks and closes take them too), so
    /// parallel requests cannot pass a limit (hostile finding 4 of round 4) and a block or a
    /// close at the same moment cannot miss a challenge (findings 4 and 5 of round 6).
    pub async fn insert_challenge(
        &self,
        c: &ChallengeRow,
        limits: ChallengeLimits,
        note: &NewNotification,
    ) -> Result<Result<(), ChallengeRefusal>, StoreError> {
        let sqlite = self.sqlite;
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    lock_players(
                        &mut tx,
                        sqlite,
                        &[c.challenger.as_str(), c.challenged.as_str()],
                    )
                    .await?;
                    if let Some(refusal) = standing(&mut tx, c).await? {
                        return Ok(Err(refusal));
                    }
                    let row = sqlx::query(
                        "SELECT COUNT(*) AS n FROM notifications WHERE owner = $1 AND kind = $2 \
                         AND by_name = $3 AND created_at > $4",
                    )
                    .bind(c.challenged.as_str())
                    .bind(note.kind.as_str())
                    .bind(&c.challenger_name)
                    .bind(limits.since)
                    .fetch_one(&mut *tx)
                    .await?;
                    if row.try_get::<i64, _>("n")? >= limits.per_pair {
                        return Ok(Err(ChallengeRefusal::TooManyToPlayer));
                    }
                    let done = sqlx::query(&format!(
                        "INSERT INTO challenges ({COLUMNS}) SELECT $2, $3, $4, $5, $6, $7, $8, \
                         $9, $10, $11, $12, $13, $14, $15 WHERE (SELECT COUNT(*) FROM challenges \
                         WHERE challenger = $3 AND {LIVE}) < $16"
                    ))
                    .bind(c.created_at)
                    .bind(&c.id)
                    .bind(c.challenger.as_str())
                    .bind(&c.challenger_name)
                    .bind(c.challenged.as_str())
                    .bind(&c.challenged_name)
                    .bind(c.terms.variant.as_str())
                    .bind(c.terms.control_text())
                    .bind(i64::from(c.terms.rated))
                    .bind(c.terms.color.as_str())
                    .bind(c.status.as_str())
                    .bind(&c.game_id)
                    .bind(c.created_at)
                    .bind(c.updated_at)
                    .bind(c.expires_at)
                    .bind(limits.open)
                    .execute(&mut *tx)
                    .await?;
                    if done.rows_affected() != 1 {
                        return Ok(Err(ChallengeRefusal::TooManyOpen));
                    }
                    insert_many(&mut tx, std::slice::from_ref(note), c.created_at).await?;
                    commit(tx).await?;
                    Ok(Ok(()))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The challenge `id`, whatever its status.
    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row =
                        sqlx::query(&format!("SELECT {COLUMNS} FROM challenges WHERE id = $1"))
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

    /// The challenges `player` made or received that are live at `now`, and those it made
    /// that were answered since `since` (so that it learns of the answer), oldest first.
    pub async fn challenges_of(
        &self,
        player: &TokenHash,
        now: i64,
        since: i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let player = player.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(&format!(
                        "SELECT {COLUMNS} FROM challenges WHERE ((challenger = $2 OR \
                         challenged = $2) AND {LIVE}) OR (challenger = $2 AND status IN \
                         ('accepted', 'declined') AND updated_at >= $3) \
                         ORDER BY created_at, id LIMIT 100"
                    ))
                    .bind(now)
                    .bind(player)
                    .bind(since)
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

    /// Ends the challenge `id` at `now`: a live one declined by `who` = its challenged
    /// player, or one cancelled (deleted, as is an answered one the challenger dismisses) by
    /// `who` = its challenger. Whether one was changed.
    pub async fn end_challenge(
        &self,
        id: &str,
        who: &TokenHash,
        how: ChallengeEnd,
        now: i64,
    ) -> Result<bool, StoreError> {
        let who = who.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let done = if how == ChallengeEnd::Decline {
                        sqlx::query(&format!(
                            "UPDATE challenges SET status = 'declined', updated_at = $1 \
                             WHERE id = $2 AND challenged = $3 AND {LIVE}"
                        ))
                        .bind(now)
                        .bind(id)
                        .bind(who)
                        .execute(conn.raw())
                        .await?
                    } else {
                        sqlx::query(
                            "DELETE FROM challenges WHERE id = $1 AND challenger = $2 \
                             AND status IN ('open', 'declined', 'accepted')",
                        )
                        .bind(id)
                        .bind(who)
                        .execute(conn.raw())
                        .await?
                    };
                    Ok(done.rows_affected() == 1)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Accepts the live challenge `id` addressed to `challenged` and stores `game`, in one
    /// transaction; `Ok(false)` if it is no longer open.
    pub async fn accept_challenge(
        &self,
        id: &str,
        challenged: &TokenHash,
        game: &GameRow,
    ) -> Result<bool, StoreError> {
        let challenged = challenged.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let done = sqlx::query(&format!(
                        "UPDATE challenges SET status = 'accepted', game_id = $2, \
                         updated_at = $1 WHERE id = $3 AND challenged = $4 AND {LIVE}"
                    ))
                    .bind(game.created_at)
                    .bind(&game.id)
                    .bind(id)
                    .bind(challenged)
                    .execute(&mut *tx)
                    .await?;
                    if done.rows_affected() != 1 {
                        return Ok(false);
                    }
                    insert(&mut tx, game).await?;
                    commit(tx).await?;
                    Ok(true)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The account named `username` (without regard to case): its id, name as registered and
    /// player hash (the hash its seats hold).
    pub async fn account_player(
        &self,
        username: &str,
    ) -> Result<Option<(String, String, TokenHash)>, StoreError> {
        let key = username.to_lowercase();
        self.run(|mut conn| {
            let key = key.clone();
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT id, username, player_hash FROM accounts WHERE username_key = $1 \
                         AND player_hash IS NOT NULL AND closed_at IS NULL",
                    )
                    .bind(&key)
                    .fetch_optional(conn.raw())
                    .await?;
                    let Some(r) = row else { return Ok(None) };
                    Ok(Some((
                        r.try_get("id")?,
                        r.try_get("username")?,
                        TokenHash::from_stored(r.try_get("player_hash")?),
                    )))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
