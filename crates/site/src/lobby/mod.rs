//! The lobby (issue 13): seeks (an offer to play anyone), quick pairing (accept a matching
//! seek or make one), direct challenges to a named account, and the live stream of all three
//! (`GET /api/lobby`, server-sent events). `seeks` and `challenges` hold the actions, `stream`
//! what the stream sends; storage is `store/seeks.rs` and `store/challenges.rs`.
//!
//! Everything lives in the database, so several server processes may share one: a stream
//! polls it every [`POLL`] (and wakes at once on a change made through its own process).
//! Presence: a real-time or unlimited seek (or challenge) lives while its owner has a lobby
//! stream open: the stream pushes its `expires_at` ahead; [`PRESENCE`] after the last push it
//! is no longer listed nor acceptable, and it is deleted. Correspondence offers wait until
//! answered or cancelled, an anonymous player's seek 24 h at most ([`ANONYMOUS_SEEK_MS`]).

pub use site_model::state::SeekColor;

mod challenges;
mod seeks;
pub mod stream;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex as StdMutex;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use game::Color;

pub use challenges::{ChallengeLists, ChallengeView, NewChallenge};
pub use seeks::{NewSeek, QuickAnswer, QuickSeek, RATING_BOUNDS, RatingRange, SeekView};
pub use stream::{KEEP_ALIVE, LobbyView, STARTED_WINDOW_MS};

use crate::live_game;
use crate::play::GameService;
use site_model::clock::{Speed, TimeControl};
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::TokenHash;
use site_model::state::{GameKind, SeatKind};
use site_store::{GameRow, SeatRow, Terms};

/// Most open seeks one player may hold (issue 13), and all anonymous players of one address
/// together (issue 41).
pub const MAX_SEEKS: i64 = 3;
/// How long an anonymous correspondence seek waits for an opponent (24 h, ms); an account's
/// waits until answered or withdrawn.
pub const ANONYMOUS_SEEK_MS: i64 = 24 * 60 * 60 * 1000;
/// Most open challenges one player may have out.
pub const MAX_CHALLENGES: i64 = 10;
/// Most challenges one player may send another within [`PAIR_WINDOW_MS`] (each notifies,
/// and may push to, the challenged player).
pub const MAX_PER_PAIR: i64 = 5;
/// The window of [`MAX_PER_PAIR`], ms (10 minutes; the store keeps the challenges'
/// notifications that long whatever else comes).
pub const PAIR_WINDOW_MS: i64 = site_model::notifications::CHALLENGES_COUNTED_MS;
/// How long a real-time offer outlives its owner's last lobby stream.
pub const PRESENCE: Duration = Duration::from_secs(30);
/// How often a lobby stream reads the database.
pub const POLL: Duration = Duration::from_secs(1);
/// Most lobby streams one player may hold open (tabs), and in all in one process.
pub const MAX_STREAMS_PER_PLAYER: usize = 8;
/// Most lobby streams of one process.
pub const MAX_STREAMS: usize = 5_000;
/// Answered seeks and challenges are kept this long (ms), so that their owners' streams can
/// tell them, then deleted.
pub const KEEP_ANSWERED_MS: i64 = 10 * 60 * 1000;

/// The lobby of one process: its actions (seeks, challenges, the stream's view) on the games
/// of [`GameService`], and its state here: a wake-up for its streams, the presence time, the
/// streams open per player. Its own service, not part of play's (issue 37: play imports no
/// module above it).
pub struct Lobby {
    /// The games a seek or challenge accepted starts.
    pub(crate) play: Arc<GameService>,
    /// Woken on every change made through this process.
    pub(crate) changed: tokio::sync::Notify,
    presence_ms: AtomicI64,
    last_sweep: AtomicI64,
    streams: StdMutex<HashMap<String, Streams>>,
}

impl Lobby {
    /// The lobby of this process, starting its games on `play`.
    pub fn new(play: Arc<GameService>) -> Arc<Lobby> {
        Arc::new(Lobby {
            play,
            changed: tokio::sync::Notify::new(),
            presence_ms: AtomicI64::new(PRESENCE.as_millis() as i64),
            last_sweep: AtomicI64::new(0),
            streams: StdMutex::new(HashMap::new()),
        })
    }

    /// The games the lobby starts.
    pub fn play(&self) -> &Arc<GameService> {
        &self.play
    }

