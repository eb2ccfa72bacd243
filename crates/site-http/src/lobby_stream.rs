//! The lobby stream (`GET /api/lobby`) as server-sent events: an event `lobby` whose data is
//! a [`site::lobby::LobbyView`] each time [`LobbyStream`] yields one (at once and whenever it
//! changes), with a comment line every [`KEEP_ALIVE`].

use std::convert::Infallible;
use std::sync::Arc;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use site::lobby::stream::LobbyStream;
use site::lobby::{KEEP_ALIVE, Lobby};
use site_model::secrets::PlayerToken;

use crate::error::HttpError;

/// `GET /api/lobby` for `token`: 503 `too_many` past the caps on streams.
pub fn open(
    lobby: &Arc<Lobby>,
    token: PlayerToken,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>> + use<>>, HttpError> {
    let stream = LobbyStream::open(lobby, token)?;
    let events = futures_util::stream::unfold(stream, |mut stream| async move {
        let text = stream.next().await?;
        Some((Ok(Event::default().event("lobby").data(&text)), stream))
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)))
}
