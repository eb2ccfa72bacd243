//! Creating, reading and joining games; "my games"; the record download.

use crate::error::HttpError;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::IntoResponse;

use super::{ApiJson, AppState, PathText};
use crate::player::Player;
use site::play::NewGame;
use site::view::{GameSummary, GameView};

/// `POST /api/games` -> 201 GameView.
pub async fn create(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<super::input::NewGame>,
) -> Result<(StatusCode, Json<GameView>), HttpError> {
    let req = NewGame::try_from(body)?;
    let view = svc.play.create(&token, req).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `GET /api/games/{id}`.
pub async fn get_game(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<Json<GameView>, HttpError> {
    Ok(Json(svc.play.get(&id, &token).await?))
}

/// `POST /api/join/{invite}`.
pub async fn join(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(invite): PathText,
) -> Result<Json<GameView>, HttpError> {
    Ok(Json(svc.play.join(&invite, &token).await?))
}

/// `GET /api/my-games`.
pub async fn my_games(
    State(svc): State<AppState>,
    Player(token): Player,
) -> Result<Json<Vec<GameSummary>>, HttpError> {
    Ok(Json(svc.play.my_games(&token).await?))
}

/// `GET /api/games/{id}/record`: PDN or PGN as an attachment.
pub async fn record(
    State(svc): State<AppState>,
    PathText(id): PathText,
) -> Result<impl IntoResponse, HttpError> {
    let (name, text) = svc.play.record(&id).await?;
    Ok((
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        text,
    ))
}
