//! `POST /api/analysis`: the engine's evaluation of a position (crate::analysis).

use axum::Json;
use axum::extract::State;

use super::{ApiJson, AppState};
use crate::analysis::{self, AnalysisRequest, AnalysisView};
use crate::error::ApiError;
use crate::player::Player;

/// `POST /api/analysis` -> 200 with the search's depth, score, principal variation, best move
/// and nodes.
pub async fn analyse(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<AnalysisRequest>,
) -> Result<Json<AnalysisView>, ApiError> {
    Ok(Json(analysis::analyse(&svc, &token, &body).await?))
}
