//! Game records: one reader and one writer for the syntax PGN (Ice Age Chess, C14) and PDN
//! (Antarctos, A19) share, over any game that gives its [`RecordRules`].
//!
//! Reading goes in layers: bytes to text ([`decode`]: UTF-8, or a legacy encoding guessed
//! and named in a warning), text to tokens (one tokenizer: tags with escapes and recovery,
//! comments `{}` and `;`, variations, NAGs, move numbers in every form, results, every
//! Unicode space as a space), tokens to games (a game ends at its result marker or where
//! the next game's tags begin), then each game is replayed by the rules: its `Variant` or
//! `GameType` tag first (a game of another variant is refused by name), its `FEN`, then
//! every move of its main line and variations. So each game is a legal [`Record`] with
//! its comments, NAGs and variations, or its first error ([`RecordError`]: game, move
//! number, side, line, why); and [`RecordWarning`]s say what was accepted with a remark.
//!
//! Writing ([`write`]) gives text the reader reads back to the same record.
//!
//! What is read, warned about and refused is listed in the README's records section and in
//! `docs/rules/`.

mod encoding;
mod error;
mod games;
mod lexer;
mod record;
mod replay;
mod rules;
mod tags;
mod write;

pub use encoding::{Decoded, decode};
pub use error::{RecordError, RecordWarning};
pub use lexer::{Dialect, is_space, move_words};
pub use record::{Line, MoveNotes, Node, Record, RecordResult};
pub use rules::{FenTag, NoteCheck, RecordFormat, RecordRules};
pub use tags::{TaggedGame, game_type_tag, variant_tag};
pub use write::{MAX_LINE, write, write_tag};

use crate::Variant;

/// Every game of a record file, each a record or its first error, and the warnings.
#[derive(Debug, Clone)]
pub struct Reading<V: Variant> {
    /// The games in file order.
    pub games: Vec<Result<Record<V>, RecordError>>,
    /// Warnings in file order (the file's own first).
    pub warnings: Vec<RecordWarning>,
    /// The games opened up to their last good move ([`read_up_to_bad_move`] only): the bad
    /// move of each, in file order.
    pub cut: Vec<BadMove>,
}

/// A main-line move that cannot be played, where [`read_up_to_bad_move`] stopped its game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadMove {
    /// The moves kept before it (so it is ply `kept + 1` of the game).
    pub kept: usize,
    /// The move as written.
    pub text: String,
    /// Main-line moves left out, this one included.
    pub left_out: usize,
    /// Where and why (game, move number, side, line, words).
    pub error: RecordError,
}

impl<V: Variant> Default for Reading<V> {
    fn default() -> Self {
        Reading {
            games: Vec::new(),
            warnings: Vec::new(),
            cut: Vec::new(),
        }
    }
}

/// Reads every game of a record text (see the module documentation).
pub fn read<V: RecordRules>(text: &str) -> Reading<V> {
    read_with(text, false)
}

/// As [`read`], but a game whose main line holds a move that cannot be played after at least
/// one good move is kept up to the move before it (issue 41: an import refused a whole game
/// over one bad move): its result is unknown (`*`), the last good move gets a comment naming
/// the bad move, and [`Reading::cut`] and a warning say where and why. A bad first move, a
/// syntax error, a bad tag or position still refuses the game.
pub fn read_up_to_bad_move<V: RecordRules>(text: &str) -> Reading<V> {
    read_with(text, true)
}

fn read_with<V: RecordRules>(text: &str, up_to_bad_move: bool) -> Reading<V> {
    let (raw, leftover) = games::split(text, V::FORMAT.dialect);
    let mut reading = Reading::default();
    replay::replay_all(raw, &mut reading, up_to_bad_move);
    reading
        .warnings
        .extend(leftover.into_iter().map(|(line, message)| RecordWarning {
            game: None,
            line,
            message,
        }));
    reading
}

/// Reads every game of a record file's bytes: [`decode`], then [`read`]; a guessed
/// encoding is the first warning.
pub fn read_bytes<V: RecordRules>(bytes: &[u8]) -> Reading<V> {
    let decoded = decode(bytes);
    let mut reading = read::<V>(&decoded.text);
    if let Some(message) = decoded.warning {
        reading.warnings.insert(
            0,
            RecordWarning {
                game: None,
                line: None,
                message,
            },
        );
    }
    reading
}
