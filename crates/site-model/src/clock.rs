//! Time controls and the server's clock (issue 13). The server is the clock's authority: it
//! stores each side's remaining time and the instant the running clock started, charges the
//! mover on each move in the move's own transaction, and flags a side whose time ran out
//! even when nobody is connected (`timeouts.rs`). Pure arithmetic on Unix milliseconds: the
//! caller passes `now`.
//!
//! - Real-time is Fischer: `initial` plus `increment` per move, the increment added after
//!   the move (as lichess and FIDE).
//! - Correspondence gives a fixed number of days per move, restored in full by each move (as
//!   BrainKing); its deadline is the last move's instant plus the days.
//! - First moves (as lichess): the main clocks do not run until each side has made its first
//!   move. White's first move must come within [`FIRST_MOVE_MS`] of both seats being taken,
//!   Black's within as long of White's first move (at most the initial time, so a ¼-minute
//!   game waits 15 s, as lichess's ultra-bullet); if it does not, the game is aborted (no
//!   result, not rated). Neither first move is charged nor earns the increment: the page
//!   showed a full clock that was not running. The main clock starts for White with Black's
//!   first move (ply 2). Correspondence has no such wait: its days run from both seats
//!   being taken.
//!
//! Lag allowance ([`LAG_ALLOWANCE_MS`]): each move is charged its elapsed time less up to
//! this allowance, for the network's time both ways, and a side is flagged only once its
//! time is over by more than the allowance. A move that arrives later than that is refused
//! and the game is lost on time.

use game::Color;
use serde::{Deserialize, Serialize};

use crate::error::SiteError;

/// Network time forgiven per move, milliseconds (see the module's note).
pub const LAG_ALLOWANCE_MS: i64 = 250;
/// Longest wait for each side's first move in a real-time game, ms (as lichess): a player who
/// never moves aborts the game within this (or the initial time if shorter); the main clock
/// does not run meanwhile.
pub const FIRST_MOVE_MS: i64 = 30_000;

/// Clocks stored before the first-move count existed are past their first moves.
fn two() -> u8 {
    2
}
/// The quick choices of real-time controls: (minutes, increment seconds), as lichess's grid.
pub const REALTIME_PRESETS: [(i64, i64); 5] = [(1, 0), (3, 2), (5, 3), (10, 5), (15, 10)];
/// The correspondence choices, days per move.
pub const CORRESPONDENCE_DAYS: [i64; 6] = [1, 2, 3, 5, 7, 14];
/// Shortest and longest real-time initial time, seconds (15 s to 180 min).
pub const INITIAL_RANGE_S: (i64, i64) = (15, 180 * 60);
/// Largest increment, seconds.
pub const MAX_INCREMENT_S: i64 = 60;
const DAY_MS: i64 = 86_400_000;

/// A time control as asked for (`POST /api/games`, `POST /api/seeks`): `{"kind":
/// "realtime", "initial_s": n, "increment_s": n}`, `{"kind": "correspondence", "days": n}` or
/// `{"kind": "unlimited"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum TimeControl {
    /// Fischer: initial seconds plus an increment in seconds per move.
    Realtime {
        /// Initial time per side, seconds (15 to 10,800).
        initial_s: i64,
        /// Added after each move, seconds (0 to 60).
        increment_s: i64,
    },
    /// Days per move (1, 2, 3, 5, 7 or 14).
    Correspondence {
        /// Days per move.
        days: i64,
    },
    /// No clock (an empty struct variant, so that `deny_unknown_fields` refuses extra fields
    /// here too).
    Unlimited {},
}

/// A rating's speed class: ratings are kept per game and per speed (issue 13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    /// A real-time control.
    Realtime,
    /// A correspondence control.
    Correspondence,
}

impl Speed {
    /// `realtime` or `correspondence`.
    pub fn as_str(self) -> &'static str {
        match self {
            Speed::Realtime => "realtime",
            Speed::Correspondence => "correspondence",
        }
    }

    /// Inverse of [`Speed::as_str`].
    pub fn parse(text: &str) -> Option<Speed> {
        match text {
            "realtime" => Some(Speed::Realtime),
            "correspondence" => Some(Speed::Correspondence),
            _ => None,
        }
    }
}

