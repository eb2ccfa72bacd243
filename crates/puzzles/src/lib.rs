//! Puzzles "X begins and wins" (issue 39), every one proven.
//!
//! A puzzle is a position, the side to move (the solver's side) and a line to the end of the
//! game. [`prove::check`] keeps a position only when the engine's solver
//! ([`engine::solve::Prover`]) proves that:
//! - the side to move wins within the limit (Antarctos: up to 15 plies; Ice Age Chess: a
//!   mate or a frozen king, up to 9);
//! - at each of its moves on the line that move is the only one that wins within the plies
//!   left (every other move is proven not to);
//! - the defence is the one that resists longest; where several defences resist as long,
//!   each of them is followed and checked the same way, so any of them may be played when
//!   the puzzle is solved;
//! - the first move is not the only legal move.
//!
//! [`dedup`] drops the same position met again (and in Antarctos its colour mirror), and
//! [`themes`] tags each puzzle from its line. The lab's and the site's mining (the command
//! `icebound puzzles mine`) drive these over games; before each proof a prefilter, the
//! engine's quick search on a small node budget, rejects the positions where it sees no
//! win ([`NO_WIN_SEEN`], [`MineOptions::prefilter_nodes`]): mining is about ten times
//! faster, and what is kept is still decided by the proof alone. [`seeds`] holds the seeds'
//! three worked examples, Antarctos puzzles 1-3 of the shipped file. [`attempt::judge`]
//! judges a player's attempt at a stored puzzle (the site's trainer).

pub mod attempt;
pub mod dedup;
pub mod file;
pub mod mine;
pub mod prove;
pub mod seeds;
pub mod themes;

pub use attempt::{AttemptError, Verdict, judge, judge_texts, parse_moves};
pub use dedup::{Clash, PuzzleKey, Seen};
pub use file::{COLUMN_NAMES, FileError, FilePuzzle, Row, read_rows, valid_id, write_rows};
pub use mine::{Minable, MineOptions, Mined, Miner, NO_WIN_SEEN, Origin, Summary};
pub use prove::{Limits, LineFault, Proven, Reject, check, verify_line};
pub use seeds::{SEED_EXAMPLES, SeedExample, is_seed_id, seed_rows};
pub use themes::{Theme, Themed};
