//! [`Position`]: the board, the side to move and the fullmove number, as a value.

use game::{Color, EndReason, Outcome};

use crate::board::{BOARD, Square, SquareSet, goal_row};
use crate::movegen::{self, TurnSink};
use crate::turn::{MAX_PATH, Move};
use crate::zobrist;

/// What stands on a square (A2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A living man of a side.
    Man(Color),
    /// Ice: neutral, anyone may jump it (A7).
    Ice,
}

/// A turn that is not legal where it was played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {text}: {}", match .game_over {
    Some(outcome) => format!("the game is over ({outcome})"),
    None => "it is not a legal turn in this position".to_string(),
})]
pub struct IllegalMove {
    /// The move in canonical text (A16).
    pub text: String,
    /// The result, when the move was refused because the game had ended.
    pub game_over: Option<Outcome>,
}

/// An Antarctos position: White men, Black men, ice, the side to move and the fullmove
/// number (1 at the start, one more after each Black turn; not part of the A18 text).
///
/// Everything the outcome needs is here: the side that just moved is the side not to
/// move, and the only man of it that can stand on its goal row is the one that just
/// moved there (A12).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(crate) white: u64,
    pub(crate) black: u64,
    pub(crate) ice: u64,
    pub(crate) side: Color,
    pub(crate) fullmove: u32,
    pub(crate) key: u64,
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The start position (A3): White on ranks 1-3, Black on ranks 6-8, no ice, White to
    /// move, fullmove 1.
    pub fn start() -> Position {
        let rank = |r: u8| -> u64 {
            (0..8)
                .filter_map(|f| Square::new(f, r))
                .fold(0, |acc, sq| acc | sq.bit())
        };
        let white = rank(0) | rank(1) | rank(2);
        let black = rank(5) | rank(6) | rank(7);
        Position::from_bits(white, black, 0, Color::White, 1)
    }

    /// Builds a position from raw bitboards; the caller has checked them (fen.rs does).
    pub(crate) fn from_bits(
        white: u64,
        black: u64,
        ice: u64,
        side: Color,
        fullmove: u32,
    ) -> Position {
        debug_assert_eq!(white & black, 0);
        debug_assert_eq!((white | black) & ice, 0);
        debug_assert_eq!((white | black | ice) & !BOARD, 0);
        Position {
            white,
            black,
            ice,
            side,
            fullmove,
            key: zobrist::key(white, black, ice, side == Color::White),
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The fullmove number (1 for a position read from text, A19).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The same position with another fullmove number (for records that start later);
    /// 0 is read as 1.
    pub fn with_fullmove_number(&self, fullmove: u32) -> Position {
        Position {
            fullmove: fullmove.max(1),
            ..self.clone()
        }
    }

    /// The same board with the other side to move, as if the side to move had passed (the
    /// fullmove number advances after a Black pass). The rules have no pass (A5-A11); the
    /// engine's null-move search uses it.
    pub fn pass(&self) -> Position {
        let fullmove = self.fullmove + u32::from(self.side == Color::Black);
        Position::from_bits(self.white, self.black, self.ice, !self.side, fullmove)
    }

    /// The colour mirror: the board turned half a turn (a1 <-> h8) with the colours of the
    /// men and the side to move swapped. It is the same game from the other side (A1, A4: the
    /// dark squares and "forward" map onto themselves), so a puzzle and its mirror are one
    /// puzzle. The fullmove number is kept.
    pub fn mirrored(&self) -> Position {
        // Square (f, r) is bit (9r + f) / 2 (board.rs); (7 - f, 7 - r) is bit 35 minus that,
        // so the half turn reverses bits 0..=35 (ghost bits land on ghost bits).
        let turn = |bits: u64| bits.reverse_bits() >> 28;
        Position::from_bits(
            turn(self.black),
            turn(self.white),
            turn(self.ice),
            !self.side,
            self.fullmove,
        )
    }

    /// The squares of `color`'s living men.
    pub fn men(&self, color: Color) -> SquareSet {
        SquareSet(self.men_bits(color))
    }

    /// The squares holding ice.
    pub fn ice(&self) -> SquareSet {
        SquareSet(self.ice)
    }

    /// What stands on `sq`, if anything.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = sq.bit();
        if self.white & b != 0 {
            Some(Piece::Man(Color::White))
        } else if self.black & b != 0 {
            Some(Piece::Man(Color::Black))
        } else if self.ice & b != 0 {
            Some(Piece::Ice)
        } else {
            None
        }
    }

    /// Zobrist key (squares' occupants and the side to move; see `zobrist.rs`).
    pub fn zobrist(&self) -> u64 {
        self.key
    }

    #[inline]
    pub(crate) fn men_bits(&self, color: Color) -> u64 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// (own men, enemy men) of the side to move.
    #[inline]
    fn sides(&self) -> (u64, u64) {
        match self.side {
            Color::White => (self.white, self.black),
            Color::Black => (self.black, self.white),
        }
    }

    /// The result if the game is over, checked in the order of the rules: A12
    /// breakthrough (a man of the side that just moved on its goal row), A13 total freeze
    /// (the side to move has no living men), A14 no moves (the side to move has no legal
    /// turn and loses). A position read from text is judged as if the side not to move
    /// had just moved (A18).
    pub fn outcome(&self) -> Option<Outcome> {
        let mover = !self.side;
        let win = |reason| {
            Some(Outcome::Win {
                winner: mover,
                reason,
            })
        };
        if self.men_bits(mover) & goal_row(mover == Color::White) != 0 {
            return win(EndReason::Breakthrough);
        }
        let (own, opp) = self.sides();
        if own == 0 {
            return win(EndReason::TotalFreeze);
        }
        if !movegen::has_turn(own, opp, self.ice, self.side == Color::White) {
            return win(EndReason::NoMoves);
        }
        None
    }

    /// True when the game is over by A12 or A13 (no turn is generated then).
    #[inline]
    fn decided(&self) -> bool {
        let mover = !self.side;
        self.men_bits(mover) & goal_row(mover == Color::White) != 0 || self.men_bits(self.side) == 0
    }

    /// True when the side to move must capture (A9: one of its men can jump a living enemy
    /// man, so every legal turn starts with a capture). False when the game is over.
    pub fn must_capture(&self) -> bool {
        if self.decided() {
            return false;
        }
        let (own, opp) = self.sides();
        let empty = movegen::empty_squares(own, opp, self.ice);
        movegen::jumpers(own, opp, empty) != 0
    }

    /// Every legal turn (A5-A11), each once; empty when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into(&mut out);
        out
    }

    /// Clears `out` and fills it with every legal turn; empty when the game is over.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.decided() {
            return;
        }
        let (own, opp) = self.sides();
        let mut sink = MoveSink {
            out,
            path: [0; MAX_PATH],
            len: 0,
        };
        movegen::generate(own, opp, self.ice, self.side == Color::White, &mut sink);
    }

    /// Plays `mv` after checking that it is one of the legal turns (compared by square
    /// list, A16).
    ///
    /// ```
    /// use antarctos::{Position, notation};
    /// let start = Position::start();
    /// assert_eq!(start.legal_moves().len(), 7);
    /// let mv = notation::parse_move(&start, "c3-d4").unwrap();
    /// let next = start.play(&mv).unwrap();
    /// assert!(next.play(&mv).is_err(), "c3 is empty now");
    /// assert_eq!(next.outcome(), None);
    /// ```
    pub fn play(&self, mv: &Move) -> Result<Position, IllegalMove> {
        if let Some(outcome) = self.outcome() {
            return Err(IllegalMove {
                text: mv.to_string(),
                game_over: Some(outcome),
            });
        }
        let legal = self
            .legal_moves()
            .into_iter()
            .find(|m| m.path[..m.len as usize] == mv.path[..mv.len as usize]);
        match legal {
            Some(m) => Ok(self.play_unchecked(&m)),
            None => Err(IllegalMove {
                text: mv.to_string(),
                game_over: None,
            }),
        }
    }

    /// Plays `mv`, a turn generated for this very position, without checking it: the
    /// mover goes from its start to its end square, captured men become ice (A8), jumped
    /// ice disappears (A7), the side to move changes and the fullmove number goes up
    /// after Black's turn.
    pub fn play_unchecked(&self, mv: &Move) -> Position {
        let from = 1u64 << mv.path[0];
        let to = 1u64 << mv.path[mv.len as usize - 1];
        let us = self.side.index();
        let them = (!self.side).index();
        let mut key = self.key ^ zobrist::BLACK_TO_MOVE;
        key ^= zobrist::PIECE[us][from.trailing_zeros() as usize];
        key ^= zobrist::PIECE[us][to.trailing_zeros() as usize];
        key ^= zobrist::squares_key(them, mv.captured);
        key ^= zobrist::squares_key(2, mv.captured ^ mv.iced);
        let (own, opp) = self.sides();
        let own = (own & !from) | to;
        let opp = opp & !mv.captured;
        let ice = (self.ice & !mv.iced) | mv.captured;
        let (white, black) = match self.side {
            Color::White => (own, opp),
            Color::Black => (opp, own),
        };
        Position {
            white,
            black,
            ice,
            side: !self.side,
            fullmove: self.fullmove + u32::from(self.side == Color::Black),
            key,
        }
    }
}

/// Collects turns as [`Move`]s.
struct MoveSink<'a> {
    out: &'a mut Vec<Move>,
    path: [u8; MAX_PATH],
    len: usize,
}

impl TurnSink for MoveSink<'_> {
    fn simple(&mut self, from: u64, to: u64) {
        let mut path = [0; MAX_PATH];
        path[0] = from.trailing_zeros() as u8;
        path[1] = to.trailing_zeros() as u8;
        self.out.push(Move {
            path,
            len: 2,
            captured: 0,
            iced: 0,
        });
    }

    fn start(&mut self, from: u32) {
        self.path = [0; MAX_PATH];
        self.path[0] = from as u8;
        self.len = 1;
    }

    fn push(&mut self, land: u32) {
        self.path[self.len] = land as u8;
        self.len += 1;
    }

    fn pop(&mut self) {
        self.len -= 1;
        self.path[self.len] = 0;
    }

    fn jump_end(&mut self, _from: u64, _to: u64, captured: u64, iced: u64) {
        self.out.push(Move {
            path: self.path,
            len: self.len as u8,
            captured,
            iced,
        });
    }
}