impl TimeControl {
    /// Checks the ranges; 400 with what is wrong.
    pub fn validate(self) -> Result<TimeControl, SiteError> {
        match self {
            TimeControl::Realtime {
                initial_s,
                increment_s,
            } => {
                let (lo, hi) = INITIAL_RANGE_S;
                if !(lo..=hi).contains(&initial_s) {
                    return Err(SiteError::bad_request(format!(
                        "initial time {initial_s} s is out of range ({lo} s to {} min)",
                        hi / 60
                    )));
                }
                if !(0..=MAX_INCREMENT_S).contains(&increment_s) {
                    return Err(SiteError::bad_request(format!(
                        "increment {increment_s} s is out of range (0 to {MAX_INCREMENT_S} s)"
                    )));
                }
            }
            TimeControl::Correspondence { days } => {
                if !CORRESPONDENCE_DAYS.contains(&days) {
                    return Err(SiteError::bad_request(format!(
                        "{days} days per move is not offered (1, 2, 3, 5, 7 or 14)"
                    )));
                }
            }
            TimeControl::Unlimited {} => {}
        }
        Ok(self)
    }

    /// The speed class, `None` for unlimited (never rated).
    pub fn speed(self) -> Option<Speed> {
        match self {
            TimeControl::Realtime { .. } => Some(Speed::Realtime),
            TimeControl::Correspondence { .. } => Some(Speed::Correspondence),
            TimeControl::Unlimited {} => None,
        }
    }

    /// A short label: `3+2`, `1/2+0` (30 s), `2 days`, `unlimited`.
    pub fn label(self) -> String {
        match self {
            TimeControl::Realtime {
                initial_s,
                increment_s,
            } => {
                let minutes = match initial_s {
                    15 => "¼".to_string(),
                    30 => "½".to_string(),
                    45 => "¾".to_string(),
                    s if s % 60 == 0 => (s / 60).to_string(),
                    s => format!("{s}s"),
                };
                format!("{minutes}+{increment_s}")
            }
            TimeControl::Correspondence { days: 1 } => "1 day".to_string(),
            TimeControl::Correspondence { days } => format!("{days} days"),
            TimeControl::Unlimited {} => "unlimited".to_string(),
        }
    }

    /// A clock for a game of this control, not yet running; `None` for unlimited.
    pub fn new_clock(self) -> Option<Clock> {
        match self {
            TimeControl::Realtime {
                initial_s,
                increment_s,
            } => Some(Clock::Realtime {
                initial_ms: initial_s * 1000,
                increment_ms: increment_s * 1000,
                white_ms: initial_s * 1000,
                black_ms: initial_s * 1000,
                running: None,
                since_ms: 0,
                moves: 0,
                given_back: None,
            }),
            TimeControl::Correspondence { days } => Some(Clock::Correspondence {
                days,
                deadline_ms: 0,
                running: None,
                given_back: None,
            }),
            TimeControl::Unlimited {} => None,
        }
    }
}

/// A game's clock as stored (the `games.clock` column, JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Clock {
    /// Fischer.
    Realtime {
        /// Initial time per side, ms.
        initial_ms: i64,
        /// Increment per move, ms.
        increment_ms: i64,
        /// White's time left when its clock last stopped (or started), ms.
        white_ms: i64,
        /// Black's, likewise.
        black_ms: i64,
        /// The side whose clock runs.
        running: Option<Color>,
        /// Unix ms at which the running clock started (before the first moves: the side to
        /// move's wait for its first move).
        since_ms: i64,
        /// Moves made so far, counted up to 2: while below, the side to move has not made
        /// its first move, has at most [`FIRST_MOVE_MS`] for it, and its main clock stands.
        #[serde(default = "two")]
        moves: u8,
        /// The outage this clock was last given back, by its start (Unix ms; see
        /// [`Clock::credit_outage`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        given_back: Option<i64>,
    },
    /// Days per move.
    Correspondence {
        /// Days per move.
        days: i64,
        /// Unix ms at which the running side's time runs out.
        deadline_ms: i64,
        /// The side whose clock runs.
        running: Option<Color>,
        /// The outage this clock was last given back, by its start (Unix ms).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        given_back: Option<i64>,
    },
}

