//! Moderators (issue 41): the role (given by `icebound admin grant-mod`), the reports'
//! list and closing, the actions on accounts (mute, unmute, close, mark booster/cheater with
//! its rating refund) and the mod log. Every action writes its log line in its own
//! transaction. Anyone else gets 403 `not_moderator`.

use serde::Serialize;
use site_model::error::{ErrorCode, SiteError};
use site_model::social::{
    MAX_MOD_REASON, ModAction, ModMark, REFUND_WINDOW_MS, REPORTS_PER_PAGE, ReportReason,
    ReportStatus, forbidden_char,
};
use site_store::{ModChange, ModLogEntry, ModLogRow, ModState, Store, now_ms};

use super::reports::{AROUND_EACH, AroundLineView, ReportView, StandingView};
use super::{Social, need_account};
use crate::accounts::Account;
use crate::play::random_token;

/// Longest mute, minutes (30 days).
pub const MAX_MUTE_MINUTES: i64 = 30 * 24 * 60;

/// A moderator's order on an account (`POST /api/mod/players/{username}/{action}`; site-http
/// reads the path and body into it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModOrder {
    /// No chat for this many minutes (1 to [`MAX_MUTE_MINUTES`]).
    Mute(i64),
    /// Chat again.
    Unmute,
    /// No more log-ins or play; its games in play end (lost by leaving, or aborted before
    /// the second move).
    Close,
    /// Booster or cheater; refunds the opponents' losses of the last 3 days.
    Mark(ModMark),
    /// Opens a closed account again.
    Reopen,
    /// Takes the mark off (the refunds stay).
    Unmark,
}

/// `POST /api/mod/players/{username}/{action}`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModResult {
    /// The account's name.
    pub username: String,
    /// What was done.
    pub action: ModAction,
    /// The account's state after it.
    pub muted_until: Option<i64>,
    /// Closed then.
    pub closed_at: Option<i64>,
    /// Its mark.
    pub mark: Option<ModMark>,
    /// The refunds a mark made: `[{"game", "username", "points"}]` (empty when the games
    /// were refunded before).
    pub refunds: Vec<RefundView>,
}

/// One refund.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RefundView {
    /// The game.
    pub game: String,
    /// The opponent given points back.
    pub username: String,
    /// Points.
    pub points: i64,
}

/// One line of `GET /api/mod/log`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModLogView {
    /// The moderator (`cli` for the command line).
    pub moderator: String,
    /// What was done.
    pub action: ModAction,
    /// The account's name, or the report's id.
    pub target: String,
    /// The reason and details.
    pub details: String,
    /// Unix ms.
    pub at: i64,
}

impl From<ModLogRow> for ModLogView {
    fn from(r: ModLogRow) -> Self {
        ModLogView {
            moderator: r.moderator,
            action: r.action,
            target: r.target,
            details: r.details,
            at: r.at,
        }
    }
}

/// `GET /api/me/moderation`'s answer: the page's moderator link, and the mute that chat
/// obeys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MyModeration {
    /// The account holds the moderator role.
    pub moderator: bool,
    /// The account is muted now (no chat).
    pub is_muted: bool,
    /// Until when, Unix ms.
    pub muted_until: Option<i64>,
}

/// Whether an account is muted now (chat reads it).
pub fn is_muted(state: &ModState, now: i64) -> bool {
    state.muted_until.is_some_and(|u| u > now)
}

/// The reason of a moderator's action, trimmed: 400 when empty or with a control or direction
/// character, 413 past [`MAX_MOD_REASON`] characters.
pub(crate) fn check_reason(reason: &str) -> Result<&str, SiteError> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(SiteError::bad_request(
            "reason: say why (it goes to the mod log)",
        ));
    }
    if let Some(c) = forbidden_char(reason) {
        return Err(SiteError::bad_request(format!(
            "reason: control and direction characters are not allowed (found U+{:04X})",
            c as u32
        )));
    }
    if reason.chars().count() > MAX_MOD_REASON {
        return Err(SiteError::new(
            ErrorCode::TooLarge,
            format!("reason: at most {MAX_MOD_REASON} characters"),
        ));
    }
    Ok(reason)
}

