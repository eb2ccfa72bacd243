//! Conditional premoves of a correspondence game (site::play::conditional, issue 38): the
//! caller's own line, set, read or cancelled.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use site::play::conditional::ConditionalView;

use super::{ApiJson, AppState, PathText};
use crate::error::HttpError;
use crate::player::Player;

/// The body of `PUT /api/games/{id}/conditional`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineBody {
    /// The opponent's move, your reply, and so on, as move texts in any accepted form.
    pub moves: Vec<String>,
}

/// `PUT /api/games/{id}/conditional` -> 200 the line as stored.
pub async fn set(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
    ApiJson(body): ApiJson<LineBody>,
) -> Result<Json<ConditionalView>, HttpError> {
    Ok(Json(
        svc.play.set_conditional(&id, &token, &body.moves).await?,
    ))
}

/// `GET /api/games/{id}/conditional` -> 200 the caller's line or `null`.
pub async fn get(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<Json<Option<ConditionalView>>, HttpError> {
    Ok(Json(svc.play.conditional(&id, &token).await?))
}

/// `DELETE /api/games/{id}/conditional` -> 204.
pub async fn cancel(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<StatusCode, HttpError> {
    svc.play.cancel_conditional(&id, &token).await?;
    Ok(StatusCode::NO_CONTENT)
}
