//! The contract every icebound game implements, so that the engine, the site and the
//! command line can hold a game without knowing which one it is.
//!
//! - [`Variant`]: position and move types, legal moves, play, outcome, move text, position
//!   text, game records, zobrist key.
//! - [`Color`], [`Outcome`], [`EndReason`]: who is to move, who won and why.
//! - [`records`]: game records (PGN, PDN): one tokenizer, reader, replay and writer for
//!   both games; [`Record`] holds one game with its comments, NAGs and variations.
//! - [`perft`]: the generic perft (bulk counted), used to cross-check each game's own.
//! - `toy` (feature `toy`): a tiny game with known values, for the tests of generic code.

mod color;
mod excerpt;
mod outcome;
pub mod records;
mod text_enum;
mod variant;

#[cfg(any(test, feature = "toy"))]
pub mod toy;

pub use color::Color;
pub use excerpt::{EXCERPT_CHARS, excerpt};
pub use outcome::{EndReason, Outcome, result_words};
pub use records::{
    Line, MoveNotes, Node, Record, RecordError, RecordResult, RecordRules, RecordWarning, write_tag,
};
#[doc(hidden)]
/// serde, for [`text_enum!`]'s expansions in other crates.
pub use serde as __serde;
pub use variant::{
    MoveHint, MoveTextFault, MoveTextKind, PositionFault, PositionHint, Variant, legal_moves_hint,
    line_move_texts, perft, perft_divide, sorted_move_texts,
};
