//! A chat room beside a stream's own events: the tournament and lobby streams send their
//! room's messages as server-sent events `chat` (`{ChatMessage}`), each to the readers that
//! [`site::chat::Chat::visible`] lets see it, and a moderator's removals as `chat_removed`
//! (`{"id", "room"}`).

use std::convert::Infallible;
use std::sync::Arc;

use axum::response::sse::Event;
use futures_util::{Stream, StreamExt};
use site::chat::{Chat, ChatEvent, Reader};
use site_model::secrets::PlayerToken;
use tokio::sync::broadcast::{self, error::RecvError};

struct Feed {
    chat: Arc<Chat>,
    rx: broadcast::Receiver<Arc<ChatEvent>>,
    tournament: Option<String>,
    token: PlayerToken,
    reader: Option<Reader>,
}

impl Feed {
    /// The next event this reader sees: its name and JSON text.
    async fn next(&mut self) -> Option<(&'static str, String)> {
        if self.reader.is_none() {
            match self.chat.reader(&self.token).await {
                Ok(r) => self.reader = Some(r),
                Err(e) => {
                    tracing::warn!(error = %e.message, "a stream's chat reader cannot be read");
                    return None;
                }
            }
        }
        loop {
            let event = match self.rx.recv().await {
                Ok(e) => e,
                // A slow stream skips what it missed (the page reads the history).
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => {
                    self.rx = self.chat.subscribe_room(self.tournament.as_deref());
                    continue;
                }
            };
            let reader = self.reader.as_ref()?;
            if self.chat.visible(&event, reader, None).await {
                return if event.is_removal() {
                    serde_json::to_string(&event.removal())
                        .ok()
                        .map(|t| ("chat_removed", t))
                } else {
                    serde_json::to_string(&event.message())
                        .ok()
                        .map(|t| ("chat", t))
                };
            }
        }
    }
}

/// `main`'s events with the chat of a tournament's room (`Some(id)`) or the lobby's for
/// `token`'s reader, as `chat` events; it ends when `main` ends.
pub fn with_chat<S: Stream<Item = Event> + Send + 'static>(
    main: S,
    chat: &Arc<Chat>,
    tournament: Option<&str>,
    token: PlayerToken,
) -> impl Stream<Item = Result<Event, Infallible>> + Send + 'static + use<S> {
    let feed = Feed {
        chat: chat.clone(),
        rx: chat.subscribe_room(tournament),
        tournament: tournament.map(str::to_string),
        token,
        reader: None,
    };
    let chat_events = futures_util::stream::unfold(feed, |mut feed| async move {
        let (name, text) = feed.next().await?;
        Some((Some(Event::default().event(name).data(text)), feed))
    });
    // The main stream's end (`None`) ends both.
    let main = main
        .map(Some)
        .chain(futures_util::stream::once(async { None }));
    futures_util::stream::select(main, chat_events)
        .take_while(|e| std::future::ready(e.is_some()))
        .filter_map(|e| std::future::ready(e.map(Ok)))
}
