//! The puzzle trainer's API (site::puzzles, issue 39; docs/api.md, "Puzzles"). Queries are
//! parsed here once into typed requests ([`NextQuery`] into [`NextRequest`]).

use std::collections::HashMap;

use axum::Json;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use site::puzzles::{
    AttemptRequest, AttemptView, DashboardView, MAX_EXCLUDE, NextRequest, PuzzleView,
    StreakRequest, StreakView, ThemeChoice, ThemesView,
};
use site_model::error::{ErrorCode, SiteError};
use site_model::state::GameKind;

use super::{ApiJson, AppState};
use crate::error::HttpError;
use crate::player::LoggedIn;

type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

/// The query's parameters, unknown ones refused (a misspelt `theme` must not pass as mix).
fn params(q: Params, known: &[&str]) -> Result<HashMap<String, String>, SiteError> {
    let q = q
        .map(|Query(q)| q)
        .map_err(|_| SiteError::bad_request("the query string is not valid text"))?;
    if let Some(k) = q.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(SiteError::bad_request(format!(
            "unknown query parameter '{}' (known: {})",
            game::excerpt(k),
            known.join(", ")
        )));
    }
    Ok(q)
}

fn variant(q: &HashMap<String, String>) -> Result<GameKind, SiteError> {
    let text = q
        .get("variant")
        .ok_or_else(|| SiteError::bad_request("variant: missing (antarctos or iceage)"))?;
    text.parse().map_err(|_| {
        SiteError::bad_request(format!(
            "variant: unknown game '{}' (antarctos or iceage)",
            game::excerpt(text)
        ))
    })
}

/// `GET /api/puzzles/next`'s query, as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextQuery(pub HashMap<String, String>);

impl TryFrom<NextQuery> for NextRequest {
    type Error = SiteError;

    /// `variant` (required), `theme` (`mix` when absent), `rating` (a number),
    /// `exclude` (comma-separated ids, at most [`MAX_EXCLUDE`]).
    fn try_from(NextQuery(q): NextQuery) -> Result<NextRequest, SiteError> {
        let variant = variant(&q)?;
        let theme = match q.get("theme") {
            None => ThemeChoice::Mix,
            Some(t) => t.parse()?,
        };
        let rating = match q.get("rating") {
            None => None,
            Some(r) => Some(
                r.parse::<f64>()
                    .ok()
                    .filter(|r| r.is_finite())
                    .ok_or_else(|| SiteError::bad_request("rating: not a number"))?,
            ),
        };
        let exclude = exclude(&q)?;
        Ok(NextRequest {
            variant,
            theme,
            rating,
            exclude,
        })
    }
}

/// `exclude`: comma-separated ids, at most [`MAX_EXCLUDE`].
fn exclude(q: &HashMap<String, String>) -> Result<Vec<String>, SiteError> {
    let exclude: Vec<String> = q
        .get("exclude")
        .map(|e| {
            e.split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if exclude.len() > MAX_EXCLUDE {
        return Err(SiteError::bad_request(format!(
            "exclude: at most {MAX_EXCLUDE} ids"
        )));
    }
    Ok(exclude)
}

/// `GET /api/puzzles/streak`'s query, before it is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreakQuery(pub HashMap<String, String>);

impl TryFrom<StreakQuery> for StreakRequest {
    type Error = SiteError;

    /// `variant` (required), `after` (a puzzle id), `exclude` (as `next`'s).
    fn try_from(StreakQuery(q): StreakQuery) -> Result<StreakRequest, SiteError> {
        Ok(StreakRequest {
            variant: variant(&q)?,
            after: q.get("after").filter(|a| !a.is_empty()).cloned(),
            exclude: exclude(&q)?,
        })
    }
}

fn id(path: Result<Path<String>, PathRejection>) -> Result<String, SiteError> {
    path.map(|Path(p)| p).map_err(|_| {
        SiteError::new(
            ErrorCode::NotFound,
            "no such puzzle: the path is not valid text",
        )
    })
}

/// `GET /api/puzzles/next?variant=V[&theme=T|mix][&rating=R][&exclude=a,b]` -> [`PuzzleView`].
pub async fn next(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
    q: Params,
) -> Result<Json<PuzzleView>, HttpError> {
    let q = params(q, &["variant", "theme", "rating", "exclude"])?;
    let req = NextRequest::try_from(NextQuery(q))?;
    Ok(Json(svc.puzzles.next(account.as_ref(), &req).await?))
}

/// `GET /api/puzzles/{id}` -> [`PuzzleView`]; 404 for an unknown id.
pub async fn get(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
    path: Result<Path<String>, PathRejection>,
) -> Result<Json<PuzzleView>, HttpError> {
    Ok(Json(svc.puzzles.get(account.as_ref(), &id(path)?).await?))
}

/// `GET /api/puzzles/daily?variant=V` -> [`PuzzleView`] with `date`.
pub async fn daily(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
    q: Params,
) -> Result<Json<PuzzleView>, HttpError> {
    let q = params(q, &["variant"])?;
    Ok(Json(
        svc.puzzles.daily(account.as_ref(), variant(&q)?).await?,
    ))
}

/// `GET /api/puzzles/streak?variant=V[&after=id][&exclude=a,b]` -> [`StreakView`].
pub async fn streak(State(svc): State<AppState>, q: Params) -> Result<Json<StreakView>, HttpError> {
    let q = params(q, &["variant", "after", "exclude"])?;
    let req = StreakRequest::try_from(StreakQuery(q))?;
    Ok(Json(svc.puzzles.streak(&req).await?))
}

/// `GET /api/puzzles/themes?variant=V` -> [`ThemesView`].
pub async fn themes(State(svc): State<AppState>, q: Params) -> Result<Json<ThemesView>, HttpError> {
    let q = params(q, &["variant"])?;
    Ok(Json(svc.puzzles.themes(variant(&q)?).await?))
}

/// `POST /api/puzzles/{id}/attempt` with [`AttemptRequest`] -> [`AttemptView`].
pub async fn attempt(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
    path: Result<Path<String>, PathRejection>,
    ApiJson(body): ApiJson<AttemptRequest>,
) -> Result<Json<AttemptView>, HttpError> {
    Ok(Json(
        svc.puzzles
            .attempt(account.as_ref(), &id(path)?, &body)
            .await?,
    ))
}

/// `GET /api/puzzles/dashboard` -> [`DashboardView`]; 401 `not_logged_in` without an account.
pub async fn dashboard(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
) -> Result<Json<DashboardView>, HttpError> {
    let account = account.ok_or_else(|| {
        SiteError::new(
            ErrorCode::NotLoggedIn,
            "log in first: the dashboard is an account's puzzle history",
        )
    })?;
    Ok(Json(svc.puzzles.dashboard(&account).await?))
}
