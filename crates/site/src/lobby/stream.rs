//! The lobby stream (`GET /api/lobby`; site-http's `lobby_stream` sends it as server-sent
//! events): [`LobbyStream`] yields a [`LobbyView`] for one player at once and whenever it
//! changes. It reads the database every [`POLL`](super::POLL) (so changes made through other processes are
//! seen) and at once after a change through this one; while open it keeps its player's
//! real-time offers alive.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use super::{ChallengeLists, KEEP_ANSWERED_MS, Lobby, SeekView, StreamGuard};
use site_model::error::SiteError;
use site_model::secrets::PlayerToken;
use site_store::now_ms;

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

impl Lobby {
    /// The lobby as `token`'s player sees it; games started since `since` (Unix ms).
    pub async fn lobby_view(
        &self,
        token: &PlayerToken,
        since: i64,
    ) -> Result<LobbyView, SiteError> {
        let me = token.hash().into_string();
        let now = now_ms();
        if self.sweep_due(now)
            && let Err(e) = self.play.store().sweep_lobby(now, KEEP_ANSWERED_MS).await
        {
            tracing::warn!(error = %e, "cannot sweep the lobby");
        }
        let seeks = self.list_seeks(token).await?;
        let challenges = self.list_challenges(token).await?;
        let started = self.play.store().started_games(&me, since).await?;
        Ok(LobbyView {
            seeks,
            challenges,
            started,
        })
    }
}

/// One player's open lobby stream: its presence (a [`StreamGuard`], counted against the caps
/// on streams) and the last view it sent.
pub struct LobbyStream {
    lobby: Arc<Lobby>,
    token: PlayerToken,
    since: i64,
    last: Option<String>,
    guard: StreamGuard,
}

impl LobbyStream {
    /// Opens `token`'s stream; 503 `too_many` past the caps on streams.
    pub fn open(lobby: &Arc<Lobby>, token: PlayerToken) -> Result<LobbyStream, SiteError> {
        let me = token.hash().into_string();
        let guard = StreamGuard::open(lobby, &me)?;
        Ok(LobbyStream {
            lobby: lobby.clone(),
            token,
            since: now_ms() - STARTED_WINDOW_MS,
            last: None,
            guard,
        })
    }

    /// The next [`LobbyView`] as JSON text: the first at once, then each one that differs from
    /// the last sent, read every [`POLL`](super::POLL) or at once after a change through this process.
    /// Pushes the player's presence ahead on the way. `None` once the site shuts down. A view
    /// that cannot be read is logged and read again at the next poll.
    pub async fn next(&mut self) -> Option<String> {
        loop {
            if !self.guard.next_turn().await {
                return None;
            }
            match self.lobby.lobby_view(&self.token, self.since).await {
                Ok(view) => {
                    let Ok(text) = serde_json::to_string(&view) else {
                        continue;
                    };
                    if self.last.as_ref() != Some(&text) {
                        self.last = Some(text.clone());
                        return Some(text);
                    }
                }
                Err(e) => tracing::warn!(error = %e, "cannot read the lobby"),
            }
        }
    }
}
