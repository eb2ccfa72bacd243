//! The `notifications` table (migration 13, issue 38): what a player is told outside the board,
//! newest first, with its read state.
//!
//! Each notification comes from one event, named by its `event_key` (`move:<game>:<ply>`,
//! `over:<game>`, `challenge:<id>`, `seek:<id>`, `low:<game>:<ply>:24h`). `(owner, event_key)` is
//! unique and every insert is `ON CONFLICT DO NOTHING`, in the transaction of the change that
//! causes it (a game's write, a challenge's insert) or, for reminders, repeated safely by any
//! process: an event gives one notification, whatever the processes, retries or restarts.

use site_model::notifications::{CHALLENGES_COUNTED_MS, KEEP, NotificationKind};
use site_model::secrets::TokenHash;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::conn::commit;
use super::games::{self, parse_column, select_columns};
use super::{GameRow, Store, StoreError};

/// A notification to store (the event that makes it names it by `event_key`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewNotification {
    /// SHA-256 of the player token of whom it is for (the hash seats and seeks hold).
    pub owner: TokenHash,
    /// What it is about.
    pub kind: NotificationKind,
    /// The game it is about, if any.
    pub game: Option<String>,
    /// The tournament it is about, if any.
    pub tournament: Option<String>,
    /// The other player's name as shown (an account's name, or "Anonymous"), if any.
    pub by: Option<String>,
    /// The text in English (the page words it from `kind` and `by` in each language).
    pub text: String,
    /// The event's unique key for this owner.
    pub event_key: String,
}

/// A stored notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotificationRow {
    /// Public id (16 letters and digits).
    pub id: String,
    /// What it is about.
    pub kind: NotificationKind,
    /// The game it is about.
    pub game: Option<String>,
    /// The tournament it is about.
    pub tournament: Option<String>,
    /// The other player's name.
    pub by: Option<String>,
    /// The text in English.
    pub text: String,
    /// Unix ms it was made.
    pub created_at: i64,
    /// Unix ms it was read, `None` while unread.
    pub read_at: Option<i64>,
}

/// Which notifications a read mark covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadMark<'a> {
    /// These ids (others' ids and unknown ones are skipped).
    Ids(&'a [String]),
    /// Every one of the owner's.
    All,
}

pub(super) fn from_row(row: &AnyRow) -> Result<NotificationRow, sqlx::Error> {
    Ok(NotificationRow {
        id: row.try_get("id")?,
        kind: parse_column(row, "kind", NotificationKind::parse)?,
        game: row.try_get("game_id")?,
        tournament: row.try_get("tournament_id")?,
        by: row.try_get("by_name")?,
        text: row.try_get("text")?,
        created_at: row.try_get("created_at")?,
        read_at: row.try_get("read_at")?,
    })
}

fn new_id() -> String {
    use rand::Rng;
    rand::rng()
        .sample_iter(&rand::distr::Alphanumeric)
        .take(16)
        .map(char::from)
        .collect()
}

