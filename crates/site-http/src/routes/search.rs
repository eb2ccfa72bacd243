//! `GET /api/games/search` (site::game_search; docs/api.md, "Game search"): the query string
//! is read once into `SearchParams` (unknown fields refused) and checked into `SearchInput`.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};

use super::AppState;
use crate::error::HttpError;
use site::game_search::{SearchInput, SearchParams, SearchView};
use site_model::error::SiteError;

/// `GET /api/games/search?player=&opponent=&variant=&result=&rated=&speed=&from=&to=&page=`:
/// 400 naming the field that is unknown, repeated or bad; 404 for an unknown player.
pub async fn search(
    State(svc): State<AppState>,
    q: Result<Query<SearchParams>, QueryRejection>,
) -> Result<Json<SearchView>, HttpError> {
    let Query(params) = q.map_err(|e| {
        // serde names the field: "unknown field `x`, expected one of ..." or "duplicate field `page`".
        let text = e.body_text();
        let why = text
            .strip_prefix("Failed to deserialize query string: ")
            .unwrap_or(&text);
        HttpError::from(SiteError::bad_request(format!(
            "the query: {}",
            game::excerpt(why)
        )))
    })?;
    let input = SearchInput::try_from(params)?;
    Ok(Json(svc.search.search(input).await?))
}
