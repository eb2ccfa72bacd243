//! Antarctos, "icebound checkers": Russian checkers in which a captured man turns into
//! neutral ice that anyone may jump, with no kings; the first man to reach the far row
//! wins. The rules are decisions A1-A19 of `docs/rules/antarctos.md`.
//!
//! - [`Position`]: a value (`play(&self, &Move) -> Result<Position, IllegalMove>`), with
//!   [`Position::legal_moves`], [`Position::outcome`], [`Position::zobrist`].
//! - [`Move`]: one whole turn, a simple move or a jump sequence with every landing square.
//! - [`fen`] (position text, A18: `parse`, `write`, [`PositionError`]), [`notation`] (move
//!   text, A16-A17: `parse_move`, `move_text`, [`MoveTextError`]), [`perft()`].
//! - [`Antarctos`]: the [`game::Variant`] the engine, the site and the CLI use, and the
//!   [`game::RecordRules`] of its PDN records (A19).
//!
//! Pure rules: no I/O, no globals. The modules with functions (`fen`, `notation`) are
//! public; the types are exported here. `iceage` is laid out the same way.
//!
//! ```
//! use antarctos::{Position, fen, notation};
//! // Seed example 1 (A3-A19): Black begins and wins.
//! let mut pos = fen::parse("B:Wa5,d2,d4:Ba7,c7").unwrap();
//! for text in ["c7-b6", "a5xc7", "a7xc5xe3xc1"] {
//!     let mv = notation::parse_move(&pos, text).unwrap();
//!     pos = pos.play(&mv).unwrap();
//! }
//! assert_eq!(pos.outcome().unwrap().to_string(), "0-1 black wins (breakthrough)");
//! ```

mod board;
pub mod fen;
mod movegen;
pub mod notation;
mod pdn;
mod perft;
mod position;
mod turn;
mod variant;
mod zobrist;

pub use board::{Square, SquareError, SquareSet};
pub use fen::PositionError;
pub use notation::MoveTextError;
pub use perft::perft;
pub use position::{IllegalMove, Piece, Position};
pub use turn::{MAX_PATH, Move};
pub use variant::Antarctos;
