//! `GET /api/tv?variant=` (site::tv; docs/api.md, "Watch"): the game in progress most worth
//! watching.

use axum::Json;
use axum::extract::{RawQuery, State};

use super::AppState;
use super::strict::query_fields;
use crate::error::HttpError;
use site::tv::TvView;

/// `GET /api/tv?variant=`: 400 naming a parameter other than `variant`, a repeated one, one
/// that is not UTF-8 text, or an unknown game.
pub async fn tv(
    State(svc): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Json<TvView>, HttpError> {
    let q = query_fields(query.as_deref(), &["variant"])?;
    Ok(Json(
        svc.tv.current(q.get("variant").map(String::as_str)).await?,
    ))
}