/// Stores `notes` made at `now` in `tx` (each once per owner and event), then deletes each
/// owner's beyond the newest [`KEEP`], but for challenges of the last
/// [`CHALLENGES_COUNTED_MS`] (the per-pair limit counts them). How many were new.
pub(super) async fn insert_many(
    tx: &mut Transaction<'_, Any>,
    notes: &[NewNotification],
    now: i64,
) -> Result<u64, sqlx::Error> {
    let mut made = 0;
    for n in notes {
        let done = sqlx::query(
            "INSERT INTO notifications (id, owner, kind, game_id, by_name, text, event_key, \
             created_at, tournament_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             ON CONFLICT (owner, event_key) DO NOTHING",
        )
        .bind(new_id())
        .bind(n.owner.as_str())
        .bind(n.kind.as_str())
        .bind(&n.game)
        .bind(&n.by)
        .bind(&n.text)
        .bind(&n.event_key)
        .bind(now)
        .bind(&n.tournament)
        .execute(&mut **tx)
        .await?;
        made += done.rows_affected();
        if done.rows_affected() == 1 {
            sqlx::query(
                "DELETE FROM notifications WHERE owner = $1 AND id NOT IN (SELECT id FROM \
                 notifications WHERE owner = $1 ORDER BY created_at DESC, id DESC LIMIT $2) \
                 AND NOT (kind = $3 AND created_at > $4)",
            )
            .bind(n.owner.as_str())
            .bind(KEEP)
            .bind(NotificationKind::Challenge.as_str())
            .bind(now - CHALLENGES_COUNTED_MS)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(made)
}

impl Store {
    /// Stores `notes` (each once per owner and event: a repeat is skipped) in one transaction;
    /// how many were new.
    pub async fn insert_notifications(&self, notes: &[NewNotification]) -> Result<u64, StoreError> {
        if notes.is_empty() {
            return Ok(0);
        }
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let made = insert_many(&mut tx, notes, super::now_ms()).await?;
                    commit(tx).await?;
                    Ok(made)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// `owner`'s newest `limit` notifications (at most [`KEEP`] are kept), newest first.
    pub async fn notifications(
        &self,
        owner: &TokenHash,
        limit: i64,
    ) -> Result<Vec<NotificationRow>, StoreError> {
        let owner = owner.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT id, kind, game_id, tournament_id, by_name, text, created_at, read_at \
                         FROM notifications WHERE owner = $1 \
                         ORDER BY created_at DESC, id DESC LIMIT $2",
                    )
                    .bind(owner)
                    .bind(limit.clamp(0, KEEP))
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows.iter().map(from_row).collect::<Result<Vec<_>, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// How many of `owner`'s notifications are unread.
    pub async fn unread_notifications(&self, owner: &TokenHash) -> Result<i64, StoreError> {
        let owner = owner.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT COUNT(*) AS n FROM notifications \
                         WHERE owner = $1 AND read_at IS NULL",
                    )
                    .bind(owner)
                    .fetch_one(conn.raw())
                    .await?;
                    Ok(row.try_get::<i64, _>("n")?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Marks `owner`'s notifications named by `mark` read at `now` (only `owner`'s: another's
    /// id matches nothing). How many changed.
    pub async fn mark_notifications_read(
        &self,
        owner: &TokenHash,
        mark: ReadMark<'_>,
        now: i64,
    ) -> Result<u64, StoreError> {
        let owner = owner.as_str();
        self.run(|mut conn| {
            let mark = mark.clone();
            Box::pin(async move {
                let result = async {
                    let done = match mark {
                        ReadMark::All => sqlx::query(
                            "UPDATE notifications SET read_at = $1 \
                                 WHERE owner = $2 AND read_at IS NULL",
                        )
                        .bind(now)
                        .bind(owner)
                        .execute(conn.raw())
                        .await?
                        .rows_affected(),
                        ReadMark::Ids(ids) => {
                            let mut tx = conn.begin().await?;
                            let mut n = 0;
                            for id in ids {
                                n += sqlx::query(
                                    "UPDATE notifications SET read_at = $1 \
                                     WHERE owner = $2 AND id = $3 AND read_at IS NULL",
                                )
                                .bind(now)
                                .bind(owner)
                                .bind(id)
                                .execute(&mut *tx)
                                .await?
                                .rows_affected();
                            }
                            commit(tx).await?;
                            n
                        }
                    };
                    Ok(done)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Marks `owner`'s notification of event `event_key` read at `now` (what it told was
    /// answered: a challenge accepted or declined). Whether one changed.
    pub async fn mark_event_read(
        &self,
        owner: &TokenHash,
        event_key: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let owner = owner.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let done = sqlx::query(
                        "UPDATE notifications SET read_at = $1 \
                         WHERE owner = $2 AND event_key = $3 AND read_at IS NULL",
                    )
                    .bind(now)
                    .bind(owner)
                    .bind(event_key)
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

    /// Marks read every unread notification of event `event_key` (whoever owns it); the
    /// owners whose count changed.
    pub async fn mark_event_read_for_all(
        &self,
        event_key: &str,
        now: i64,
    ) -> Result<Vec<TokenHash>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "UPDATE notifications SET read_at = $1 \
                         WHERE event_key = $2 AND read_at IS NULL RETURNING owner",
                    )
                    .bind(now)
                    .bind(event_key)
                    .fetch_all(conn.raw())
                    .await?;
                    rows.iter()
                        .map(|r| Ok(TokenHash::from_stored(r.try_get::<String, _>("owner")?)))
                        .collect()
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Ongoing correspondence games whose running clock runs out between `now` and
    /// `now + within_ms`, earliest deadline first, at most `limit` (the low-time reminders,
    /// site::notifications::reminders).
    pub async fn correspondence_due(
        &self,
        now: i64,
        within_ms: i64,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(&format!(
                        "SELECT {} FROM games WHERE speed = 'correspondence' \
                         AND status = 'ongoing' AND clock_deadline IS NOT NULL \
                         AND clock_deadline > $1 AND clock_deadline <= $2 \
                         ORDER BY clock_deadline LIMIT $3",
                        select_columns()
                    ))
                    .bind(now)
                    .bind(now.saturating_add(within_ms))
                    .bind(limit)
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows.iter().map(games::from_row).collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Whether `owner` already has the notification of event `event_key` (a read, so that
    /// the reminders' repeated looks write nothing).
    pub async fn has_notification(
        &self,
        owner: &TokenHash,
        event_key: &str,
    ) -> Result<bool, StoreError> {
        let owner = owner.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT COUNT(*) AS n FROM notifications \
                         WHERE owner = $1 AND event_key = $2",
                    )
                    .bind(owner)
                    .bind(event_key)
                    .fetch_one(conn.raw())
                    .await?;
                    Ok(row.try_get::<i64, _>("n")? > 0)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
