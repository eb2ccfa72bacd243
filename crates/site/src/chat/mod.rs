//! Chat (issue 41): a game's players' and watchers' rooms, a room per tournament, the lobby's
//! room. Messages are stored (site-store's `chat_messages`) and delivered live to the
//! subscribers of their room in this process ([`Chat::subscribe_game`],
//! [`Chat::subscribe_room`]): the game's socket, the tournament's and the lobby's streams.
//! Other processes hear of a message through the [`ChatRelay`] port (the server's Redis bus
//! says `<process> chat <id>`) and deliver it from the store to their own subscribers
//! ([`Chat::remote`]). Each reader gets a message only if [`Chat::visible`]
//! says so: the players' room to the two players alone, the watchers' room to the players
//! only once their game is over, nothing to a reader who turned chat
//! off, nothing from an account the reader blocks (the author is not told).
//!
//! Sending ([`Chat::send`]) checks, in order: the sender's chat setting (403 `chat_off`), the
//! room (403 `not_a_player` for the players' room, 403 `watchers_closed` for a player
//! writing in the watchers' room of their game in progress, 401 `not_logged_in` for an
//! anonymous player outside their own game), the mute (403 `muted`), the text (400 for control and
//! direction characters, 413 `too_large` past [`MAX_CHAT_TEXT`]), free text's conditions
//! (403 `chat_not_allowed`: an account at least 10 minutes old with a finished game; canned
//! phrases need neither), and the rate (429 `rate_limited` past
//! [`site_model::chat::CHAT_RATE_COUNT`] messages in
//! [`site_model::chat::CHAT_RATE_WINDOW_MS`], counted in the store in the transaction that
//! stores the message: across processes).

mod removal;
mod rules;

pub use removal::RemovedChat;

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex as StdMutex, OnceLock};

use serde::Serialize;
use site_model::chat::{CHAT_HISTORY, CHAT_MIN_ACCOUNT_AGE_MS, GameRoom, Phrase};
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::PlayerToken;
use site_model::state::GameStatus;
use site_store::{ChatReader, ChatRow, Store, now_ms};
use tokio::sync::broadcast;

use crate::accounts::Account;
use crate::play::{GameService, GameSlot};
use crate::social::Social;
use crate::social::reports::NewReport;
use crate::view::seat_of;

/// Messages kept for a slow subscriber before it skips (it can read the history).
const CHANNEL: usize = 64;

/// A chat room.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Room {
    /// A game's room.
    Game {
        /// The game's id.
        id: String,
        /// Which of its two.
        room: GameRoom,
    },
    /// A tournament's room (entrants and watchers).
    Tournament(String),
    /// The lobby's room.
    Lobby,
}

impl Room {
    /// The key it is stored under.
    pub fn key(&self) -> String {
        match self {
            Room::Game { id, room } => format!("game:{id}:{room}"),
            Room::Tournament(id) => format!("tournament:{id}"),
            Room::Lobby => "lobby".to_string(),
        }
    }

    /// The live channel it is delivered on: a game's two rooms share one (its socket reads
    /// both).
    fn channel(&self) -> String {
        match self {
            Room::Game { id, .. } => format!("game:{id}"),
            other => other.key(),
        }
    }

    /// The room of a stored key.
    fn of_key(key: &str) -> Option<Room> {
        if key == "lobby" {
            return Some(Room::Lobby);
        }
        if let Some(id) = key.strip_prefix("tournament:") {
            return Some(Room::Tournament(id.to_string()));
        }
        let rest = key.strip_prefix("game:")?;
        let (id, room) = rest.split_once(':')?;
        Some(Room::Game {
            id: id.to_string(),
            room: GameRoom::parse(room)?,
        })
    }

    /// The room's name as sent: `players`, `watchers`, `tournament` or `lobby`.
    fn name(&self) -> &'static str {
        match self {
            Room::Game { room, .. } => room.as_str(),
            Room::Tournament(_) => "tournament",
            Room::Lobby => "lobby",
        }
    }
}

