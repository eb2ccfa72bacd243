//! Antarctos, "icebound checkers": Russian checkers in which a captured man turns into
//! neutral ice that anyone may jump, with no kings; the first man to reach the far row
//! wins. The rules are decisions A1-A19 of `spec/antarctos.md`.
//!
//! - [`Position`]: a value (`play(&self, &Move) -> Result<Position, IllegalMove>`), with
//!   [`Position::legal_moves`], [`Position::outcome`], [`Position::zobrist`].
//! - [`Move`]: one whole turn, a simple move or a jump sequence with every landing square.
//! - [`fen`] (position text, A18), [`notation`] (move text, A16-A17), [`perft()`].
//! - [`Antarctos`]: the [`game::Variant`] the engine, the site and the CLI use.
//!
//! Pure rules: no I/O, no globals.

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
