//! The site's game logic: games in memory (one [`GameSlot`] per game, with a lock and a
//! `broadcast` channel of its states), seats, turns, moves, resignation, draw offers, rematch,
//! records, "my games" and statistics. Every change is stored before it is acknowledged or
//! broadcast. This file holds the games in memory and their loading; `create` makes games,
//! `actions` has what a seat does to its game, `takeback` calls a game off or takes moves
//! back, `clocks` flags and gives outages back, `snapshot` writes the broadcast states, and
//! `queries` has what the site reads about games.

/// The port through which play tells other processes that a game changed: implemented by the
/// server's Redis bus (`server::pubsub`, `serve --redis`), which lives above the site and so
/// cannot be named here (docs/architecture.md, "Ports").
pub trait Announcer: Send + Sync {
    /// Game `id` is now at `version` (after its commit). Must not block: a full queue or an
    /// absent bus drops it, and the others' fallback polling sees the change.
    fn announce(&self, id: &str, version: i64);
    /// Whether announcements are taken and others' are heard (`/healthz`).
    fn is_up(&self) -> bool;
}

/// The port through which play starts an engine's move when an engine seat is to move (after
/// a creation, a move, a takeback, a restart): implemented by `crate::engine_player`, which
/// lives above play (it plays through it) and is wired by `crate::services::Services::new`.
pub trait EngineSeats: Send + Sync {
    /// Starts the engine's task for the game in `slot` if an engine is to move in `row` (the
    /// game's row as it is now) and none is running. Must not block.
    fn maybe_start(&self, service: &Arc<GameService>, slot: &Arc<GameSlot>, row: &GameRow);
}

mod actions;
mod berserk;
mod clocks;
mod closing;
pub mod conditional;
mod create;
pub mod declined;
pub mod lease;
mod presence;
mod queries;
pub mod replay;
mod saving;
mod slots;
mod snapshot;
mod takeback;
pub mod vacation;

pub use snapshot::{HeldMoves, Snapshot};

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex as StdMutex};

use game::{Color, EndReason, RecordResult};
use rand::Rng;
use rand::distr::Alphanumeric;
use tokio::sync::{Mutex, MutexGuard, broadcast, watch};

use crate::engine_queue::EngineQueue;
use crate::live_game::{self, LiveGame, PreparedMove};
use crate::notifications::{self, Notifications};
use crate::view::{GameView, seat_of};
use site_model::clock::{Charge, Clock, TimeControl};
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::{PlayerToken, invite_for, invite_hash};
use site_model::state::{GameKind, GameStatus, Level, Notice, NoticeCode, SeatKind, SeekColor};
use site_model::time::WallTime;
use site_store::{GameRow, SeatRow, Store, StoreError, now_ms};

/// Most WebSocket connections the server holds at once. Issue 44 asks for 8,000 live games in
/// one process, 16,000 players' sockets: at 10,000 the rest were refused (503) and their games
/// failed to start. The connection cap (the descriptor limit, `site_http::conn`) usually binds
/// first; each idle socket holds about 23 KB (docs/performance.md), so this one bounds them
/// near 1 GB.
pub const MAX_WS_TOTAL: usize = 40_000;
/// Most WebSocket connections on one game (watchers and players).
pub const MAX_WS_PER_GAME: usize = 500;
/// Connections on one game kept for its players beyond [`MAX_WS_PER_GAME`].
pub const WS_SEAT_RESERVE: usize = 32;
/// Games kept in memory before idle ones are dropped (they reload from the store). A game kept
/// holds its recent states (about 100 KB after 60 moves): issue 44's run of 8,000 games with
/// 20,000 kept held 1.2 GB after the players left, against 0.12 GB with 5,000.
const MAX_CACHED_GAMES: usize = 5_000;
/// States a game's broadcast channel holds for its sockets. Tokio's channel keeps its last
/// values until they are overwritten, each with the texts its sockets made of it: at 64, a
/// game kept 64 whole states (most of the heap of issue 44's runs). A socket that falls
/// further behind is sent the game's current state (`RecvError::Lagged`), and one that
/// reconnects is replayed from [`replay::Recent`]; a game changes a few times a second at most.
pub(crate) const FEED_BACKLOG: usize = 4;
/// Most unfinished games one player may have against the engine; another is refused with
/// `too_many_engine_games` (docs/api.md). The engine queue shares the machine fairly among
/// players whatever they hold; this bounds what one player can queue.
pub const MAX_ENGINE_GAMES: i64 = 10;

