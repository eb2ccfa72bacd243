//! Ice Age Chess (decisions C1-C14 of `docs/rules/iceage.md`): chess on a board with
//! neutral, capturable ice cubes, refilled by an Ice Age inside every Black move whose
//! number is a multiple of [`ice_age::PERIOD`].
//!
//! - [`Position`]: a position as a value; [`Position::play`] returns the next one.
//! - [`Move`]: a move (UCI text by `Display`).
//! - [`fen`] (position text, C12: `parse`, `write`, [`PositionError`]), [`notation`] (move
//!   text, C13: `parse_move` reads SAN or UCI, `move_text` writes SAN, [`MoveTextError`]),
//!   [`perft()`].
//! - [`ice_age`]: the Ice Age (C5-C9); [`ice_age_comment`] its PGN comment (C13);
//!   [`facts`]: what one did and the countdown to the next, as the pages show them (C5-C7).
//! - [`IceAge`]: the [`game::Variant`] the engine, the site and the CLI use, and the
//!   [`game::RecordRules`] of its PGN records (C14).
//!
//! Pure rules on shakmaty's squares, bitboards and attack tables, with ice in the
//! occupancy. The modules with functions (`fen`, `notation`, `ice_age`) are public; the
//! types are exported here. `antarctos` is laid out the same way.
//!
//! ```
//! use iceage::{Position, fen, notation};
//! let mut pos = Position::start();
//! for text in ["Nxf3", "Nxf6", "hxg3"] {
//!     let mv = notation::parse_move(&pos, text).unwrap();
//!     pos = pos.play(&mv).unwrap();
//! }
//! assert_eq!(
//!     fen::write(&pos),
//!     "rnbqkb1r/pppppppp/*****n**/********/********/*****NP*/PPPPPPP1/RNBQKB1R b KQkq - 0 2"
//! );
//! ```

#![warn(missing_docs)]

mod board;
pub mod facts;
pub mod fen;
pub mod ice_age;
mod movegen;
mod moves;
pub mod notation;
mod perft;
mod pgn;
mod position;
mod variant;
mod zobrist;

pub use board::Board;
pub use facts::IceAgeFacts;
pub use fen::{EnPassantFault, PositionError};
pub use ice_age::IceAgeReport;
pub use moves::{Capture, Move, MoveKind};
pub use notation::MoveTextError;
pub use perft::perft;
pub use position::{IllegalMove, Position, to_game_color};

/// The game Ice Age Chess (marker type for [`game::Variant`] and [`game::RecordRules`]):
/// what the engine, the site and the CLI hold, and what reads and writes PGN (C14).
///
/// ```
/// use game::{Variant, records};
/// use iceage::IceAge;
/// let text = "[Variant \"Ice Age Chess\"]\n\n1. Nxf3 Nxf6 (1... Nxh6 {also}) 2. h2g3 *\n";
/// let reading = records::read::<IceAge>(text);
/// let game = reading.games[0].as_ref().unwrap();
/// assert_eq!(game.notes[1].variations[0].nodes[0].notes.comments, ["also"]);
/// let written = IceAge::write_record(game);
/// assert!(written.contains("1. Nxf3 Nxf6 (1... Nxh6 {also}) 2. hxg3 *"), "{written}");
/// // Another variant is refused by name.
/// let chess = records::read::<IceAge>("[Variant \"Standard\"]\n\n1. e4 *\n");
/// assert!(chess.games[0].as_ref().unwrap_err().message.contains("standard chess game"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IceAge;

/// The PGN comment for the Ice Age that `mv` (legal in `pos`) brings (C13): `None` when the
/// move brings no Ice Age (C5) or is not legal; otherwise `"Ice Age: Rh8 frozen"`, `"Ice Age: Rh8, Ke1
/// frozen"` (frozen pieces in FEN reading order, rank 8 first, named as in SAN, a pawn by
/// its square alone), or `"Ice Age"` when nothing froze.
///
/// ```
/// use iceage::{fen, ice_age_comment, notation};
/// // The rook on h1 stands alone when Black's 20th move brings the Ice Age (C6).
/// let pos = fen::parse("3rk3/8/8/8/8/8/8/3QK2R b K - 0 20").unwrap();
/// let mv = notation::parse_move(&pos, "Rd7").unwrap();
/// assert_eq!(ice_age_comment(&pos, &mv).as_deref(), Some("Ice Age: Rh1 frozen"));
/// ```
pub fn ice_age_comment(pos: &Position, mv: &Move) -> Option<String> {
    pos.ice_age_report(mv).map(|r| r.comment())
}