/// What a message says: free text or a canned phrase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// Free text, as sent (checked by [`Chat::send`]).
    Text(String),
    /// A canned phrase.
    Phrase(Phrase),
}

/// A chat message as readers get it (`{"type":"chat","message":...}` on a game's socket, the
/// `chat` event of the tournament and lobby streams, the lists of the history).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChatMessage {
    /// Its id (for a report: `POST /api/reports` `message`).
    pub id: String,
    /// `players`, `watchers`, `tournament` or `lobby`.
    pub room: &'static str,
    /// The author's account name; `null` for an anonymous player.
    pub author: Option<String>,
    /// Free text: show it as text, never as HTML.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A canned phrase's code, shown in the reader's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phrase: Option<Phrase>,
    /// When it was sent, Unix ms.
    pub at: i64,
}

/// A stored message on its way to the readers of its room.
#[derive(Debug, Clone)]
pub struct ChatEvent {
    row: ChatRow,
    room: Room,
}

impl ChatEvent {
    /// The message as readers get it.
    pub fn message(&self) -> ChatMessage {
        view_of(&self.row, &self.room)
    }
}

fn view_of(row: &ChatRow, room: &Room) -> ChatMessage {
    ChatMessage {
        id: row.id.clone(),
        room: room.name(),
        author: row.author_name.clone(),
        text: row.text.clone(),
        phrase: row.phrase.as_deref().and_then(Phrase::parse),
        at: row.created_at,
    }
}

/// Who reads or writes: a player token's hash and its account, if any.
#[derive(Debug, Clone)]
pub struct Reader {
    token: PlayerToken,
    account: Option<site_store::AccountRow>,
}

impl Reader {
    /// The account's id, if the reader is one.
    pub fn account_id(&self) -> Option<&str> {
        self.account.as_ref().map(|a| a.id.as_str())
    }
}

/// A game's chat as `GET /api/games/{id}/chat` answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameChat {
    /// The players' room: present for the two players alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<ChatMessage>>,
    /// The watchers' room.
    pub watchers: Vec<ChatMessage>,
    /// The reader turned chat off: both lists are empty.
    pub chat_off: bool,
    /// For the two players alone: whether the reader muted the other player's chat in this
    /// game (`PUT /api/games/{id}/chat/mute`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opponent_muted: Option<bool>,
    /// `true` for a player of the game while it is in progress: the watchers' room is
    /// closed to the players until the end (`watchers` is empty); absent otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub watchers_hidden: bool,
}

/// A tournament's or the lobby's chat history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoomChat {
    /// The newest messages, oldest first.
    pub messages: Vec<ChatMessage>,
    /// The reader turned chat off: the list is empty.
    pub chat_off: bool,
}

/// Tells the other processes that a chat message was stored (after its commit); they read it
/// from the store and deliver it to their subscribers ([`Chat::remote`]). The server's Redis
/// bus implements it.
pub trait ChatRelay: Send + Sync {
    /// Message `id` is stored.
    fn relay_chat(&self, id: &str);
}

/// The chat of one site process.
pub struct Chat {
    play: Arc<GameService>,
    store: Store,
    channels: StdMutex<HashMap<String, broadcast::Sender<Arc<ChatEvent>>>>,
    /// The other processes, when there are (`serve --redis`).
    relay: OnceLock<Arc<dyn ChatRelay>>,
    /// Free text's least account age, ms ([`CHAT_MIN_ACCOUNT_AGE_MS`]; a test lowers it).
    min_age_ms: AtomicI64,
}

impl Chat {
    /// The chat on play's store.
    pub fn new(play: Arc<GameService>) -> Arc<Chat> {
        Arc::new(Chat {
            store: play.store().clone(),
            play,
            channels: StdMutex::new(HashMap::new()),
            relay: OnceLock::new(),
            min_age_ms: AtomicI64::new(CHAT_MIN_ACCOUNT_AGE_MS),
        })
    }

    /// Tells the other processes of each message through `relay` from now on.
    pub fn set_relay(&self, relay: Arc<dyn ChatRelay>) {
        let _ = self.relay.set(relay);
    }

