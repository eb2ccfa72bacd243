//! Notifications (issue 38): what a player is told outside the board (your move, low time,
//! game over, a challenge, an accepted seek or challenge), stored per player with its read
//! state, and the live unread count of each player's pages ([`stream`]).
//!
//! The changes that make them store them in their own transaction ([`events`] says which
//! change makes which); afterwards [`Notifications::made`] wakes the owners' streams here and,
//! through the [`Relay`] port, in the other processes. The low-time reminders come from
//! [`reminders`], run by every process and stored once by their event key.
//!
//! Below play and the lobby (they call it); it calls neither.

pub mod events;
pub mod push;
pub mod push_endpoint;
pub mod reminders;
pub mod stream;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex, OnceLock};
use std::time::Duration;

use serde::Serialize;
use site_model::error::{ErrorCode, SiteError};
use site_model::notifications::{KEEP, NotificationKind};
use site_model::secrets::{PlayerToken, TokenHash};
use site_store::{NewNotification, NotificationRow, ReadMark, Store, now_ms};
use tokio::sync::Notify;

/// The port through which a notification made here wakes the streams of its owner in the
/// other processes: implemented by the server's Redis bus, which lives above the site.
pub trait Relay: Send + Sync {
    /// `owner` has new or newly read notifications. Must not block; a lost message is caught
    /// up by the streams' polling ([`stream::POLL`]).
    fn relay(&self, owner: &TokenHash);
}

/// Most notification streams one player may hold open (tabs), and in one process.
pub const MAX_STREAMS_PER_PLAYER: usize = 8;
/// Most notification streams of one process.
pub const MAX_STREAMS: usize = 10_000;
/// Most ids in one `POST /api/notifications/read`.
pub const MAX_READ_IDS: usize = 100;

/// The notifications of one process: the store, and the wake-ups of the streams open here.
pub struct Notifications {
    store: Store,
    /// Per owner, the wake-up of each open stream.
    streams: StdMutex<HashMap<TokenHash, Vec<Arc<Notify>>>>,
    relay: OnceLock<Arc<dyn Relay>>,
    /// The streams' longest wait between looks, ms ([`stream::POLL`]; tests lengthen it).
    poll_ms: AtomicU64,
    /// Web Push, once set up ([`push`]).
    push: OnceLock<Arc<push::Push>>,
    /// Wakes the pusher ([`push::run`]) when notifications are made here.
    push_wake: Notify,
    /// Low-time reminders by e-mail, once set up (crate::mail).
    mail: OnceLock<Arc<dyn MailReminders>>,
}

/// The port through which a low-time reminder, just made, also goes by e-mail: implemented
/// by crate::mail, which sits beside notifications and is wired by `crate::services`.
pub trait MailReminders: Send + Sync {
    /// Mails the reminder `note` to its owner's account, if it has a verified address that
    /// takes low-time mail. Never fails: a problem is logged.
    fn low_time(&self, note: NewNotification) -> futures_util::future::BoxFuture<'static, ()>;
}

/// One notification as `GET /api/notifications` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotificationItem {
    /// Its id (16 letters and digits), for `POST /api/notifications/read`.
    pub id: String,
    /// What it is about.
    pub kind: NotificationKind,
    /// The game it is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The tournament it is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// The other player's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// What happened, in English (the page words it from `kind` and `by`).
    pub text: String,
    /// When, Unix ms.
    pub at: i64,
    /// Whether it was read.
    pub read: bool,
}

impl From<NotificationRow> for NotificationItem {
    fn from(n: NotificationRow) -> NotificationItem {
        NotificationItem {
            id: n.id,
            kind: n.kind,
            game: n.game,
            tournament: n.tournament,
            by: n.by,
            text: n.text,
            at: n.created_at,
            read: n.read_at.is_some(),
        }
    }
}

/// `GET /api/notifications`: the unread count and the newest notifications (at most
/// `site_model::notifications::KEEP`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotificationList {
    /// How many are unread.
    pub unread: i64,
    /// Newest first.
    pub items: Vec<NotificationItem>,
}

/// Which notifications to mark read (`POST /api/notifications/read`; site-http reads the body
/// into it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MarkRead {
    /// These ids, at most [`MAX_READ_IDS`]; ids of others' notifications are skipped.
    Ids(Vec<String>),
    /// All of the player's.
    All,
}

impl MarkRead {
    /// Checks the ids: 400 naming the first bad one, or too many.
    pub fn ids(ids: Vec<String>) -> Result<MarkRead, SiteError> {
        if ids.len() > MAX_READ_IDS {
            return Err(SiteError::bad_request(format!(
                "ids: {} ids, at most {MAX_READ_IDS} at once (or send {{\"all\": true}})",
                ids.len()
            )));
        }
        if let Some((i, bad)) = ids.iter().enumerate().find(|(_, id)| !valid_id(id)) {
            return Err(SiteError::bad_request(format!(
                "ids[{i}]: '{}' is not a notification id (letters and digits)",
                game::excerpt(bad)
            )));
        }
        Ok(MarkRead::Ids(ids))
    }
}

