//! Follows, blocks and reports (site::social, issue 41; docs/api.md, "Social").

use axum::Json;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use site::social::blocks::{BlockedEntry, ChallengesSetting};
use site::social::follows::{FollowList, FollowingEntry, SocialView};
use site::social::reports::NewReport;
use site::social::search::PlayerSearch;
use site_model::error::SiteError;
use site_model::social::{ChallengesFrom, MAX_REPORT_TEXT, ReportReason};

use super::strict::{NoBody, query_fields};
use super::{ApiJson, AppState, PathText};
use crate::error::HttpError;
use crate::player::{LoggedIn, Player};

/// The body of `POST /api/reports` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportBody {
    /// The reported account's name.
    pub username: String,
    /// `cheating`, `abuse`, `boosting`, `sandbagging` or `other`.
    pub reason: String,
    /// The reporter's words (optional; at most 2000 characters).
    #[serde(default)]
    pub text: Option<String>,
    /// The game it is about (optional).
    #[serde(default)]
    pub game: Option<String>,
    /// The chat message it is about (optional): its id, as chat sent it.
    #[serde(default)]
    pub message: Option<String>,
}

impl TryFrom<ReportBody> for NewReport {
    type Error = SiteError;

    fn try_from(b: ReportBody) -> Result<Self, SiteError> {
        let reason = ReportReason::parse(&b.reason).ok_or_else(|| {
            SiteError::bad_request(format!(
                "reason: '{}' is not cheating, abuse, boosting, sandbagging or other",
                game::excerpt(&b.reason)
            ))
        })?;
        let text = b.text.unwrap_or_default();
        if text.chars().count() > MAX_REPORT_TEXT {
            return Err(SiteError::new(
                site_model::error::ErrorCode::TooLarge,
                format!("text: at most {MAX_REPORT_TEXT} characters"),
            ));
        }
        Ok(NewReport {
            username: b.username,
            reason,
            text,
            game: b.game.filter(|g| !g.is_empty()),
            message: b.message,
        })
    }
}

/// `{"id"}` of a new report.
#[derive(Debug, Serialize)]
pub struct Created {
    id: String,
}

/// `POST /api/players/{username}/follow` -> 204.
pub async fn follow(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(name): PathText,
    _: NoBody,
) -> Result<StatusCode, HttpError> {
    svc.social.follow(a.as_ref(), &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/players/{username}/follow` -> 204.
pub async fn unfollow(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(name): PathText,
    _: NoBody,
) -> Result<StatusCode, HttpError> {
    svc.social.unfollow(a.as_ref(), &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/players/{username}/block` -> 204.
pub async fn block(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(name): PathText,
    _: NoBody,
) -> Result<StatusCode, HttpError> {
    svc.social.block(a.as_ref(), &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/players/{username}/block` -> 204.
pub async fn unblock(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(name): PathText,
    _: NoBody,
) -> Result<StatusCode, HttpError> {
    svc.social.unblock(a.as_ref(), &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/players/{username}/following` -> 200 [`FollowList`].
pub async fn following(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(name): PathText,
) -> Result<Json<FollowList>, HttpError> {
    Ok(Json(
        svc.social.follow_list(a.as_ref(), &name, false).await?,
    ))
}

/// `GET /api/players/{username}/followers` -> 200 [`FollowList`].
pub async fn followers(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(name): PathText,
) -> Result<Json<FollowList>, HttpError> {
    Ok(Json(svc.social.follow_list(a.as_ref(), &name, true).await?))
}

/// `GET /api/players/search?q=<prefix>` -> 200 [`PlayerSearch`]: 400 naming `q` when it is
/// missing, shorter than 2 characters, or not the start of a username, or naming any other
/// parameter.
pub async fn search_players(
    State(svc): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Json<PlayerSearch>, HttpError> {
    let q = query_fields(query.as_deref(), &["q"])?;
    let prefix = q
        .get("q")
        .ok_or_else(|| SiteError::bad_request("q: the start of a username is required"))?;
    Ok(Json(svc.social.search_players(prefix).await?))
}

/// `GET /api/players/{username}/social` -> 200 [`SocialView`].
pub async fn social(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(name): PathText,
) -> Result<Json<SocialView>, HttpError> {
    Ok(Json(svc.social.social_view(a.as_ref(), &name).await?))
}

/// `GET /api/me/following` -> 200 `[FollowingEntry]`.
pub async fn my_following(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
) -> Result<Json<Vec<FollowingEntry>>, HttpError> {
    Ok(Json(svc.social.my_following(a.as_ref()).await?))
}

/// The body of `POST /api/me/challenges-from` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengesBody {
    /// `everyone`, `following` or `nobody`.
    pub from: String,
}

/// `GET /api/me/challenges-from` -> 200 [`ChallengesSetting`].
pub async fn challenges_from(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
) -> Result<Json<ChallengesSetting>, HttpError> {
    Ok(Json(svc.social.challenges_from(a.as_ref()).await?))
}

/// `POST /api/me/challenges-from` -> 200 [`ChallengesSetting`]; 400 naming `from`.
pub async fn set_challenges_from(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    ApiJson(body): ApiJson<ChallengesBody>,
) -> Result<Json<ChallengesSetting>, HttpError> {
    let from = ChallengesFrom::parse(&body.from).ok_or_else(|| {
        SiteError::bad_request(format!(
            "from: '{}' is not everyone, following or nobody",
            game::excerpt(&body.from)
        ))
    })?;
    Ok(Json(
        svc.social.set_challenges_from(a.as_ref(), from).await?,
    ))
}

/// `GET /api/me/blocked` -> 200 `[BlockedEntry]`.
pub async fn my_blocked(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
) -> Result<Json<Vec<BlockedEntry>>, HttpError> {
    Ok(Json(svc.social.my_blocked(a.as_ref()).await?))
}

/// `POST /api/reports` -> 201 `{"id"}`.
pub async fn report(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    Player(token): Player,
    ApiJson(body): ApiJson<ReportBody>,
) -> Result<(StatusCode, Json<Created>), HttpError> {
    let req = NewReport::try_from(body)?;
    // A report of a chat message is checked by chat (the reporter saw it), then made.
    let id = svc
        .chat
        .report(&svc.social, a.as_ref(), &token, req)
        .await?;
    Ok((StatusCode::CREATED, Json(Created { id })))
}
