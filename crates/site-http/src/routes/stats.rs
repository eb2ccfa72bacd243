//! Statistics of finished games, and the worked examples of the rules pages.

use crate::error::HttpError;
use axum::Json;
use axum::extract::State;
use serde::Serialize;

use super::AppState;

/// `GET /api/stats`.
pub async fn stats(State(svc): State<AppState>) -> Result<Json<serde_json::Value>, HttpError> {
    Ok(Json(svc.play.stats().await?))
}

/// One worked example of a rules page.
#[derive(Debug, Clone, Serialize)]
pub struct Example {
    /// `Variant::NAME`.
    pub variant: &'static str,
    /// The seed's words.
    pub title: &'static str,
    /// Start position text.
    pub fen: &'static str,
    /// The whole line, in canonical text.
    pub moves: &'static [&'static str],
    /// The result after the line.
    pub result: &'static str,
}

/// The seed's three Antarctos examples, as antarctos.md sets them.
pub const EXAMPLES: &[Example] = &[
    Example {
        variant: "antarctos",
        title: "Black begins and wins",
        fen: "B:Wa5,d2,d4:Ba7,c7",
        moves: &["c7-b6", "a5xc7", "a7xc5xe3xc1"],
        result: "0-1",
    },
    Example {
        variant: "antarctos",
        title: "White begins and wins",
        fen: "W:Wb4,e3,f2:Bc7,d6:Ic3",
        moves: &["b4-c5", "d6xb4xd2xf4", "f2xd4xb6xd8"],
        result: "1-0",
    },
    Example {
        variant: "antarctos",
        title: "White begins and wins",
        fen: "W:Wb2,c1,h2:Ba3,c5:Ie5,e7,g3",
        moves: &["h2xf4xd6xb4"],
        result: "1-0",
    },
];

/// `GET /api/rules/examples`.
pub async fn examples() -> Json<&'static [Example]> {
    Json(EXAMPLES)
}
