//! `POST /api/import` and `GET /api/imports/{id}`: games imported into the analysis board
//! (site::import); `POST`/`GET /api/games/{id}/review` and `/api/imports/{id}/review`: the
//! computer analysis of a whole game (site::review).

use crate::error::HttpError;
use axum::Json;
use axum::extract::State;

use super::{ApiJson, AppState, PathText};
use crate::player::Player;
use site::import::{self, ImportRequest, ImportView, ImportedGameView};
use site::review::{self, ReviewView, Subject};

/// `POST /api/import` -> 200 with the ids of the games stored and the errors of the others.
pub async fn import(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<ImportRequest>,
) -> Result<Json<ImportView>, HttpError> {
    Ok(Json(import::import(&svc.play, &token, &body).await?))
}

/// `GET /api/imports/{id}` -> 200 with the game as a move tree.
pub async fn imported(
    State(svc): State<AppState>,
    PathText(id): PathText,
) -> Result<Json<ImportedGameView>, HttpError> {
    Ok(Json(import::imported(&svc.play, &id).await?))
}

/// `POST /api/games/{id}/review` -> 200 with the review, started if new.
pub async fn request_game_review(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<Json<ReviewView>, HttpError> {
    Ok(Json(
        review::request(&svc.reviews, &token, &Subject::Game(id)).await?,
    ))
}

/// `GET /api/games/{id}/review` -> 200 with the review so far; 404 when none was asked for.
pub async fn game_review(
    State(svc): State<AppState>,
    PathText(id): PathText,
) -> Result<Json<ReviewView>, HttpError> {
    Ok(Json(
        review::review(&svc.reviews, &Subject::Game(id)).await?,
    ))
}

/// `POST /api/imports/{id}/review` -> as for a game.
pub async fn request_import_review(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<Json<ReviewView>, HttpError> {
    Ok(Json(
        review::request(&svc.reviews, &token, &Subject::Import(id)).await?,
    ))
}

/// `GET /api/imports/{id}/review` -> as for a game.
pub async fn import_review(
    State(svc): State<AppState>,
    PathText(id): PathText,
) -> Result<Json<ReviewView>, HttpError> {
    Ok(Json(
        review::review(&svc.reviews, &Subject::Import(id)).await?,
    ))
}
