//! `GET /api/games/search` (site::game_search; docs/api.md, "Game search"): the query string
//! is read once into `SearchParams` (unknown, repeated and non-UTF-8 parameters refused, by name) and checked into `SearchInput`.

use axum::Json;
use axum::extract::{RawQuery, State};

use super::AppState;
use super::strict::query_fields;
use crate::error::HttpError;
use site::game_search::{SearchInput, SearchParams, SearchView};

/// The parameters `GET /api/games/search` takes.
const FIELDS: &[&str] = &[
    "player", "opponent", "variant", "result", "rated", "speed", "from", "to", "page", "after",
];

/// `GET /api/games/search?player=&opponent=&variant=&result=&rated=&speed=&from=&to=&page=&after=`:
/// 400 naming the parameter that is unknown, repeated, not UTF-8 text or bad; 404 for an
/// unknown player.
pub async fn search(
    State(svc): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Json<SearchView>, HttpError> {
    let mut q = query_fields(query.as_deref(), FIELDS)?;
    let params = SearchParams {
        player: q.remove("player"),
        opponent: q.remove("opponent"),
        variant: q.remove("variant"),
        result: q.remove("result"),
        rated: q.remove("rated"),
        speed: q.remove("speed"),
        from: q.remove("from"),
        to: q.remove("to"),
        page: q.remove("page"),
        after: q.remove("after"),
    };
    let input = SearchInput::try_from(params)?;
    Ok(Json(svc.search.search(input).await?))
}
