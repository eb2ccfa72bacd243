//! Squares and bitboards over the 32 dark squares (A1).
//!
//! Layout: the dark square on file `f` (a = 0) and rank `r` (rank 1 = 0) is bit
//! `(9r + f) / 2` of a `u64`. This is the "ghost square" layout of checkers programs: the
//! 32 squares take bits 0..=35 and bits 4, 13, 22 and 31 are never on the board. Its point
//! is that each diagonal step is the same shift from every square: north-west is `+4`,
//! north-east `+5`, south-east `-4`, south-west `-5`. A step off the a- or h-file lands on
//! a ghost bit and a step off rank 1 or 8 falls out of [`BOARD`], so one shift and one
//! mask move a whole set of men at once, with no per-row masks (the 32-bit row-major
//! layout needs shifts of 3/4 or 4/5 depending on the row parity). Bit order is rank
//! then file, which is also the canonical order of squares in position text (A18).

use std::fmt;

/// The four diagonal steps as bit shifts: north-west, north-east, south-east, south-west.
pub(crate) const DIRS: [i32; 4] = [4, 5, -4, -5];

/// Bits of the 32 playable squares.
pub(crate) const BOARD: u64 = board_mask();
/// Rank 1: Black's goal row (A4).
pub(crate) const RANK_1: u64 = 0b1111;
/// Rank 8: White's goal row (A4).
pub(crate) const RANK_8: u64 = 0b1111 << 32;

const fn board_mask() -> u64 {
    let mut mask = 0u64;
    let mut r = 0;
    while r < 8 {
        let mut f = 0;
        while f < 8 {
            if (f + r) % 2 == 0 {
                mask |= 1u64 << ((9 * r + f) / 2);
            }
            f += 1;
        }
        r += 1;
    }
    mask
}

/// Shifts every bit of `bits` one diagonal step in direction `dir` (one of [`DIRS`]).
/// The caller masks the result with [`BOARD`] (or a subset of it).
#[inline(always)]
pub(crate) const fn step(bits: u64, dir: i32) -> u64 {
    if dir > 0 { bits << dir } else { bits >> -dir }
}

/// The goal row of `white`'s men (A4): rank 8 for White, rank 1 for Black.
#[inline(always)]
pub(crate) const fn goal_row(white: bool) -> u64 {
    if white { RANK_8 } else { RANK_1 }
}

/// One of the 32 dark squares (A1). Ordered by rank, then file (a1 < c1 < ... < h8).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Why a square name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    /// Not a file letter followed by a rank number (`e3`).
    #[error("'{0}' is not a square name (expected a file a-h and a rank 1-8, e.g. e3)")]
    Malformed(String),
    /// A file after `h` or a rank outside 1..8.
    #[error("'{0}' is off the board (files a-h, ranks 1-8)")]
    OffBoard(String),
    /// A light square: nothing ever stands there (A1).
    #[error("{0} is a light square (play is on the dark squares only, A1)")]
    Light(String),
}

impl Square {
    /// The 32 squares in canonical order: a1, c1, e1, g1, b2, ..., h8.
    pub const ALL: [Square; 32] = all_squares();

