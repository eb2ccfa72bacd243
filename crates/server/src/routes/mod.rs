//! The HTTP routes (docs/api.md), one file per area: `games` (create, read, join, my games,
//! record), `play` (moves, resignation, draws, rematch), `ws` (live updates), `stats` (results and
//! worked examples), `pages` (the single page and its assets).

mod games;
mod pages;
mod play;
mod stats;
mod ws;

use std::sync::Arc;

use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Request};
use axum::http::StatusCode;
use axum::routing::{get, post};
use serde::de::DeserializeOwned;
use tower_http::trace::TraceLayer;

use crate::error::{ApiError, ErrorCode};
use crate::game_service::GameService;

/// Largest request body accepted (bytes).
pub const BODY_LIMIT: usize = 16 * 1024;

/// The shared state of every handler.
pub type AppState = Arc<GameService>;

/// `Json` whose rejections are API errors (`bad_request`, `too_large`).
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(ApiJson(v)),
            Err(rejection) => Err(json_error(rejection)),
        }
    }
}

fn json_error(rejection: JsonRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::new(
            ErrorCode::TooLarge,
            format!("request body over {BODY_LIMIT} bytes"),
        );
    }
    ApiError::bad_request(rejection.body_text())
}

/// The whole site: API, WebSocket and pages.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/games", post(games::create))
        .route("/games/{id}", get(games::get_game))
        .route("/games/{id}/moves", post(play::moves))
        .route("/games/{id}/resign", post(play::resign))
        .route("/games/{id}/draw", post(play::draw))
        .route("/games/{id}/rematch", post(play::rematch))
        .route("/games/{id}/abort", post(play::abort))
        .route("/games/{id}/takeback", post(play::takeback))
        .route("/games/{id}/record", get(games::record))
        .route("/games/{id}/ws", get(ws::upgrade))
        .route("/join/{invite}", post(games::join))
        .route("/my-games", get(games::my_games))
        .route("/stats", get(stats::stats))
        .route("/rules/examples", get(stats::examples))
        .fallback(pages::api_not_found)
        .method_not_allowed_fallback(pages::api_method_not_allowed);
    Router::new()
        .nest("/api", api)
        .fallback(pages::page)
        .layer(axum::middleware::from_fn(crate::player::middleware))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}