    /// Another process stored (or a moderator there removed) message `id`: delivers it (or
    /// its removal) to this process's subscribers of its room (read from the store, the
    /// truth; an unknown id or room is ignored).
    pub async fn remote(&self, id: &str) {
        match self.store.chat_message(id).await {
            Ok(Some(row)) => {
                if let Some(room) = Room::of_key(&row.room) {
                    self.publish(ChatEvent { row, room });
                }
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(error = %e, "cannot read another process's chat message"),
        }
    }

    /// Sets the least account age of free text (ms); a test sets 0.
    pub fn set_min_account_age(&self, ms: i64) {
        self.min_age_ms.store(ms, Ordering::Relaxed);
    }

    /// The reader of `token`: its account, if it is one.
    pub async fn reader(&self, token: &PlayerToken) -> Result<Reader, SiteError> {
        let account = self.store.account_by_player_hash(&token.hash()).await?;
        Ok(Reader {
            token: token.clone(),
            account,
        })
    }

    /// The messages of the room on `channel` from now on.
    fn subscribe_channel(&self, channel: String) -> broadcast::Receiver<Arc<ChatEvent>> {
        let mut channels = self
            .channels
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Channels nobody reads any more go when the map grows.
        if channels.len() > 1024 {
            channels.retain(|_, tx| tx.receiver_count() > 0);
        }
        channels
            .entry(channel)
            .or_insert_with(|| broadcast::channel(CHANNEL).0)
            .subscribe()
    }

    /// A game's two rooms from now on (its socket).
    pub fn subscribe_game(&self, id: &str) -> broadcast::Receiver<Arc<ChatEvent>> {
        self.subscribe_channel(format!("game:{id}"))
    }

    /// A tournament's room or the lobby's (`None`) from now on (their streams).
    pub fn subscribe_room(&self, tournament: Option<&str>) -> broadcast::Receiver<Arc<ChatEvent>> {
        let room = match tournament {
            Some(id) => Room::Tournament(id.to_string()),
            None => Room::Lobby,
        };
        self.subscribe_channel(room.channel())
    }

    fn publish(&self, event: ChatEvent) {
        let channel = event.room.channel();
        let mut channels = self
            .channels
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(tx) = channels.get(&channel) {
            if tx.receiver_count() == 0 {
                channels.remove(&channel);
            } else {
                let _ = tx.send(Arc::new(event));
            }
        }
    }

    /// What `reader`'s settings hide (nothing for an anonymous reader).
    async fn hides(&self, reader: &Reader) -> Result<ChatReader, SiteError> {
        match reader.account_id() {
            Some(id) => Ok(self.store.chat_reader(id).await?),
            None => Ok(ChatReader::default()),
        }
    }

    /// Whether `event` reaches `reader` (a socket's or stream's), with `slot` the game of a
    /// game socket: the players' room to its players alone; nothing when the reader turned
    /// chat off or blocks the author.
    pub async fn visible(
        &self,
        event: &ChatEvent,
        reader: &Reader,
        slot: Option<&GameSlot>,
    ) -> bool {
        if let Room::Game {
            room: GameRoom::Players,
            ..
        } = event.room
        {
            let Some(slot) = slot else { return false };
            let snap = self.play.snapshot(slot).await;
            if seat_of(&snap.row, &reader.token).is_none() {
                return false;
            }
        }
        // A removal says only which message goes: every reader of the room drops it.
        if event.is_removal() {
            return true;
        }
        if let Room::Game {
            room: GameRoom::Watchers,
            ..
        } = event.room
            && let Some(slot) = slot
            && watchers_closed_to(&self.play.snapshot(slot).await.row, &reader.token)
        {
            return false;
        }
        let hides = match (&event.room, self.hides(reader).await) {
            (Room::Game { id, .. }, Ok(mut h)) => {
                match self
                    .store
                    .game_mutes(id, reader.token.hash().as_str())
                    .await
                {
                    Ok(m) => {
                        h.muted = m;
                        Ok(h)
                    }
                    Err(e) => Err(SiteError::from(e)),
                }
            }
            (_, h) => h,
        };
        match hides {
            Ok(h) => !hidden(&h, &event.row),
            Err(e) => {
                tracing::warn!(error = %e.message, "cannot read a reader's chat settings");
                false
            }
        }
    }

    /// `GET /api/games/{id}/chat`: the watchers' room, and the players' room for the two
    /// players. 404 for an unknown game.
    pub async fn game_history(&self, id: &str, token: &PlayerToken) -> Result<GameChat, SiteError> {
        let slot = self.play.slot(id).await?;
        let snap = self.play.snapshot(&slot).await;
        let reader = self.reader(token).await?;
        let mut hides = self.hides(&reader).await?;
        let player = seat_of(&snap.row, token).is_some();
        hides.muted = self
            .store
            .game_mutes(&snap.row.id, token.hash().as_str())
            .await?;
        let opponent_muted = match opponent_of(&snap.row, token) {
            Some(o) if player => Some(hides.muted.iter().any(|m| m == o.as_str())),
            _ => player.then_some(false),
        };
        if hides.chat_off {
            return Ok(GameChat {
                players: player.then(Vec::new),
                watchers: Vec::new(),
                chat_off: true,
                opponent_muted,
                watchers_hidden: watchers_closed_to(&snap.row, token),
            });
        }
        let id = snap.row.id.clone();
        let players = if player {
            Some(
                self.history(
                    &Room::Game {
                        id: id.clone(),
                        room: GameRoom::Players,
                    },
                    &hides,
                )
                .await?,
            )
        } else {
            None
        };
        let watchers_hidden = watchers_closed_to(&snap.row, token);
        let watchers = if watchers_hidden {
            Vec::new()
        } else {
            self.history(
                &Room::Game {
                    id,
                    room: GameRoom::Watchers,
                },
                &hides,
            )
            .await?
        };
        Ok(GameChat {
            players,
            watchers,
            chat_off: false,
            opponent_muted,
            watchers_hidden,
        })
    }

    /// A tournament's (`Some(id)`) or the lobby's chat history. 404 for an unknown tournament.
    pub async fn room_history(
        &self,
        tournament: Option<&str>,
        token: &PlayerToken,
    ) -> Result<RoomChat, SiteError> {
        let room = self.room_of(tournament).await?;
        let reader = self.reader(token).await?;
        let hides = self.hides(&reader).await?;
        if hides.chat_off {
            return Ok(RoomChat {
                messages: Vec::new(),
                chat_off: true,
            });
        }
        Ok(RoomChat {
            messages: self.history(&room, &hides).await?,
            chat_off: false,
        })
    }

    async fn room_of(&self, tournament: Option<&str>) -> Result<Room, SiteError> {
        match tournament {
            None => Ok(Room::Lobby),
            Some(id) => match self.store.tournament(id).await? {
                Some(t) => Ok(Room::Tournament(t.id)),
                None => Err(SiteError::new(
                    ErrorCode::NotFound,
                    format!("no tournament has the id '{id}'"),
                )),
            },
        }
    }

    async fn history(
        &self,
        room: &Room,
        hides: &ChatReader,
    ) -> Result<Vec<ChatMessage>, SiteError> {
        let rows = self.store.chat_history(&room.key(), CHAT_HISTORY).await?;
        Ok(rows
            .iter()
            .filter(|r| !hidden(hides, r))
            .map(|r| view_of(r, room))
            .collect())
    }

    /// Sends `content` from `token` to a game's `room` (its socket's chat message). The
    /// errors are in the module's documentation.
    pub async fn send_game(
        &self,
        id: &str,
        room: GameRoom,
        token: &PlayerToken,
        content: Content,
    ) -> Result<ChatMessage, SiteError> {
        let slot = self.play.slot(id).await?;
        let snap = self.play.snapshot(&slot).await;
        let player = seat_of(&snap.row, token).is_some();
        let reader = self.reader(token).await?;
        if room == GameRoom::Players && !player {
            return Err(SiteError::new(
                ErrorCode::NotAPlayer,
                "room: the players' room is the two players' alone; watchers write in \"watchers\"",
            ));
        }
        if room == GameRoom::Watchers && watchers_closed_to(&snap.row, token) {
            return Err(SiteError::new(
                ErrorCode::WatchersClosed,
                "room: the watchers' room is closed to the players until the game ends; \
                 write in \"players\"",
            ));
        }
        // An anonymous player may send the canned phrases to their own game; an anonymous
        // watcher nothing.
        // An anonymous player writes in its own game's players' room only: in the watchers'
        // room its line would have no author to block or report (third hostile round, 13).
        if reader.account.is_none() && (!player || room == GameRoom::Watchers) {
            return Err(SiteError::new(
                ErrorCode::NotLoggedIn,
                "log in first: the watchers' chat is for accounts",
            ));
        }
        let room = Room::Game {
            id: snap.row.id.clone(),
            room,
        };
        self.send(room, Some(snap.row.id.clone()), &reader, content)
            .await
    }

    /// Sends `content` from `token` to a tournament's room or the lobby's (`None`); accounts
    /// alone. The errors are in the module's documentation; 404 for an unknown tournament.
    pub async fn send_room(
        &self,
        tournament: Option<&str>,
        token: &PlayerToken,
        content: Content,
    ) -> Result<ChatMessage, SiteError> {
        let room = self.room_of(tournament).await?;
        let reader = self.reader(token).await?;
        if reader.account.is_none() {
            return Err(SiteError::new(
                ErrorCode::NotLoggedIn,
                "log in first: this chat is for accounts",
            ));
        }
        self.send(room, None, &reader, content).await
    }

    async fn send(
        &self,
        room: Room,
        game_id: Option<String>,
        reader: &Reader,
        content: Content,
    ) -> Result<ChatMessage, SiteError> {
        let hides = self.hides(reader).await?;
        if hides.chat_off {
            return Err(SiteError::new(
                ErrorCode::ChatOff,
                "you turned chat off: turn it on (PUT /api/me/chat) to send",
            ));
        }
        let now = now_ms();
        let (text, phrase) = self.check_content(reader, content, now).await?;
        let row = ChatRow {
            id: crate::play::random_token(12),
            room: room.key(),
            game_id,
            author_id: reader.account.as_ref().map(|a| a.id.clone()),
            author_hash: reader.token.hash().into_string(),
            author_name: reader.account.as_ref().map(|a| a.username.clone()),
            text,
            phrase: phrase.map(|p| p.as_str().to_string()),
            created_at: now,
            removed_at: None,
        };
        self.store_within_rate(&row).await?;
        let id = row.id.clone();
        let event = ChatEvent { row, room };
        let message = event.message();
        self.publish(event);
        if let Some(relay) = self.relay.get() {
            relay.relay_chat(&id);
        }
        Ok(message)
    }

    /// Whether the message `id` is stored and `token`'s reader may see it (a report names
    /// it); 404 otherwise, the same for both (a hidden message is not told apart).
    pub async fn seen_message(&self, id: &str, token: &PlayerToken) -> Result<ChatRow, SiteError> {
        let missing = || {
            SiteError::new(
                ErrorCode::NotFound,
                format!("message: no chat message '{id}' that you can see"),
            )
        };
        if !(1..=32).contains(&id.len()) || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(SiteError::bad_request(
                "message: a message id is 1 to 32 letters and digits",
            ));
        }
        let row = self
            .store
            .chat_message(id)
            .await?
            .filter(|r| r.removed_at.is_none())
            .ok_or_else(missing)?;
        let room = Room::of_key(&row.room).ok_or_else(missing)?;
        let reader = self.reader(token).await?;
        if let Room::Game { id: game, room } = &room {
            let slot = self.play.slot(game).await?;
            let snap = self.play.snapshot(&slot).await;
            let unseen = match room {
                GameRoom::Players => seat_of(&snap.row, token).is_none(),
                GameRoom::Watchers => watchers_closed_to(&snap.row, token),
            };
            if unseen {
                return Err(missing());
            }
        }
        let hides = self.hides(&reader).await?;
        // A reader with chat off still reports what they saw before: only blocks hide here.
        if row
            .author_id
            .as_ref()
            .is_some_and(|a| hides.blocked.contains(a))
        {
            return Err(missing());
        }
        Ok(row)
    }