    /// Completes at the next change of the lobby made through this process.
    pub fn changed(&self) -> tokio::sync::futures::Notified<'_> {
        self.changed.notified()
    }

    /// How long a real-time offer outlives its owner's stream, ms.
    pub fn presence_ms(&self) -> i64 {
        self.presence_ms.load(Ordering::Relaxed)
    }

    /// Sets [`Lobby::presence_ms`] (`SiteOptions::lobby_presence`; tests shorten it).
    pub fn set_presence(&self, presence: Duration) {
        let ms = i64::try_from(presence.as_millis())
            .unwrap_or(i64::MAX)
            .max(1);
        self.presence_ms.store(ms, Ordering::Relaxed);
    }

    /// 403 `bot_account` when `token` is a BOT account's (issue 44): a bot plays the games it
    /// is challenged to, never the lobby's; `what` names the refused action.
    pub(crate) async fn refuse_bot(
        &self,
        token: &site_model::secrets::PlayerToken,
        what: &str,
    ) -> Result<(), SiteError> {
        if self.play.store.is_bot_player(&token.hash()).await? {
            return Err(SiteError::new(
                ErrorCode::BotAccount,
                format!(
                    "a BOT account cannot {what}: it plays the games it is challenged to                      (docs/bot-api.md)"
                ),
            ));
        }
        Ok(())
    }

    /// Tells this process's streams to look now.
    pub(crate) fn touch(&self) {
        self.changed.notify_waiters();
    }

    /// Whether the lobby's old rows are due for deletion (once per 5 s per process).
    pub(crate) fn sweep_due(&self, now: i64) -> bool {
        let last = self.last_sweep.load(Ordering::Relaxed);
        now - last >= 5_000
            && self
                .last_sweep
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }

    /// Whether the player whose token hashes to `player` has a lobby stream open in this
    /// process (the "following" list's online status).
    pub fn is_present(&self, player: &str) -> bool {
        self.lock_streams().get(player).is_some_and(|s| s.count > 0)
    }

    fn lock_streams(&self) -> std::sync::MutexGuard<'_, HashMap<String, Streams>> {
        // A poisoned map of counts is still a map of counts.
        self.streams.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// One player's open streams in this process.
#[derive(Default)]
struct Streams {
    count: usize,
    /// Held while the player's presence is written. A refresh already handed to the
    /// database when its stream closes still runs; the end of presence waits for it, or the
    /// late refresh would keep the player's real-time offers listed for another presence time.
    writes: Arc<tokio::sync::Mutex<()>>,
}

/// A lobby stream counted while alive ([`MAX_STREAMS_PER_PLAYER`], [`MAX_STREAMS`]), and the
/// pace it reads at ([`StreamGuard::next_turn`]): the lobby stream and a bot's event stream.
pub struct StreamGuard {
    lobby: Arc<Lobby>,
    player: String,
    writes: Arc<tokio::sync::Mutex<()>>,
    /// No turn taken yet: the first is at once.
    first: bool,
    /// When the presence was last pushed ahead (Unix ms).
    last_refresh: i64,
    shutdown: tokio::sync::watch::Receiver<bool>,
}

impl StreamGuard {
    /// Counts a stream of `player` (its token's hash); 503 `too_many` past a cap.
    pub fn open(lobby: &Arc<Lobby>, player: &str) -> Result<StreamGuard, SiteError> {
        let mut streams = lobby.lock_streams();
        let total: usize = streams.values().map(|s| s.count).sum();
        let mine = streams.get(player).map_or(0, |s| s.count);
        if total >= MAX_STREAMS || mine >= MAX_STREAMS_PER_PLAYER {
            return Err(SiteError::new(
                ErrorCode::TooMany,
                format!(
                    "too many lobby streams open (at most {MAX_STREAMS_PER_PLAYER} per player): \
                     close another tab of the lobby"
                ),
            ));
        }
        let entry = streams.entry(player.to_string()).or_default();
        entry.count += 1;
        Ok(StreamGuard {
            lobby: lobby.clone(),
            player: player.to_string(),
            writes: entry.writes.clone(),
            first: true,
            last_refresh: 0,
            shutdown: lobby.play.shutdown_signal(),
        })
    }

