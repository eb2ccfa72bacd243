//! Chat (site::chat, issue 41; docs/api.md, "Chat"): a game's history, the tournament and
//! lobby rooms' history and sending, the account's chat setting. A game's messages are sent
//! on its socket (`routes::ws`); the tournament and lobby streams carry their rooms' `chat`
//! events.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use site::chat::{ChatMessage, GameChat, RoomChat};
use site_model::error::{ErrorCode, SiteError};

use super::{ApiJson, AppState, PathText};
use crate::error::HttpError;
use crate::player::{LoggedIn, Player};

/// The body of `POST /api/lobby/chat` and `POST /api/tournaments/{id}/chat`: free `text` or
/// a canned `phrase` code, one of the two.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatBody {
    /// Free text, at most 140 characters.
    #[serde(default)]
    pub text: Option<String>,
    /// A canned phrase's code (`good_luck`, `have_fun`, `well_played`, `thanks`, `good_game`).
    #[serde(default)]
    pub phrase: Option<String>,
}

/// The body and answer of `PUT /api/me/chat`.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ChatSetting {
    /// Chat off in all the player's games and rooms: they see and send none.
    pub chat_off: bool,
}

/// `GET /api/games/{id}/chat` -> 200 [`GameChat`].
pub async fn game(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<Json<GameChat>, HttpError> {
    Ok(Json(svc.chat.game_history(&id, &token).await?))
}

/// `GET /api/lobby/chat` -> 200 [`RoomChat`].
pub async fn lobby(
    State(svc): State<AppState>,
    Player(token): Player,
) -> Result<Json<RoomChat>, HttpError> {
    Ok(Json(svc.chat.room_history(None, &token).await?))
}

/// `POST /api/lobby/chat` -> 201 [`ChatMessage`].
pub async fn lobby_send(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<ChatBody>,
) -> Result<(StatusCode, Json<ChatMessage>), HttpError> {
    let content = super::ws::chat_content(body.text, body.phrase)?;
    let m = svc.chat.send_room(None, &token, content).await?;
    Ok((StatusCode::CREATED, Json(m)))
}

/// `GET /api/tournaments/{id}/chat` -> 200 [`RoomChat`].
pub async fn tournament(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<Json<RoomChat>, HttpError> {
    Ok(Json(svc.chat.room_history(Some(&id), &token).await?))
}

/// `POST /api/tournaments/{id}/chat` -> 201 [`ChatMessage`].
pub async fn tournament_send(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
    ApiJson(body): ApiJson<ChatBody>,
) -> Result<(StatusCode, Json<ChatMessage>), HttpError> {
    let content = super::ws::chat_content(body.text, body.phrase)?;
    let m = svc.chat.send_room(Some(&id), &token, content).await?;
    Ok((StatusCode::CREATED, Json(m)))
}

fn account_id(account: Option<site::accounts::Account>) -> Result<String, HttpError> {
    account.map(|a| a.id).ok_or_else(|| {
        HttpError(SiteError::new(
            ErrorCode::NotLoggedIn,
            "log in first: the chat setting is an account's",
        ))
    })
}

/// `GET /api/me/chat` -> 200 [`ChatSetting`].
pub async fn setting(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
) -> Result<Json<ChatSetting>, HttpError> {
    let off = svc.chat.setting(&account_id(account)?).await?;
    Ok(Json(ChatSetting { chat_off: off }))
}

/// `PUT /api/me/chat` `{"chat_off": bool}` -> 200 [`ChatSetting`].
pub async fn set_setting(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
    ApiJson(body): ApiJson<ChatSetting>,
) -> Result<Json<ChatSetting>, HttpError> {
    svc.chat
        .set_setting(&account_id(account)?, body.chat_off)
        .await?;
    Ok(Json(body))
}

/// The body and answer of `PUT /api/games/{id}/chat/mute`.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MuteSetting {
    /// The other player's chat muted in this game for the asking player.
    pub mute: bool,
}

/// `PUT /api/games/{id}/chat/mute` `{"mute": bool}` -> 200 [`MuteSetting`]; 403
/// `not_a_player` for a watcher, 409 while the other seat is open, 404 for an unknown game.
pub async fn mute_opponent(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
    ApiJson(body): ApiJson<MuteSetting>,
) -> Result<Json<MuteSetting>, HttpError> {
    let mute = svc.chat.mute_opponent(&id, &token, body.mute).await?;
    Ok(Json(MuteSetting { mute }))
}
