//! PLACEHOLDER until issue 2 lands: the type exists so that the CLI compiles; every
//! function panics. Replace this whole file.
#![allow(unused_variables)]

mod pdn;

use game::{Color, Outcome, Record, RecordError, Variant};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Antarctos;

#[derive(Debug, Clone, thiserror::Error)]
#[error("not implemented")]
pub struct NotYet;

impl Variant for Antarctos {
    const NAME: &'static str = "antarctos";
    const TITLE: &'static str = "Antarctos";
    const RECORD_EXTENSION: &'static str = "pdn";
    type Position = ();
    type Move = ();
    type IllegalMove = NotYet;
    type PositionError = NotYet;
    type MoveTextError = NotYet;
    fn start_position() {}
    fn side_to_move(pos: &()) -> Color {
        unimplemented!()
    }
    fn legal_moves_into(pos: &(), out: &mut Vec<()>) {
        unimplemented!()
    }
    fn play(pos: &(), mv: &()) -> Result<(), NotYet> {
        Err(NotYet)
    }
    fn play_unchecked(pos: &(), mv: &()) {
        unimplemented!()
    }
    fn outcome(pos: &()) -> Option<Outcome> {
        unimplemented!()
    }
    fn zobrist(pos: &()) -> u64 {
        unimplemented!()
    }
    fn fullmove_number(pos: &()) -> u32 {
        unimplemented!()
    }
    fn is_tactical(pos: &(), mv: &()) -> bool {
        unimplemented!()
    }
    fn move_squares(mv: &()) -> (u8, u8) {
        unimplemented!()
    }
    fn parse_move(pos: &(), text: &str) -> Result<(), NotYet> {
        Err(NotYet)
    }
    fn move_text(pos: &(), mv: &()) -> String {
        unimplemented!()
    }
    fn parse_position(text: &str) -> Result<(), NotYet> {
        Err(NotYet)
    }
    fn position_text(pos: &()) -> String {
        unimplemented!()
    }
    fn write_record(record: &Record<Self>) -> String {
        pdn::write_record(record)
    }
    fn read_records(text: &str) -> Vec<Result<Record<Self>, RecordError>> {
        pdn::read_records(text)
    }
}