    /// Waits for the stream's next read: at once the first time, then after [`POLL`], a
    /// change of the lobby through this process, or the site's shutdown; on the way pushes the
    /// player's presence ahead (every third of the presence time: two pushes may be missed).
    /// `false` once the site shuts down: the stream ends.
    pub async fn next_turn(&mut self) -> bool {
        if !self.first {
            tokio::select! {
                _ = tokio::time::sleep(POLL) => {}
                _ = self.lobby.changed() => {}
                _ = self.shutdown.changed() => {}
            }
        }
        self.first = false;
        if *self.shutdown.borrow() {
            return false;
        }
        let now = site_store::now_ms();
        let presence = self.lobby.presence_ms();
        if now - self.last_refresh >= presence / 3 && self.refresh(now + presence).await {
            self.last_refresh = now;
        }
        true
    }

    /// Extends the player's presence to `until` (Unix ms); true when written, a warning
    /// logged otherwise. The write runs to its end even if the stream closes meanwhile, and
    /// before that stream's end of presence.
    pub async fn refresh(&self, until: i64) -> bool {
        let permit = self.writes.clone().lock_owned().await;
        let lobby = self.lobby.clone();
        let player = self.player.clone();
        let write = tokio::spawn(async move {
            let _permit = permit;
            lobby.play.store().refresh_presence(&player, until).await
        });
        match write.await {
            Ok(Ok(())) => true,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "cannot refresh a lobby presence");
                false
            }
            Err(e) => {
                tracing::warn!(error = %e, "the lobby presence refresh failed");
                false
            }
        }
    }
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        let mut streams = self.lobby.lock_streams();
        if let Some(mine) = streams.get_mut(&self.player) {
            mine.count -= 1;
            if mine.count == 0 {
                streams.remove(&self.player);
                // The player left the lobby (closed the tab, went to another page): its
                // live-only offers end now, not 30 s later, so nobody is paired with someone
                // who will never see the game start.
                if let Ok(rt) = tokio::runtime::Handle::try_current() {
                    let lobby = self.lobby.clone();
                    let player = self.player.clone();
                    let writes = self.writes.clone();
                    rt.spawn(async move {
                        let _permit = writes.lock_owned().await;
                        let now = site_store::now_ms();
                        match lobby.play.store().end_presence(&player, now).await {
                            Ok(()) => lobby.changed.notify_waiters(),
                            Err(e) => tracing::warn!(error = %e, "cannot end a lobby presence"),
                        }
                    });
                }
            }
        }
    }
}

/// The terms of a request (its game and side typed at the edge, by site-http), with the
/// control checked: 400 `time_control: ...` for one out of range.
fn parse_terms(
    variant: GameKind,
    control: TimeControl,
    rated: bool,
    color: SeekColor,
) -> Result<Terms, SiteError> {
    let control = control
        .validate()
        .map_err(|e| SiteError::bad_request(format!("time_control: {}", e.message)))?;
    Ok(Terms {
        variant,
        control,
        rated,
        color,
    })
}

/// `realtime`, `correspondence` or `unlimited`: the lobby's sections.
fn speed_name(control: TimeControl) -> &'static str {
    control.speed().map_or("unlimited", Speed::as_str)
}

/// When an offer made now by a present player lapses: `None` for correspondence, which
/// waits for its owner.
fn expiry(control: TimeControl, now: i64, presence_ms: i64) -> Option<i64> {
    match control {
        TimeControl::Correspondence { .. } => None,
        _ => Some(now + presence_ms),
    }
}

/// The game of accepted `terms` between `owner` (who offered; gets the side asked for) and
/// `other` (token hashes), stored as is: both seats human, the clock running at once for the
/// side to move from `now` (Unix ms, the game clocks' time).
fn lobby_game(
    terms: &Terms,
    owner: &TokenHash,
    other: &TokenHash,
    now: i64,
) -> Result<GameRow, SiteError> {
    let (start_fen, turn) = live_game::start_of(terms.variant, None)?;
    let seat = |hash: &TokenHash| SeatRow {
        kind: SeatKind::Human,
        level: None,
        token: Some(hash.clone()),
        name: None,
        rating: None,
        bot: false,
    };
    let (white, black) = match crate::play::side_for(terms.color) {
        Color::White => (seat(owner), seat(other)),
        Color::Black => (seat(other), seat(owner)),
    };
    let mut clock = terms.control.new_clock();
    if let Some(c) = clock.as_mut() {
        c.start(turn, now);
    }
    Ok(GameRow {
        clock,
        rated: terms.rated,
        ..GameRow::new_game(
            crate::play::random_token(8),
            terms.variant,
            start_fen,
            white,
            black,
            turn,
            now,
        )
    })
}
