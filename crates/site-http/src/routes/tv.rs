//! `GET /api/tv?variant=` (site::tv; docs/api.md, "Watch"): the game in progress most worth
//! watching.

use std::collections::HashMap;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};

use super::AppState;
use crate::error::HttpError;
use site::tv::TvView;
use site_model::error::SiteError;

/// `GET /api/tv?variant=`: 400 for a field other than `variant` or an unknown game.
pub async fn tv(
    State(svc): State<AppState>,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Json<TvView>, HttpError> {
    let Query(q) = q.map_err(|_| {
        HttpError::from(SiteError::bad_request("the query string is not valid text"))
    })?;
    if let Some(other) = q.keys().find(|k| k.as_str() != "variant") {
        return Err(SiteError::bad_request(format!(
            "{}: unknown field (only variant)",
            game::excerpt(other)
        ))
        .into());
    }
    Ok(Json(
        svc.tv.current(q.get("variant").map(String::as_str)).await?,
    ))
}
