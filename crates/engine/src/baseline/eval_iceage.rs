//! The frozen baseline evaluation of Ice Age Chess (commit 4974cdc, tag `engine-baseline`), kept
//! verbatim for `engine=baseline`; see [`crate::baseline`].
//!
//! Ice Age Chess evaluation: chess terms plus the calendar. Every term is summed per side
//! and returned as (side to move) - (other side), in centi-units (a pawn = 100).
//!
//! The calendar: at the Ice Age (C5-C6) every piece with no other piece around it freezes,
//! a king included (C7: its side loses). A piece isolated now is only in danger if its side
//! cannot fix it in the moves it has left before the Ice Age, so the penalty is the piece's
//! value times a weight that falls with those moves ([`FREEZE_WEIGHT_PCT`]).

use game::Variant;
use iceage::ice_age;
use iceage::{Capture, IceAge, Move, Position};
use shakmaty::{Bitboard, Color, Role, Square, attacks};

use crate::baseline::BaselineVariant;

/// Material: the usual chess values (bishop a little over knight).
fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 310,
        Role::Bishop => 325,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    }
}

/// What freezing costs: the piece's value, and for a king the game (C7), kept below the
/// search's win scores so that a proven result always outranks it.
fn freeze_cost(role: Role) -> i32 {
    match role {
        Role::King => 3_000,
        r => value(r),
    }
}

/// Share of a piece's freeze cost charged while it is isolated, by the number of moves its
/// side still has before the Ice Age (index 0: none, the Ice Age comes before it moves
/// again, so it freezes for sure). One move can rescue roughly one piece, and the further
/// away the Ice Age, the more likely the position changes anyway.
const FREEZE_WEIGHT_PCT: [i32; 8] = [100, 50, 30, 20, 15, 12, 10, 8];

/// Per square a knight, bishop, rook or queen attacks or may move to (ice squares count: a
/// piece may take the ice, C3): activity in a board crowded with ice.
const MOBILITY: [i32; 6] = [0, 4, 4, 2, 1, 0];
/// Per own piece next to the king: a pawn shield against checks, and the friend that
/// keeps the king from freezing at the next Ice Age.
const KING_SHELTER: i32 = 12;
/// Per enemy attack on a square next to the king (or on it): the usual attack pressure.
const KING_ATTACK: i32 = 9;
/// Passed pawn (no enemy pawn ahead on its file or the next ones), by relative rank:
/// a promotion threat that grows as it advances.
const PASSED: [i32; 8] = [0, 5, 10, 18, 30, 50, 80, 0];
/// Having the move.
const TEMPO: i32 = 10;

/// Centralisation bonus for knights and bishops: pieces in the centre reach more squares.
fn centre(sq: Square) -> i32 {
    let f = sq.file().to_u32() as i32;
    let r = sq.rank().to_u32() as i32;
    let df = (2 * f - 7).abs(); // 1, 3, 5, 7 from the centre
    let dr = (2 * r - 7).abs();
    (14 - df - dr) * 2
}

/// Pawn advance by relative rank (a pawn further up is closer to promotion and cramps
/// the enemy).
const PAWN_ADVANCE: [i32; 8] = [0, 0, 4, 8, 14, 24, 40, 0];

fn relative_rank(color: Color, sq: Square) -> usize {
    let r = sq.rank().to_u32() as usize;
    if color == Color::White { r } else { 7 - r }
}

fn passed(pos: &Position, color: Color, sq: Square) -> bool {
    let enemy_pawns = pos.board().by_piece(Role::Pawn.of(!color));
    let f = sq.file().to_u32() as i32;
    let r = sq.rank().to_u32() as i32;
    enemy_pawns.into_iter().all(|p| {
        let pf = p.file().to_u32() as i32;
        let pr = p.rank().to_u32() as i32;
        let ahead = if color == Color::White {
            pr > r
        } else {
            pr < r
        };
        !(ahead && (pf - f).abs() <= 1)
    })
}

