//! Reports: `POST /api/reports` by an account, limited per reporter (at most
//! [`MAX_OPEN_REPORTS`] open, one open per target and reason, text at most
//! [`MAX_REPORT_TEXT`] characters).

use serde::Serialize;
use site_model::error::{ErrorCode, SiteError};
use site_model::social::{
    MAX_OPEN_REPORTS, MAX_REPORT_TEXT, ModMark, REPORTER_MIN_AGE_MS, ReportReason, ReportStatus,
    forbidden_char,
};
use site_store::{NewReport as StoredReport, ReportRefusal, ReportRow, now_ms};

use super::{Social, need_account, not_yourself};
use crate::accounts::Account;
use crate::play::random_token;

/// A report to make (`POST /api/reports`; site-http reads the body into it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewReport {
    /// The reported account's name, as sent (checked here).
    pub username: String,
    /// Why.
    pub reason: ReportReason,
    /// The reporter's words, at most [`MAX_REPORT_TEXT`] characters (checked by the edge).
    pub text: String,
    /// The game it is about, if any (an id of letters and digits).
    pub game: Option<String>,
    /// The chat message it is about, if any: checked by `crate::chat::Chat::report` (stored,
    /// seen by the reporter, written by the reported player), which makes such reports.
    pub message: Option<String>,
}

/// A report as its reporter and the moderators see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportView {
    /// Its id.
    pub id: String,
    /// The reporter's name.
    pub reporter: String,
    /// The reported player's name.
    pub username: String,
    /// Why.
    pub reason: ReportReason,
    /// The reporter's words.
    pub text: String,
    /// The game, if named.
    pub game: Option<String>,
    /// `open` or `closed`.
    pub status: ReportStatus,
    /// Unix ms.
    pub created_at: i64,
    /// When a moderator closed it.
    pub closed_at: Option<i64>,
    /// Who closed it.
    pub closed_by: Option<String>,
    /// The chat message it is about, if named.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<ReportedMessageView>,
    /// The moderators' list only: what is in force on the reported account now (browser
    /// finding 14: only the log told that a player was already muted or marked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standing: Option<StandingView>,
}

/// What is in force on a reported account as a moderator reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StandingView {
    /// Muted until then (Unix ms); `null`: not muted now.
    pub muted_until: Option<i64>,
    /// Its mark, `booster` or `cheater`; `null`: none.
    pub mark: Option<ModMark>,
    /// Closed then (Unix ms); `null`: open.
    pub closed_at: Option<i64>,
    /// Its reports still open, this one included.
    pub open_reports: i64,
}

/// The chat message of a report as the moderators read it: show the text as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportedMessageView {
    /// The message's id.
    pub id: String,
    /// Its room's key (`game:<id>:players`, `game:<id>:watchers`, `tournament:<id>`, `lobby`).
    pub room: String,
    /// Its free text.
    pub text: Option<String>,
    /// Its canned phrase's code.
    pub phrase: Option<String>,
    /// The moderators' list only: the room's messages around it, oldest first, up to
    /// [`AROUND_EACH`] before and after, the reported one included (browser finding 14).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub around: Option<Vec<AroundLineView>>,
}

/// How many messages before and after a reported one the moderators read.
pub const AROUND_EACH: i64 = 5;

/// One message around a reported one, as the moderators read it: removed ones too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AroundLineView {
    /// The message's id.
    pub id: String,
    /// The author's account name when sent; `null` for an anonymous player.
    pub author: Option<String>,
    /// Its free text: show it as text.
    pub text: Option<String>,
    /// Its canned phrase's code.
    pub phrase: Option<String>,
    /// When it was sent, Unix ms.
    pub at: i64,
    /// Whether a moderator removed it.
    pub removed: bool,
    /// Whether it is the reported message.
    pub reported: bool,
}

impl AroundLineView {
    /// The line of `row`, `reported` when its id is `reported_id`.
    pub fn of(row: site_store::ChatRow, reported_id: &str) -> Self {
        AroundLineView {
            reported: row.id == reported_id,
            id: row.id,
            author: row.author_name,
            text: row.text,
            phrase: row.phrase,
            at: row.created_at,
            removed: row.removed_at.is_some(),
        }
    }
}

