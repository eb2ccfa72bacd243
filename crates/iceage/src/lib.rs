//! Ice Age Chess (the rules in `spec/iceage.md`, decisions C1-C14): chess on a board with
//! neutral, capturable ice cubes, refilled by an Ice Age inside every 20th Black move.
//!
//! - [`Position`]: a position as a value; [`Position::play`] returns the next one.
//! - [`Move`]: a move (UCI text by `Display`); [`san`] reads and writes SAN/UCI (C13).
//! - [`fen`]: FEN with `*` for ice (C12).
//! - [`ice_age`]: the Ice Age (C5-C9); [`ice_age_comment`] its PGN comment (C13).
//! - [`IceAge`]: the `game::Variant` implementation the engine, site and CLI use.
//!
//! Built on shakmaty's squares, bitboards and attack tables, with ice in the occupancy.

#![warn(missing_docs)]

pub mod board;
pub mod fen;
pub mod ice_age;
mod movegen;
pub mod moves;
pub mod perft;
mod pgn;
pub mod position;
pub mod san;
mod variant;
pub mod zobrist;

pub use board::Board;
pub use fen::FenError;
pub use ice_age::IceAgeReport;
pub use moves::{Capture, Move, MoveKind};
pub use position::{IllegalMove, Position};
pub use san::MoveTextError;

/// Marker type of the game, for `game::Variant`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IceAge;

/// The PGN comment for the Ice Age that `mv` (legal in `pos`) brings (C13): `None` when the
/// move brings no Ice Age (C5) or is not legal; otherwise `"Ice Age: Rh8 frozen"`, `"Ice Age: Rh8, Ke1
/// frozen"` (frozen pieces in FEN reading order, rank 8 first, named as in SAN, a pawn by
/// its square alone), or `"Ice Age"` when nothing froze.
pub fn ice_age_comment(pos: &Position, mv: &Move) -> Option<String> {
    if !pos.ice_age_due() || !pos.legal_moves().contains(mv) {
        return None;
    }
    let (_, report) = pos.play_with_report(mv);
    report.map(|r| r.comment())
}