/// What a move did to the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charge {
    /// Charged; the clock runs for the other side.
    Ok,
    /// The mover's time was already over (beyond the lag allowance): it loses on time.
    Flagged,
}

impl Clock {
    /// The time control this clock was made from.
    pub fn control(&self) -> TimeControl {
        match *self {
            Clock::Realtime {
                initial_ms,
                increment_ms,
                ..
            } => TimeControl::Realtime {
                initial_s: initial_ms / 1000,
                increment_s: increment_ms / 1000,
            },
            Clock::Correspondence { days, .. } => TimeControl::Correspondence { days },
        }
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        match *self {
            Clock::Realtime { running, .. } | Clock::Correspondence { running, .. } => running,
        }
    }

    /// Starts `side`'s clock at `now` (both seats taken; after a takeback), without charging
    /// anyone.
    pub fn start(&mut self, side: Color, now: i64) {
        match self {
            Clock::Realtime {
                running, since_ms, ..
            } => {
                *running = Some(side);
                *since_ms = now;
            }
            Clock::Correspondence {
                days,
                deadline_ms,
                running,
                ..
            } => {
                *running = Some(side);
                *deadline_ms = now.saturating_add(days.saturating_mul(DAY_MS));
            }
        }
    }

    /// Gives the running side back `ms` (the site was down that long: nobody could move).
    pub fn credit(&mut self, ms: i64) {
        match self {
            Clock::Realtime {
                running: Some(_),
                since_ms,
                ..
            } => *since_ms = since_ms.saturating_add(ms),
            Clock::Correspondence {
                running: Some(_),
                deadline_ms,
                ..
            } => *deadline_ms = deadline_ms.saturating_add(ms),
            _ => {}
        }
    }

    /// Gives the running side back the part of `[from, now]` (Unix ms: an outage) during
    /// which its clock ran: a clock started after `from` (by a move or a join once the
    /// database was back, before the outage was given back) gets only the time since it
    /// started, not the whole outage.
    ///
    /// A running main clock is charged the part before `from` and restarted at `now`; the
    /// first-move wait and correspondence days are shifted instead. The clock is marked as
    /// given the outage that started at `from` ([`Clock::given_back`]): from then on its game
    /// takes moves again, though other clocks may still wait for theirs, and a second
    /// give-back of the same outage (its giver died midway: site::timeouts) gives it nothing,
    /// since its players could move.
    pub fn credit_outage(&mut self, from: i64, now: i64) {
        if self.given_back() == Some(from) {
            return;
        }
        self.credit_outage_unmarked(from, now);
        if self.running().is_some()
            && let Clock::Realtime { given_back, .. } | Clock::Correspondence { given_back, .. } =
                self
        {
            *given_back = Some(from);
        }
    }

    /// Marks the outage that started at `from` as given back without giving anything: for a
    /// clock started after it, which ran none of it ([`Clock::credit_outage`] then passes it
    /// by, and its game takes moves at once).
    pub fn mark_given_back(&mut self, from: i64) {
        let (Clock::Realtime { given_back, .. } | Clock::Correspondence { given_back, .. }) = self;
        *given_back = Some(from);
    }

    /// The start (Unix ms) of the outage this clock was last given back
    /// ([`Clock::credit_outage`]), if any.
    pub fn given_back(&self) -> Option<i64> {
        match *self {
            Clock::Realtime { given_back, .. } | Clock::Correspondence { given_back, .. } => {
                given_back
            }
        }
    }