/// One game in memory.
pub struct GameSlot {
    pub(crate) game: Mutex<Box<dyn LiveGame>>,
    pub(crate) tx: broadcast::Sender<Arc<Snapshot>>,
    pub(crate) engine_running: AtomicBool,
    /// The last states broadcast, for a socket that reconnects (`replay`).
    pub(crate) recent: replay::Recent,
    /// Declined offers that may not be repeated yet.
    pub(crate) declined: declined::Declined,
}

impl GameSlot {
    /// The game's snapshots from now on, one per stored change (a socket's feed).
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Snapshot>> {
        self.tx.subscribe()
    }
}

game::text_enum! {
    /// Whom a new game is against (`opponent` in `POST /api/games`).
    pub enum Opponent ("opponent") {
        /// The engine, at a level.
        Engine = "engine",
        /// A friend, invited by link.
        Friend = "friend",
        /// Nobody: both sides on one screen.
        Local = "local",
    }
}

/// A game to make (`POST /api/games`; site-http reads the body into it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGame {
    /// The game.
    pub variant: GameKind,
    /// Whom it is against.
    pub opponent: Opponent,
    /// Engine level as sent, checked here (1-8; engine only).
    pub level: Option<i64>,
    /// The creator's side.
    pub color: SeekColor,
    /// Start position text, read by the game's rules here.
    pub fen: Option<String>,
    /// A friend game's time control (`clock::TimeControl`); unlimited when absent. Engine
    /// and one-screen games are always unlimited.
    pub time_control: Option<TimeControl>,
    /// Whether a friend game is rated: both players need an account.
    pub rated: bool,
}

/// The side `color` asks for; a random one for [`SeekColor::Random`].
pub(crate) fn side_for(color: SeekColor) -> Color {
    match color {
        SeekColor::White => Color::White,
        SeekColor::Black => Color::Black,
        SeekColor::Random => Color::from_white(rand::rng().random_bool(0.5)),
    }
}

game::text_enum! {
    /// An offer or its answer: of a draw, a takeback or a rematch.
    pub enum Answer ("action") {
        /// Make the offer.
        Offer = "offer",
        /// Accept the opponent's offer.
        Accept = "accept",
        /// Decline it.
        Decline = "decline",
    }
}

/// The draw offers' answers (the API's first offers; the name stays for them).
pub type DrawAction = Answer;

impl Answer {
    /// Reads `offer`, `accept`, `decline`; `what` names the offer in the error
    /// (`draw`, `takeback`, `rematch`): 400 `unknown {what} action '...'`.
    pub fn parse_for(text: &str, what: &str) -> Result<Answer, SiteError> {
        Answer::parse(text).ok_or_else(|| {
            SiteError::bad_request(format!(
                "unknown {what} action '{}' (offer, accept or decline)",
                game::excerpt(text)
            ))
        })
    }

    /// [`Answer::parse_for`] of a draw action.
    pub fn parse_draw(text: &str) -> Result<Answer, SiteError> {
        Answer::parse_for(text, "draw")
    }
}

/// 409 `waiting_for_opponent` when `row`'s friend seat is still open: before the friend
/// joins, nothing is played, offered or resigned (the creator may only cancel: abort).
fn refuse_while_waiting(row: &GameRow) -> Result<(), SiteError> {
    if row.status == GameStatus::Ongoing && row.has_open_seat() {
        return Err(SiteError::new(
            ErrorCode::WaitingForOpponent,
            "your friend has not joined yet: send the invitation link, or cancel the game",
        ));
    }
    Ok(())
}

/// Tells the players of this change once: the notice carries the version the next save
/// gives the row (`bump`), and the view shows it only while that version is the game's.
fn notify(row: &mut GameRow, code: NoticeCode, by: Option<Color>) {
    row.notice = Some(Notice {
        code,
        by,
        version: row.version + 1,
    });
}