    /// `GET /api/me/chat`: whether the account turned chat off.
    pub async fn setting(&self, account_id: &str) -> Result<bool, SiteError> {
        Ok(self.store.chat_reader(account_id).await?.chat_off)
    }

    /// `PUT /api/me/chat`: turns chat off or on for all the account's games and rooms.
    pub async fn set_setting(&self, account_id: &str, off: bool) -> Result<(), SiteError> {
        Ok(self.store.set_chat_off(account_id, off).await?)
    }
}

/// Whether `hides` hides `row`.
fn hidden(hides: &ChatReader, row: &ChatRow) -> bool {
    hides.chat_off
        || hides.muted.contains(&row.author_hash)
        || row
            .author_id
            .as_ref()
            .is_some_and(|a| hides.blocked.contains(a))
}

/// Whether the watchers' room of game `row` is closed to `token`: it holds a seat of the
/// game and the game is in progress (lichess hides the spectators' room from the players
/// until the end: no watcher feeds a player moves).
fn watchers_closed_to(row: &site_store::GameRow, token: &PlayerToken) -> bool {
    row.status == GameStatus::Ongoing && seat_of(row, token).is_some()
}

/// The other player's seat token of `row` for `token`'s player (`None` for a watcher, a
/// player of both seats or an open seat).
fn opponent_of(
    row: &site_store::GameRow,
    token: &PlayerToken,
) -> Option<site_model::secrets::TokenHash> {
    let hash = token.hash();
    let (w, b) = (row.white.token.as_ref(), row.black.token.as_ref());
    if w == Some(&hash) && b != Some(&hash) {
        b.cloned()
    } else if b == Some(&hash) && w != Some(&hash) {
        w.cloned()
    } else {
        None
    }
}

