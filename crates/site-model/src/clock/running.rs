//! The running clock as stored with a game (`games.clock`, JSON), what a move does to it, and
//! its view in GameView.

use game::Color;
use serde::{Deserialize, Serialize};

use super::{DAY_MS, FIRST_MOVE_MS, FLAG_GRACE_MS, TimeControl, lag};

/// Clocks stored before the first-move count existed are past their first moves.
fn two() -> u8 {
    2
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
        /// Each side's lag quota, ms, White's first ([`lag`]); absent until the first
        /// compensated move (then both start at [`lag::start_ms`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lag_quota_ms: Option<[i64; 2]>,
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
        /// The running side's vacation time in `deadline_ms`, ms ([`super::vacation`]): the
        /// deadline the days alone give is `deadline_ms - held_ms`.
        #[serde(default, skip_serializing_if = "is_zero")]
        held_ms: i64,
        /// The last of the running side's vacations that stops this turn's clock, `[start,
        /// end)` Unix ms (the view says "on vacation until" while it lasts).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        vacation: Option<[i64; 2]>,
    },
}

fn is_zero(ms: &i64) -> bool {
    *ms == 0
}

/// What a move did to the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charge {
    /// Charged; the clock runs for the other side.
    Ok,
    /// The mover's time was already over (beyond [`super::FLAG_GRACE_MS`], or more than its lag quota covers): it loses on time.
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
                held_ms,
                vacation,
                ..
            } => {
                *running = Some(side);
                *deadline_ms = now.saturating_add(days.saturating_mul(DAY_MS));
                // A new turn: the mover's vacations are counted again (`hold_for_vacations`).
                *held_ms = 0;
                *vacation = None;
            }
        }
    }

    /// Berserk (lichess's arena): `side` halves its own main time before its first move.
    /// `false` (nothing changes) for a correspondence clock, after the side's first move, or
    /// when its time is already below the initial time (berserk twice).
    pub fn berserk(&mut self, side: Color) -> bool {
        match self {
            Clock::Realtime {
                initial_ms,
                white_ms,
                black_ms,
                moves,
                ..
            } => {
                let (left, first_move_made) = match side {
                    Color::White => (white_ms, *moves >= 1),
                    Color::Black => (black_ms, *moves >= 2),
                };
                if first_move_made || *left < *initial_ms {
                    return false;
                }
                *left = *initial_ms / 2;
                true
            }
            Clock::Correspondence { .. } => false,
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
                held_ms,
                ..
            } => deadline_ms
                .saturating_sub(held_ms)
                .saturating_sub(days.saturating_mul(DAY_MS)),
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

    /// [`Clock::on_move_with_lag`] with no lag claimed: the whole elapsed time is charged.
    pub fn on_move(&mut self, mover: Color, now: i64) -> Charge {
        self.on_move_with_lag(mover, now, None)
    }

    /// `mover` moved at `now`, its client claiming `claimed_lag_ms` of network time: charges
    /// it its elapsed time less the lag its quota covers ([`lag::compensate`]), adds the
    /// increment and starts the opponent's clock. A move made after the mover's deadline, or
    /// whose time is over even after the compensation, is [`Charge::Flagged`] and changes
    /// nothing. A first move, or a clock that is not running (never started), charges nothing
    /// and adds no increment: the opponent's clock (or first-move wait) just starts.
    pub fn on_move_with_lag(
        &mut self,
        mover: Color,
        now: i64,
        claimed_lag_ms: Option<i64>,
    ) -> Charge {
        if self.running() == Some(mover) && self.flagged(now) == Some(mover) {
            return Charge::Flagged;
        }
        if let Clock::Realtime {
            initial_ms,
            increment_ms,
            since_ms,
            running: Some(side),
            moves,
            lag_quota_ms,
            ..
        } = *self
            && side == mover
            && moves >= 2
        {
            let gain = lag::gain_ms(initial_ms, increment_ms);
            let mut quotas = lag_quota_ms.unwrap_or([lag::start_ms(gain); 2]);
            let i = usize::from(mover == Color::Black);
            let elapsed = (now - since_ms).max(0);
            let (comp, quota) = lag::compensate(quotas[i], gain, claimed_lag_ms, elapsed);
            let left = self.stored_ms(mover) - (elapsed - comp);
            if left < 0 {
                return Charge::Flagged;
            }
            quotas[i] = quota;
            self.set_left(mover, left + increment_ms);
            if let Clock::Realtime { lag_quota_ms, .. } = self {
                *lag_quota_ms = Some(quotas);
            }
        }
        if let Clock::Realtime { moves, .. } = self {
            *moves = moves.saturating_add(1).min(2);
        }
        self.start(!mover, now);
        Charge::Ok
    }

    /// `side`'s lag quota now, ms (`None` for a correspondence clock).
    pub fn lag_quota_ms(&self, side: Color) -> Option<i64> {
        match *self {
            Clock::Realtime {
                initial_ms,
                increment_ms,
                lag_quota_ms,
                ..
            } => Some(
                lag_quota_ms
                    .map(|q| q[usize::from(side == Color::Black)])
                    .unwrap_or_else(|| lag::start_ms(lag::gain_ms(initial_ms, increment_ms))),
            ),
            Clock::Correspondence { .. } => None,
        }
    }

    /// The side whose time is over at `now`, beyond [`FLAG_GRACE_MS`].
    pub fn flagged(&self, now: i64) -> Option<Color> {
        let side = self.running()?;
        (now > self.deadline_ms()?).then_some(side)
    }

    /// The running side whose time (before the first moves, its first-move time) is over at
    /// `now`, [`FLAG_GRACE_MS`] not counted: that grace is for a move in flight, and what such
    /// a side asks instead of moving (a claim) must not win it the game.
    pub fn time_up(&self, now: i64) -> Option<Color> {
        let side = self.running()?;
        let left = self
            .first_move_left_ms(now)
            .unwrap_or_else(|| self.left_ms(side, now));
        (left <= 0).then_some(side)
    }

    /// Unix ms after which the running side is flagged (its time plus [`FLAG_GRACE_MS`]);
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
                    .saturating_add(FLAG_GRACE_MS)
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
    /// make it at `now`, ms (negative once over, before [`FLAG_GRACE_MS`]); `None` otherwise.
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
                vacation,
                ..
            } => ClockView::Correspondence {
                days,
                deadline_ms: running.map(|_| deadline_ms),
                running,
                vacation_until_ms: vacation
                    .filter(|[from, until]| running.is_some() && *from <= now && now < *until)
                    .map(|[_, until]| until),
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
        /// While the running side is on vacation (its clock stopped): when it ends, Unix ms.
        #[serde(default)]
        vacation_until_ms: Option<i64>,
    },
}
