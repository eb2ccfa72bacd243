//! `GET /api/bot/game/stream/{id}` (issue 44): a game as lichess's bot game stream sends it:
//! a `gameFull` line first, then a `gameState` line per change of the moves, the status or a
//! draw offer, a lone `\n` after [`KEEP_ALIVE`] without one; it ends after the state that ends
//! the game. It follows the game's broadcast in this process (other processes' changes reach
//! it through the bus, as they reach a socket).
//!
//! When the bot's opponent is gone (its pages all closed, issue 38), an `opponentGone` line
//! says so with `claimWinInSeconds`, again with 0 once the claim is open, and with `gone`
//! false when the opponent is back, as lichess's stream does; the bot claims with
//! `POST /api/bot/game/{id}/claim-victory` or `claim-draw`.
//!
//! An open stream counts as the bot's page on the game: when its last one closes in a
//! real-time game, the bot is gone and its opponent may claim, as after a page's last socket
//! (issue 38; bot client finding 9). It ends at the site's shutdown, so that the client
//! reconnects to a process that serves the game (finding 1: it kept sending keep-alives and
//! no moves, and the bot lost on time while connected).

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::{KEEP_ALIVE, game_state, line, seat_json, speed_of, variant_json};
use crate::play::{GameService, GameSlot, Snapshot};
use crate::view::{GameView, GoneView, seat_of};
use site_model::clock::ClockView;
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::PlayerToken;
use site_model::state::{GameStatus, YourSeat};
use site_store::now_ms;

/// One open game stream of a player of the game.
pub struct GameFeed {
    play: Arc<GameService>,
    slot: Arc<GameSlot>,
    rx: broadcast::Receiver<Arc<Snapshot>>,
    /// The `gameFull` line, until it is sent.
    full: Option<Bytes>,
    /// The last `gameState` sent (its JSON), to send only changes.
    last: String,
    last_line: Instant,
    done: bool,
    shutdown: tokio::sync::watch::Receiver<bool>,
    /// The seat's token, counted present while the stream is open.
    token: PlayerToken,
    /// The bot's side; `None` when it holds both seats (no opponent to be gone).
    side: Option<game::Color>,
    /// The opponent's absence last said (`claim_at_ms`), and whether its 0 s line went.
    gone_said: Option<(i64, bool)>,
    /// Lines made and not yet sent.
    pending: VecDeque<Bytes>,
}

impl GameFeed {
    /// Opens game `id`'s stream for `token`: 404 for an unknown game, 403 `not_a_player`
    /// unless `token` holds a seat.
    pub async fn open(
        play: &Arc<GameService>,
        id: &str,
        token: &PlayerToken,
    ) -> Result<GameFeed, SiteError> {
        let slot = play.slot(id).await?;
        let rx = slot.subscribe();
        let snap = play.fresh_snapshot(&slot).await;
        if seat_of(&snap.row, token).is_none() {
            return Err(SiteError::new(
                ErrorCode::NotAPlayer,
                "you hold no seat of this game: a bot streams its own games",
            ));
        }
        let side = match seat_of(&snap.row, token) {
            Some(YourSeat::White) => Some(game::Color::White),
            Some(YourSeat::Black) => Some(game::Color::Black),
            _ => None,
        };
        let view = &snap.view;
        let state = game_state(view, now_ms());
        let full = full_json(view, snap.row.created_at, state.clone());
        play.seat_opened(&slot, token).await;
        let mut feed = GameFeed {
            play: play.clone(),
            slot,
            rx,
            full: Some(line(&full)),
            last: state.to_string(),
            last_line: Instant::now(),
            done: view.status != GameStatus::Ongoing,
            shutdown: play.shutdown_signal(),
            token: token.clone(),
            side,
            gone_said: None,
            pending: VecDeque::new(),
        };
        feed.say_gone(view.gone);
        Ok(feed)
    }

    /// Queues an `opponentGone` line when the opponent's absence changed: gone with the
    /// seconds to its claim, back (`gone` false), or its claim open (0 s).
    fn say_gone(&mut self, gone: Option<GoneView>) {
        let now = self.play.time().now_ms();
        let theirs = gone.filter(|g| Some(g.side) != self.side && self.side.is_some());
        let said = match (theirs, self.gone_said) {
            (Some(g), Some((at, zero))) if at == g.claim_at_ms => {
                if zero || now < at {
                    return;
                }
                json!({"type": "opponentGone", "gone": true, "claimWinInSeconds": 0})
            }
            (Some(g), _) => json!({
                "type": "opponentGone",
                "gone": true,
                "claimWinInSeconds": seconds_to(g.claim_at_ms, now),
            }),
            (None, Some(_)) => json!({"type": "opponentGone", "gone": false}),
            (None, None) => return,
        };
        self.gone_said = theirs.map(|g| (g.claim_at_ms, now >= g.claim_at_ms));
        self.pending.push_back(line(&said));
    }