    fn credit_outage_unmarked(&mut self, from: i64, now: i64) {
        if let Clock::Realtime {
            running: Some(side),
            since_ms,
            moves: 2..,
            ..
        } = *self
        {
            let ran_before = (from.min(now) - since_ms).max(0);
            let left = self.stored_ms(side) - ran_before;
            self.set_left(side, left);
            if let Clock::Realtime { since_ms, .. } = self {
                *since_ms = (*since_ms).max(now);
            }
            return;
        }
        let started = match *self {
            Clock::Realtime {
                running: Some(_),
                since_ms,
                ..
            } => since_ms,
            Clock::Correspondence {
                running: Some(_),
                days,
                deadline_ms,
                ..
            } => deadline_ms.saturating_sub(days.saturating_mul(DAY_MS)),
            _ => return,
        };
        self.credit(now.saturating_sub(from.max(started)).max(0));
    }

    /// Stops the clock at `now` (the game ended), charging the running side its time.
    pub fn stop(&mut self, now: i64) {
        if let Clock::Realtime { .. } = self
            && let Some(side) = self.running()
        {
            let left = self.left_ms(side, now);
            self.set_left(side, left.max(0));
        }
        match self {
            Clock::Realtime { running, .. } | Clock::Correspondence { running, .. } => {
                *running = None;
            }
        }
    }

    /// `mover` moved at `now`: charges it (less the lag allowance), adds the increment and
    /// starts the opponent's clock. A move made after the mover's deadline is
    /// [`Charge::Flagged`] and changes nothing. A first move, or a clock that is not running
    /// (never started), charges nothing and adds no increment: the opponent's clock (or
    /// first-move wait) just starts.
    pub fn on_move(&mut self, mover: Color, now: i64) -> Charge {
        if self.running() == Some(mover) && self.flagged(now) == Some(mover) {
            return Charge::Flagged;
        }
        if let Clock::Realtime {
            increment_ms,
            since_ms,
            running: Some(side),
            moves,
            ..
        } = *self
            && side == mover
            && moves >= 2
        {
            let elapsed = (now - since_ms).max(0);
            let charged = (elapsed - LAG_ALLOWANCE_MS).max(0);
            let left = self.stored_ms(mover) - charged + increment_ms;
            self.set_left(mover, left.max(0));
        }
        if let Clock::Realtime { moves, .. } = self {
            *moves = moves.saturating_add(1).min(2);
        }
        self.start(!mover, now);
        Charge::Ok
    }

    /// The side whose time is over at `now`, beyond the lag allowance.
    pub fn flagged(&self, now: i64) -> Option<Color> {
        let side = self.running()?;
        (now > self.deadline_ms()?).then_some(side)
    }

    /// Unix ms after which the running side is flagged (its time plus the lag allowance);
    /// `None` when the clock is stopped. Stored as `games.clock_deadline` for the timeout
    /// sweeper.
    pub fn deadline_ms(&self) -> Option<i64> {
        let side = self.running()?;
        Some(match *self {
            Clock::Realtime {
                since_ms,
                moves,
                initial_ms,
                ..
            } => {
                let allowed = if moves < 2 {
                    initial_ms.min(FIRST_MOVE_MS)
                } else {
                    self.stored_ms(side)
                };
                since_ms
                    .saturating_add(allowed)
                    .saturating_add(LAG_ALLOWANCE_MS)
            }
            Clock::Correspondence { deadline_ms, .. } => deadline_ms,
        })
    }

    /// `side`'s time left at `now`, ms (negative once over); correspondence: until the
    /// deadline while running, a full period otherwise. Before the first moves the main
    /// clocks stand (see [`Clock::first_move_left_ms`]).
    pub fn left_ms(&self, side: Color, now: i64) -> i64 {
        match *self {
            Clock::Realtime {
                running,
                since_ms,
                moves,
                ..
            } => {
                let stored = self.stored_ms(side);
                if running == Some(side) && moves >= 2 {
                    stored - (now - since_ms).max(0)
                } else {
                    stored
                }
            }
            Clock::Correspondence {
                days,
                deadline_ms,
                running,
                ..
            } => {
                if running == Some(side) {
                    deadline_ms - now
                } else {
                    days * DAY_MS
                }
            }
        }
    }

    /// While a real-time game waits for a first move: the time the side to move has left to
    /// make it at `now`, ms (negative once over, before the lag allowance); `None` otherwise.
    pub fn first_move_left_ms(&self, now: i64) -> Option<i64> {
        match *self {
            Clock::Realtime {
                running: Some(_),
                moves,
                since_ms,
                initial_ms,
                ..
            } if moves < 2 => Some(since_ms + initial_ms.min(FIRST_MOVE_MS) - now),
            _ => None,
        }
    }

