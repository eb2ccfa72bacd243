//! What the lobby stream (`GET /api/lobby`, site-http's `lobby_stream`) sends: a
//! [`LobbyView`] for one player, read from the database.

use std::time::Duration;

use serde::Serialize;

use super::{ChallengeLists, KEEP_ANSWERED_MS, Lobby, SeekView};
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
