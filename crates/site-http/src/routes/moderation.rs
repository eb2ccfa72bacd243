//! Moderators' API (site::social::moderation, issue 41; docs/api.md, "Moderation"): reports,
//! actions on accounts, the mod log. 403 `not_moderator` for anyone else; the POSTs pass the
//! same-origin check and need the session, as every change does.

use std::collections::HashMap;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Extension, Path, Query, State};
use serde::Deserialize;
use site::chat::RemovedChat;
use site::social::moderation::{MAX_MUTE_MINUTES, ModLogView, ModOrder, ModResult, MyModeration};
use site::social::reports::ReportView;
use site_model::error::{ErrorCode, SiteError};
use site_model::social::{ModMark, ReportReason, ReportStatus};

use super::{ApiJson, AppState, PathText};
use crate::error::HttpError;
use crate::player::LoggedIn;
use crate::security::SecurityState;

/// The body of `POST /api/mod/players/{username}/{action}` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModBody {
    /// `mute`: for how long, minutes (1 to 43200).
    #[serde(default)]
    pub minutes: Option<i64>,
    /// `mark`: `booster` or `cheater`.
    #[serde(default)]
    pub mark: Option<String>,
    /// Why (for the mod log; required).
    pub reason: String,
}

/// The action named by the path and its body's fields, read once: 400 naming the field that
/// is missing, out of range or not for this action; 404 for an unknown action.
pub fn mod_order(action: &str, body: &ModBody) -> Result<ModOrder, SiteError> {
    let no = |field: &str| {
        SiteError::bad_request(format!("{field}: not a field of the action '{action}'"))
    };
    if action != "mute" && body.minutes.is_some() {
        return Err(no("minutes"));
    }
    if action != "mark" && body.mark.is_some() {
        return Err(no("mark"));
    }
    Ok(match action {
        "mute" => {
            let minutes = body
                .minutes
                .ok_or_else(|| SiteError::bad_request("minutes: how long the mute lasts"))?;
            if !(1..=MAX_MUTE_MINUTES).contains(&minutes) {
                return Err(SiteError::bad_request(format!(
                    "minutes: 1 to {MAX_MUTE_MINUTES}"
                )));
            }
            ModOrder::Mute(minutes)
        }
        "unmute" => ModOrder::Unmute,
        "close" => ModOrder::Close,
        "reopen" => ModOrder::Reopen,
        "unmark" => ModOrder::Unmark,
        "mark" => {
            let text = body
                .mark
                .as_deref()
                .ok_or_else(|| SiteError::bad_request("mark: booster or cheater"))?;
            ModOrder::Mark(ModMark::parse(text).ok_or_else(|| {
                SiteError::bad_request(format!(
                    "mark: '{}' is not booster or cheater",
                    game::excerpt(text)
                ))
            })?)
        }
        other => {
            return Err(SiteError::new(
                ErrorCode::NotFound,
                format!(
                    "no moderator action '{}' (mute, unmute, close, reopen, mark, unmark)",
                    game::excerpt(other)
                ),
            ));
        }
    })
}

/// `GET /api/me/moderation` -> 200 [`MyModeration`] (all false when anonymous).
pub async fn me(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
) -> Result<Json<MyModeration>, HttpError> {
    Ok(Json(svc.social.my_moderation(a.as_ref()).await?))
}

/// Most pages of `GET /api/mod/reports`.
const MAX_REPORT_PAGE: i64 = 1000;