impl From<ReportRow> for ReportView {
    fn from(r: ReportRow) -> Self {
        ReportView {
            id: r.id,
            reporter: r.reporter,
            username: r.target,
            reason: r.reason,
            text: r.text,
            game: r.game,
            status: r.status,
            created_at: r.created_at,
            closed_at: r.closed_at,
            closed_by: r.closed_by,
            message: r.message.map(|m| ReportedMessageView {
                id: m.id,
                room: m.room,
                text: m.text,
                phrase: m.phrase,
                around: None,
            }),
            standing: None,
        }
    }
}

/// Whether `id` may name a game (letters and digits, 1 to 32).
fn game_id_ok(id: &str) -> bool {
    (1..=32).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

impl Social {
    /// `POST /api/reports`: 201 with the report's id. 401 without an account, 404 for an
    /// unknown player, 400 for oneself, a text with control or direction characters, a bad
    /// game id, a game that does not exist or that the player did not play, 403
    /// `not_eligible` from an account under 10 minutes old without a finished game (a flood of
    /// new accounts cannot bury real reports), 413 for a text
    /// too long, 429
    /// `too_many_reports` past [`MAX_OPEN_REPORTS`] open or for a second open report of the
    /// same player for the same reason.
    pub async fn report(&self, me: Option<&Account>, req: NewReport) -> Result<String, SiteError> {
        let me = need_account(me, "a report")?;
        if req.text.chars().count() > MAX_REPORT_TEXT {
            return Err(SiteError::new(
                ErrorCode::TooLarge,
                format!("text: at most {MAX_REPORT_TEXT} characters"),
            ));
        }
        if let Some(c) = forbidden_char(&req.text) {
            return Err(SiteError::bad_request(format!(
                "text: control and direction characters are not allowed (found U+{:04X})",
                c as u32
            )));
        }
        if let Some(g) = &req.game
            && !game_id_ok(g)
        {
            return Err(SiteError::bad_request(
                "game: a game id is 1 to 32 letters and digits",
            ));
        }
        let target = self.target(&req.username, "username").await?;
        not_yourself(me, &target, "report")?;
        let id = random_token(12);
        let stored = StoredReport {
            id: &id,
            reporter_id: &me.id,
            target_id: &target.id,
            reason: req.reason,
            text: req.text.trim(),
            game: req.game.as_deref(),
            message: req.message.as_deref(),
            now: now_ms(),
            made_before: self.lobby.play().time().now_ms() - REPORTER_MIN_AGE_MS,
        };
        match self.store.insert_report(&stored, MAX_OPEN_REPORTS).await? {
            Ok(()) => {
                tracing::info!(report = %id, reason = %req.reason, "report made");
                Ok(id)
            }
            Err(ReportRefusal::Duplicate) => Err(SiteError::new(
                ErrorCode::TooManyReports,
                format!(
                    "you already reported {} for {}: a moderator will read it",
                    target.username, req.reason
                ),
            )),
            Err(ReportRefusal::TooNew) => Err(SiteError::new(
                ErrorCode::NotEligible,
                format!(
                    "a new account may report once it is {} minutes old or has finished a game",
                    REPORTER_MIN_AGE_MS / 60_000
                ),
            )),
            Err(ReportRefusal::NoGame) => Err(SiteError::bad_request(format!(
                "game: no game has the id '{}'",
                req.game.as_deref().unwrap_or_default()
            ))),
            Err(ReportRefusal::NotInGame) => Err(SiteError::bad_request(format!(
                "game: {} did not play in game '{}'",
                target.username,
                req.game.as_deref().unwrap_or_default()
            ))),
            Err(ReportRefusal::TooMany(n)) => Err(SiteError::new(
                ErrorCode::TooManyReports,
                format!(
                    "you have {n} open reports (the most allowed): wait for a moderator to \
                     read them"
                ),
            )),
        }
    }
}
