//! Live updates across processes (issue 12): with `serve --redis URL`, every stored change of
//! a game is announced on the Redis channel [`CHANNEL`] after its commit, as
//! `<process> <game id> <version>`, and every change of a player's notifications as
//! `<process> notify <owner's token hash>` (issue 38: that player's notification streams in
//! other processes look again), and every chat message stored as `<process> chat <id>` (issue
//! 41: the other processes read it and deliver it to their game sockets and tournament and
//! lobby streams), and every end of sessions as `<process> session <account id>` (issue 41,
//! round 3: the other processes forget the account's cached sessions and close their sockets
//! and streams of the ended sessions at once); every process that holds the game in memory
//! reloads it
//! from the database (the database is the truth, the message only says "look") and sends the
//! new state to its own WebSockets, which send each ply once and in order (`routes/ws.rs`,
//! `Delivered`). As lichess's lila and lila-ws talk through Redis pub/sub.
//!
//! Redis going down loses nothing: moves are stored and answered as before; the process logs
//! one line, and until Redis is back it compares the stored version of every watched game
//! each [`FALLBACK_POLL`] (the sockets resync from the database). When the subscription is
//! back, every watched game is resynced once more, for what was published meanwhile, and
//! every other game in memory is dropped (its next use reads the database). An
//! announcement Redis does not take (down, or stalled by `CLIENT PAUSE` or a slow command) is
//! kept and sent again until it is, and `/healthz` answers 503 meanwhile.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::{mpsc, watch};

use site::accounts::{SessionRelay, Sessions};
use site::chat::{Chat, ChatRelay};
use site::notifications::{Notifications, Relay};
use site::play::{Announcer, GameService};
use site_model::secrets::TokenHash;

/// The channel of game changes.
pub const CHANNEL: &str = "icebound:games";
/// How often watched games are compared with the database while Redis is unreachable.
pub const FALLBACK_POLL: Duration = Duration::from_secs(1);
/// Announcements waiting to be published; past it the oldest wait is not kept (the other
/// processes' fallback catches up).
const QUEUE: usize = 65_536;
/// Wait before reconnecting to Redis.
const RECONNECT: Duration = Duration::from_millis(500);
/// Longest wait for Redis to take one announcement before the bus counts as failing (and the
/// announcement is sent again).
const PUBLISH_WAIT: Duration = Duration::from_secs(2);

/// This process's side of the bus.
pub struct Bus {
    origin: String,
    tx: mpsc::Sender<String>,
    /// The subscription is live.
    up: AtomicBool,
    /// Announcements are taken by Redis (none waiting past [`PUBLISH_WAIT`]).
    publishing: AtomicBool,
}

/// `redis://...` that does not parse.
#[derive(Debug, thiserror::Error)]
#[error("Redis URL '{url}': {reason}")]
pub struct BadRedisUrl {
    url: String,
    reason: String,
}

impl Announcer for Bus {
    /// Announces that game `id` is now at `version` (after its commit).
    fn announce(&self, id: &str, version: i64) {
        // Full queue or Redis gone: the others' fallback polling sees the change.
        let _ = self.tx.try_send(format!("{} {id} {version}", self.origin));
    }

    /// Whether the subscription is live and announcements are taken (`/healthz`).
    fn is_up(&self) -> bool {
        self.up.load(Ordering::SeqCst) && self.publishing.load(Ordering::SeqCst)
    }
}

impl Relay for Bus {
    /// Says `owner`'s notifications changed (after the commit that changed them).
    fn relay(&self, owner: &TokenHash) {
        // Lost: the streams' own polling sees the change within its period.
        let _ = self
            .tx
            .try_send(format!("{} notify {}", self.origin, owner.as_str()));
    }
}

impl ChatRelay for Bus {
    /// Says chat message `id` is stored (after its commit).
    fn relay_chat(&self, id: &str) {
        // Lost (Redis down, queue full): readers elsewhere see it in the history.
        let _ = self.tx.try_send(format!("{} chat {id}", self.origin));
    }
}

impl SessionRelay for Bus {
    /// Says sessions of account `id` ended (after the commit that ended them).
    fn relay_session_end(&self, id: &str) {
        // Lost (Redis down, queue full): the other processes' caches expire within
        // `SESSION_CACHE`, and their sockets see the end at their next frame.
        let _ = self.tx.try_send(format!("{} session {id}", self.origin));
    }
}

