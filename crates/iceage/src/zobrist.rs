//! Zobrist keys: pieces, ice, side to move, castling rights, en-passant file and the
//! Ice Age phase (full-move number modulo the Ice Age period, C5), so that positions that differ only in how
//! many plies remain until the next Ice Age get different keys. The half-move clock is left
//! out, as in chess engines: it changes the outcome only at 100 (C10), and keying it would
//! stop transpositions from meeting in the engine's table.

use shakmaty::{Bitboard, Color, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const N_PIECES: usize = 12 * 64;
const N_ICE: usize = 64;
const N_CASTLE: usize = 64;
const N_EP: usize = 8;
const N_PHASE: usize = crate::ice_age::PERIOD as usize;
const TOTAL: usize = N_PIECES + N_ICE + N_CASTLE + N_EP + N_PHASE + 1;

static KEYS: [u64; TOTAL] = {
    let mut keys = [0u64; TOTAL];
    let mut state = 0x01ce_b00d_u64;
    let mut i = 0;
    while i < TOTAL {
        let (s, k) = splitmix(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
};

const ICE_BASE: usize = N_PIECES;
const CASTLE_BASE: usize = ICE_BASE + N_ICE;
const EP_BASE: usize = CASTLE_BASE + N_CASTLE;
const PHASE_BASE: usize = EP_BASE + N_EP;
const TURN: usize = PHASE_BASE + N_PHASE;

/// Key of `piece` on `sq`.
#[inline]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    let idx = (piece.color as usize * 6 + piece.role as usize - 1) * 64 + sq.to_usize();
    KEYS[idx]
}

/// Key of an ice cube on `sq`.
#[inline]
pub fn ice(sq: Square) -> u64 {
    KEYS[ICE_BASE + sq.to_usize()]
}

/// Key of the castling right with the rook on `rook_sq` (a corner).
#[inline]
pub fn castling(rook_sq: Square) -> u64 {
    KEYS[CASTLE_BASE + rook_sq.to_usize()]
}

/// Keys of a whole set of castling rights.
#[inline]
pub fn castling_set(rights: Bitboard) -> u64 {
    rights.into_iter().fold(0, |k, sq| k ^ castling(sq))
}

/// Key of an en-passant square (by its file).
#[inline]
pub fn en_passant(sq: Square) -> u64 {
    KEYS[EP_BASE + sq.file().to_usize()]
}

/// Key of the Ice Age phase: the full-move number modulo [`crate::ice_age::PERIOD`] (C5). With the side to move it
/// gives the plies left until the next Ice Age.
#[inline]
pub fn phase(fullmoves: u32) -> u64 {
    KEYS[PHASE_BASE + (fullmoves % crate::ice_age::PERIOD) as usize]
}

/// Key of the side to move (xored in when Black is to move).
#[inline]
pub fn turn(color: Color) -> u64 {
    match color {
        Color::White => 0,
        Color::Black => KEYS[TURN],
    }
}
