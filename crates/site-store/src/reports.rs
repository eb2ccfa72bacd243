//! Reports of players (issue 41, table `reports`): made by accounts, listed and closed by
//! moderators. The limits per reporter are checked in the insert's transaction.

use site_model::social::{ReportReason, ReportStatus};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::conn::commit;
use super::{Store, StoreError, corrupt};

/// One report as stored, with the names of its accounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRow {
    /// Its id.
    pub id: String,
    /// The reporting account's name.
    pub reporter: String,
    /// The reported account's name.
    pub target: String,
    /// Why.
    pub reason: ReportReason,
    /// The reporter's words (may be empty).
    pub text: String,
    /// The game it is about, if named.
    pub game: Option<String>,
    /// Open or closed.
    pub status: ReportStatus,
    /// Unix ms.
    pub created_at: i64,
    /// When a moderator closed it.
    pub closed_at: Option<i64>,
    /// The moderator who closed it (name).
    pub closed_by: Option<String>,
    /// The chat message it is about, if named: its id, and its text or canned phrase code.
    pub message: Option<ReportedMessage>,
}

/// The chat message of a report, as the moderators read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportedMessage {
    /// The message's id.
    pub id: String,
    /// Its room's key.
    pub room: String,
    /// Its free text.
    pub text: Option<String>,
    /// Its canned phrase's code.
    pub phrase: Option<String>,
}

/// A report to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewReport<'a> {
    /// Its id.
    pub id: &'a str,
    /// The reporter's account id.
    pub reporter_id: &'a str,
    /// The reported account's id.
    pub target_id: &'a str,
    /// Why.
    pub reason: ReportReason,
    /// The reporter's words.
    pub text: &'a str,
    /// The game, if named.
    pub game: Option<&'a str>,
    /// The chat message, if named (checked by the site: stored, and seen by the reporter).
    pub message: Option<&'a str>,
    /// Unix ms.
    pub now: i64,
    /// The reporter must have been made before this (Unix ms) or have finished a game.
    pub made_before: i64,
}

/// Why [`Store::insert_report`] stored nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportRefusal {
    /// The reporter already has this many open reports.
    TooMany(i64),
    /// The reporter already has an open report of this account for this reason.
    Duplicate,
    /// The reporter is newer than `made_before` and has finished no game.
    TooNew,
    /// The report names a game that does not exist.
    NoGame,
    /// The report names a game the reported account did not play.
    NotInGame,
}

fn report_of(r: &AnyRow) -> Result<ReportRow, sqlx::Error> {
    let reason: String = r.try_get("reason")?;
    let status: String = r.try_get("status")?;
    Ok(ReportRow {
        id: r.try_get("id")?,
        reporter: r.try_get("reporter")?,
        target: r.try_get("target")?,
        reason: ReportReason::parse(&reason)
            .ok_or_else(|| corrupt("reason", format!("unknown reason '{reason}'")))?,
        text: r.try_get("text")?,
        game: r.try_get("game_id")?,
        status: ReportStatus::parse(&status)
            .ok_or_else(|| corrupt("status", format!("unknown status '{status}'")))?,
        created_at: r.try_get("created_at")?,
        closed_at: r.try_get("closed_at")?,
        closed_by: r.try_get("closed_by")?,
        message: match r.try_get::<Option<String>, _>("message_id")? {
            None => None,
            Some(id) => Some(ReportedMessage {
                id,
                room: r
                    .try_get::<Option<String>, _>("message_room")?
                    .unwrap_or_default(),
                text: r.try_get("message_text")?,
                phrase: r.try_get("message_phrase")?,
            }),
        },
    })
}

const REPORT_COLUMNS: &str = "r.id, p.username AS reporter, t.username AS target, r.reason, \
     r.text, r.game_id, r.status, r.created_at, r.closed_at, m.username AS closed_by, \
     r.message_id, c.room AS message_room, c.text AS message_text, c.phrase AS message_phrase \
     FROM reports r JOIN accounts p ON p.id = r.reporter_id JOIN accounts t ON t.id = r.target_id \
     LEFT JOIN accounts m ON m.id = r.closed_by LEFT JOIN chat_messages c ON c.id = r.message_id";

