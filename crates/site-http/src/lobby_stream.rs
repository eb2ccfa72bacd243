//! The lobby stream (`GET /api/lobby`, server-sent events): an event `lobby` whose data is a
//! [`site::lobby::LobbyView`] at once and whenever it changes. It reads the database every
//! [`POLL`] (so changes made through other processes are seen) and at once after a
//! change through this one; while open it keeps its player's real-time offers alive.

use std::convert::Infallible;
use std::sync::Arc;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use site::lobby::Lobby;
use site::lobby::{KEEP_ALIVE, POLL, STARTED_WINDOW_MS, StreamGuard};
use site_model::secrets::PlayerToken;
use site_store::now_ms;

use crate::error::HttpError;

struct State {
    lobby: Arc<Lobby>,
    token: PlayerToken,
    since: i64,
    last: Option<String>,
    last_refresh: i64,
    first: bool,
    shutdown: tokio::sync::watch::Receiver<bool>,
    guard: StreamGuard,
}

/// `GET /api/lobby` for `token`: 503 `too_many` past the caps on streams.
pub fn open(
    lobby: &Arc<Lobby>,
    token: PlayerToken,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>> + use<>>, HttpError> {
    let me = token.hash().into_string();
    let guard = StreamGuard::open(lobby, &me)?;
    let state = State {
        lobby: lobby.clone(),
        token,
        since: now_ms() - STARTED_WINDOW_MS,
        last: None,
        last_refresh: 0,
        first: true,
        shutdown: lobby.play().shutdown_signal(),
        guard,
    };
    let events = futures_util::stream::unfold(state, |mut st| async move {
        loop {
            if !st.first {
                tokio::select! {
                    _ = tokio::time::sleep(POLL) => {}
                    _ = st.lobby.changed() => {}
                    _ = st.shutdown.changed() => {}
                }
            }
            st.first = false;
            if *st.shutdown.borrow() {
                return None;
            }
            let now = now_ms();
            let presence = st.lobby.presence_ms();
            // A third of the presence time between pushes: two may be missed.
            if now - st.last_refresh >= presence / 3 && st.guard.refresh(now + presence).await {
                st.last_refresh = now;
            }
            match st.lobby.lobby_view(&st.token, st.since).await {
                Ok(view) => {
                    let Ok(text) = serde_json::to_string(&view) else {
                        continue;
                    };
                    if st.last.as_ref() != Some(&text) {
                        let event = Event::default().event("lobby").data(&text);
                        st.last = Some(text);
                        return Some((Ok(event), st));
                    }
                }
                Err(e) => tracing::warn!(error = %e, "cannot read the lobby"),
            }
        }
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)))
}