/// Gives (`on`) or takes back the moderator role of `username`, logged as done by `cli`
/// (the command line); false when there is no such account.
pub async fn set_moderator(store: &Store, username: &str, on: bool) -> Result<bool, SiteError> {
    let id = random_token(12);
    let action = if on {
        ModAction::GrantMod
    } else {
        ModAction::RevokeMod
    };
    Ok(store
        .set_moderator(
            username,
            on,
            &ModLogEntry {
                id: &id,
                moderator: "cli",
                action,
                target: username,
                details: "from the command line",
                at: now_ms(),
            },
        )
        .await?)
}

impl Social {
    /// The asking account if it is a moderator: 401 without an account, 403 `not_moderator`.
    pub async fn moderator(&self, me: Option<&Account>) -> Result<ModState, SiteError> {
        let me = need_account(me, "moderation")?;
        match self.store.mod_state_of(&me.id).await? {
            Some(s) if s.moderator && s.closed_at.is_none() => Ok(s),
            _ => Err(SiteError::new(
                ErrorCode::NotModerator,
                "only moderators may do this",
            )),
        }
    }

    /// Whether the asking account is a moderator (the page's menu).
    pub async fn is_moderator(&self, me: Option<&Account>) -> Result<bool, SiteError> {
        Ok(match me {
            Some(_) => self.moderator(me).await.is_ok(),
            None => false,
        })
    }

