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

#[cfg(test)]
mod tests {
    use super::*;
    use game::Variant;
    use iceage::IceAge;

    fn check(fen: &str, mv: &str, at_least: i32, more_than: i32) {
        let pos = IceAge::parse_position(fen).expect("valid FEN");
        let m = IceAge::parse_move(&pos, mv).expect("legal move");
        assert!(see_ge(&pos, &m, at_least), "{mv} in {fen} wins {at_least}");
        assert!(
            !see_ge(&pos, &m, more_than + 1),
            "{mv} in {fen} wins no more than {more_than}"
        );
    }

    #[test]
    fn undefended_piece_is_won() {
        // Rxd5: a pawn for nothing.
        check("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "Rxd5", 100, 100);
    }

    #[test]
    fn defended_pawn_taken_by_a_rook_loses_the_exchange() {
        // Rxd5 exd5: a rook for a pawn.
        check("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "Rxd5", -400, -400);
    }

    #[test]
    fn x_ray_through_the_first_attacker() {
        // Two rooks on the d-file against one defender: Rxd5 exd5 Rxd5 wins two pawns for
        // a rook? No: after Rxd5 exd5 the second rook takes a pawn: 100 - 500 + 100 = -300.
        // The side to move would stop after exd5 only if it paid: the score is -400 + 100.
        check("4k3/8/4p3/3p4/8/8/3R4/3RK3 w - - 0 1", "Rxd5", -300, -300);
    }

    #[test]
    fn c3_ice_capture_onto_a_guarded_square_loses_the_piece() {
        // Nxd6 takes ice on d6, which the e7 pawn guards: the knight is lost for nothing.
        let fen = "4k3/4p3/3*4/8/4N3/8/8/4K3 w - - 0 1";
        check(fen, "Nxd6", -320, -320);
        // The same ice capture on an unguarded square wins nothing and loses nothing.
        check("4k3/8/3*4/8/4N3/8/8/4K3 w - - 0 1", "Nxd6", 0, 0);
    }

    #[test]
    fn c2_ice_blocks_the_x_ray() {
        // The white rook on d1 stands behind ice on d3: it does not back up Rd4xd5.
        check("4k3/8/4p3/3p4/3R4/3*4/8/3RK3 w - - 0 1", "Rxd5", -400, -400);
    }

    #[test]
    fn king_takes_only_undefended_pieces() {
        check("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "Kxd2", 100, 100);
    }
}
