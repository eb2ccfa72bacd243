//! The lobby stream (`GET /api/lobby`, server-sent events): an event `lobby` whose data is a
//! [`LobbyView`] at once and whenever it changes. It reads the database every
//! [`super::POLL`] (so changes made through other processes are seen) and at once after a
//! change through this one; while open it keeps its player's real-time offers alive.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use serde::Serialize;

use super::{ChallengeLists, KEEP_ANSWERED_MS, POLL, SeekView, StreamGuard};
use crate::error::ApiError;
use crate::game_service::GameService;
use crate::secrets::hash_hex;
use crate::store::now_ms;

/// How far back a new stream reports the player's games just started: a page that
/// reconnects (or reloads) right after its seek was accepted still learns of it.
pub const STARTED_WINDOW_MS: i64 = 15_000;
/// A comment line this often, so that a closed connection is noticed (and its player's
/// presence ends) soon.
pub const KEEP_ALIVE: Duration = Duration::from_secs(2);

/// What the lobby stream sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LobbyView {
    /// The open seeks, oldest first.
    pub seeks: Vec<SeekView>,
    /// The challenges to and from the player.
    pub challenges: ChallengeLists,
    /// Games that started from the player's seeks and challenges since the stream opened
    /// (less [`STARTED_WINDOW_MS`]): the page goes to the newest.
    pub started: Vec<String>,
}

impl GameService {
    /// The lobby as `token`'s player sees it; games started since `since` (Unix ms).
    pub async fn lobby_view(&self, token: &str, since: i64) -> Result<LobbyView, ApiError> {
        let me = hash_hex(token);
        let now = now_ms();
        if self.lobby.sweep_due(now)
            && let Err(e) = self.store.sweep_lobby(now, KEEP_ANSWERED_MS).await
        {
            tracing::warn!(error = %e, "cannot sweep the lobby");
        }
        let seeks = self.list_seeks(token).await?;
        let challenges = self.list_challenges(token).await?;
        let started = self.store.started_games(&me, since).await?;
        Ok(LobbyView {
            seeks,
            challenges,
            started,
        })
    }
}

struct State {
    service: Arc<GameService>,
    token: String,
    since: i64,
    last: Option<String>,
    last_refresh: i64,
    first: bool,
    shutdown: tokio::sync::watch::Receiver<bool>,
    guard: StreamGuard,
}

/// `GET /api/lobby` for `token`: 503 `too_many` past the caps on streams.
pub fn open(
    service: &Arc<GameService>,
    token: String,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>> + use<>>, ApiError> {
    let me = hash_hex(&token);
    let guard = StreamGuard::open(service, &me)?;
    let state = State {
        service: service.clone(),
        token,
        since: now_ms() - STARTED_WINDOW_MS,
        last: None,
        last_refresh: 0,
        first: true,
        shutdown: service.shutdown_signal(),
        guard,
    };
    let events = futures_util::stream::unfold(state, |mut st| async move {
        loop {
            if !st.first {
                tokio::select! {
                    _ = tokio::time::sleep(POLL) => {}
                    _ = st.service.lobby.changed.notified() => {}
                    _ = st.shutdown.changed() => {}
                }
            }
            st.first = false;
            if *st.shutdown.borrow() {
                return None;
            }
            let now = now_ms();
            let presence = st.service.lobby.presence_ms();
            // A third of the presence time between pushes: two may be missed.
            if now - st.last_refresh >= presence / 3 && st.guard.refresh(now + presence).await {
                st.last_refresh = now;
            }
            match st.service.lobby_view(&st.token, st.since).await {
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
