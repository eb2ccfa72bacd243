//! Static exchange evaluation of Ice Age Chess as of 2026-12-07, frozen (a copy of
//! `crate::see` of that day).
//!
//! Static exchange evaluation for Ice Age Chess: what a move wins or loses on its
//! destination square when both sides then capture there, least valuable piece first, for
//! as long as it pays.
//!
//! The swap algorithm as Stockfish's `see_ge` (threshold form, no list of gains), with the
//! ice rules: an ice cube is worth nothing to take (C3; it comes back at the next Ice Age,
//! C10 counts no progress for it), it blocks lines like a piece and so hides x-ray attackers
//! behind it (C2), and it never attacks (C3). So a knight that takes an ice cube on a square
//! a pawn guards loses the knight: such captures are ordered last and pruned at low depth.
//! Pins and checks are ignored, as usual; a king takes only when nothing defends.

use iceage::{Capture, Move, MoveKind, Position};
use shakmaty::{Bitboard, Color, Role, Square, attacks};

/// Exchange values in centi-units (the evaluation's material, rounded).
pub fn see_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 950,
        Role::King => 20_000,
    }
}

/// True when `mv` (legal in `pos`) followed by the best series of captures on its
/// destination wins at least `threshold` centi-units for the side to move.
pub fn see_ge(pos: &Position, mv: &Move, threshold: i32) -> bool {
    if mv.kind == MoveKind::Castle {
        return threshold <= 0;
    }
    let board = pos.board();
    let from = mv.from;
    let to = mv.to;
    let victim = match mv.capture {
        Capture::Piece(r) => see_value(r),
        Capture::Ice | Capture::None => 0,
    };
    let promotion = mv
        .promotion
        .map_or(0, |r| see_value(r) - see_value(Role::Pawn));
    let mut swap = victim + promotion - threshold;
    if swap < 0 {
        return false;
    }
    // What stands on `to` after the move, and may be taken next.
    let mover = see_value(mv.promotion.unwrap_or(mv.role));
    swap = mover - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = board.occupied() ^ Bitboard::from(from) | Bitboard::from(to);
    if mv.kind == MoveKind::EnPassant {
        occupied ^= Bitboard::from(Square::from_coords(to.file(), from.rank()));
    }
    let us = pos.side_to_move();
    let mut stm = us;
    let mut attackers = (board.attackers(to, Color::White, occupied)
        | board.attackers(to, Color::Black, occupied))
        & occupied;
    let diagonal = board.by_role(Role::Bishop) | board.by_role(Role::Queen);
    let straight = board.by_role(Role::Rook) | board.by_role(Role::Queen);
    let mut res = true;
    loop {
        stm = !stm;
        attackers &= occupied;
        let mine = attackers & board.by_color(stm);
        if mine.is_empty() {
            break;
        }
        res = !res;
        let Some((role, sq)) = least_valuable(board, mine) else {
            break;
        };
        if role == Role::King {
            // The king may take only if the other side has nothing left to take back.
            return if (attackers & !board.by_color(stm) & occupied).any() {
                !res
            } else {
                res
            };
        }
        swap = see_value(role) - swap;
        if swap < i32::from(res) {
            break;
        }
        occupied ^= Bitboard::from(sq);
        // Lines open behind the piece that took: x-ray attackers join (ice still blocks).
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occupied) & straight;
        }
    }
    res
}

/// The least valuable of `candidates` (pawn first, king last) and its square.
fn least_valuable(board: &iceage::Board, candidates: Bitboard) -> Option<(Role, Square)> {
    for role in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ] {
        if let Some(sq) = (candidates & board.by_role(role)).first() {
            return Some((role, sq));
        }
    }
    None
}
