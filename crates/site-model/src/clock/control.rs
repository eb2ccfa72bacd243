//! A time control as asked for (`POST /api/games`, `POST /api/seeks`): its offered ranges, its
//! checks, its label and its speed class, and the clock it starts.

use serde::{Deserialize, Serialize};

use super::running::Clock;
use crate::error::SiteError;

/// The quick choices of real-time controls: (minutes, increment seconds), as lichess's grid.
pub const REALTIME_PRESETS: [(i64, i64); 5] = [(1, 0), (3, 2), (5, 3), (10, 5), (15, 10)];
/// The correspondence choices, days per move.
pub const CORRESPONDENCE_DAYS: [i64; 6] = [1, 2, 3, 5, 7, 14];
/// Shortest and longest real-time initial time, seconds (15 s to 180 min).
pub const INITIAL_RANGE_S: (i64, i64) = (15, 180 * 60);
/// Largest increment, seconds.
pub const MAX_INCREMENT_S: i64 = 60;

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

game::text_enum! {
    /// A rating's speed class: ratings are kept per game and per speed (issue 13).
    pub enum Speed ("speed") {
        /// A real-time control.
        Realtime = "realtime",
        /// A correspondence control.
        Correspondence = "correspondence",
    }
}

impl TimeControl {
    /// A real-time control's expected length, seconds: `initial + 40 × increment` (lichess's
    /// estimate of a game's duration); `None` for correspondence and unlimited.
    pub fn expected_s(self) -> Option<i64> {
        match self {
            TimeControl::Realtime {
                initial_s,
                increment_s,
            } => Some(initial_s + 40 * increment_s),
            _ => None,
        }
    }

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
                lag_quota_ms: None,
            }),
            TimeControl::Correspondence { days } => Some(Clock::Correspondence {
                days,
                deadline_ms: 0,
                running: None,
                given_back: None,
                held_ms: 0,
                vacation: None,
            }),
            TimeControl::Unlimited {} => None,
        }
    }
}