/// A notification id as made (`store::notifications`): 1-32 ASCII letters and digits.
fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 32 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

impl Notifications {
    /// The notifications on `store`.
    pub fn new(store: Store) -> Arc<Notifications> {
        Arc::new(Notifications {
            store,
            streams: StdMutex::new(HashMap::new()),
            relay: OnceLock::new(),
            poll_ms: AtomicU64::new(stream::POLL.as_millis() as u64),
            push: OnceLock::new(),
            push_wake: Notify::new(),
            mail: OnceLock::new(),
        })
    }

    /// Low-time reminders go by e-mail too, through `mail`.
    pub fn set_mail(&self, mail: Arc<dyn MailReminders>) {
        let _ = self.mail.set(mail);
    }

    /// The streams' longest wait between looks.
    pub fn poll(&self) -> Duration {
        Duration::from_millis(self.poll_ms.load(Ordering::Relaxed))
    }

    /// Sets [`Notifications::poll`] (a test lengthens it, to see that a wake-up, not the
    /// polling, brings a change).
    pub fn set_poll(&self, poll: Duration) {
        let ms = u64::try_from(poll.as_millis()).unwrap_or(u64::MAX).max(1);
        self.poll_ms.store(ms, Ordering::Relaxed);
    }

    /// Wakes the other processes' streams through `relay` from now on (`serve --redis`).
    pub fn set_relay(&self, relay: Arc<dyn Relay>) {
        let _ = self.relay.set(relay);
    }

    fn lock_streams(&self) -> std::sync::MutexGuard<'_, HashMap<TokenHash, Vec<Arc<Notify>>>> {
        // A poisoned map of wake-ups is still a map of wake-ups.
        self.streams.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// After the commit that stored `notes`: wakes their owners' streams, here and elsewhere.
    pub fn made(&self, notes: &[NewNotification]) {
        let mut owners: Vec<&TokenHash> = notes.iter().map(|n| &n.owner).collect();
        owners.sort();
        owners.dedup();
        for owner in owners {
            self.changed(owner);
        }
        if !notes.is_empty() {
            self.push_wake.notify_one();
        }
    }

    /// `owner`'s notifications changed through this process: its streams here and elsewhere
    /// look again.
    fn changed(&self, owner: &TokenHash) {
        self.wake(owner);
        if let Some(relay) = self.relay.get() {
            relay.relay(owner);
        }
    }

    /// Another process said `owner`'s notifications changed: its streams here look again.
    pub fn wake(&self, owner: &TokenHash) {
        if let Some(wakers) = self.lock_streams().get(owner) {
            for w in wakers {
                w.notify_one();
            }
        }
    }

    /// Stores `notes` (outside any other change: the reminders) and wakes their owners.
    pub async fn store(&self, notes: Vec<NewNotification>) -> Result<u64, SiteError> {
        let made = self.store.insert_notifications(&notes).await?;
        if made > 0 {
            self.made(&notes);
        }
        Ok(made)
    }

    /// `GET /api/notifications`.
    pub async fn list(&self, token: &PlayerToken) -> Result<NotificationList, SiteError> {
        self.newest(token, KEEP).await
    }

    /// The unread count and `token`'s newest `limit` notifications.
    pub async fn newest(
        &self,
        token: &PlayerToken,
        limit: i64,
    ) -> Result<NotificationList, SiteError> {
        let owner = token.hash();
        let rows = self.store.notifications(&owner, limit).await?;
        Ok(NotificationList {
            unread: self.store.unread_notifications(&owner).await?,
            items: rows.into_iter().map(NotificationItem::from).collect(),
        })
    }

    /// How many of `token`'s notifications are unread.
    pub async fn unread(&self, token: &PlayerToken) -> Result<i64, SiteError> {
        Ok(self.store.unread_notifications(&token.hash()).await?)
    }

    /// `POST /api/notifications/read`: marks them read; the unread count after.
    pub async fn mark_read(&self, token: &PlayerToken, mark: MarkRead) -> Result<i64, SiteError> {
        let owner = token.hash();
        let changed = match &mark {
            MarkRead::All => {
                self.store
                    .mark_notifications_read(&owner, ReadMark::All, now_ms())
                    .await?
            }
            MarkRead::Ids(ids) => {
                self.store
                    .mark_notifications_read(&owner, ReadMark::Ids(ids), now_ms())
                    .await?
            }
        };
        if changed > 0 {
            // The player's other tabs show the new count.
            self.changed(&owner);
        }
        Ok(self.store.unread_notifications(&owner).await?)
    }

