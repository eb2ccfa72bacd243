//! API errors: a code, an HTTP status and a message, sent as
//! `{"error": {"code": "...", "message": "..."}}` (docs/api.md, "Errors").

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::store::StoreError;

/// The error codes of the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// 400: malformed request.
    BadRequest,
    /// 403: the caller holds no seat of the game.
    NotAPlayer,
    /// 404: unknown game, invitation or path.
    NotFound,
    /// 409: the other side is to move.
    NotYourTurn,
    /// 409: the game is over (or, for a rematch, not over yet).
    GameOver,
    /// 409: the game changed meanwhile, the seat is taken, nothing to answer.
    Conflict,
    /// 409: a friend game's open seat is not taken yet: nothing but cancelling is possible.
    WaitingForOpponent,
    /// 413: body, field or message too large.
    TooLarge,
    /// 422: no legal move matches.
    IllegalMove,
    /// 422: several legal moves match.
    AmbiguousMove,
    /// 503: too many connections.
    TooMany,
    /// 500: storage failure.
    Internal,
}

impl ErrorCode {
    /// The HTTP status of the code.
    pub fn status(self) -> StatusCode {
        match self {
            ErrorCode::BadRequest => StatusCode::BAD_REQUEST,
            ErrorCode::NotAPlayer => StatusCode::FORBIDDEN,
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::NotYourTurn
            | ErrorCode::GameOver
            | ErrorCode::Conflict
            | ErrorCode::WaitingForOpponent => StatusCode::CONFLICT,
            ErrorCode::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::IllegalMove | ErrorCode::AmbiguousMove => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::TooMany => StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// An error answered to a client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct ApiError {
    /// Machine-readable code.
    pub code: ErrorCode,
    /// What is wrong, in words.
    pub message: String,
}

impl ApiError {
    /// An error with `code` and `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError {
            code,
            message: message.into(),
        }
    }

    /// 400 `bad_request`.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadRequest, message)
    }

    /// 404 `not_found` for game `id`.
    pub fn no_game(id: &str) -> Self {
        Self::new(
            ErrorCode::NotFound,
            format!("no game with id '{}'", game::excerpt(id)),
        )
    }

    /// The JSON body `{"error": {...}}`.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!({ "error": self })
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Stale { .. } => ApiError::new(
                ErrorCode::Conflict,
                "the game changed meanwhile; reload it and try again",
            ),
            other => {
                tracing::error!(error = %other, "storage failure");
                ApiError::new(ErrorCode::Internal, "storage failure; nothing was changed")
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.code.status(), Json(self.body())).into_response()
    }
}