impl Chat {
    /// `PUT /api/games/{id}/chat/mute` `{"mute": bool}`: a player of game `id` mutes (or
    /// unmutes) the other player's chat in this game alone, both rooms, live and in the
    /// history; the other player is not told. Anonymous players too: the per-game answer to a
    /// block, which binds accounts alone. 403 `not_a_player` for a watcher; 409 `conflict`
    /// while the other seat is open; 404 for an unknown game. Answers the setting.
    pub async fn mute_opponent(
        &self,
        id: &str,
        token: &PlayerToken,
        mute: bool,
    ) -> Result<bool, SiteError> {
        let slot = self.play.slot(id).await?;
        let snap = self.play.snapshot(&slot).await;
        if seat_of(&snap.row, token).is_none() {
            return Err(SiteError::new(
                ErrorCode::NotAPlayer,
                "mute: only a player of the game mutes the other player",
            ));
        }
        let Some(other) = opponent_of(&snap.row, token) else {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "mute: the game has no other player yet",
            ));
        };
        self.store
            .set_game_mute(&snap.row.id, token.hash().as_str(), other.as_str(), mute)
            .await?;
        Ok(mute)
    }
}

impl Chat {
    /// `POST /api/reports` with a `message`: the message must be stored, seen by the
    /// reporter (`token`: 404 otherwise, a hidden one alike) and written by the reported
    /// player (400 otherwise); then the report is made as any other ([`Social::report`]).
    pub async fn report(
        &self,
        social: &Social,
        me: Option<&Account>,
        token: &PlayerToken,
        req: NewReport,
    ) -> Result<String, SiteError> {
        let Some(id) = req.message.as_deref() else {
            return social.report(me, req).await;
        };
        crate::social::need_account(me, "a report")?;
        let row = self.seen_message(id, token).await?;
        if !row
            .author_name
            .as_deref()
            .is_some_and(|a| a.eq_ignore_ascii_case(&req.username))
        {
            return Err(SiteError::bad_request(format!(
                "message: message '{id}' was not written by {}",
                game::excerpt(&req.username)
            )));
        }
        social.report(me, req).await
    }
}
