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
//! Lag (issue 38, [`lag`]): each move of a real-time game is charged its elapsed time less the
//! lag its client claimed, taken from the player's quota (lichess's `LagTracker` idea): never a
//! flat allowance, so an instant answer spends clock time. A side is flagged only once its time
//! is over by more than [`FLAG_GRACE_MS`] (a move still in flight); a move that arrives later
//! than that, or whose lag the quota cannot cover, is refused and the game is lost on time.
//!
//! The module's parts: the time control as asked for, its checks and labels (`control`), and
//! the running clock as stored and shown (`running`).

mod control;
pub mod lag;
mod running;
#[cfg(test)]
mod tests;
pub mod vacation;

pub use control::{
    CORRESPONDENCE_DAYS, INITIAL_RANGE_S, MAX_INCREMENT_S, REALTIME_PRESETS, Speed, TimeControl,
};
pub use running::{Charge, Clock, ClockView};

/// How long after a side's time is over it is flagged, ms: a move in flight meanwhile still
/// counts if its lag quota covers it (see the module's note).
pub const FLAG_GRACE_MS: i64 = 250;
/// Longest wait for each side's first move in a real-time game, ms (as lichess): a player who
/// never moves aborts the game within this (or the initial time if shorter); the main clock
/// does not run meanwhile.
pub const FIRST_MOVE_MS: i64 = 30_000;
/// A day, ms.
pub const DAY_MS: i64 = 86_400_000;
