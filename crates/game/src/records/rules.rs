//! [`RecordRules`]: what a game adds to the shared record syntax (its tags, its position and
//! move text, the notes its moves carry).

use super::lexer::Dialect;
use crate::Variant;

/// Whether the writer writes the `FEN` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenTag {
    /// Always, after `[SetUp "1"]` (PGN of a variant whose start is not chess's).
    Always,
    /// Only when the game does not start from the start position (PDN, A19).
    WhenNotStart,
}

/// The conventions of one game's record files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordFormat {
    /// The syntax.
    pub dialect: Dialect,
    /// Tags written first, in order, with the value written when the record lacks one.
    pub roster: &'static [(&'static str, &'static str)],
    /// The tag naming the game, written after `Result` (`("GameType", "Antarctos")`,
    /// `("Variant", "Ice Age")`).
    pub game_tag: (&'static str, &'static str),
    /// When the `FEN` tag is written.
    pub fen: FenTag,
    /// Whether a `Termination` tag is written (PGN): the end reason of the final position,
    /// else the record's own tag, else `unterminated`.
    pub termination: bool,
}

/// What a comment after a move says about the move's own note ([`RecordRules::move_note`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoteCheck {
    /// Commentary: kept as it is.
    Prose,
    /// It tells what the note tells (in any spelling): dropped, since the writer writes
    /// the note itself.
    Same,
    /// It claims something else: kept, with this warning.
    Differs(String),
}

/// A game's part in reading and writing its records: the shared syntax, tree, replay and
/// writer are in [`crate::records`]; each game gives its tags and its text forms here.
pub trait RecordRules: Variant {
    /// The game's record conventions.
    const FORMAT: RecordFormat;

    /// Reads the tags that name a game (`Variant`, `GameType`, `FEN` ...) before anything
    /// else: `Err((index of the tag at fault in `tags`, message))` when the game is of
    /// another variant, with a message that names it.
    fn check_game_tags(tags: &[(String, String)]) -> Result<(), (Option<usize>, String)>;

    /// A word added to the error of a game's first move, or of a later one while no move
    /// before it was written as a capture (`x`, `:`), given its tags (Ice Age Chess: that
    /// an untagged game starts from C4, so a standard chess game fails there, or after
    /// knight moves that took ice unwritten, `1. Nf3 d5`).
    fn first_move_hint(_tags: &[(String, String)]) -> Option<String> {
        None
    }

    /// Reads the `FEN` tag's value.
    fn read_position(text: &str) -> Result<Self::Position, String> {
        Self::parse_position(text).map_err(|e| e.to_string())
    }

    /// Reads a move word of the move text (the rules' input forms, and whatever other
    /// notation the game's records use).
    fn read_move(pos: &Self::Position, text: &str) -> Result<Self::Move, String> {
        Self::parse_move(pos, text).map_err(|e| e.to_string())
    }

    /// What the writer notes after a move besides the move itself (the Ice Age, C13).
    fn move_note(_pos: &Self::Position, _mv: &Self::Move) -> Option<String> {
        None
    }

    /// Compares a comment after `mv` with the move's note.
    fn check_note(_pos: &Self::Position, _mv: &Self::Move, _comment: &str) -> NoteCheck {
        NoteCheck::Prose
    }
}
