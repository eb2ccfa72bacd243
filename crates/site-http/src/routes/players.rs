//! Profiles, leaderboards and the rated games' statistics (site::players; docs/api.md,
//! "Players and ratings").

use crate::error::HttpError;
use std::collections::{BTreeMap, HashMap};

use axum::Json;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};

use super::AppState;
use site::players::{HistoryPoint, LeaderboardView, PlayerGamesView, PlayerView};
use site_model::error::SiteError;

type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

/// The query's parameters; 400 in the API's JSON when it is no text.
fn params(q: Params) -> Result<HashMap<String, String>, HttpError> {
    q.map(|Query(q)| q)
        .map_err(|_| HttpError::from(SiteError::bad_request("the query string is not valid text")))
}

/// The path's name or game; a path that is no text (bad percent-encoding) names nothing:
/// 404 as any unknown name, in the API's JSON.
fn named(path: Result<Path<String>, PathRejection>) -> Result<String, HttpError> {
    path.map(|Path(p)| p).map_err(|_| {
        HttpError::from(SiteError::new(
            site_model::error::ErrorCode::NotFound,
            "no such player or game: the path is not valid text",
        ))
    })
}

/// `GET /api/players/{username}`.
pub async fn player(
    State(svc): State<AppState>,
    name: Result<Path<String>, PathRejection>,
) -> Result<Json<PlayerView>, HttpError> {
    Ok(Json(svc.players.player(&named(name)?).await?))
}

/// `GET /api/players/{username}/history`.
pub async fn history(
    State(svc): State<AppState>,
    name: Result<Path<String>, PathRejection>,
) -> Result<Json<BTreeMap<&'static str, BTreeMap<&'static str, Vec<HistoryPoint>>>>, HttpError> {
    Ok(Json(svc.players.history(&named(name)?).await?))
}

/// `GET /api/players/{username}/games?variant=&page=`.
pub async fn games(
    State(svc): State<AppState>,
    name: Result<Path<String>, PathRejection>,
    q: Params,
) -> Result<Json<PlayerGamesView>, HttpError> {
    let q = params(q)?;
    let variant = q.get("variant").map(String::as_str);
    let page = q.get("page").map(String::as_str);
    Ok(Json(svc.players.games(&named(name)?, variant, page).await?))
}

/// `GET /api/leaderboard/{variant}`.
pub async fn leaderboard(
    State(svc): State<AppState>,
    variant: Result<Path<String>, PathRejection>,
) -> Result<Json<LeaderboardView>, HttpError> {
    Ok(Json(svc.players.leaderboard(&named(variant)?).await?))
}

/// `GET /api/stats/rated?min=&max=`.
pub async fn rated_stats(
    State(svc): State<AppState>,
    q: Params,
) -> Result<Json<serde_json::Value>, HttpError> {
    let q = params(q)?;
    let min = q.get("min").map(String::as_str);
    let max = q.get("max").map(String::as_str);
    Ok(Json(svc.players.rated_stats(min, max).await?))
}