    /// The challenge `id` to `owner` was answered: its notification is read. A failure is
    /// logged (the answer itself stands).
    pub async fn challenge_answered(&self, owner: &TokenHash, id: &str) {
        match self
            .store
            .mark_event_read(owner, &events::challenge_key(id), now_ms())
            .await
        {
            Ok(true) => self.changed(owner),
            Ok(false) => {}
            Err(e) => tracing::warn!(error = %e, "cannot mark a challenge's notification read"),
        }
    }

    /// Challenge `id` was withdrawn by its challenger: its notification is read.
    pub async fn challenge_withdrawn(&self, id: &str) {
        match self
            .store
            .mark_event_read_for_all(&events::challenge_key(id), now_ms())
            .await
        {
            Ok(owners) => owners.iter().for_each(|o| self.changed(o)),
            Err(e) => tracing::warn!(error = %e, "cannot mark a challenge's notification read"),
        }
    }

    /// `owner`'s "your move" of game `game` after ply `ply` was answered by a conditional
    /// premove: it is read. A failure is logged.
    pub async fn move_answered(&self, owner: &TokenHash, game: &str, ply: i64) {
        match self
            .store
            .mark_event_read(owner, &events::your_move_key(game, ply), now_ms())
            .await
        {
            Ok(true) => self.changed(owner),
            Ok(false) => {}
            Err(e) => tracing::warn!(error = %e, "cannot mark a move's notification read"),
        }
    }

    /// Registers a stream of `owner`: its wake-up; 503 `too_many` past the caps.
    fn open_stream(&self, owner: &TokenHash) -> Result<Arc<Notify>, SiteError> {
        let mut streams = self.lock_streams();
        let total: usize = streams.values().map(Vec::len).sum();
        let mine = streams.get(owner).map_or(0, Vec::len);
        if total >= MAX_STREAMS || mine >= MAX_STREAMS_PER_PLAYER {
            return Err(SiteError::new(
                ErrorCode::TooMany,
                format!(
                    "too many notification streams open (at most {MAX_STREAMS_PER_PLAYER} per \
                     player): close another tab"
                ),
            ));
        }
        let waker = Arc::new(Notify::new());
        streams
            .entry(owner.clone())
            .or_default()
            .push(waker.clone());
        Ok(waker)
    }

    /// Unregisters a stream of `owner`. The last one here of an account (`present`) ends its
    /// presence at once, not a TTL later; unless a page opened here meanwhile (a reload).
    fn close_stream(self: &Arc<Self>, owner: &TokenHash, waker: &Arc<Notify>, present: bool) {
        let mut streams = self.lock_streams();
        let Some(mine) = streams.get_mut(owner) else {
            return;
        };
        mine.retain(|w| !Arc::ptr_eq(w, waker));
        if !mine.is_empty() {
            return;
        }
        streams.remove(owner);
        drop(streams);
        if !present {
            return;
        }
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let this = self.clone();
        let owner = owner.clone();
        rt.spawn(async move {
            if this.lock_streams().contains_key(&owner) {
                return;
            }
            if let Err(e) = this.store.end_site_presence(owner.as_str()).await {
                tracing::warn!(error = %e, "cannot end a player's presence");
            }
        });
    }

    /// Whether the account whose token hashes to `player` has a page of the site open, in any
    /// process: a notification stream that said so within [`stream::PRESENCE_TTL_MS`].
    pub async fn is_online(&self, player: &TokenHash) -> Result<bool, SiteError> {
        Ok(self
            .store
            .site_present(player.as_str(), site_store::now_ms())
            .await?)
    }

    /// The players with a notification stream open in this process now. A graceful stop reads
    /// them before it closes the connections, and ends their presence after
    /// ([`Notifications::end_presence`]).
    pub fn stream_owners(&self) -> Vec<TokenHash> {
        self.lock_streams().keys().cloned().collect()
    }

    /// Ends the presence of `owners` (a graceful stop: the last of their pages here closed with
    /// the process, and the spawned ends of [`Self::close_stream`] may not run). A page of
    /// theirs in another process puts the row back at its next refresh. Stops at the first
    /// storage error (logged): the rows run out by their TTL anyway.
    pub async fn end_presence(&self, owners: &[TokenHash]) {
        for owner in owners {
            if let Err(e) = self.store.end_site_presence(owner.as_str()).await {
                tracing::warn!(error = %e, "cannot end the players' presence at the stop");
                return;
            }
        }
    }

    /// Notification streams open in this process (diagnostics, tests).
    pub fn open_streams(&self) -> usize {
        self.lock_streams().values().map(Vec::len).sum()
    }
}