impl Store {
    /// Stores `report` unless its reporter has `max_open` open reports, or an open one of the
    /// same account for the same reason; the checks and the insert are one transaction (one
    /// reporter's reports go one at a time: PostgreSQL takes an advisory lock).
    pub async fn insert_report(
        &self,
        report: &NewReport<'_>,
        max_open: i64,
    ) -> Result<Result<(), ReportRefusal>, StoreError> {
        let sqlite = self.sqlite;
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    if !sqlite {
                        sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))")
                            .bind(format!("reports:{}", report.reporter_id))
                            .execute(&mut *tx)
                            .await?;
                    }
                    let standing = sqlx::query(&format!(
                        "SELECT a.created_at AS made, (SELECT COUNT(*) FROM games g WHERE {}) \
                         AS n FROM accounts a WHERE a.id = $1",
                        super::chat::real_finished_game("a.player_hash")
                    ))
                    .bind(report.reporter_id)
                    .fetch_one(&mut *tx)
                    .await?;
                    let made: i64 = standing.try_get("made")?;
                    let finished: i64 = standing.try_get("n")?;
                    if made >= report.made_before && finished == 0 {
                        return Ok(Err(ReportRefusal::TooNew));
                    }
                    let rows = sqlx::query(
                        "SELECT target_id, reason FROM reports WHERE reporter_id = $1 \
                         AND status = 'open'",
                    )
                    .bind(report.reporter_id)
                    .fetch_all(&mut *tx)
                    .await?;
                    for r in &rows {
                        let target: String = r.try_get("target_id")?;
                        let reason: String = r.try_get("reason")?;
                        if target == report.target_id && reason == report.reason.as_str() {
                            return Ok(Err(ReportRefusal::Duplicate));
                        }
                    }
                    if rows.len() as i64 >= max_open {
                        return Ok(Err(ReportRefusal::TooMany(rows.len() as i64)));
                    }
                    if let Some(game) = report.game {
                        let seats =
                            sqlx::query("SELECT white_token, black_token FROM games WHERE id = $1")
                                .bind(game)
                                .fetch_optional(&mut *tx)
                                .await?;
                        let Some(seats) = seats else {
                            return Ok(Err(ReportRefusal::NoGame));
                        };
                        let white: Option<String> = seats.try_get("white_token")?;
                        let black: Option<String> = seats.try_get("black_token")?;
                        let hash: Option<String> =
                            sqlx::query("SELECT player_hash FROM accounts WHERE id = $1")
                                .bind(report.target_id)
                                .fetch_one(&mut *tx)
                                .await?
                                .try_get("player_hash")?;
                        if hash.is_none() || (hash != white && hash != black) {
                            return Ok(Err(ReportRefusal::NotInGame));
                        }
                    }
                    sqlx::query(
                        "INSERT INTO reports (id, reporter_id, target_id, reason, text, game_id, \
                         status, created_at, message_id) VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8)",
                    )
                    .bind(report.id)
                    .bind(report.reporter_id)
                    .bind(report.target_id)
                    .bind(report.reason.as_str())
                    .bind(report.text)
                    .bind(report.game)
                    .bind(report.now)
                    .bind(report.message)
                    .execute(&mut *tx)
                    .await?;
                    commit(tx).await?;
                    Ok(Ok(()))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The reports with `status` (`None`: all, open ones first) and `reason` (`None`: any),
    /// newest first, at most `limit` after skipping `offset`.
    pub async fn reports(
        &self,
        status: Option<ReportStatus>,
        reason: Option<ReportReason>,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<ReportRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(&format!(
                        "SELECT {REPORT_COLUMNS} WHERE ($1 = '' OR r.status = $1) \
                         AND ($2 = '' OR r.reason = $2) \
                         ORDER BY CASE WHEN r.status = 'open' THEN 0 ELSE 1 END, \
                         r.created_at DESC, r.id LIMIT $3 OFFSET $4"
                    ))
                    .bind(status.map(|s| s.as_str()).unwrap_or(""))
                    .bind(reason.map(|r| r.as_str()).unwrap_or(""))
                    .bind(limit)
                    .bind(offset)
                    .fetch_all(conn.raw())
                    .await?;
                    rows.iter().map(|r| Ok(report_of(r)?)).collect()
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// How many reports of account `target_id` (its id) are open.
    pub async fn open_reports_of(&self, target_id: &str) -> Result<i64, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT COUNT(*) AS n FROM reports WHERE target_id = $1 AND status = 'open'",
                    )
                    .bind(target_id)
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

    /// Closes open report `id` by moderator `moderator_id`; the report as it was, or `None`
    /// when there is no open report `id`.
    pub async fn close_report(
        &self,
        id: &str,
        moderator_id: &str,
        now: i64,
    ) -> Result<Option<ReportRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let row = sqlx::query(&format!(
                        "SELECT {REPORT_COLUMNS} WHERE r.id = $1 AND r.status = 'open'"
                    ))
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?;
                    let Some(row) = row else { return Ok(None) };
                    let closed = sqlx::query(
                        "UPDATE reports SET status = 'closed', closed_at = $2, closed_by = $3 \
                         WHERE id = $1 AND status = 'open'",
                    )
                    .bind(id)
                    .bind(now)
                    .bind(moderator_id)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                    if closed != 1 {
                        return Ok(None);
                    }
                    commit(tx).await?;
                    Ok(Some(report_of(&row)?))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