    fn stored_ms(&self, side: Color) -> i64 {
        match *self {
            Clock::Realtime {
                white_ms, black_ms, ..
            } => match side {
                Color::White => white_ms,
                Color::Black => black_ms,
            },
            Clock::Correspondence { days, .. } => days * DAY_MS,
        }
    }

    fn set_left(&mut self, side: Color, ms: i64) {
        if let Clock::Realtime {
            white_ms, black_ms, ..
        } = self
        {
            match side {
                Color::White => *white_ms = ms,
                Color::Black => *black_ms = ms,
            }
        }
    }

    /// The clock as GameView shows it at `now` (docs/api.md, `clock`).
    pub fn view(&self, now: i64) -> ClockView {
        match *self {
            Clock::Realtime {
                initial_ms,
                increment_ms,
                running,
                ..
            } => ClockView::Realtime {
                initial_ms,
                increment_ms,
                white_ms: self.left_ms(Color::White, now).max(0),
                black_ms: self.left_ms(Color::Black, now).max(0),
                running,
                first_move_ms: self.first_move_left_ms(now).map(|ms| ms.max(0)),
            },
            Clock::Correspondence {
                days,
                deadline_ms,
                running,
                ..
            } => ClockView::Correspondence {
                days,
                deadline_ms: running.map(|_| deadline_ms),
                running,
            },
        }
    }
}

