use std::error::Error;
use std::fmt::Debug;
use std::hash::Hash;

use crate::{Color, Outcome, Record, RecordError};

/// What is wrong with move text, as a kind: the site answers `ambiguous_move` for
/// [`MoveTextKind::Ambiguous`] and `illegal_move` for the others (Antarctos A17, Ice Age
/// Chess C13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveTextKind {
    /// Not a move in any accepted form (syntax, a square off the board, empty text).
    Unreadable,
    /// Readable, but no legal move matches (the game may be over).
    NoMatch,
    /// Several legal moves match; the message lists them.
    Ambiguous,
}

/// Why readable move text names no legal move, when one reason can be told: a stable code
/// (`no_man`, `pawn_onto_ice`, ...; each rules crate documents its own) and the squares the
/// reason names, in order. The error's message says the same in English; a page words the
/// code in its own language.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MoveHint {
    /// The reason's code.
    pub code: &'static str,
    /// The squares it names (`e4`), in the order its sentence uses them.
    pub squares: Vec<String>,
}

impl MoveHint {
    /// A hint with `code` naming `squares`.
    pub fn new(code: &'static str, squares: impl IntoIterator<Item = impl ToString>) -> Self {
        MoveHint {
            code,
            squares: squares.into_iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// The kind of a rules crate's move text error ([`Variant::MoveTextError`]).
pub trait MoveTextFault {
    /// Which kind of problem this is.
    fn kind(&self) -> MoveTextKind;

    /// The legal moves the text could have meant, in canonical text: the matches of an
    /// ambiguous text, or the full jump sequences an abbreviated one leaves out squares of
    /// (Antarctos A17). Empty when none is known. The site sends them so that a page can
    /// word the error in its own language.
    fn candidates(&self) -> &[String] {
        &[]
    }

    /// Why no legal move is this one, as a code and squares, when one reason can be told.
    fn hint(&self) -> Option<&MoveHint> {
        None
    }
}

/// What is wrong with position text, as data: a stable code (`king`, `rank_length`, ...; each
/// rules crate documents its own) and the values its sentence names, in order: squares,
/// counts, field names, a side (`white` or `black`, always first when named) or an excerpt of
/// the text at fault. The error's message says the same in English; a page words the code in
/// its own language.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PositionHint {
    /// The fault's code.
    pub code: &'static str,
    /// The values it names, in the order its sentence uses them.
    pub args: Vec<String>,
}

impl PositionHint {
    /// A hint with `code` naming `args`.
    pub fn new(code: &'static str, args: impl IntoIterator<Item = impl ToString>) -> Self {
        PositionHint {
            code,
            args: args.into_iter().map(|a| a.to_string()).collect(),
        }
    }
}

/// A rules crate's position text error ([`Variant::PositionError`]) as data.
pub trait PositionFault {
    /// The fault as a code and its values; every error has one.
    fn hint(&self) -> PositionHint;
}

/// A game: its positions, its moves and the rules that join them, plus the texts that
/// name them. Implemented by a zero-sized marker type per game (`antarctos::Antarctos`,
/// `iceage::IceAge`); the engine, the site and the CLI are generic over it.
///
/// A position is a value: [`Variant::play`] returns a new one. A position carries what its
/// outcome needs (for Antarctos, which man moved last), so [`Variant::outcome`] is a
/// function of the position alone.
pub trait Variant: Copy + Debug + Send + Sync + 'static {
    /// Machine name, as `--variant` takes it: `antarctos`, `iceage`.
    const NAME: &'static str;
    /// Human name: `Antarctos`, `Ice Age Chess`.
    const TITLE: &'static str;
    /// File extension of its records: `pdn` or `pgn`.
    const RECORD_EXTENSION: &'static str;
    /// Whether a game can end in a draw (Antarctos: no, A15). A record that says `1/2-1/2`
    /// for a game without draws is read with the result unknown and a warning.
    const DRAWS: bool = true;

    /// A position (board, side to move, counters).
    type Position: Clone + PartialEq + Eq + Debug + Send + Sync + 'static;
    /// A move (Antarctos: a whole turn, jump sequences included).
    type Move: Clone + PartialEq + Eq + Hash + Debug + Send + Sync + 'static;
    /// A move that is not legal in the position it was played in.
    type IllegalMove: Error + Clone + Send + Sync + 'static;
    /// Position text that cannot be read (says what and where); its
    /// [`PositionFault::hint`] says the same as data, for pages in other languages.
    type PositionError: Error + Clone + Send + Sync + 'static + PositionFault;
    /// Move text that matches no legal move or several (lists the candidates); its
    /// [`MoveTextFault::kind`] says which, for callers that answer each differently.
    type MoveTextError: Error + Clone + Send + Sync + 'static + MoveTextFault;

    /// The start position of the rules (Antarctos A3, Ice Age Chess C4).
    fn start_position() -> Self::Position;

    /// The side to move.
    fn side_to_move(pos: &Self::Position) -> Color;

    /// Clears `out` and fills it with every legal move; empty when the game is over.
    fn legal_moves_into(pos: &Self::Position, out: &mut Vec<Self::Move>);

    /// Every legal move (allocating form of [`Variant::legal_moves_into`]).
    fn legal_moves(pos: &Self::Position) -> Vec<Self::Move> {
        let mut out = Vec::new();
        Self::legal_moves_into(pos, &mut out);
        out
    }

    /// Plays `mv`, checking that it is legal.
    fn play(pos: &Self::Position, mv: &Self::Move) -> Result<Self::Position, Self::IllegalMove>;

    /// Plays `mv`, which the caller got from [`Variant::legal_moves_into`] for this very
    /// position (the engine's fast path). May panic or misbehave on any other move.
    fn play_unchecked(pos: &Self::Position, mv: &Self::Move) -> Self::Position;

    /// The result if the game is over in `pos`, with its reason; `None` while it goes on.
    fn outcome(pos: &Self::Position) -> Option<Outcome>;

    /// Zobrist key: equal positions have equal keys; everything that changes the legal
    /// moves or the outcome (side to move, counters that matter) is in it.
    fn zobrist(pos: &Self::Position) -> u64;

    /// The full-move number: 1 at the start, one more after each Black move (chess FEN's
    /// sixth field; an Antarctos position read from text starts at 1). Used for move
    /// numbers in records and error messages.
    fn fullmove_number(pos: &Self::Position) -> u32;

    /// True for a move that changes material: a capture or ice jump (Antarctos), a
    /// capture of a piece or ice, or a promotion (Ice Age Chess). The engine's quiescence
    /// and move ordering use it.
    fn is_tactical(pos: &Self::Position, mv: &Self::Move) -> bool;

    /// True when the side to move is in check (always false in Antarctos).
    fn in_check(_pos: &Self::Position) -> bool {
        false
    }

    /// Origin and destination of a move as square indices 0..64 (a1 = 0, b1 = 1, ...,
    /// h8 = 63): for history tables and for drawing the move on a board.
    fn move_squares(mv: &Self::Move) -> (u8, u8);

    /// Every square a move visits, origin first, as indices 0..64 (Antarctos: every
    /// landing square of a jump sequence; chess: origin and destination).
    fn move_path(mv: &Self::Move) -> Vec<u8> {
        let (from, to) = Self::move_squares(mv);
        vec![from, to]
    }

    /// Reads a move in any accepted input form (Antarctos A16-A17, Ice Age Chess C13).
    fn parse_move(pos: &Self::Position, text: &str) -> Result<Self::Move, Self::MoveTextError>;

    /// The move in the game's canonical notation (A16 text, SAN).
    fn move_text(pos: &Self::Position, mv: &Self::Move) -> String;

    /// [`Variant::move_text`] of each of `moves` (moves of `pos`), in order. A variant whose
    /// notation needs the position's other moves (SAN's disambiguation) computes them once
    /// for all.
    fn move_texts(pos: &Self::Position, moves: &[Self::Move]) -> Vec<String> {
        moves.iter().map(|mv| Self::move_text(pos, mv)).collect()
    }

    /// The move in a fixed machine form for bots and the web page: Antarctos A16 text,
    /// chess UCI (`e2e4`, `e7e8q`).
    fn move_id(pos: &Self::Position, mv: &Self::Move) -> String {
        Self::move_text(pos, mv)
    }

    /// Reads position text (Antarctos A18, Ice Age Chess C12).
    fn parse_position(text: &str) -> Result<Self::Position, Self::PositionError>;

    /// The canonical position text.
    fn position_text(pos: &Self::Position) -> String;

    /// Leaf count of the legal move tree of depth `depth` (see [`perft`]). Games override
    /// it with their fast generator; the result must be the same.
    fn perft(pos: &Self::Position, depth: u32) -> u64 {
        perft::<Self>(pos, depth)
    }

    /// Writes one game as a record (PDN A19 / PGN C14), ending with a newline.
    fn write_record(record: &Record<Self>) -> String;

    /// Reads every game of a record file; each game is replayed, so an entry is either a
    /// legal game or the first error in it (game number, move number, why).
    fn read_records(text: &str) -> Vec<Result<Record<Self>, RecordError>>;
}

/// Counts the leaf nodes of the legal move tree of depth `depth` (a finished game has no
/// children; depth 0 counts 1), with bulk counting at depth 1.
pub fn perft<V: Variant>(pos: &V::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = V::legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| perft::<V>(&V::play_unchecked(pos, mv), depth - 1))
        .sum()
}

