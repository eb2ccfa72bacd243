//! A toy game for the lab's tests, so that self-play and matches are tested without
//! depending on the real rules or search: a pile of 15 stones, each side takes 1 to 3,
//! taking the last stone wins; a move that leaves exactly 7 stones after Black's move draws.
//! Perfect play: leave a multiple of 4.

use game::{Color, EndReason, Outcome, Record, RecordError, Variant};
use rand::{Rng, SeedableRng};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pile;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PilePos {
    pub stones: u32,
    pub to_move: Color,
    pub drawn: bool,
    pub fullmove: u32,
}

#[derive(Debug, Clone, thiserror::Error)]
#[error("illegal take")]
pub struct Bad;

impl game::MoveTextFault for Bad {
    fn kind(&self) -> game::MoveTextKind {
        game::MoveTextKind::NoMatch
    }
}

impl Variant for Pile {
    const NAME: &'static str = "pile";
    const TITLE: &'static str = "Pile";
    const RECORD_EXTENSION: &'static str = "txt";
    type Position = PilePos;
    type Move = u32;
    type IllegalMove = Bad;
    type PositionError = Bad;
    type MoveTextError = Bad;

    fn start_position() -> PilePos {
        PilePos {
            stones: 15,
            to_move: Color::White,
            drawn: false,
            fullmove: 1,
        }
    }
    fn side_to_move(pos: &PilePos) -> Color {
        pos.to_move
    }
    fn legal_moves_into(pos: &PilePos, out: &mut Vec<u32>) {
        out.clear();
        if Self::outcome(pos).is_none() {
            out.extend((1..=3).filter(|&t| t <= pos.stones));
        }
    }
    fn play(pos: &PilePos, mv: &u32) -> Result<PilePos, Bad> {
        if Self::legal_moves(pos).contains(mv) {
            Ok(Self::play_unchecked(pos, mv))
        } else {
            Err(Bad)
        }
    }
    fn play_unchecked(pos: &PilePos, mv: &u32) -> PilePos {
        let stones = pos.stones - mv;
        PilePos {
            stones,
            to_move: !pos.to_move,
            drawn: pos.to_move == Color::Black && stones == 7,
            fullmove: pos.fullmove + u32::from(pos.to_move == Color::Black),
        }
    }
    fn outcome(pos: &PilePos) -> Option<Outcome> {
        if pos.drawn {
            Some(Outcome::Draw {
                reason: EndReason::Stalemate,
            })
        } else if pos.stones == 0 {
            Some(Outcome::Win {
                winner: !pos.to_move,
                reason: EndReason::Breakthrough,
            })
        } else {
            None
        }
    }
    fn zobrist(pos: &PilePos) -> u64 {
        u64::from(pos.stones) * 2 + u64::from(pos.to_move == Color::Black)
    }
    fn fullmove_number(pos: &PilePos) -> u32 {
        pos.fullmove
    }
    fn is_tactical(_: &PilePos, _: &u32) -> bool {
        false
    }
    fn move_squares(mv: &u32) -> (u8, u8) {
        (0, *mv as u8)
    }
    fn parse_move(pos: &PilePos, text: &str) -> Result<u32, Bad> {
        let mv: u32 = text.parse().map_err(|_| Bad)?;
        Self::play(pos, &mv).map(|_| mv)
    }
    fn move_text(_: &PilePos, mv: &u32) -> String {
        mv.to_string()
    }
    fn parse_position(_: &str) -> Result<PilePos, Bad> {
        Err(Bad)
    }
    fn position_text(pos: &PilePos) -> String {
        format!("{} {}", pos.stones, pos.to_move)
    }
    fn write_record(record: &Record<Self>) -> String {
        let mut s = String::new();
        for (k, v) in &record.tags {
            s.push_str(&format!("[{k} \"{v}\"]\n"));
        }
        let moves: Vec<String> = record.moves.iter().map(u32::to_string).collect();
        s.push_str(&format!("\n{} {}\n\n", moves.join(" "), record.result));
        s
    }
    fn read_records(_: &str) -> Vec<Result<Record<Self>, RecordError>> {
        Vec::new()
    }
}

/// The toy's "engine": level 8 plays perfectly (leaves a multiple of 4 when it can),
/// any other setting plays a random legal take seeded by the config's seed.
pub fn toy_chooser(pos: &PilePos, config: &engine::EngineConfig) -> Option<u32> {
    let moves = Pile::legal_moves(pos);
    if moves.is_empty() {
        return None;
    }
    if config.level == Some(8)
        && let Some(&m) = moves.iter().find(|&&m| (pos.stones - m).is_multiple_of(4))
    {
        return Some(m);
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(config.seed);
    Some(moves[rng.random_range(0..moves.len())])
}
