//! The lobby (site::lobby): seeks, quick pairing, challenges and the live stream.

use crate::error::HttpError;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;

use super::{ApiJson, AppState, PathText};
use crate::player::{LoggedIn, Player};
use crate::rate_limit::ClientAddr;
use site::lobby::{
    ChallengeLists, ChallengeView, NewChallenge, NewSeek, QuickAnswer, QuickSeek, SeekView,
};
use site::view::GameView;

/// Whether anonymous seeks are capped per client address too (issue 41): on with the lobby
/// offers' per-address rate limit, off with it (`--no-rate-limits`, a load test from one
/// address).
#[derive(Debug, Clone, Copy)]
pub struct AddressCaps(pub bool);

/// The address an anonymous seek counts against, if [`AddressCaps`] are on.
fn seek_address(
    caps: Option<axum::Extension<AddressCaps>>,
    client: Option<axum::Extension<ClientAddr>>,
) -> Option<std::net::IpAddr> {
    caps.is_some_and(|c| c.0.0)
        .then(|| crate::rate_limit::keyed(client))
}

/// `POST /api/seeks` -> 201 SeekView.
pub async fn create_seek(
    State(svc): State<AppState>,
    Player(token): Player,
    caps: Option<axum::Extension<AddressCaps>>,
    client: Option<axum::Extension<ClientAddr>>,
    ApiJson(body): ApiJson<super::input::NewSeek>,
) -> Result<(StatusCode, Json<SeekView>), HttpError> {
    let req = NewSeek::try_from(body)?;
    let address = seek_address(caps, client);
    Ok((
        StatusCode::CREATED,
        Json(svc.lobby.create_seek(&token, req, address).await?),
    ))
}

/// `GET /api/seeks`.
pub async fn list_seeks(
    State(svc): State<AppState>,
    Player(token): Player,
) -> Result<Json<Vec<SeekView>>, HttpError> {
    Ok(Json(svc.lobby.list_seeks(&token).await?))
}

/// `DELETE /api/seeks/{id}` -> 204.
pub async fn cancel_seek(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<StatusCode, HttpError> {
    svc.lobby.cancel_seek(&token, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/seeks/{id}/accept` -> 201 GameView.
pub async fn accept_seek(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<(StatusCode, Json<GameView>), HttpError> {
    Ok((
        StatusCode::CREATED,
        Json(svc.lobby.accept_seek(&token, &id).await?),
    ))
}

/// `POST /api/seeks/quick` -> 201 `{"game", "seek"}`.
pub async fn quick(
    State(svc): State<AppState>,
    Player(token): Player,
    caps: Option<axum::Extension<AddressCaps>>,
    client: Option<axum::Extension<ClientAddr>>,
    ApiJson(body): ApiJson<super::input::QuickSeek>,
) -> Result<(StatusCode, Json<QuickAnswer>), HttpError> {
    let req = QuickSeek::try_from(body)?;
    let address = seek_address(caps, client);
    Ok((
        StatusCode::CREATED,
        Json(svc.lobby.quick_seek(&token, req, address).await?),
    ))
}

/// `POST /api/challenges` -> 201 ChallengeView.
pub async fn create_challenge(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<super::input::NewChallenge>,
) -> Result<(StatusCode, Json<ChallengeView>), HttpError> {
    let req = NewChallenge::try_from(body)?;
    Ok((
        StatusCode::CREATED,
        Json(svc.lobby.create_challenge(&token, req).await?),
    ))
}

/// `GET /api/challenges`.
pub async fn list_challenges(
    State(svc): State<AppState>,
    Player(token): Player,
) -> Result<Json<ChallengeLists>, HttpError> {
    Ok(Json(svc.lobby.list_challenges(&token).await?))
}

/// `POST /api/challenges/{id}/accept` -> 201 GameView.
pub async fn accept_challenge(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<(StatusCode, Json<GameView>), HttpError> {
    Ok((
        StatusCode::CREATED,
        Json(svc.lobby.accept_challenge(&token, &id).await?),
    ))
}

/// `POST /api/challenges/{id}/decline` -> 204.
pub async fn decline_challenge(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<StatusCode, HttpError> {
    svc.lobby.decline_challenge(&token, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/challenges/{id}` -> 204.
pub async fn cancel_challenge(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<StatusCode, HttpError> {
    svc.lobby.cancel_challenge(&token, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/lobby`: the live lobby, as server-sent events.
pub async fn lobby_stream(
    State(svc): State<AppState>,
    Player(token): Player,
    LoggedIn(account): LoggedIn,
    axum::Extension(sec): axum::Extension<crate::security::SecurityState>,
) -> Result<impl IntoResponse, HttpError> {
    crate::lobby_stream::open(&svc.lobby, &svc.chat, token, account, sec.sessions.clone())
}