/// The games of the site.
pub struct GameService {
    pub(crate) store: Store,
    slots: StdMutex<HashMap<String, Arc<GameSlot>>>,
    pub(crate) engine_queue: Arc<EngineQueue>,
    ws_connections: AtomicUsize,
    /// The size of the games' map at which the next new game sweeps it for idle games
    /// (`slots.rs`): at least [`MAX_CACHED_GAMES`].
    next_sweep: AtomicUsize,
    shutdown: watch::Sender<bool>,
    /// Wakes the timeout sweeper when a clock's deadline may have moved earlier.
    pub(crate) clock_changed: tokio::sync::Notify,
    /// This process among those sharing the database (leases, the bus's messages).
    process_id: String,
    /// The timeout sweeper's lease as the moves of timed games read it.
    sweeper_lease: lease::SweeperLease,
    /// Announces stored changes to the other processes (`--redis`), once set.
    bus: std::sync::OnceLock<Arc<dyn Announcer>>,
    /// Starts engines' moves (crate::engine_player), once set.
    engines: std::sync::OnceLock<Arc<dyn EngineSeats>>,
    /// The wall clock the game clocks read (leases and outages read the system's).
    time: WallTime,
    /// The players' notifications: the changes stored here make them.
    pub(crate) notifications: Arc<Notifications>,
    /// Sockets open here per game and seat (`presence`: a gone opponent).
    presence: StdMutex<HashMap<(String, Color), presence::Pages>>,
}

/// Counts one WebSocket connection while alive.
pub struct WsGuard {
    service: Arc<GameService>,
}