fn side_score(pos: &Position, color: Color, isolated: Bitboard, moves_left: u32) -> i32 {
    let b = pos.board();
    let occupied = b.occupied();
    let own = b.by_color(color);
    let mut score = 0;
    let weight = FREEZE_WEIGHT_PCT
        .get(moves_left as usize)
        .copied()
        .unwrap_or(60 / moves_left.max(1) as i32);
    let enemy_zone = b.king_of(!color).map_or(Bitboard::EMPTY, |k| {
        attacks::king_attacks(k) | Bitboard::from(k)
    });
    for sq in own {
        let Some(role) = b.role_at(sq) else { continue };
        score += value(role);
        let rr = relative_rank(color, sq);
        let reach = match role {
            Role::Pawn => {
                score += PAWN_ADVANCE[rr];
                if passed(pos, color, sq) {
                    score += PASSED[rr];
                }
                attacks::pawn_attacks(color, sq)
            }
            Role::Knight => {
                score += centre(sq);
                attacks::knight_attacks(sq)
            }
            Role::Bishop => {
                score += centre(sq) / 2;
                attacks::bishop_attacks(sq, occupied)
            }
            Role::Rook => attacks::rook_attacks(sq, occupied),
            Role::Queen => attacks::queen_attacks(sq, occupied),
            Role::King => {
                let near = (attacks::king_attacks(sq) & own).count() as i32;
                score += KING_SHELTER * near.min(3);
                attacks::king_attacks(sq)
            }
        };
        score += MOBILITY[role_index(role)] * (reach & !own).count() as i32;
        if role != Role::King {
            score += KING_ATTACK * (reach & enemy_zone).count() as i32;
        }
        if isolated.contains(sq) {
            score -= freeze_cost(role) * weight / 100;
        }
    }
    score
}

fn role_index(role: Role) -> usize {
    match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

/// Static evaluation from the side to move, centi-units.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let isolated = ice_age::isolated(pos.board());
    // Moves each side still makes before the Ice Age, the one that brings it included.
    let plies = pos.plies_to_ice_age();
    let ours = plies.div_ceil(2);
    let theirs = plies / 2;
    side_score(pos, us, isolated, ours) - side_score(pos, !us, isolated, theirs) + TEMPO
}

impl BaselineVariant for IceAge {
    fn baseline_evaluate(pos: &Position) -> i32 {
        evaluate(pos)
    }

    /// Never stand pat in check (every evasion is searched), nor on the move that brings
    /// the Ice Age (C5): that move decides what freezes, so it is searched in full rather
    /// than guessed by the isolation term.
    fn baseline_may_stand_pat(pos: &Position, _moves: &[Move]) -> bool {
        !IceAge::in_check(pos) && !pos.ice_age_due()
    }

    /// Quiescence searches captures of pieces and promotions (ice captures onto the last
    /// rank included). Other ice captures are left to the main search: they win no material,
    /// the ice comes back at every Ice Age (the reason C10 does not count them as progress),
    /// and an opening position has dozens of them, which would swamp quiescence.
    fn baseline_is_noisy(_pos: &Position, mv: &Move) -> bool {
        mv.is_piece_capture() || mv.promotion.is_some()
    }

    /// Most valuable victim first, least valuable attacker first among equals; promotions
    /// by the promoted piece; ice captures last among tactical moves.
    fn baseline_order_hint(_pos: &Position, mv: &Move) -> i32 {
        let victim = match mv.capture {
            Capture::Piece(r) => value(r),
            Capture::Ice => 0,
            Capture::None => 0,
        };
        let promo = mv.promotion.map_or(0, value);
        let attacker = if mv.role == Role::King {
            0
        } else {
            value(mv.role)
        };
        (10 * (victim + promo) + 1_000 - attacker / 10).clamp(0, 100_000)
    }
}
