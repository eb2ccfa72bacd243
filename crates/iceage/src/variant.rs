//! `game::Variant` for Ice Age Chess: the contract the engine, the site and the CLI use.

use game::{Color, Outcome, Record, RecordError, Variant};

use crate::fen::{self, PositionError};
use crate::moves::Move;
use crate::notation::{self, MoveTextError};
use crate::position::{IllegalMove, Position, to_game_color};
use crate::{IceAge, perft};

impl Variant for IceAge {
    const NAME: &'static str = "iceage";
    const TITLE: &'static str = "Ice Age Chess";
    const RECORD_EXTENSION: &'static str = "pgn";
    type Position = Position;
    type Move = Move;
    type IllegalMove = IllegalMove;
    type PositionError = PositionError;
    type MoveTextError = MoveTextError;

    fn start_position() -> Position {
        Position::start()
    }

    fn side_to_move(pos: &Position) -> Color {
        to_game_color(pos.side_to_move())
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
        mv.is_tactical()
    }

    fn in_check(pos: &Position) -> bool {
        pos.is_check()
    }

    fn move_squares(mv: &Move) -> (u8, u8) {
        (mv.from as u8, mv.to as u8)
    }

    fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
        notation::parse_move(pos, text)
    }

    fn move_text(pos: &Position, mv: &Move) -> String {
        notation::move_text(pos, mv)
    }

    fn move_texts(pos: &Position, moves: &[Move]) -> Vec<String> {
        notation::move_texts(pos, moves)
    }

    fn move_id(_pos: &Position, mv: &Move) -> String {
        mv.uci()
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
