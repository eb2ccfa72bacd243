//! The lobby stream (`GET /api/lobby`) as server-sent events: an event `lobby` whose data is
//! a [`site::lobby::LobbyView`] each time [`LobbyStream`] yields one (at once and whenever it
//! changes), the lobby's chat as events `chat`, with a comment line every [`KEEP_ALIVE`].

use std::convert::Infallible;
use std::sync::Arc;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::{Stream, StreamExt};
use site::accounts::{Account, Sessions};
use site::chat::Chat;
use site::lobby::stream::LobbyStream;
use site::lobby::{KEEP_ALIVE, Lobby};
use site_model::secrets::PlayerToken;

use crate::error::HttpError;
use crate::session_watch::{SessionWatch, until_ended};

/// `GET /api/lobby` for `token`: 503 `too_many` past the caps on streams. The lobby's chat
/// room comes as `chat` events beside (`chat_feed`). A stream opened under a log-in (`account`)
/// ends with it (a log-out, a new password, a moderator's close, in any process): it carried
/// the account's incoming challenges and made it present (hostile finding 2 of round 5); the
/// page's `EventSource` then opens it again as the browser now is.
pub fn open(
    lobby: &Arc<Lobby>,
    chat: &Arc<Chat>,
    token: PlayerToken,
    account: Option<Account>,
    sessions: Option<Arc<Sessions>>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>> + use<>>, HttpError> {
    let stream = LobbyStream::open(lobby, token.clone())?;
    let events = futures_util::stream::unfold(stream, |mut stream| async move {
        let text = stream.next().await?;
        Some((Event::default().event("lobby").data(&text), stream))
    });
    let events = crate::chat_feed::with_chat(events, chat, None, token);
    let mut watch = SessionWatch::of(account, sessions);
    let events = events.take_until(async move { until_ended(watch.as_mut()).await });
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)))
}
