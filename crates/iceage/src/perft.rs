//! Fast perft: legal move generation into one reused buffer per ply, bulk counting at the
//! last ply, the Ice Age applied inside Black's 20th move (C5) as in play.

use crate::moves::Move;
use crate::position::Position;

/// Leaf count of the legal move tree of depth `depth` from `pos` (depth 0 counts 1; a
/// finished game has no children). Same result as [`game::perft`].
///
/// ```
/// use iceage::{Position, perft};
/// // The spec's figures from C4 (depths 1-3).
/// let counts: Vec<u64> = (1..=3).map(|d| perft(&Position::start(), d)).collect();
/// assert_eq!(counts, [18, 324, 6264]);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    perft_inner(pos, depth, &mut buffers)
}

fn perft_inner(pos: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    if depth == 1 {
        return pos.count_legal_moves() as u64;
    }
    pos.legal_moves_into(moves);
    let mut total = 0;
    for mv in moves.iter() {
        total += perft_inner(&pos.play_unchecked(mv), depth - 1, rest);
    }
    total
}