impl Drop for WsGuard {
    fn drop(&mut self) {
        self.service.ws_connections.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Whether a game in memory is held (by a request, an engine's task) or watched (a socket).
/// Only the map hands out slots, so under its lock the count cannot grow meanwhile.
fn in_use(slot: &Arc<GameSlot>) -> bool {
    Arc::strong_count(slot) > 1 || slot.tx.receiver_count() > 0
}

pub(crate) fn random_token(len: usize) -> String {
    rand::rng()
        .sample_iter(&Alphanumeric)
        .take(len)
        .map(char::from)
        .collect()
}

pub(crate) fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 32 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn holds(row: &GameRow, c: Color, token: &PlayerToken) -> bool {
    row.seat(c).token.as_ref() == Some(&token.hash())
}

/// The seat of the holder of `token`: only its hash is stored.
fn human_seat(token: &PlayerToken) -> SeatRow {
    SeatRow {
        kind: SeatKind::Human,
        level: None,
        token: Some(token.hash()),
        name: None,
        rating: None,
        bot: false,
    }
}

/// Ends the game in `row`; its clock stops at `now` (Unix ms, the game clocks' time).
fn finish(row: &mut GameRow, winner: Option<Color>, reason: EndReason, now: i64) {
    row.status = GameStatus::Finished;
    row.winner = winner;
    row.result = Some(match winner {
        Some(Color::White) => RecordResult::WhiteWins,
        Some(Color::Black) => RecordResult::BlackWins,
        None => RecordResult::Draw,
    });
    row.reason = Some(reason);
    // Offers stand only while the game goes on, and nobody is gone from a game that is over.
    row.gone = None;
    row.draw_offer = None;
    row.takeback_offer = None;
    if let Some(clock) = row.clock.as_mut() {
        clock.stop(now);
    }
}

fn bump(row: &mut GameRow) {
    row.version += 1;
    row.updated_at = now_ms();
}

impl GameService {
    /// A service on `store`; engines run at most `engine_threads` searches at once.
    /// The game clocks read `time`.
    pub fn new(store: Store, engine_threads: usize, time: WallTime) -> Arc<GameService> {
        Arc::new(GameService {
            store: store.clone(),
            slots: StdMutex::new(HashMap::new()),
            engine_queue: EngineQueue::new(engine_threads),
            ws_connections: AtomicUsize::new(0),
            next_sweep: AtomicUsize::new(MAX_CACHED_GAMES),
            shutdown: watch::channel(false).0,
            clock_changed: tokio::sync::Notify::new(),
            process_id: random_token(12),
            sweeper_lease: Default::default(),
            bus: std::sync::OnceLock::new(),
            engines: std::sync::OnceLock::new(),
            time,
            notifications: Notifications::new(store.clone()),
            presence: StdMutex::new(HashMap::new()),
        })
    }

    /// The players' notifications, which the changes of games and of the lobby make.
    pub fn notifications(&self) -> &Arc<Notifications> {
        &self.notifications
    }

    /// The wall clock the game clocks read.
    pub fn time(&self) -> &WallTime {
        &self.time
    }

    /// This process's id (leases, the bus).
    pub fn process_id(&self) -> &str {
        &self.process_id
    }

    /// How many times the moves of timed games read the timeout sweeper's lease from the
    /// database ([`lease::SweeperLease`]; diagnostics, tests).
    pub fn sweeper_lease_reads(&self) -> u64 {
        self.sweeper_lease.reads()
    }

    /// Announces every stored change on `bus` from now on (`serve --redis`).
    pub fn set_bus(&self, bus: Arc<dyn Announcer>) {
        let _ = self.bus.set(bus);
    }

    /// Starts engine moves through `engines` from now on (`Services::new`).
    pub fn set_engines(&self, engines: Arc<dyn EngineSeats>) {
        let _ = self.engines.set(engines);
    }

    /// Starts the engine's move in `slot` if an engine seat is to move in `row` (through
    /// [`EngineSeats`]; nothing before one is set).
    pub(crate) fn start_engine(self: &Arc<Self>, slot: &Arc<GameSlot>, row: &GameRow) {
        if let Some(engines) = self.engines.get() {
            engines.maybe_start(self, slot, row);
        }
    }

    /// The bus, when the site runs with Redis.
    pub fn bus(&self) -> Option<&Arc<dyn Announcer>> {
        self.bus.get()
    }

    /// Another process stored `version` of game `id`: a game held here and older is reloaded
    /// and its watchers get the new state. Games not in memory are read when asked for.
    pub async fn remote_change(&self, id: &str, version: i64) {
        let slot = self.lock_slots().get(id).cloned();
        let Some(slot) = slot else { return };
        let mut g = slot.game.lock().await;
        if g.row().version < version {
            self.reload(&slot, &mut g).await;
            self.reclaim_presence(&slot, &mut g).await;
        }
    }

    /// Compares every watched game held here with the database and reloads the changed ones
    /// (Redis was unreachable, or is back after missing messages).
    pub async fn resync_watched(&self) {
        let watched: Vec<Arc<GameSlot>> = self
            .lock_slots()
            .values()
            .filter(|s| s.tx.receiver_count() > 0)
            .cloned()
            .collect();
        for slot in watched {
            if let Err(e) = self.lock_fresh(&slot).await {
                tracing::warn!(error = %e, "cannot resync a watched game");
                return;
            }
        }
    }

    /// Redis is back after an outage: games in memory may have missed what other processes
    /// published meanwhile. Games nobody holds or watches are dropped (their next use reads
    /// the store); the others, watched or in use, are compared with the database and reloaded
    /// when changed.
    pub async fn resync_after_outage(&self) {
        let in_use: Vec<Arc<GameSlot>> = {
            let mut slots = self.lock_slots();
            let before = slots.len();
            slots.retain(|_, s| in_use(s));
            let dropped = before - slots.len();
            if dropped > 0 {
                tracing::info!(
                    dropped,
                    "games not in use dropped from memory after the outage"
                );
            }
            slots.values().cloned().collect()
        };
        for slot in in_use {
            if let Err(e) = self.lock_fresh(&slot).await {
                tracing::warn!(error = %e, "cannot resync a game after the outage");
                return;
            }
        }
    }

    /// The version of game `id` as this process holds it in memory, if it does (tests,
    /// diagnostics).
    pub async fn version_in_memory(&self, id: &str) -> Option<i64> {
        let slot = self.lock_slots().get(id).cloned()?;
        let version = slot.game.lock().await.row().version;
        Some(version)
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The engine queue (every engine search runs through it).
    pub fn engine_queue(&self) -> &Arc<EngineQueue> {
        &self.engine_queue
    }

    /// Tells every WebSocket session to close and stops the engines' searches (graceful
    /// shutdown; engine moves still due are resumed at the next start).
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
        self.engine_queue.close();
    }

    /// Refuses another engine game to `token` once it has [`MAX_ENGINE_GAMES`] unfinished.
    async fn check_engine_games(&self, token: &PlayerToken) -> Result<(), SiteError> {
        // Seats hold the token's hash (issue 9, section 3), never the token.
        let n = self.store.unfinished_engine_games(&token.hash()).await?;
        if n >= MAX_ENGINE_GAMES {
            return Err(SiteError::new(
                ErrorCode::TooManyEngineGames,
                format!(
                    "you already play {n} unfinished games against the engine (at most \
                     {MAX_ENGINE_GAMES}): finish or resign one first"
                ),
            ));
        }
        Ok(())
    }

    /// 400 for a rated unlimited game, 401 `not_logged_in` unless `token` is an account's
    /// (a rated game needs two accounts: issue 13).
    pub(crate) async fn check_rated(
        &self,
        token: &PlayerToken,
        control: TimeControl,
    ) -> Result<(), SiteError> {
        if control.speed().is_none() {
            return Err(SiteError::bad_request(
                "an unlimited game cannot be rated: choose a real-time or correspondence clock",
            ));
        }
        if self
            .store
            .account_by_player_hash(&token.hash())
            .await?
            .is_none()
        {
            return Err(SiteError::new(
                ErrorCode::NotLoggedIn,
                "rated games are for accounts: log in or register first",
            ));
        }
        Ok(())
    }

    /// The account name of the holder of `token`, if it is an account's.
    pub(crate) async fn account_name(
        &self,
        token: &PlayerToken,
    ) -> Result<Option<String>, SiteError> {
        Ok(self
            .store
            .account_by_player_hash(&token.hash())
            .await?
            .map(|a| a.username))
    }

    /// `row` with the account names of its human seats filled in (seats hold token hashes).
    pub(crate) async fn with_names(&self, mut row: GameRow) -> Result<GameRow, SiteError> {
        for seat in [&mut row.white, &mut row.black] {
            if let Some(hash) = &seat.token {
                seat.name = self
                    .store
                    .account_by_player_hash(hash)
                    .await?
                    .map(|a| a.username);
            }
        }
        Ok(row)
    }

    /// Fills what the game page shows beside the seats' names: the BOT mark of a BOT account
    /// (`SeatRow::bot`, issue 44) and the ratings (`SeatRow::rating`, issue 41) of `row`'s
    /// account holders, in its game and speed; an unlimited game has none. A failed read
    /// leaves them unset (the names still show).
    pub(crate) async fn rate_seats(&self, row: &mut GameRow) {
        // One read for both seats' names.
        let names: Vec<String> = [&row.white.name, &row.black.name]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        let bots = self.store.bot_names(&names).await.unwrap_or_else(|e| {
            tracing::warn!(game = %row.id, error = %e, "seats' BOT marks unread");
            Vec::new()
        });
        for seat in [&mut row.white, &mut row.black] {
            seat.bot = seat
                .name
                .as_ref()
                .is_some_and(|n| bots.iter().any(|b| b.eq_ignore_ascii_case(n)));
        }
        let Some(speed) = row.clock.and_then(|c| c.control().speed()) else {
            return;
        };
        let variant = row.variant;
        for seat in [&mut row.white, &mut row.black] {
            seat.rating = None;
            if let (Some(hash), Some(_)) = (&seat.token, &seat.name) {
                match self
                    .store
                    .rating_of_player(hash.as_str(), variant, speed)
                    .await
                {
                    Ok(r) => seat.rating = r,
                    Err(e) => tracing::warn!(game = %row.id, error = %e, "seat rating unread"),
                }
            }
        }
    }

    /// A receiver that changes to `true` at shutdown.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Gives the engine its move in every stored game where it is to move (after a restart).
    pub async fn resume_engines(self: &Arc<Self>) -> Result<usize, StoreError> {
        let ids = self.store.engine_turn_games().await?;
        let mut n = 0;
        for id in ids {
            match self.slot(&id).await {
                Ok(slot) => {
                    let g = slot.game.lock().await;
                    self.start_engine(&slot, g.row());
                    n += 1;
                }
                Err(e) => tracing::error!(game = %id, error = %e, "cannot resume engine"),
            }
        }
        Ok(n)
    }

    /// `GET /api/games/{id}`. A finished game that nobody watches is not kept in memory after
    /// it ([`GameService::forget_if_finished`]): reading old games (a player's history, a
    /// load run's read-back of 1,500 games) must not fill the live games' memory.
    pub async fn get(&self, id: &str, token: &PlayerToken) -> Result<GameView, SiteError> {
        let slot = self.slot(id).await?;
        let view = {
            let g = self.lock_fresh(&slot).await?;
            g.view().personalize(g.row(), token)
        };
        drop(slot);
        self.forget_if_finished(id);
        Ok(view)
    }

    /// The current state, for a new watcher.
    pub async fn snapshot(&self, slot: &GameSlot) -> Snapshot {
        let g = slot.game.lock().await;
        Snapshot::new(g.view(), g.row().clone())
    }

    /// [`GameService::snapshot`] after reloading the game if the store has a newer version: the
    /// first state of a new socket. The copy in memory may have missed another process's
    /// change (announcements lost while Redis was down), and a socket that starts behind
    /// waits for a change that already happened. With the store unreachable, the copy in
    /// memory.
    pub async fn fresh_snapshot(&self, slot: &GameSlot) -> Snapshot {
        let mut g = slot.game.lock().await;
        if let Err(e) = self.refresh(slot, &mut g).await {
            tracing::warn!(error = %e, "a new socket's first state is the copy in memory");
        }
        let view = g.view();
        // The ring starts with the state a first socket was sent, so that socket can come
        // back to it.
        slot.recent
            .push(Arc::new(Snapshot::new(view.clone(), g.row().clone())));
        Snapshot::new(view, g.row().clone())
    }

    /// `POST /api/join/{invite}`.
    pub async fn join(&self, invite: &str, token: &PlayerToken) -> Result<GameView, SiteError> {
        let not_found = || SiteError::new(ErrorCode::NotFound, "no game has this invitation");
        if !valid_id(invite) {
            return Err(not_found());
        }
        let id = self
            .store
            .game_id_by_invite(&invite_hash(invite))
            .await?
            .ok_or_else(not_found)?;
        let slot = self.slot(&id).await?;
        let mut g = self.lock_fresh(&slot).await?;
        let mut row = g.row().clone();
        if seat_of(&row, token).is_some() {
            if row.has_open_seat() && row.status != GameStatus::Ongoing {
                // The creator's own invitation, cancelled: as anyone else is told.
                return Err(SiteError::new(
                    ErrorCode::InviteCancelled,
                    "the game was cancelled before anyone used the invitation",
                )
                .with_game(&id));
            }
            if row.has_open_seat() {
                return Err(SiteError::new(
                    ErrorCode::OwnInvite,
                    "this is your own invitation: send it to a friend, who takes the other seat",
                )
                .with_game(&id));
            }
            return Ok(g.view().personalize(&row, token));
        }
        let (open, joined) = if row.white.kind == SeatKind::Open {
            (&mut row.white, Color::White)
        } else if row.black.kind == SeatKind::Open {
            (&mut row.black, Color::Black)
        } else {
            let state = if row.status == GameStatus::Ongoing {
                "the game is under way"
            } else {
                "the game is over"
            };
            return Err(SiteError::new(
                ErrorCode::InviteUsed,
                format!("the invitation was already used: {state}; you can watch it"),
            )
            .with_game(&id));
        };
        if row.status != GameStatus::Ongoing {
            // Only a cancel (abort) ends a game whose seat is still open.
            return Err(SiteError::new(
                ErrorCode::InviteCancelled,
                "the game was cancelled before anyone used the invitation",
            )
            .with_game(&id));
        }
        if let Some(control) = row.clock.map(|c| c.control())
            && row.rated
        {
            self.check_rated(token, control).await?;
        }
        *open = human_seat(token);
        open.name = self.account_name(token).await?;
        self.rate_seats(&mut row).await;
        if let Some(clock) = row.clock.as_mut() {
            // Both seats are taken: the side to move's clock runs.
            clock.start(row.turn, self.time.now_ms());
        }
        self.started_during_outage(row.clock.as_mut()).await?;
        notify(&mut row, NoticeCode::Joined, Some(joined));
        self.save_state(&slot, &mut g, row).await?;
        tracing::info!(game = %id, "friend joined");
        Ok(g.view().personalize(g.row(), token))
    }
}
