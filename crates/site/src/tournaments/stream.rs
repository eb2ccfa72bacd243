//! An event's live stream (`GET /api/tournaments/{id}/stream`; site-http sends it as
//! server-sent events): [`TournamentStream`] yields the event's view, as one account sees it,
//! at once and after every change. It polls the stored version every [`POLL`] (changes made
//! through other processes, game ends included, move it on) and reads at once after a change
//! through this process; the view is built once per version for every stream.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::accounts::Account;
use site_model::error::{ErrorCode, SiteError};

use super::Tournaments;

/// How often a stream reads the stored version.
pub const POLL: Duration = Duration::from_secs(1);
/// Most event streams open at once in one process.
pub const MAX_STREAMS: usize = 5_000;

static OPEN: AtomicUsize = AtomicUsize::new(0);

/// One open stream: the event, the account (its `me`), and the last text sent.
pub struct TournamentStream {
    tournaments: Arc<Tournaments>,
    id: String,
    account: Option<Account>,
    last_version: Option<i64>,
    last: Option<String>,
    first: bool,
    shutdown: tokio::sync::watch::Receiver<bool>,
}

impl Drop for TournamentStream {
    fn drop(&mut self) {
        OPEN.fetch_sub(1, Ordering::Relaxed);
    }
}

impl TournamentStream {
    /// Opens a stream of event `id` for `account`: 404 for an unknown event, 503 `too_many`
    /// past [`MAX_STREAMS`].
    pub async fn open(
        tournaments: &Arc<Tournaments>,
        id: &str,
        account: Option<Account>,
    ) -> Result<TournamentStream, SiteError> {
        tournaments.view(id, None).await?;
        if OPEN.fetch_add(1, Ordering::Relaxed) >= MAX_STREAMS {
            OPEN.fetch_sub(1, Ordering::Relaxed);
            return Err(SiteError::new(
                ErrorCode::TooMany,
                "too many tournament streams open: try again soon",
            ));
        }
        Ok(TournamentStream {
            tournaments: tournaments.clone(),
            id: id.to_string(),
            account,
            last_version: None,
            last: None,
            first: true,
            shutdown: tournaments.play.shutdown_signal(),
        })
    }

    /// The next view as JSON text; `None` once the site shuts down or the event is gone.
    pub async fn next(&mut self) -> Option<String> {
        loop {
            if !self.first {
                tokio::select! {
                    _ = tokio::time::sleep(POLL) => {}
                    _ = self.tournaments.changed() => {}
                    _ = self.shutdown.changed() => {}
                }
            }
            self.first = false;
            if *self.shutdown.borrow() {
                return None;
            }
            match self.tournaments.version(&self.id).await {
                Ok(None) => return None,
                Ok(Some(v)) if Some(v) == self.last_version => continue,
                Ok(Some(_)) => {}
                Err(e) => {
                    tracing::warn!(tournament = %self.id, error = %e, "cannot read the tournament");
                    continue;
                }
            }
            match self.tournaments.view(&self.id, self.account.as_ref()).await {
                Ok(view) => {
                    self.last_version = Some(view.version);
                    let Ok(text) = serde_json::to_string(&view) else {
                        continue;
                    };
                    if self.last.as_ref() != Some(&text) {
                        self.last = Some(text.clone());
                        return Some(text);
                    }
                }
                Err(e) => {
                    tracing::warn!(tournament = %self.id, error = %e, "cannot read the tournament")
                }
            }
        }
    }
}
