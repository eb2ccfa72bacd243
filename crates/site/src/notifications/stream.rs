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

/// How long an account's page counts as open after its stream last said so, ms: a process
/// killed with its streams leaves its players online this long at most (browser finding 2).
pub const PRESENCE_TTL_MS: i64 = 40_000;
/// How often an open stream of an account says it is open, ms (well within the TTL).
pub const PRESENCE_EVERY_MS: i64 = 15_000;

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
    /// An account's stream: when its presence is next written (Unix ms); `None`: a stream of
    /// an anonymous player, whom no following list shows.
    presence_due: Option<i64>,
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
            presence_due: None,
        })
    }

    /// Marks this stream an account's: while it is open the account is online, in any
    /// process (`site_presence`; the following list reads it).
    pub fn of_account(mut self) -> NotificationStream {
        self.presence_due = Some(0);
        self
    }

    /// Pushes the account's presence on when it is due; a failed write is logged and tried
    /// at the next look.
    async fn keep_present(&mut self) {
        let Some(due) = self.presence_due else { return };
        let now = site_store::now_ms();
        if now < due {
            return;
        }
        match self
            .notifications
            .store
            .refresh_site_presence(self.owner.as_str(), now + PRESENCE_TTL_MS)
            .await
        {
            Ok(()) => self.presence_due = Some(now + PRESENCE_EVERY_MS),
            Err(e) => tracing::warn!(error = %e, "cannot write a player's presence"),
        }
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
            self.keep_present().await;
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
        self.notifications
            .close_stream(&self.owner, &self.waker, self.presence_due.is_some());
    }
}
