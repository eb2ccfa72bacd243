//! A toy game for the tests of generic code (the engine's search and solver, the lab's
//! self-play and matches), so that they do not depend on the real rules: one pile of
//! stones, each side takes 1 to 3, whoever takes the last stone wins. Perfect play leaves a
//! multiple of 4, so every position's exact value is known: a pile that is a multiple of 4
//! loses in `2 * n / 4` plies, any other wins in `2 * (n / 4) + 1`.
//!
//! The start position ([`Variant::start_position`]) has 15 stones and a draw rule, so that
//! lab runs see every result: a Black move that leaves exactly 7 stones draws. A pile made
//! with [`PilePos::new`] has no draw rule. `Pile<true>` gives every position the zobrist
//! key 0, so a transposition table sees nothing but collisions.
//!
//! Compiled with the `toy` feature (test builds of the crates that use it).

use crate::{Color, EndReason, Outcome, Record, RecordError, Variant};

/// The game; `BAD_KEY` makes every zobrist key 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pile<const BAD_KEY: bool = false>;

/// A position: the stones left, the side to move, the full-move number, and the draw rule.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PilePos {
    /// Stones left.
    pub stones: u32,
    /// Side to move.
    pub side: Color,
    /// Full-move number (1 at the start).
    pub fullmove: u32,
    /// A Black move that leaves this many stones draws.
    pub draw_at: Option<u32>,
    /// The last move drew by that rule.
    pub drawn: bool,
}

impl PilePos {
    /// `stones` stones, `side` to move, no draw rule.
    pub fn new(stones: u32, side: Color) -> PilePos {
        PilePos {
            stones,
            side,
            fullmove: 1,
            draw_at: None,
            drawn: false,
        }
    }
}

/// A take that is not legal, or text that is not a take or a pile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal take or pile text")]
pub struct Bad;

impl crate::MoveTextFault for Bad {
    fn kind(&self) -> crate::MoveTextKind {
        crate::MoveTextKind::NoMatch
    }
}

impl crate::PositionFault for Bad {
    fn hint(&self) -> crate::PositionHint {
        crate::PositionHint::new("bad", [""; 0])
    }
}

impl<const BAD_KEY: bool> Variant for Pile<BAD_KEY> {
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
            draw_at: Some(7),
            ..PilePos::new(15, Color::White)
        }
    }
    fn side_to_move(pos: &PilePos) -> Color {
        pos.side
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
            side: !pos.side,
            fullmove: pos.fullmove + u32::from(pos.side == Color::Black),
            draw_at: pos.draw_at,
            drawn: pos.side == Color::Black && pos.draw_at == Some(stones) && stones > 0,
        }
    }
    fn outcome(pos: &PilePos) -> Option<Outcome> {
        if pos.drawn {
            Some(Outcome::Draw {
                reason: EndReason::Stalemate,
            })
        } else if pos.stones == 0 {
            Some(Outcome::Win {
                winner: !pos.side,
                reason: EndReason::NoMoves,
            })
        } else {
            None
        }
    }
    fn zobrist(pos: &PilePos) -> u64 {
        if BAD_KEY {
            return 0;
        }
        let draw = pos.draw_at.map_or(0, |d| u64::from(d) + 1);
        (u64::from(pos.stones) * 2 + pos.side.index() as u64 + (draw << 20))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ u64::from(pos.drawn)
    }
    fn fullmove_number(pos: &PilePos) -> u32 {
        pos.fullmove
    }
    /// Taking 3 counts as tactical, so that quiescence and move ordering have work.
    fn is_tactical(_pos: &PilePos, mv: &u32) -> bool {
        *mv == 3
    }
    fn move_squares(mv: &u32) -> (u8, u8) {
        (*mv as u8, 0)
    }
    fn parse_move(pos: &PilePos, text: &str) -> Result<u32, Bad> {
        let mv: u32 = text.trim().parse().map_err(|_| Bad)?;
        Self::play(pos, &mv).map(|_| mv)
    }
    fn move_text(_pos: &PilePos, mv: &u32) -> String {
        mv.to_string()
    }
    /// `N` or `N white|black` (no draw rule).
    fn parse_position(text: &str) -> Result<PilePos, Bad> {
        let mut words = text.split_whitespace();
        let stones = words.next().ok_or(Bad)?.parse().map_err(|_| Bad)?;
        let side = match words.next() {
            None => Color::White,
            Some(w) => Color::parse(w).ok_or(Bad)?,
        };
        Ok(PilePos::new(stones, side))
    }
    fn position_text(pos: &PilePos) -> String {
        format!("{} {}", pos.stones, pos.side)
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
    fn read_records(_text: &str) -> Vec<Result<Record<Self>, RecordError>> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_rule_only_in_the_start_position_and_only_for_black() {
        let play = |p: PilePos, moves: &[u32]| {
            moves
                .iter()
                .fold(p, |p, m| Pile::<false>::play(&p, m).expect("legal"))
        };
        let start = Pile::<false>::start_position();
        // Black leaves 7 (2 + 2 + 2 + 2 taken): a draw.
        let drawn = play(start.clone(), &[2, 2, 2, 2]);
        assert_eq!(
            Pile::<false>::outcome(&drawn),
            Some(Outcome::Draw {
                reason: EndReason::Stalemate
            })
        );
        assert!(Pile::<false>::legal_moves(&drawn).is_empty());
        // White leaves 7: the game goes on.
        let on = play(start, &[2, 3, 3]);
        assert_eq!((on.stones, Pile::<false>::outcome(&on)), (7, None));
        // A pile read from text has no draw rule.
        let plain = play(
            Pile::<false>::parse_position("9 black").expect("pile"),
            &[2],
        );
        assert_eq!((plain.stones, Pile::<false>::outcome(&plain)), (7, None));
        assert_eq!(Pile::<true>::zobrist(&plain), 0);
        assert_ne!(Pile::<false>::zobrist(&plain), 0);
    }
}
