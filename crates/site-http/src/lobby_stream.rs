//! The lobby stream (`GET /api/lobby`) as server-sent events: an event `lobby` whose data is
//! a [`site::lobby::LobbyView`] each time [`LobbyStream`] yields one (at once and whenever it
//! changes), the lobby's chat as events `chat`, with a comment line every [`KEEP_ALIVE`].

use std::convert::Infallible;
use std::sync::Arc;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use site::chat::Chat;
use site::lobby::stream::LobbyStream;
use site::lobby::{KEEP_ALIVE, Lobby};
use site_model::secrets::PlayerToken;

use crate::error::HttpError;

/// `GET /api/lobby` for `token`: 503 `too_many` past the caps on streams. The lobby's chat
/// room comes as `chat` events beside (`chat_feed`).
pub fn open(
    lobby: &Arc<Lobby>,
    chat: &Arc<Chat>,
    token: PlayerToken,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>> + use<>>, HttpError> {
    let stream = LobbyStream::open(lobby, token.clone())?;
    let events = futures_util::stream::unfold(stream, |mut stream| async move {
        let text = stream.next().await?;
        Some((Event::default().event("lobby").data(&text), stream))
    });
    let events = crate::chat_feed::with_chat(events, chat, None, token);
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)))
}
