//! A player's live notification count (`GET /api/notifications/stream`; site-http sends it as
//! server-sent events): [`NotificationStream`] yields a [`StreamView`] at once and whenever it
//! changes. It looks at once when woken ([`super::Notifications::made`], here or through the
//! relay from another process) and every [`POLL`] otherwise, so a lost wake-up costs at most
//! that long.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use site_model::error::SiteError;
use site_model::secrets::{PlayerToken, TokenHash};
use tokio::sync::{Notify, watch};

use super::{NotificationItem, Notifications};

/// Longest wait between two looks at the database (by default: `Notifications::set_poll`).
pub const POLL: Duration = Duration::from_secs(5);

/// What the stream sends (event `notify`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StreamView {
    /// How many notifications are unread.
    pub unread: i64,
    /// The newest notification, read or not (`null` when there is none): the page pops up a
    /// challenge, or plays a sound, when it is new.
    pub latest: Option<NotificationItem>,
}

/// One open stream of a player (counted against the caps while alive).
pub struct NotificationStream {
    notifications: Arc<Notifications>,
    token: PlayerToken,
    owner: TokenHash,
    waker: Arc<Notify>,
    shutdown: watch::Receiver<bool>,
    last: Option<String>,
    first: bool,
}

impl NotificationStream {
    /// Opens `token`'s stream, ended when `shutdown` turns true; 503 `too_many` past the caps
    /// (`MAX_STREAMS_PER_PLAYER`, `MAX_STREAMS`).
    pub fn open(
        notifications: &Arc<Notifications>,
        token: PlayerToken,
        shutdown: watch::Receiver<bool>,
    ) -> Result<NotificationStream, SiteError> {
        let owner = token.hash();
        let waker = notifications.open_stream(&owner)?;
        Ok(NotificationStream {
            notifications: notifications.clone(),
            token,
            owner,
            waker,
            shutdown,
            last: None,
            first: true,
        })
    }

    /// The view now, as `GET /api/notifications/stream` sends it.
    async fn view(&self) -> Result<StreamView, SiteError> {
        let list = self.notifications.newest(&self.token, 1).await?;
        Ok(StreamView {
            unread: list.unread,
            latest: list.items.into_iter().next(),
        })
    }

    /// The next [`StreamView`] as JSON text: the first at once, then each one that differs
    /// from the last sent. `None` once the site shuts down. A view that cannot be read is
    /// logged and read again at the next look.
    pub async fn next(&mut self) -> Option<String> {
        loop {
            if !self.first {
                tokio::select! {
                    _ = tokio::time::sleep(self.notifications.poll()) => {}
                    _ = self.waker.notified() => {}
                    _ = self.shutdown.changed() => {}
                }
            }
            self.first = false;
            if *self.shutdown.borrow() {
                return None;
            }
            match self.view().await {
                Ok(view) => {
                    let Ok(text) = serde_json::to_string(&view) else {
                        continue;
                    };
                    if self.last.as_ref() != Some(&text) {
                        self.last = Some(text.clone());
                        return Some(text);
                    }
                }
                Err(e) => tracing::warn!(error = %e, "cannot read a player's notifications"),
            }
        }
    }
}

impl Drop for NotificationStream {
    fn drop(&mut self) {
        self.notifications.close_stream(&self.owner, &self.waker);
    }
}