/// GameView's `clock`: `{"kind": "realtime", "initial_ms", "increment_ms", "white_ms",
/// "black_ms", "running", "first_move_ms"}` (times left when the view was made;
/// `first_move_ms`: the running side's time left for its first move, `null` once both sides
/// moved) or `{"kind":
/// "correspondence", "days", "deadline_ms", "running"}` (Unix ms; `null` while stopped).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ClockView {
    /// Fischer.
    Realtime {
        initial_ms: i64,
        increment_ms: i64,
        white_ms: i64,
        black_ms: i64,
        running: Option<Color>,
        #[serde(default)]
        first_move_ms: Option<i64>,
    },
    /// Days per move.
    Correspondence {
        days: i64,
        deadline_ms: Option<i64>,
        running: Option<Color>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blitz() -> Clock {
        TimeControl::Realtime {
            initial_s: 180,
            increment_s: 2,
        }
        .new_clock()
        .expect("a clock")
    }

    /// A 3+2 clock past both first moves (those are not charged: their own tests).
    fn blitz_in_play() -> Clock {
        let mut c = blitz();
        if let Clock::Realtime { moves, .. } = &mut c {
            *moves = 2;
        }
        c
    }

    #[test]
    fn fischer_charges_the_mover_less_the_lag_allowance_and_adds_the_increment() {
        let mut c = blitz_in_play();
        c.start(Color::White, 1_000);
        assert_eq!(c.running(), Some(Color::White));
        // White thinks 10.25 s: charged 10 s, +2 s.
        assert_eq!(c.on_move(Color::White, 11_250), Charge::Ok);
        assert_eq!(c.left_ms(Color::White, 11_250), 180_000 - 10_000 + 2_000);
        assert_eq!(c.running(), Some(Color::Black));
        // Black's clock runs from White's move.
        assert_eq!(c.left_ms(Color::Black, 21_250), 170_000);
        // A move within the allowance costs nothing but still earns the increment.
        assert_eq!(c.on_move(Color::Black, 11_400), Charge::Ok);
        assert_eq!(c.left_ms(Color::Black, 11_400), 182_000);
    }

    #[test]
    fn a_move_after_the_deadline_is_flagged_and_changes_nothing() {
        let mut c = blitz_in_play();
        c.start(Color::White, 0);
        let deadline = c.deadline_ms().expect("running");
        assert_eq!(deadline, 180_000 + LAG_ALLOWANCE_MS);
        assert_eq!(c.flagged(deadline), None);
        assert_eq!(c.flagged(deadline + 1), Some(Color::White));
        let before = c;
        assert_eq!(c.on_move(Color::White, deadline + 1), Charge::Flagged);
        assert_eq!(c, before);
        // At the deadline itself the move still counts: its time is left at 0.
        assert_eq!(c.on_move(Color::White, deadline), Charge::Ok);
        assert_eq!(c.left_ms(Color::White, deadline), 2_000);
    }

    #[test]
    fn correspondence_restores_the_full_period_on_each_move() {
        let mut c = TimeControl::Correspondence { days: 2 }
            .new_clock()
            .expect("a clock");
        c.start(Color::White, 0);
        assert_eq!(c.deadline_ms(), Some(2 * DAY_MS));
        assert_eq!(c.on_move(Color::White, DAY_MS + 5), Charge::Ok);
        assert_eq!(c.deadline_ms(), Some(3 * DAY_MS + 5));
        assert_eq!(c.flagged(3 * DAY_MS + 6), Some(Color::Black));
        match c.view(DAY_MS) {
            ClockView::Correspondence {
                days,
                deadline_ms,
                running,
            } => assert_eq!(
                (days, deadline_ms, running),
                (2, Some(3 * DAY_MS + 5), Some(Color::Black))
            ),
            other => panic!("not a correspondence view: {other:?}"),
        }
    }

    #[test]
    fn stopping_charges_the_running_side_and_the_view_never_goes_negative() {
        let mut c = blitz_in_play();
        c.start(Color::White, 0);
        c.stop(5_000);
        assert_eq!(c.running(), None);
        assert_eq!(c.left_ms(Color::White, 99_999), 175_000);
        assert_eq!(c.deadline_ms(), None);
        let mut c = blitz_in_play();
        c.start(Color::Black, 0);
        assert!(matches!(
            c.view(400_000),
            ClockView::Realtime {
                black_ms: 0,
                white_ms: 180_000,
                ..
            }
        ));
    }

    #[test]
    fn first_moves_are_not_charged_to_the_clock() {
        let mut c = blitz();
        c.start(Color::White, 0);
        // Waiting for White's first move: the main clocks stand at the initial time.
        assert_eq!(c.left_ms(Color::White, 10_000), 180_000);
        assert_eq!(c.first_move_left_ms(10_000), Some(FIRST_MOVE_MS - 10_000));
        match c.view(10_000) {
            ClockView::Realtime {
                white_ms,
                black_ms,
                running,
                first_move_ms,
                ..
            } => assert_eq!(
                (white_ms, black_ms, running, first_move_ms),
                (180_000, 180_000, Some(Color::White), Some(20_000))
            ),
            other => panic!("not a real-time view: {other:?}"),
        }
        // White thinks 10 s, Black 12 s: neither is charged, and no increment is added
        // (lichess: the uncharged first moves earn none).
        assert_eq!(c.on_move(Color::White, 10_000), Charge::Ok);
        assert_eq!(c.left_ms(Color::White, 10_000), 180_000);
        assert_eq!(c.left_ms(Color::Black, 20_000), 180_000);
        assert_eq!(c.first_move_left_ms(20_000), Some(FIRST_MOVE_MS - 10_000));
        assert_eq!(c.on_move(Color::Black, 22_000), Charge::Ok);
        assert_eq!(c.left_ms(Color::Black, 22_000), 180_000);
        // Black's first move starts White's main clock.
        assert_eq!(c.first_move_left_ms(22_000), None);
        assert_eq!(c.running(), Some(Color::White));
        assert_eq!(c.left_ms(Color::White, 27_000), 175_000);
        assert_eq!(
            c.deadline_ms(),
            Some(22_000 + 180_000 + LAG_ALLOWANCE_MS),
            "from the third move on the whole clock counts"
        );
        // White's second move is the first one charged, with the increment.
        assert_eq!(c.on_move(Color::White, 27_250), Charge::Ok);
        assert_eq!(c.left_ms(Color::White, 27_250), 180_000 - 5_000 + 2_000);
        // Stopping before the first moves charges nothing either.
        let mut c = blitz();
        c.start(Color::White, 0);
        c.stop(20_000);
        assert_eq!(c.left_ms(Color::White, 20_000), 180_000);
    }

    #[test]
    fn a_missing_first_move_aborts_after_30_s() {
        // The game service aborts a game flagged before ply 2 (tests/clocks.rs); here, when.
        let mut c = blitz();
        c.start(Color::White, 0);
        let white_deadline = FIRST_MOVE_MS + LAG_ALLOWANCE_MS;
        assert_eq!(c.deadline_ms(), Some(white_deadline));
        assert_eq!(c.flagged(white_deadline), None);
        assert_eq!(c.flagged(white_deadline + 1), Some(Color::White));
        let before = c;
        assert_eq!(
            c.on_move(Color::White, white_deadline + 1),
            Charge::Flagged,
            "a first move after its 30 s is refused"
        );
        assert_eq!(c, before);
        // Black's 30 s count from White's first move.
        assert_eq!(c.on_move(Color::White, 10_000), Charge::Ok);
        assert_eq!(
            c.deadline_ms(),
            Some(10_000 + FIRST_MOVE_MS + LAG_ALLOWANCE_MS)
        );
        assert_eq!(
            c.flagged(10_000 + FIRST_MOVE_MS + LAG_ALLOWANCE_MS + 1),
            Some(Color::Black)
        );
        // A clock shorter than 30 s waits its initial time (lichess's ultra-bullet: 15 s).
        let mut c = TimeControl::Realtime {
            initial_s: 15,
            increment_s: 0,
        }
        .new_clock()
        .expect("a clock");
        c.start(Color::White, 0);
        assert_eq!(c.deadline_ms(), Some(15_000 + LAG_ALLOWANCE_MS));
        // A stored clock without the count is past its first moves.
        let old = r#"{"kind":"realtime","initial_ms":60000,"increment_ms":0,"white_ms":60000,"black_ms":60000,"running":"white","since_ms":0}"#;
        let c: Clock = serde_json::from_str(old).expect("parse");
        assert_eq!(c.deadline_ms(), Some(60_000 + LAG_ALLOWANCE_MS));
        assert_eq!(c.first_move_left_ms(0), None);
    }

    #[test]
    fn an_outage_is_credited_to_the_running_side() {
        let mut c = blitz_in_play();
        c.start(Color::White, 0);
        c.credit(30_000);
        assert_eq!(c.left_ms(Color::White, 30_000), 180_000);
        assert_eq!(c.left_ms(Color::Black, 30_000), 180_000);
        let mut c = TimeControl::Correspondence { days: 1 }
            .new_clock()
            .expect("a clock");
        c.start(Color::Black, 0);
        c.credit(5);
        assert_eq!(c.deadline_ms(), Some(DAY_MS + 5));
    }

    #[test]
    fn an_outage_is_credited_only_for_the_time_the_clock_ran_through_it() {
        // Running since before the outage: all of it.
        let mut c = blitz_in_play();
        c.start(Color::White, 0);
        c.credit_outage(10_000, 40_000);
        assert_eq!(c.left_ms(Color::White, 40_000), 180_000 - 10_000);
        // Started during it (a move once the database was back): only its own wait.
        let mut c = blitz_in_play();
        c.start(Color::Black, 39_000);
        c.credit_outage(10_000, 40_000);
        assert_eq!(c.left_ms(Color::Black, 41_000), 180_000 - 1_000);
        // Started after it: nothing.
        let mut c = blitz_in_play();
        c.start(Color::Black, 41_000);
        c.credit_outage(10_000, 40_000);
        assert_eq!(c.left_ms(Color::Black, 42_000), 179_000);
    }

    #[test]
    fn an_outage_given_back_twice_gives_nothing_the_second_time() {
        // The giver died after this clock got the outage [10 s, 40 s]; the next giver, at
        // 50 s, gives the same outage again. The clock ran from 40 s, and its game took moves
        // from then (site::timeouts): nothing more is owed, neither the outage nor 40-50 s.
        let mut c = blitz_in_play();
        c.start(Color::White, 0);
        assert_eq!(c.given_back(), None);
        c.credit_outage(10_000, 40_000);
        assert_eq!(c.given_back(), Some(10_000));
        c.credit_outage(10_000, 50_000);
        assert_eq!(c.left_ms(Color::White, 50_000), 180_000 - 20_000);
        // The mark is stored with the clock; a clock stored without it reads as never given.
        let stored = serde_json::to_string(&c).expect("json");
        let read: Clock = serde_json::from_str(&stored).expect("parse");
        assert_eq!(read, c);
        let fresh = serde_json::to_string(&blitz()).expect("json");
        assert!(!fresh.contains("given_back"), "{fresh}");
        // A later outage is given again: the clock ran 0-10 s and 40-60 s.
        c.credit_outage(60_000, 70_000);
        assert_eq!(c.given_back(), Some(60_000));
        assert_eq!(c.left_ms(Color::White, 70_000), 180_000 - 30_000);
    }

    #[test]
    fn a_clock_started_after_an_outage_is_marked_and_given_nothing_of_it() {
        let mut c = blitz_in_play();
        c.start(Color::White, 45_000);
        c.mark_given_back(10_000);
        assert_eq!(c.given_back(), Some(10_000));
        c.credit_outage(10_000, 50_000);
        assert_eq!(c.left_ms(Color::White, 50_000), 180_000 - 5_000);
    }

    #[test]
    fn an_outage_shifts_the_first_move_wait() {
        let mut c = blitz();
        c.start(Color::White, 0);
        let before = c.deadline_ms().expect("a deadline");
        c.credit_outage(10_000, 40_000);
        assert_eq!(c.deadline_ms(), Some(before + 30_000));
    }

    #[test]
    fn controls_outside_the_offered_ranges_are_refused() {
        let rt = |initial_s, increment_s| {
            TimeControl::Realtime {
                initial_s,
                increment_s,
            }
            .validate()
        };
        assert!(rt(15, 0).is_ok() && rt(10_800, 60).is_ok());
        assert!(rt(14, 0).is_err() && rt(10_801, 0).is_err());
        assert!(rt(60, -1).is_err() && rt(60, 61).is_err());
        for days in CORRESPONDENCE_DAYS {
            assert!(TimeControl::Correspondence { days }.validate().is_ok());
        }
        for days in [0, 4, 6, 15, -1] {
            let e = TimeControl::Correspondence { days }
                .validate()
                .expect_err("not offered");
            assert!(e.to_string().contains(&format!("{days} days")), "{e}");
        }
        for (m, i) in REALTIME_PRESETS {
            assert!(rt(m * 60, i).is_ok());
        }
        assert_eq!(rt(180, 2).map(TimeControl::label).ok(), Some("3+2".into()));
        assert_eq!(rt(30, 0).map(TimeControl::label).ok(), Some("½+0".into()));
    }

    #[test]
    fn the_stored_form_round_trips_through_json() {
        let mut c = blitz();
        c.start(Color::Black, 123);
        let text = serde_json::to_string(&c).expect("json");
        let back: Clock = serde_json::from_str(&text).expect("parse");
        assert_eq!(back, c);
        assert_eq!(back.control().label(), "3+2");
        let tc: TimeControl =
            serde_json::from_str(r#"{"kind":"realtime","initial_s":300,"increment_s":3}"#)
                .expect("parse");
        assert_eq!(tc.speed(), Some(Speed::Realtime));
        assert!(
            serde_json::from_str::<TimeControl>(r#"{"kind":"blitz"}"#).is_err(),
            "unknown kinds are refused"
        );
        let unlimited: TimeControl =
            serde_json::from_str(r#"{"kind":"unlimited"}"#).expect("unlimited");
        assert_eq!(unlimited, TimeControl::Unlimited {});
        assert_eq!(
            serde_json::to_string(&unlimited).ok().as_deref(),
            Some(r#"{"kind":"unlimited"}"#)
        );
        assert!(
            serde_json::from_str::<TimeControl>(r#"{"kind":"unlimited","days":3}"#).is_err(),
            "extra fields are refused on every kind"
        );
    }
}
