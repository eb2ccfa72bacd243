//! [`Antarctos`]: the [`game::Variant`] implementation, a thin layer over [`Position`],
//! [`Move`] and the text modules.

use game::{Color, Outcome, Record, RecordError, Variant};

use crate::fen::{self, PositionError};
use crate::notation::{self, MoveTextError};
use crate::perft;
use crate::position::{IllegalMove, Position};
use crate::turn::Move;

/// The game Antarctos (marker type for [`game::Variant`] and [`game::RecordRules`]): what
/// the engine, the site and the CLI hold, and what reads and writes PDN (A19).
///
/// ```
/// use antarctos::Antarctos;
/// use game::{Variant, records};
/// // A Russian draughts record: numeric squares, `:` captures, a no-break space.
/// let text = "[GameType \"25\"]\n[Event \"Club\"]\n\n1. 22-18\u{a0}11-15 {book} 2. 18:11 *\n";
/// let reading = records::read::<Antarctos>(text);
/// let game = reading.games[0].as_ref().unwrap();
/// assert_eq!(game.moves.len(), 3);
/// assert_eq!(game.notes[1].comments, ["book"]);
/// let written = Antarctos::write_record(game);
/// assert!(written.contains("[GameType \"Antarctos\"]"));
/// assert!(written.contains("1. c3-d4 f6-e5 {book} 2. d4xf6 *"), "{written}");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Antarctos;

impl Variant for Antarctos {
    const NAME: &'static str = "antarctos";
    const TITLE: &'static str = "Antarctos";
    const RECORD_EXTENSION: &'static str = "pdn";
    // A15: there are no draws.
    const DRAWS: bool = false;

    type Position = Position;
    type Move = Move;
    type IllegalMove = IllegalMove;
    type PositionError = PositionError;
    type MoveTextError = MoveTextError;

    fn start_position() -> Position {
        Position::start()
    }

    fn side_to_move(pos: &Position) -> Color {
        pos.side_to_move()
    }

    fn legal_moves_into(pos: &Position, out: &mut Vec<Move>) {
        pos.legal_moves_into(out);
    }

    fn play(pos: &Position, mv: &Move) -> Result<Position, IllegalMove> {
        pos.play(mv)
    }

    fn play_unchecked(pos: &Position, mv: &Move) -> Position {
        pos.play_unchecked(mv)
    }

    fn outcome(pos: &Position) -> Option<Outcome> {
        pos.outcome()
    }

    fn zobrist(pos: &Position) -> u64 {
        pos.zobrist()
    }

    fn fullmove_number(pos: &Position) -> u32 {
        pos.fullmove_number()
    }

    fn is_tactical(_pos: &Position, mv: &Move) -> bool {
        mv.is_jump()
    }

    fn move_squares(mv: &Move) -> (u8, u8) {
        (mv.from().index64(), mv.to().index64())
    }

    fn move_path(mv: &Move) -> Vec<u8> {
        mv.path().map(|sq| sq.index64()).collect()
    }

    fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
        notation::parse_move(pos, text)
    }

    fn move_text(pos: &Position, mv: &Move) -> String {
        notation::move_text(pos, mv)
    }

    fn parse_position(text: &str) -> Result<Position, PositionError> {
        fen::parse(text)
    }

    fn position_text(pos: &Position) -> String {
        fen::write(pos)
    }

    fn perft(pos: &Position, depth: u32) -> u64 {
        perft::perft(pos, depth)
    }

    fn write_record(record: &Record<Self>) -> String {
        game::records::write(record)
    }

    fn read_records(text: &str) -> Vec<Result<Record<Self>, RecordError>> {
        game::records::read::<Self>(text).games
    }
}