/// `GET /api/mod/reports?status=open|closed|all&reason=&page=` (default open, any reason, page
/// 1; 50 a page; `all` lists open ones first) -> 200 `[ReportView]`. 400 naming a repeated,
/// unknown or bad parameter.
pub async fn reports(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    q: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Vec<ReportView>>, HttpError> {
    let pairs = q
        .map(|Query(q)| q)
        .map_err(|_| SiteError::bad_request("the query string is not valid text"))?;
    let mut q: HashMap<String, String> = HashMap::new();
    for (k, v) in pairs {
        if !matches!(k.as_str(), "status" | "reason" | "page") {
            return Err(SiteError::bad_request(format!(
                "unknown query parameter '{}' (known: status, reason, page)",
                game::excerpt(&k)
            ))
            .into());
        }
        if q.insert(k.clone(), v).is_some() {
            return Err(SiteError::bad_request(format!("{k}: given more than once")).into());
        }
    }
    let status = match q.get("status").map(String::as_str) {
        None => Some(ReportStatus::Open),
        Some("all") => None,
        Some(s) => Some(ReportStatus::parse(s).ok_or_else(|| {
            SiteError::bad_request(format!(
                "status: '{}' is not open, closed or all",
                game::excerpt(s)
            ))
        })?),
    };
    let reason = match q.get("reason") {
        None => None,
        Some(r) => Some(ReportReason::parse(r).ok_or_else(|| {
            SiteError::bad_request(format!(
                "reason: '{}' is not cheating, abuse, boosting, sandbagging or other",
                game::excerpt(r)
            ))
        })?),
    };
    let page = match q.get("page") {
        None => 1,
        Some(p) => p
            .parse::<i64>()
            .ok()
            .filter(|n| (1..=MAX_REPORT_PAGE).contains(n) && !p.starts_with('+'))
            .ok_or_else(|| {
                SiteError::bad_request(format!(
                    "page: '{}' is not a whole number from 1 to {MAX_REPORT_PAGE}",
                    game::excerpt(p)
                ))
            })?,
    };
    Ok(Json(
        svc.social
            .mod_reports(a.as_ref(), status, reason, page)
            .await?,
    ))
}

/// `POST /api/mod/reports/{id}/close` -> 200 [`ReportView`].
pub async fn close_report(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(id): PathText,
) -> Result<Json<ReportView>, HttpError> {
    Ok(Json(svc.social.close_report(a.as_ref(), &id).await?))
}

/// `POST /api/mod/players/{username}/{action}` -> 200 [`ModResult`].
pub async fn act(
    State(svc): State<AppState>,
    Extension(sec): Extension<SecurityState>,
    LoggedIn(a): LoggedIn,
    path: Result<Path<(String, String)>, axum::extract::rejection::PathRejection>,
    ApiJson(body): ApiJson<ModBody>,
) -> Result<Json<ModResult>, HttpError> {
    let Path((name, action)) = path.map_err(|_| {
        SiteError::new(
            ErrorCode::NotFound,
            "nothing here: the path is not valid text (bad percent-encoding)",
        )
    })?;
    // Moderator first: a non-moderator learns nothing of the actions' fields.
    svc.social.moderator(a.as_ref()).await?;
    let order = mod_order(&action, &body)?;
    let result = svc
        .social
        .moderate(a.as_ref(), &name, order.clone(), &body.reason)
        .await?;
    if order == ModOrder::Close
        && let (Some(sessions), Some(id)) = (&sec.sessions, svc.social.account_id(&name).await?)
    {
        // This process's cache of the account's sessions ends with them.
        sessions.forget_account(&id);
    }
    Ok(Json(result))
}

/// The body of `POST /api/mod/chat/{id}/remove` and `POST /api/mod/tournaments/{id}/rename`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReasonBody {
    /// Why (for the mod log; required).
    pub reason: String,
}

/// `POST /api/mod/chat/{id}/remove` `{"reason"}` -> 200 [`RemovedChat`]: the message leaves
/// every history and the open pages of its room; logged. 403 `not_moderator`, 404 for an
/// unknown or already removed message, 400 without a reason.
pub async fn remove_chat(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(id): PathText,
    ApiJson(body): ApiJson<ReasonBody>,
) -> Result<Json<RemovedChat>, HttpError> {
    let moderator = svc.social.moderator(a.as_ref()).await?;
    Ok(Json(
        svc.chat
            .remove(&moderator.username, &id, &body.reason)
            .await?,
    ))
}

/// `POST /api/mod/tournaments/{id}/rename`'s answer.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Renamed {
    /// The event's id.
    pub id: String,
    /// Its name now: the default one.
    pub name: String,
}

/// `POST /api/mod/tournaments/{id}/rename` `{"reason"}` -> 200 [`Renamed`]: the event gets
/// the default name of its kind, game and clock; logged. 403 `not_moderator`, 404 for an
/// unknown event, 400 without a reason.
pub async fn rename_tournament(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(id): PathText,
    ApiJson(body): ApiJson<ReasonBody>,
) -> Result<Json<Renamed>, HttpError> {
    let moderator = svc.social.moderator(a.as_ref()).await?;
    let name = svc
        .tournaments
        .rename_to_default(&moderator.username, &id, &body.reason)
        .await?;
    Ok(Json(Renamed { id, name }))
}

/// `GET /api/mod/log` -> 200 `[ModLogView]`.
pub async fn log(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
) -> Result<Json<Vec<ModLogView>>, HttpError> {
    Ok(Json(svc.social.mod_log(a.as_ref()).await?))
}