/// Perft split by first move: `(move text, count)` per legal move, in generation order.
pub fn perft_divide<V: Variant>(pos: &V::Position, depth: u32) -> Vec<(String, u64)> {
    V::legal_moves(pos)
        .iter()
        .map(|mv| {
            let count = if depth <= 1 {
                1
            } else {
                V::perft(&V::play_unchecked(pos, mv), depth - 1)
            };
            (V::move_text(pos, mv), count)
        })
        .collect()
}

/// Every legal move of `pos` in the game's canonical text, sorted (what `icebound moves`
/// prints); empty when the game is over.
pub fn sorted_move_texts<V: Variant>(pos: &V::Position) -> Vec<String> {
    let mut texts: Vec<String> = V::legal_moves(pos)
        .iter()
        .map(|m| V::move_text(pos, m))
        .collect();
    texts.sort();
    texts
}

/// The moves of `line` in the game's canonical text, each in the position it is played in
/// (a principal variation, a proof's line); stops before the first move that is not legal.
pub fn line_move_texts<V: Variant>(start: &V::Position, line: &[V::Move]) -> Vec<String> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(line.len());
    for mv in line {
        let Ok(next) = V::play(&pos, mv) else {
            break;
        };
        out.push(V::move_text(&pos, mv));
        pos = next;
    }
    out
}

/// `legal here: a, b, c` (sorted; the first ten, then how many more): the hint that follows
/// an error about a move that matched nothing.
pub fn legal_moves_hint<V: Variant>(pos: &V::Position) -> String {
    let mut texts = sorted_move_texts::<V>(pos);
    let more = texts.len().saturating_sub(10);
    texts.truncate(10);
    let mut hint = format!("legal here: {}", texts.join(", "));
    if more > 0 {
        hint.push_str(&format!(" and {more} more"));
    }
    hint
}