impl Bus {
    /// Starts publishing and listening on `url` for `service` (whose process id marks our own
    /// messages), `chat` and `sessions`. The URL is checked now; Redis itself may come later:
    /// the tasks retry.
    pub fn start(
        url: &str,
        service: &Arc<GameService>,
        chat: &Arc<Chat>,
        sessions: Option<&Arc<Sessions>>,
        shutdown: watch::Receiver<bool>,
    ) -> Result<Arc<Bus>, BadRedisUrl> {
        let notifications = Arc::downgrade(service.notifications());
        let client = redis::Client::open(url).map_err(|e| BadRedisUrl {
            url: site_store::redacted_url(url),
            reason: e.to_string(),
        })?;
        let (tx, rx) = mpsc::channel(QUEUE);
        let bus = Arc::new(Bus {
            origin: service.process_id().to_string(),
            tx,
            up: AtomicBool::new(false),
            publishing: AtomicBool::new(true),
        });
        tokio::spawn(publish(
            client.clone(),
            Arc::downgrade(&bus),
            rx,
            shutdown.clone(),
        ));
        tokio::spawn(listen(
            client,
            Arc::downgrade(&bus),
            Arc::downgrade(service),
            notifications,
            Arc::downgrade(chat),
            sessions.map(Arc::downgrade),
            shutdown,
        ));
        Ok(bus)
    }

    fn set_publishing(&self, ok: bool) {
        self.publishing.store(ok, Ordering::SeqCst);
        if ok {
            tracing::info!("Redis takes announcements again: the ones waiting are sent");
        } else {
            tracing::error!(
                "Redis does not take announcements (down or stalled): they wait and are sent \
                 again; other processes' sockets see this process's moves late meanwhile"
            );
        }
    }

    fn set_up(&self, up: bool) {
        let was = self.up.swap(up, Ordering::SeqCst);
        if was && !up {
            tracing::error!(
                "Redis unreachable: live updates from other processes now come by polling the \
                 database every second; moves are still stored and answered"
            );
        } else if !was && up {
            tracing::info!("Redis reachable: live updates across processes by pub/sub");
        }
    }
}

async fn publish(
    client: redis::Client,
    bus: Weak<Bus>,
    mut rx: mpsc::Receiver<String>,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut conn: Option<redis::aio::MultiplexedConnection> = None;
    // No response timeout of the client's own: a paused or slow Redis executes a command late,
    // and dropping the connection on a timeout would drop the command with it. PUBLISH_WAIT
    // bounds the wait instead, and the message is kept and sent again until Redis takes it:
    // a message is only "look at this game again", so a late or repeated one is harmless.
    let config = redis::AsyncConnectionConfig::new().set_response_timeout(None);
    let mut failing = false;
    loop {
        let message = tokio::select! {
            m = rx.recv() => match m { Some(m) => m, None => return },
            _ = shutdown.changed() => return,
        };
        loop {
            if conn.is_none() {
                conn = client
                    .get_multiplexed_async_connection_with_config(&config)
                    .await
                    .ok();
            }
            let sent = match conn.as_mut() {
                Some(c) => {
                    let mut command = redis::cmd("PUBLISH");
                    command.arg(CHANNEL).arg(&message);
                    let publish = command.query_async::<i64>(c);
                    matches!(tokio::time::timeout(PUBLISH_WAIT, publish).await, Ok(Ok(_)))
                }
                None => false,
            };
            if sent {
                if failing {
                    failing = false;
                    if let Some(b) = bus.upgrade() {
                        b.set_publishing(true);
                    }
                }
                break;
            }
            conn = None;
            if !failing {
                failing = true;
                if let Some(b) = bus.upgrade() {
                    b.set_publishing(false);
                }
            }
            tokio::select! {
                _ = tokio::time::sleep(RECONNECT) => {}
                _ = shutdown.changed() => return,
            }
        }
    }
}