    /// `GET /api/mod/reports?status=open|closed|all&reason=&page=`: `status` `None` is all,
    /// open ones first; each group newest first; [`REPORTS_PER_PAGE`] a page (`page` from 1).
    pub async fn mod_reports(
        &self,
        me: Option<&Account>,
        status: Option<ReportStatus>,
        reason: Option<ReportReason>,
        page: i64,
    ) -> Result<Vec<ReportView>, SiteError> {
        self.moderator(me).await?;
        let rows = self
            .store
            .reports(
                status,
                reason,
                REPORTS_PER_PAGE,
                (page - 1) * REPORTS_PER_PAGE,
            )
            .await?;
        // Each reported account's standing once per page, however many reports name it.
        let now = now_ms();
        let mut standings: std::collections::HashMap<String, Option<StandingView>> =
            std::collections::HashMap::new();
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            if !standings.contains_key(&row.target) {
                let standing = match self.store.mod_state(&row.target).await? {
                    Some(s) => Some(StandingView {
                        muted_until: s.muted_until.filter(|&until| until > now),
                        mark: s.mark,
                        closed_at: s.closed_at,
                        open_reports: self.store.open_reports_of(&s.id).await?,
                    }),
                    None => None,
                };
                standings.insert(row.target.clone(), standing);
            }
            let standing = standings.get(&row.target).cloned().flatten();
            let mut view = ReportView::from(row);
            view.standing = standing;
            if let Some(message) = view.message.as_mut() {
                let rows = self.store.chat_around(&message.id, AROUND_EACH).await?;
                let id = message.id.clone();
                message.around = Some(
                    rows.into_iter()
                        .map(|r| AroundLineView::of(r, &id))
                        .collect(),
                );
            }
            out.push(view);
        }
        Ok(out)
    }

    /// `POST /api/mod/reports/{id}/close`: 200 with the report closed; 404 unless open.
    pub async fn close_report(
        &self,
        me: Option<&Account>,
        id: &str,
    ) -> Result<ReportView, SiteError> {
        let moderator = self.moderator(me).await?;
        let now = now_ms();
        let valid = (1..=32).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric());
        let closed = match valid {
            true => self.store.close_report(id, &moderator.id, now).await?,
            false => None,
        };
        let Some(mut report) = closed else {
            return Err(SiteError::new(
                ErrorCode::NotFound,
                format!("no open report has the id '{}'", game::excerpt(id)),
            ));
        };
        self.store
            .mod_log_line(&ModLogEntry {
                id: &random_token(12),
                moderator: &moderator.username,
                action: ModAction::CloseReport,
                target: &report.id,
                details: &format!("{} report of {}", report.reason, report.target),
                at: now,
            })
            .await?;
        report.status = ReportStatus::Closed;
        report.closed_at = Some(now);
        report.closed_by = Some(moderator.username);
        Ok(report.into())
    }

    /// `POST /api/mod/players/{username}/{action}`: applies `order` with `reason` and logs
    /// it. 403 `not_moderator`, 404 for an unknown player, 400 without a reason.
    pub async fn moderate(
        &self,
        me: Option<&Account>,
        username: &str,
        order: ModOrder,
        reason: &str,
    ) -> Result<ModResult, SiteError> {
        let moderator = self.moderator(me).await?;
        let reason = check_reason(reason)?;
        if !crate::accounts::valid_username(username) {
            return Err(SiteError::bad_request(
                "username: a username is 3 to 20 letters (A-Z, a-z), digits, '_' or '-'",
            ));
        }
        // A closed account may still be marked (its refunds are owed).
        let target = self.store.mod_state(username).await?.ok_or_else(|| {
            SiteError::new(
                ErrorCode::NotFound,
                format!("no player is named '{username}'"),
            )
        })?;
        // A moderator cannot lock out a moderator (a rogue or mistaken one could close them
        // all): the role is taken back first, from the command line (`revoke-mod`).
        if order == ModOrder::Close && target.moderator {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                format!(
                    "{} is a moderator: take the role back first (icebound admin revoke-mod)",
                    target.username
                ),
            ));
        }
        let now = now_ms();
        let (change, action, details) = match order {
            ModOrder::Mute(minutes) => (
                ModChange::Mute(Some(now + minutes * 60_000)),
                ModAction::Mute,
                format!("{minutes} minutes: {reason}"),
            ),
            ModOrder::Unmute => (ModChange::Mute(None), ModAction::Unmute, reason.to_string()),
            ModOrder::Close => (ModChange::Close, ModAction::Close, reason.to_string()),
            ModOrder::Reopen => (ModChange::Reopen, ModAction::Reopen, reason.to_string()),
            ModOrder::Unmark => (
                ModChange::Unmark,
                ModAction::Unmark,
                match target.mark {
                    Some(m) => format!("was {m}: {reason}"),
                    None => format!("was not marked: {reason}"),
                },
            ),
            ModOrder::Mark(mark) => (
                ModChange::Mark(mark, now - REFUND_WINDOW_MS),
                ModAction::Mark,
                format!("{mark}: {reason}"),
            ),
        };
        let hash = self
            .store
            .profile_account(&target.username)
            .await?
            .and_then(|p| p.player_hash)
            .map(|h| h.as_str().to_string());
        let refunds = self
            .store
            .moderate(
                &target,
                hash.as_deref(),
                change,
                &ModLogEntry {
                    id: &random_token(12),
                    moderator: &moderator.username,
                    action,
                    target: &target.username,
                    details: &details,
                    at: now,
                },
            )
            .await?;
        if order == ModOrder::Close {
            self.lobby.touch();
            // Its games in play end now: the closed side leaves them (issue 41).
            if let Some(hash) = &hash {
                let ended = self.lobby.play().end_games_of_closed(hash).await?;
                tracing::info!(target = %target.username, ended, "closed account's games ended");
            }
            // Its events that have not started are called off: their names are its words too
            // (hostile finding 2).
            let canceled = self
                .store
                .cancel_created_tournaments_of(&target.id, now)
                .await?;
            tracing::info!(target = %target.username, canceled, "closed account's events canceled");
        }
        tracing::info!(moderator = %moderator.username, target = %target.username, %action, "moderator action");
        let after = self.store.mod_state_of(&target.id).await?.unwrap_or(target);
        Ok(ModResult {
            username: after.username,
            action,
            muted_until: after.muted_until,
            closed_at: after.closed_at,
            mark: after.mark,
            refunds: refunds
                .into_iter()
                .map(|r| RefundView {
                    game: r.game_id,
                    username: r.username,
                    points: r.points,
                })
                .collect(),
        })
    }

    /// `GET /api/me/moderation` (all false when anonymous).
    pub async fn my_moderation(&self, me: Option<&Account>) -> Result<MyModeration, SiteError> {
        let state = match me {
            Some(a) => self.store.mod_state_of(&a.id).await?,
            None => None,
        };
        let now = now_ms();
        Ok(MyModeration {
            moderator: state.as_ref().is_some_and(|s| s.moderator),
            is_muted: state.as_ref().is_some_and(|s| is_muted(s, now)),
            muted_until: state.and_then(|s| s.muted_until),
        })
    }

    /// The id of the account named `username`, if any (closed or not).
    pub async fn account_id(&self, username: &str) -> Result<Option<String>, SiteError> {
        Ok(self.store.mod_state(username).await?.map(|s| s.id))
    }

    /// `GET /api/mod/log`: newest first, at most 200 lines.
    pub async fn mod_log(&self, me: Option<&Account>) -> Result<Vec<ModLogView>, SiteError> {
        self.moderator(me).await?;
        Ok(self
            .store
            .mod_log(200)
            .await?
            .into_iter()
            .map(ModLogView::from)
            .collect())
    }
}
