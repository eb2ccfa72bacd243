//! Profiles, leaderboards and the rated games' statistics (crate::players; docs/api.md,
//! "Players and ratings").

use std::collections::{BTreeMap, HashMap};

use axum::Json;
use axum::extract::{Path, Query, State};

use super::AppState;
use crate::error::ApiError;
use crate::players::{self, HistoryPoint, LeaderboardView, PlayerGamesView, PlayerView};

type Params = Query<HashMap<String, String>>;

/// `GET /api/players/{username}`.
pub async fn player(
    State(svc): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<PlayerView>, ApiError> {
    Ok(Json(players::player(svc.store(), &name).await?))
}

/// `GET /api/players/{username}/history`.
pub async fn history(
    State(svc): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<BTreeMap<&'static str, BTreeMap<&'static str, Vec<HistoryPoint>>>>, ApiError> {
    Ok(Json(players::history(svc.store(), &name).await?))
}

/// `GET /api/players/{username}/games?variant=&page=`.
pub async fn games(
    State(svc): State<AppState>,
    Path(name): Path<String>,
    Query(q): Params,
) -> Result<Json<PlayerGamesView>, ApiError> {
    let variant = q.get("variant").map(String::as_str);
    let page = q.get("page").map(String::as_str);
    Ok(Json(
        players::games(svc.store(), &name, variant, page).await?,
    ))
}

/// `GET /api/leaderboard/{variant}`.
pub async fn leaderboard(
    State(svc): State<AppState>,
    Path(variant): Path<String>,
) -> Result<Json<LeaderboardView>, ApiError> {
    Ok(Json(players::leaderboard(svc.store(), &variant).await?))
}

/// `GET /api/stats/rated?min=&max=`.
pub async fn rated_stats(
    State(svc): State<AppState>,
    Query(q): Params,
) -> Result<Json<serde_json::Value>, ApiError> {
    let min = q.get("min").map(String::as_str);
    let max = q.get("max").map(String::as_str);
    Ok(Json(players::rated_stats(svc.store(), min, max).await?))
}