    /// How long until the open claim's 0 s line is owed, if it is.
    fn until_claim(&self) -> Option<Duration> {
        let (at, zero) = self.gone_said?;
        (!zero).then(|| {
            Duration::from_millis(u64::try_from(at - self.play.time().now_ms()).unwrap_or(0))
        })
    }

    /// The next line; `None` after the game's last state, when its broadcast closes, or at
    /// the site's shutdown.
    pub async fn next(&mut self) -> Option<Bytes> {
        if let Some(full) = self.full.take() {
            self.last_line = Instant::now();
            return Some(full);
        }
        loop {
            if let Some(next) = self.pending.pop_front() {
                self.last_line = Instant::now();
                return Some(next);
            }
            if self.done || *self.shutdown.borrow() {
                return None;
            }
            let wait = tokio::time::sleep_until((self.last_line + KEEP_ALIVE).into());
            let claim = self.until_claim();
            let claim_open = async move {
                match claim {
                    Some(d) => tokio::time::sleep(d).await,
                    None => std::future::pending().await,
                }
            };
            let snap = tokio::select! {
                got = self.rx.recv() => match got {
                    Ok(snap) => snap,
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        Arc::new(self.play.snapshot(&self.slot).await)
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
                _ = wait => {
                    self.last_line = Instant::now();
                    return Some(Bytes::from_static(b"\n"));
                }
                _ = claim_open => {
                    let gone = self.slot_gone().await;
                    self.say_gone(gone);
                    continue;
                }
                _ = self.shutdown.changed() => continue,
            };
            self.done = snap.view.status != GameStatus::Ongoing;
            let state = game_state(&snap.view, now_ms());
            let text = state.to_string();
            // A clock's times alone (a view made later) are no change.
            if comparable(&text) != comparable(&self.last) || self.done {
                self.last = text;
                self.pending.push_back(line(&state));
            }
            if !self.done {
                self.say_gone(snap.view.gone);
            }
        }
    }
}

impl GameFeed {
    /// The game's gone player now (its current snapshot).
    async fn slot_gone(&self) -> Option<GoneView> {
        self.play.snapshot(&self.slot).await.view.gone
    }
}

/// Whole seconds from `now` to `at` (Unix ms), rounded up; 0 once reached.
fn seconds_to(at: i64, now: i64) -> i64 {
    ((at - now).max(0) + 999) / 1000
}

impl Drop for GameFeed {
    fn drop(&mut self) {
        // The stream closed: as a page's socket closing (not cleanly: a bot that hangs up
        // may be back, and its opponent waits the longer time before a claim).
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            let play = self.play.clone();
            let slot = self.slot.clone();
            let token = self.token.clone();
            rt.spawn(async move { play.seat_closed(&slot, &token, false).await });
        }
    }
}

/// A state's JSON without its times, to tell a change of moves, status or offers.
fn comparable(state: &str) -> Value {
    let mut v: Value = serde_json::from_str(state).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        for k in ["wtime", "btime"] {
            o.remove(k);
        }
    }
    v
}

/// The `gameFull` object of `view`, made at `created_at` (Unix ms), with its current `state`.
fn full_json(view: &GameView, created_at: i64, state: Value) -> Value {
    let clock = match view.clock {
        Some(ClockView::Realtime {
            initial_ms,
            increment_ms,
            ..
        }) => json!({"initial": initial_ms, "increment": increment_ms}),
        _ => Value::Null,
    };
    let days = match view.clock {
        Some(ClockView::Correspondence { days, .. }) => json!(days),
        _ => Value::Null,
    };
    let speed = match view.clock {
        Some(ClockView::Realtime {
            initial_ms,
            increment_ms,
            ..
        }) => speed_of(site_model::clock::TimeControl::Realtime {
            initial_s: initial_ms / 1000,
            increment_s: increment_ms / 1000,
        }),
        _ => "correspondence",
    };
    json!({
        "type": "gameFull",
        "id": view.id,
        "variant": variant_json(view.variant),
        "speed": speed,
        "perf": {"name": view.variant.title()},
        "rated": view.rated,
        "clock": clock,
        "daysPerTurn": days,
        "white": seat_json(&view.white),
        "black": seat_json(&view.black),
        "initialFen": view.start_fen,
        "createdAt": created_at,
        "state": state,
    })
}
