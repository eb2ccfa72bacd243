//! Profiles, leaderboards and the rated games' statistics (crate::players; docs/api.md,
//! "Players and ratings").

use std::collections::{BTreeMap, HashMap};

use axum::Json;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};

use super::AppState;
use crate::error::ApiError;
use crate::players::{self, HistoryPoint, LeaderboardView, PlayerGamesView, PlayerView};

type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

/// The query's parameters; 400 in the API's JSON when it is no text.
fn params(q: Params) -> Result<HashMap<String, String>, ApiError> {
    q.map(|Query(q)| q)
        .map_err(|_| ApiError::bad_request("the query string is not valid text"))
}

/// The path's name or game; a path that is no text (bad percent-encoding) names nothing:
/// 404 as any unknown name, in the API's JSON.
fn named(path: Result<Path<String>, PathRejection>) -> Result<String, ApiError> {
    path.map(|Path(p)| p).map_err(|_| {
        ApiError::new(
            crate::error::ErrorCode::NotFound,
            "no such player or game: the path is not valid text",
        )
    })
}

/// `GET /api/players/{username}`.
pub async fn player(
    State(svc): State<AppState>,
    name: Result<Path<String>, PathRejection>,
) -> Result<Json<PlayerView>, ApiError> {
    Ok(Json(players::player(svc.store(), &named(name)?).await?))
}

/// `GET /api/players/{username}/history`.
pub async fn history(
    State(svc): State<AppState>,
    name: Result<Path<String>, PathRejection>,
) -> Result<Json<BTreeMap<&'static str, BTreeMap<&'static str, Vec<HistoryPoint>>>>, ApiError> {
    Ok(Json(players::history(svc.store(), &named(name)?).await?))
}

/// `GET /api/players/{username}/games?variant=&page=`.
pub async fn games(
    State(svc): State<AppState>,
    name: Result<Path<String>, PathRejection>,
    q: Params,
) -> Result<Json<PlayerGamesView>, ApiError> {
    let q = params(q)?;
    let variant = q.get("variant").map(String::as_str);
    let page = q.get("page").map(String::as_str);
    Ok(Json(
        players::games(svc.store(), &named(name)?, variant, page).await?,
    ))
}

/// `GET /api/leaderboard/{variant}`.
pub async fn leaderboard(
    State(svc): State<AppState>,
    variant: Result<Path<String>, PathRejection>,
) -> Result<Json<LeaderboardView>, ApiError> {
    Ok(Json(
        players::leaderboard(svc.store(), &named(variant)?).await?,
    ))
}

/// `GET /api/stats/rated?min=&max=`.
pub async fn rated_stats(
    State(svc): State<AppState>,
    q: Params,
) -> Result<Json<serde_json::Value>, ApiError> {
    let q = params(q)?;
    let min = q.get("min").map(String::as_str);
    let max = q.get("max").map(String::as_str);
    Ok(Json(players::rated_stats(svc.store(), min, max).await?))
}
