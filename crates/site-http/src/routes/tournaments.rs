//! Tournaments (site::tournaments, issue 40; docs/api.md, "Tournaments"): create, join,
//! withdraw, pause, start early, berserk, read, list, the live stream, TRF-16 and the games'
//! records.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::IntoResponse;
use axum::response::sse::{Event, KeepAlive, Sse};
use serde::Serialize;
use site::accounts::Account;
use site::tournaments::stream::TournamentStream;
use site::tournaments::{
    CreateBody, NewTournament, PlayerTournament, TournamentSummary, TournamentView,
};
use site_model::error::{ErrorCode, SiteError};
use site_model::tournament::TournamentStatus;

use super::strict::{NoBody, NoQuery};
use super::{ApiJson, AppState, PathText};
use crate::error::HttpError;
use crate::player::{LoggedIn, Player};

/// `{"id"}` of a new event.
#[derive(Debug, Serialize)]
pub struct Created {
    id: String,
}

fn account(a: Option<Account>) -> Result<Account, SiteError> {
    a.ok_or_else(|| {
        SiteError::new(
            ErrorCode::NotLoggedIn,
            "tournaments are for accounts: log in or register first",
        )
    })
}

/// `POST /api/tournaments` -> 201 `{"id"}`.
pub async fn create(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    ApiJson(body): ApiJson<CreateBody>,
) -> Result<(StatusCode, Json<Created>), HttpError> {
    let a = account(a)?;
    let req = NewTournament::try_from(body)?;
    let id = svc.tournaments.create(&a, req).await?;
    Ok((StatusCode::CREATED, Json(Created { id })))
}

/// `GET /api/tournaments?status=created|started|finished|canceled` (default `started`).
pub async fn list(
    State(svc): State<AppState>,
    q: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Vec<TournamentSummary>>, HttpError> {
    let q = q
        .map(|Query(q)| q)
        .map_err(|_| SiteError::bad_request("the query string is not valid text"))?;
    if let Some((k, _)) = q.iter().find(|(k, _)| k.as_str() != "status") {
        return Err(SiteError::bad_request(format!(
            "unknown query parameter '{}' (known: status)",
            game::excerpt(k)
        ))
        .into());
    }
    if q.len() > 1 {
        return Err(SiteError::bad_request("status: given more than once").into());
    }
    let status = match q.first().map(|(_, v)| v) {
        None => TournamentStatus::Started,
        Some(s) => TournamentStatus::parse(s).ok_or_else(|| {
            SiteError::bad_request(format!(
                "status: '{}' is not created, started, finished or canceled",
                game::excerpt(s)
            ))
        })?,
    };
    Ok(Json(svc.tournaments.list(status).await?))
}

/// `GET /api/tournaments/{id}` -> the view, `me` filled for an account.
pub async fn get(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(id): PathText,
    _: NoQuery,
) -> Result<Json<TournamentView>, HttpError> {
    Ok(Json(svc.tournaments.view(&id, a.as_ref()).await?))
}

/// `POST /api/tournaments/{id}/join` -> 204.
pub async fn join(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(id): PathText,
    _: NoBody,
) -> Result<StatusCode, HttpError> {
    svc.tournaments.join(&account(a)?, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tournaments/{id}/withdraw` -> 204.
pub async fn withdraw(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    Player(token): Player,
    PathText(id): PathText,
    _: NoBody,
) -> Result<StatusCode, HttpError> {
    svc.tournaments.withdraw(&account(a)?, &token, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tournaments/{id}/pause` -> 204 (arena).
pub async fn pause(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(id): PathText,
    _: NoBody,
) -> Result<StatusCode, HttpError> {
    svc.tournaments.pause(&account(a)?, &id, true).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tournaments/{id}/resume` -> 204 (arena: paired again).
pub async fn resume(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(id): PathText,
    _: NoBody,
) -> Result<StatusCode, HttpError> {
    svc.tournaments.pause(&account(a)?, &id, false).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tournaments/{id}/start` -> 204 (its creator).
pub async fn start(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    PathText(id): PathText,
    _: NoBody,
) -> Result<StatusCode, HttpError> {
    svc.tournaments.start(&account(a)?, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tournaments/{id}/berserk` -> 204 (arena: the player's game in progress).
pub async fn berserk(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    Player(token): Player,
    PathText(id): PathText,
    _: NoBody,
) -> Result<StatusCode, HttpError> {
    svc.tournaments.berserk(&account(a)?, &token, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/tournaments/{id}/trf` -> TRF-16 text (Swiss, round robin).
pub async fn trf(
    State(svc): State<AppState>,
    PathText(id): PathText,
    _: NoQuery,
) -> Result<impl IntoResponse, HttpError> {
    let text = svc.tournaments.trf(&id).await?;
    Ok((
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"icebound-tournament-{id}.trf\""),
            ),
        ],
        text,
    ))
}

/// `GET /api/tournaments/{id}/games` -> every played game's record (PGN or PDN).
pub async fn games(
    State(svc): State<AppState>,
    PathText(id): PathText,
    _: NoQuery,
) -> Result<impl IntoResponse, HttpError> {
    let (name, text) = svc.tournaments.records(&id).await?;
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

/// `GET /api/tournaments/{id}/stream`: server-sent events `tournament` with the view, and
/// `chat` with each message of the tournament's chat room this reader sees.
pub async fn stream(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    Player(token): Player,
    PathText(id): PathText,
    _: NoQuery,
) -> Result<impl IntoResponse, HttpError> {
    let stream = TournamentStream::open(&svc.tournaments, &id, a).await?;
    let events = futures_util::stream::unfold(stream, |mut stream| async move {
        let text = stream.next().await?;
        Some((Event::default().event("tournament").data(&text), stream))
    });
    let events = crate::chat_feed::with_chat(events, &svc.chat, Some(&id), token);
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(std::time::Duration::from_secs(15))))
}

/// `GET /api/players/{username}/tournaments` -> the player's last events and places.
pub async fn of_player(
    State(svc): State<AppState>,
    PathText(name): PathText,
    _: NoQuery,
) -> Result<Json<Vec<PlayerTournament>>, HttpError> {
    Ok(Json(svc.tournaments.of_player(&name).await?))
}
