//! [`Move`]: one whole turn, a simple move or a jump sequence.

use std::fmt;

use crate::board::{Square, SquareSet};

/// Most squares a turn visits. Every jumped square is an inner square (files b-g, ranks
/// 2-7) of the rank parity opposite to the landing squares: 9 of them, so a jump sequence
/// has at most 9 jumps (nothing is jumped twice, A8) and 10 squares.
pub const MAX_PATH: usize = 10;

/// One turn (A5-A11): a simple move (two squares) or a jump sequence (its start square
/// and every landing square, A16), with the living men it captures and the ice it jumps.
///
/// Two turns are the same turn exactly when their square lists are equal: with short
/// jumps only, the landing squares determine the jumped ones.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Squares in visiting order; entries past `len` are 0.
    pub(crate) path: [u8; MAX_PATH],
    pub(crate) len: u8,
    /// Living enemy men captured (they become ice when the turn ends, A8).
    pub(crate) captured: u64,
    /// Ice jumped (removed at once, A7).
    pub(crate) iced: u64,
}

impl Move {
    /// A simple move `from`-`to` (A5). Not checked for legality: [`crate::Position::play`]
    /// does that.
    pub fn simple(from: Square, to: Square) -> Move {
        let mut path = [0; MAX_PATH];
        path[0] = from.bit_index() as u8;
        path[1] = to.bit_index() as u8;
        Move {
            path,
            len: 2,
            captured: 0,
            iced: 0,
        }
    }

    /// The square the man starts from.
    pub fn from(&self) -> Square {
        self.square(0)
    }

    /// The square the man ends on.
    pub fn to(&self) -> Square {
        self.square(self.len as usize - 1)
    }

    /// Every square visited, start first (2 for a simple move, 1 + jumps for a sequence).
    pub fn path(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        (0..self.len as usize).map(|i| self.square(i))
    }

    /// Number of squares in [`Move::path`].
    pub fn path_len(&self) -> usize {
        self.len as usize
    }

    /// True for a jump sequence (captures and/or ice jumps), false for a simple move.
    pub fn is_jump(&self) -> bool {
        self.captured | self.iced != 0
    }

    /// Living men captured by this turn (they turn into ice at its end, A8).
    pub fn captured(&self) -> SquareSet {
        SquareSet(self.captured)
    }

    /// Ice jumped (and removed) by this turn (A7).
    pub fn ice_jumped(&self) -> SquareSet {
        SquareSet(self.iced)
    }

    fn square(&self, i: usize) -> Square {
        Square::from_bit(self.path[i] as u32).expect("a move holds board squares")
    }
}

/// The canonical text (A16): `c3-d4`, `d6xb4xd2xf4`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_jump() { "x" } else { "-" };
        for (i, sq) in self.path().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}
