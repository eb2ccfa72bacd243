//! Zobrist keys: one random 64-bit number per (occupant, square) and one for Black to
//! move, XORed together. The fullmove number is left out: it changes neither the legal
//! turns nor the outcome.

use crate::board::Bits;

/// Keys indexed by occupant (0 White man, 1 Black man, 2 ice) and square bit (0..36;
/// the ghost bits are never used).
pub(crate) const PIECE: [[u64; 36]; 3] = piece_keys();
/// XORed in when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = splitmix(0x0001_ceb0_dead_beef);

/// SplitMix64's output function: a fixed, well-mixed sequence without a dependency.
const fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn piece_keys() -> [[u64; 36]; 3] {
    let mut keys = [[0; 36]; 3];
    let mut kind = 0;
    while kind < 3 {
        let mut bit = 0;
        while bit < 36 {
            keys[kind][bit] =
                splitmix(((kind as u64) << 8 | bit as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
            bit += 1;
        }
        kind += 1;
    }
    keys
}

/// XOR of the keys of every square of `bits` for occupant `kind`.
#[inline]
pub(crate) fn squares_key(kind: usize, bits: u64) -> u64 {
    Bits(bits).fold(0, |k, b| k ^ PIECE[kind][b as usize])
}

/// The key of a whole position, from scratch.
pub(crate) fn key(white: u64, black: u64, ice: u64, white_to_move: bool) -> u64 {
    let side = if white_to_move { 0 } else { BLACK_TO_MOVE };
    squares_key(0, white) ^ squares_key(1, black) ^ squares_key(2, ice) ^ side
}