    /// The square on `file` (0 = a) and `rank` (0 = rank 1); `None` for a light square or
    /// an index outside 0..8.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 8 || rank >= 8 || !(file + rank).is_multiple_of(2) {
            return None;
        }
        Some(Square((9 * rank + file) / 2))
    }

    /// The square of bit `bit` of the layout; `None` for a ghost or out-of-range bit.
    pub(crate) const fn from_bit(bit: u32) -> Option<Square> {
        if bit < 64 && BOARD & (1u64 << bit) != 0 {
            Some(Square(bit as u8))
        } else {
            None
        }
    }

    /// Bit index in the layout (see the module comment).
    #[inline(always)]
    pub(crate) const fn bit_index(self) -> u32 {
        self.0 as u32
    }

    /// The single-bit board of this square.
    #[inline(always)]
    pub(crate) const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Rank 0..8 (0 = rank 1).
    pub const fn rank(self) -> u8 {
        (self.0 * 2) / 9
    }

    /// File 0..8 (0 = file a).
    pub const fn file(self) -> u8 {
        // 2 * bit = 9r + f exactly (9r + f is even on a dark square), and f < 9.
        self.0 * 2 - 9 * self.rank()
    }

    /// Index 0..64 of the 8x8 board, a1 = 0, b1 = 1, ..., h8 = 63 (the [`game::Variant`]
    /// convention for `move_squares`).
    pub const fn index64(self) -> u8 {
        self.rank() * 8 + self.file()
    }

    /// The dark square with 0..64 index `index` (a1 = 0, h8 = 63); `None` for a light one.
    pub const fn from_index64(index: u8) -> Option<Square> {
        if index >= 64 {
            return None;
        }
        Square::new(index % 8, index / 8)
    }

    /// Index 0..32 in canonical order (a1 = 0, c1 = 1, ..., h8 = 31), for tables.
    pub const fn index32(self) -> usize {
        let r = self.rank() as usize;
        r * 4 + self.file() as usize / 2
    }

    /// Reads a square name (`e3`, `E3`), telling a malformed name, a square off the board
    /// and a light square apart.
    pub fn parse(text: &str) -> Result<Square, SquareError> {
        let lower = text.trim().to_ascii_lowercase();
        let mut chars = lower.chars();
        let malformed = || SquareError::Malformed(game::excerpt(text.trim()));
        let file = chars.next().ok_or_else(malformed)?;
        if !file.is_ascii_lowercase() {
            return Err(malformed());
        }
        let digits: String = chars.collect();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 3 {
            return Err(malformed());
        }
        let rank: u32 = digits.parse().map_err(|_| malformed())?;
        let f = file as u32 - 'a' as u32;
        if f >= 8 || !(1..=8).contains(&rank) {
            return Err(SquareError::OffBoard(lower));
        }
        Square::new(f as u8, (rank - 1) as u8).ok_or(SquareError::Light(lower))
    }
}

const fn all_squares() -> [Square; 32] {
    let mut out = [Square(0); 32];
    let mut n = 0;
    let mut bit = 0;
    while bit < 36 {
        if BOARD & (1u64 << bit) != 0 {
            out[n] = Square(bit as u8);
            n += 1;
        }
        bit += 1;
    }
    out
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A set of dark squares (a bitboard in the layout of this module).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SquareSet(pub(crate) u64);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// True when `sq` is in the set.
    pub fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// Number of squares.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True for the empty set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares in canonical order (rank, then file).
    pub fn iter(self) -> impl Iterator<Item = Square> {
        Bits(self.0).map(|b| Square(b as u8))
    }

    /// The raw bitboard (layout in the module comment of `board.rs`: bit `(9r + f) / 2`).
    pub fn bits(self) -> u64 {
        self.0
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        SquareSet(iter.into_iter().fold(0, |acc, sq| acc | sq.bit()))
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterates the indices of the set bits of a `u64`, lowest first.
pub(crate) struct Bits(pub(crate) u64);

impl Iterator for Bits {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(b)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_has_32_squares_and_uniform_steps() {
        assert_eq!(BOARD.count_ones(), 32);
        for sq in Square::ALL {
            let (f, r) = (sq.file() as i32, sq.rank() as i32);
            assert_eq!(Square::new(f as u8, r as u8), Some(sq));
            for (dir, (df, dr)) in DIRS.into_iter().zip([(-1, 1), (1, 1), (1, -1), (-1, -1)]) {
                let stepped = step(sq.bit(), dir) & BOARD;
                let expect = if (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
                    Square::new((f + df) as u8, (r + dr) as u8).map_or(0, |s| s.bit())
                } else {
                    0
                };
                assert_eq!(stepped, expect, "{sq} dir {dir}");
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for (i, sq) in Square::ALL.into_iter().enumerate() {
            assert_eq!(sq.index32(), i);
            assert_eq!(Square::parse(&sq.to_string()), Ok(sq));
            assert_eq!(Square::from_index64(sq.index64()), Some(sq));
        }
        assert_eq!(Square::parse("b1"), Err(SquareError::Light("b1".into())));
        assert_eq!(Square::parse("i3"), Err(SquareError::OffBoard("i3".into())));
        assert_eq!(Square::parse("a9"), Err(SquareError::OffBoard("a9".into())));
        assert!(matches!(
            Square::parse("3a"),
            Err(SquareError::Malformed(_))
        ));
    }
}
