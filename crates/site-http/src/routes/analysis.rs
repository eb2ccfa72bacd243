//! `POST /api/analysis` and `POST /api/analysis/stream`: the engine on any position
//! (site::analysis); `POST /api/solve`: the exact solver (site::solve); `POST
//! /api/positions`: a position's legal moves (site::positions).

use crate::error::HttpError;
use axum::Json;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;

use super::{ApiJson, AppState};
use crate::player::Player;
use site::analysis::{self, AnalysisRequest, AnalysisView, StreamEvent};
use site::positions::{self, PositionRequest, PositionView};
use site::records_read::{self, ReadRequest, ReadView};
use site::solve::{self as solver, SolveRequest, SolveView};

/// `POST /api/analysis` -> 200 with the search's depth, score, principal variation, best move
/// and nodes.
pub async fn analyse(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<AnalysisRequest>,
) -> Result<Json<AnalysisView>, HttpError> {
    Ok(Json(analysis::analyse(&svc.analyses, &token, &body).await?))
}

/// `POST /api/analysis/stream` -> 200 `text/event-stream`: an `iteration` event per completed
/// iteration, then one `done` event, then the end. Closing the connection stops the search.
pub async fn stream(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<AnalysisRequest>,
) -> Result<Sse<impl Stream<Item = Result<Event, axum::Error>>>, HttpError> {
    let search = analysis::stream(&svc.analyses, &token, &body).await?;
    let events = futures_util::stream::unfold(search, |mut search| async move {
        let event = match search.next().await? {
            StreamEvent::Iteration(it) => Event::default().event("iteration").json_data(it),
            StreamEvent::Done(done) => Event::default().event("done").json_data(done),
        };
        Some((event, search))
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

/// `POST /api/positions` -> 200 with the position's facts and legal moves.
pub async fn position(
    ApiJson(body): ApiJson<PositionRequest>,
) -> Result<Json<PositionView>, HttpError> {
    Ok(Json(positions::position(&body)?))
}

/// `POST /api/solve` -> 200 with the proof (a win or loss in plies with its line) or the plies
/// searched without one.
pub async fn solve(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<SolveRequest>,
) -> Result<Json<SolveView>, HttpError> {
    Ok(Json(solver::solve(&svc.analyses, &token, &body).await?))
}

/// `POST /api/records/read` -> 200 with every game of a PGN/PDN file as a move tree, and the
/// errors of the games that could not be read.
pub async fn read_records(
    ApiJson(body): ApiJson<ReadRequest>,
) -> Result<Json<ReadView>, HttpError> {
    Ok(Json(records_read::read_records(body).await?))
}