async fn listen(
    client: redis::Client,
    bus: Weak<Bus>,
    service: Weak<GameService>,
    notifications: Weak<Notifications>,
    chat: Weak<Chat>,
    sessions: Option<Weak<Sessions>>,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut first = true;
    loop {
        if *shutdown.borrow() {
            return;
        }
        let subscribed = match client.get_async_pubsub().await {
            Ok(mut p) => p.subscribe(CHANNEL).await.map(|()| p),
            Err(e) => Err(e),
        };
        match subscribed {
            Ok(pubsub) => {
                let Some(b) = bus.upgrade() else { return };
                b.set_up(true);
                let origin = b.origin.clone();
                drop(b);
                if !first {
                    // What was published while we were away, including for games in memory
                    // without a socket (the fallback polling covers only watched games).
                    if let Some(s) = service.upgrade() {
                        s.resync_after_outage().await;
                    }
                }
                first = false;
                let mut messages = pubsub.into_on_message();
                loop {
                    tokio::select! {
                        m = messages.next() => {
                            let Some(m) = m else { break };
                            let Ok(text) = m.get_payload::<String>() else { continue };
                            let Some(s) = service.upgrade() else { return };
                            match parse(&text, &origin) {
                                Some(Message::Game(id, version)) => {
                                    s.remote_change(id, version).await;
                                }
                                Some(Message::Notify(owner)) => {
                                    if let Some(n) = notifications.upgrade() {
                                        n.wake(&owner);
                                    }
                                }
                                Some(Message::Chat(id)) => {
                                    if let Some(c) = chat.upgrade() {
                                        c.remote(id).await;
                                    }
                                }
                                Some(Message::Session(id)) => {
                                    if let Some(s) = sessions.as_ref().and_then(Weak::upgrade) {
                                        s.remote_end(id);
                                    }
                                }
                                None => {}
                            }
                        }
                        _ = shutdown.changed() => return,
                    }
                }
                if let Some(b) = bus.upgrade() {
                    b.set_up(false);
                }
            }
            Err(e) => {
                if first {
                    tracing::error!(error = %e, "Redis unreachable at start; retrying");
                    first = false;
                }
                if let Some(b) = bus.upgrade() {
                    b.set_up(false);
                }
            }
        }
        // Down: keep the watched games fresh from the database until the subscription is back.
        let Some(s) = service.upgrade() else { return };
        s.resync_watched().await;
        drop(s);
        tokio::select! {
            _ = tokio::time::sleep(RECONNECT.max(FALLBACK_POLL)) => {}
            _ = shutdown.changed() => return,
        }
    }
}

/// A message of another process.
#[derive(Debug, PartialEq, Eq)]
enum Message<'a> {
    /// `<origin> <id> <version>`: game `id` is at `version`.
    Game(&'a str, i64),
    /// `<origin> notify <owner>`: `owner`'s notifications changed.
    Notify(TokenHash),
    /// `<origin> chat <id>`: chat message `id` is stored.
    Chat(&'a str),
    /// `<origin> session <account id>`: sessions of the account ended.
    Session(&'a str),
}

/// A message from another process; `None` for ours or a malformed one.
fn parse<'a>(text: &'a str, own: &str) -> Option<Message<'a>> {
    let mut parts = text.split(' ');
    let origin = parts.next()?;
    let first = parts.next()?;
    let second = parts.next()?;
    if origin == own || parts.next().is_some() {
        return None;
    }
    if first == "chat" {
        let ok =
            (1..=32).contains(&second.len()) && second.bytes().all(|b| b.is_ascii_alphanumeric());
        return ok.then_some(Message::Chat(second));
    }
    if first == "session" {
        let ok =
            (1..=64).contains(&second.len()) && second.bytes().all(|b| b.is_ascii_alphanumeric());
        return ok.then_some(Message::Session(second));
    }
    if first == "notify" {
        let hex = second.len() == 64 && second.bytes().all(|b| b.is_ascii_hexdigit());
        return hex.then(|| Message::Notify(TokenHash::from_stored(second.to_string())));
    }
    Some(Message::Game(first, second.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::{Message, parse};

    #[test]
    fn messages_of_other_processes_are_read_and_ours_skipped() {
        assert_eq!(parse("p2 abc123 7", "p1"), Some(Message::Game("abc123", 7)));
        let owner = "ab".repeat(32);
        assert!(matches!(
            parse(&format!("p2 notify {owner}"), "p1"),
            Some(Message::Notify(h)) if h.as_str() == owner
        ));
        assert_eq!(parse(&format!("p1 notify {owner}"), "p1"), None);
        assert_eq!(parse("p2 notify not-a-hash", "p1"), None);
        assert_eq!(parse("p2 chat Ab12cd", "p1"), Some(Message::Chat("Ab12cd")));
        assert_eq!(parse("p1 chat Ab12cd", "p1"), None);
        assert_eq!(parse("p2 chat no-such!", "p1"), None);
        assert_eq!(
            parse("p2 session Ab12cd", "p1"),
            Some(Message::Session("Ab12cd"))
        );
        assert_eq!(parse("p1 session Ab12cd", "p1"), None);
        assert_eq!(parse("p2 session no-such!", "p1"), None);
        assert_eq!(parse("p1 abc123 7", "p1"), None);
        assert_eq!(parse("p2 abc123", "p1"), None);
        assert_eq!(parse("p2 abc123 x", "p1"), None);
        assert_eq!(parse("p2 abc 1 extra", "p1"), None);
    }
}
