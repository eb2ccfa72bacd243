//! Ice Age Chess evaluation: chess terms plus the calendar. Every term is summed per side
//! and returned as (side to move) - (other side), in centi-units (a pawn = 100).
//!
//! The calendar: at the Ice Age (C5-C6) every piece with no other piece around it freezes,
//! a king included (C7: its side loses). A piece isolated now is only in danger if its side
//! cannot fix it in the moves it has left before the Ice Age, so the penalty is the piece's
//! value times a weight that falls with those moves ([`FREEZE`]).
//!
//! The terms' weights ([`WEIGHTS`]) are fitted to self-play results by `icebound tune`
//! (Texel's method, `lab::tune`); [`HAND_WEIGHTS`] are the hand-set weights of before.

use game::Variant;
use iceage::ice_age;
use iceage::{Capture, IceAge, Move, Position};
use shakmaty::{Bitboard, Color, Role, Square, attacks};

use super::terms::{Score, Terms};
use crate::{EngineVariant, SearchOptions};

/// Material: the usual chess values (bishop a little over knight); what [`order_hint`]
/// ranks victims by and what a frozen piece costs in the freeze terms (fixed, not tuned).
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

/// Material of a pawn, knight, bishop, rook, queen: `MATERIAL + role index` (pawn 0).
pub const MATERIAL: usize = 0;
/// A pawn on relative rank 1 to 6 (a pawn further up is closer to promotion and cramps
/// the enemy): `PAWN_ADVANCE + rank - 1`.
pub const PAWN_ADVANCE: usize = 5;
/// A passed pawn (no enemy pawn ahead on its file or the next ones) on relative rank 1 to
/// 6: `PASSED + rank - 1`.
pub const PASSED: usize = 11;
/// A knight's centralisation: `14 - d` where `d` (2 to 14) is twice its distance from
/// the centre in files plus ranks.
pub const KNIGHT_CENTRE: usize = 17;
/// A bishop's centralisation, as [`KNIGHT_CENTRE`].
pub const BISHOP_CENTRE: usize = 18;
/// Per square a knight, bishop, rook or queen attacks or may move to (ice squares count: a
/// piece may take the ice, C3): activity in a board crowded with ice. `MOBILITY + role
/// index - 1` (knight 0).
pub const MOBILITY: usize = 19;
/// Per own piece next to the king, up to three: a pawn shield against checks, and the
/// friend that keeps the king from freezing at the next Ice Age.
pub const KING_SHELTER: usize = 23;
/// Per attack of a pawn, knight, bishop, rook or queen on a square next to the enemy king
/// (or on it): the usual attack pressure.
pub const KING_ATTACK: usize = 24;
/// An isolated piece, which the Ice Age (C5-C7) freezes unless its side fixes it in the
/// moves it has left before: its freeze cost (its value; 3,000 for a king, C7) times this
/// weight in per cent, by those moves, 0 to 7 (`FREEZE + moves`; 0: the Ice Age comes
/// before it moves again, so it freezes for sure).
pub const FREEZE: usize = 25;
/// As [`FREEZE`], 8 moves or more: the weight in per cent is this term's weight times
/// `0.6 / moves` (integer per cent, as before tuning).
pub const FREEZE_FAR: usize = 33;
/// Having the move.
pub const TEMPO: usize = 34;
/// Number of terms.
pub const TERM_COUNT: usize = 35;

/// The terms' names, for the tuner's output.
pub const TERM_NAMES: [&str; TERM_COUNT] = [
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen",
    "pawn rank 1",
    "pawn rank 2",
    "pawn rank 3",
    "pawn rank 4",
    "pawn rank 5",
    "pawn rank 6",
    "passed rank 1",
    "passed rank 2",
    "passed rank 3",
    "passed rank 4",
    "passed rank 5",
    "passed rank 6",
    "knight centre",
    "bishop centre",
    "knight mobility",
    "bishop mobility",
    "rook mobility",
    "queen mobility",
    "king shelter",
    "king attack",
    "freeze % 0 moves",
    "freeze % 1 move",
    "freeze % 2 moves",
    "freeze % 3 moves",
    "freeze % 4 moves",
    "freeze % 5 moves",
    "freeze % 6 moves",
    "freeze % 7 moves",
    "freeze far",
    "tempo",
];

/// The hand-set weights of before tuning (the baseline engine's constants).
pub const HAND_WEIGHTS: [i32; TERM_COUNT] = [
    100, 310, 325, 500, 900, // material
    0, 4, 8, 14, 24, 40, // pawn advance
    5, 10, 18, 30, 50, 80, // passed pawns
    2, 1, // centre
    4, 4, 2, 1, // mobility
    12, 9, // king
    100, 50, 30, 20, 15, 12, 10, 8, 100, // freeze
    10,  // tempo
];

/// The weights the engine plays with.
pub const WEIGHTS: [i32; TERM_COUNT] = super::iceage_weights::WEIGHTS;

/// `14 - d` where `d` is twice the distance from the centre in files plus ranks (0 to 12).
fn centre(sq: Square) -> i32 {
    let f = sq.file().to_u32() as i32;
    let r = sq.rank().to_u32() as i32;
    let df = (2 * f - 7).abs(); // 1, 3, 5, 7 from the centre
    let dr = (2 * r - 7).abs();
    14 - df - dr
}

fn relative_rank(color: Color, sq: Square) -> usize {
    let r = sq.rank().to_u32() as usize;
    if color == Color::White { r } else { 7 - r }
}

/// The squares where an enemy pawn stops a pawn of colour `c` (0 White, 1 Black) on square
/// `s` from being passed: on its file or the next, ahead of it.
const PASSED_MASKS: [[u64; 64]; 2] = {
    let mut masks = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 64 {
            let (f, r) = ((s % 8) as i32, (s / 8) as i32);
            let mut m = 0u64;
            let mut pr = 0;
            while pr < 8 {
                let ahead = if c == 0 { pr > r } else { pr < r };
                let mut pf = f - 1;
                while pf <= f + 1 {
                    if ahead && pf >= 0 && pf < 8 {
                        m |= 1u64 << (pr * 8 + pf);
                    }
                    pf += 1;
                }
                pr += 1;
            }
            masks[c][s] = m;
            s += 1;
        }
        c += 1;
    }
    masks
};

fn side<T: Terms>(
    t: &mut T,
    pos: &Position,
    color: Color,
    isolated: Bitboard,
    moves_left: u32,
    sign: i32,
) {
    let b = pos.board();
    let occupied = b.occupied();
    let own = b.by_color(color);
    let enemy_pawns = b.by_piece(Role::Pawn.of(!color)).0;
    let enemy_zone = b.king_of(!color).map_or(Bitboard::EMPTY, |k| {
        attacks::king_attacks(k) | Bitboard::from(k)
    });
    let c = if color == Color::White { 0 } else { 1 };
    let mut attack = 0;
    let pawns = b.by_piece(Role::Pawn.of(color));
    t.add(MATERIAL, sign * pawns.count() as i32);
    for sq in pawns {
        let rr = relative_rank(color, sq);
        if (1..7).contains(&rr) {
            t.add(PAWN_ADVANCE + rr - 1, sign);
            if PASSED_MASKS[c][sq as usize] & enemy_pawns == 0 {
                t.add(PASSED + rr - 1, sign);
            }
        }
        attack += (attacks::pawn_attacks(color, sq) & enemy_zone).count() as i32;
    }
    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        let pieces = b.by_piece(role.of(color));
        t.add(MATERIAL + 1 + i, sign * pieces.count() as i32);
        for sq in pieces {
            let reach = match role {
                Role::Knight => {
                    t.add(KNIGHT_CENTRE, sign * centre(sq));
                    attacks::knight_attacks(sq)
                }
                Role::Bishop => {
                    t.add(BISHOP_CENTRE, sign * centre(sq));
                    attacks::bishop_attacks(sq, occupied)
                }
                Role::Rook => attacks::rook_attacks(sq, occupied),
                _ => attacks::queen_attacks(sq, occupied),
            };
            t.add(MOBILITY + i, sign * (reach & !own).count() as i32);
            attack += (reach & enemy_zone).count() as i32;
        }
    }
    if let Some(k) = b.king_of(color) {
        let near = (attacks::king_attacks(k) & own).count() as i32;
        t.add(KING_SHELTER, sign * near.min(3));
    }
    t.add(KING_ATTACK, sign * attack);
    for sq in own & isolated {
        let Some(role) = b.role_at(sq) else { continue };
        let cost = freeze_cost(role);
        if moves_left < 8 {
            t.add_scaled(FREEZE + moves_left as usize, -sign * cost, 100);
        } else {
            let pct = 60 / moves_left as i32;
            t.add_scaled(FREEZE_FAR, -sign * cost * pct, 10_000);
        }
    }
}

/// Reports the terms of `pos` (from the side to move) to `t`.
pub fn terms<T: Terms>(pos: &Position, t: &mut T) {
    let us = pos.side_to_move();
    let isolated = ice_age::isolated(pos.board());
    // Moves each side still makes before the Ice Age, the one that brings it included.
    let plies = pos.plies_to_ice_age();
    side(t, pos, us, isolated, plies.div_ceil(2), 1);
    side(t, pos, !us, isolated, plies / 2, -1);
    t.add(TEMPO, 1);
}

/// Static evaluation from the side to move with `weights` (one per term, [`TERM_COUNT`];
/// fewer panics), centi-units.
pub fn evaluate_with(pos: &Position, weights: &[i32]) -> i32 {
    let mut s = Score::new(weights);
    terms(pos, &mut s);
    s.total
}

/// Static evaluation from the side to move, centi-units ([`WEIGHTS`]).
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

impl EngineVariant for IceAge {
    fn evaluate(pos: &Position) -> i32 {
        evaluate(pos)
    }

    fn network() -> Option<&'static crate::nnue::Network> {
        crate::nnue::iceage_network().ok()
    }

    /// Level 8 plays with the network since 2026-12-07: at equal time (150 ms a move, the
    /// table kept over the game) it scored +41.9 ± 31.2 Elo over 400 games on balanced
    /// openings against the frozen engine of that day (docs/strength.md, NNUE, fourth round),
    /// and +40.1 ± 46.8 at equal nodes.
    const NNUE_AT_LEVEL_8: bool = true;

    fn evaluate_nnue(
        net: &crate::nnue::Network,
        acc: &mut crate::nnue::Accumulators,
        ply: usize,
        pos: &Position,
    ) -> i32 {
        acc.evaluate::<Self>(net, ply, pos)
    }

    const TERM_COUNT: usize = TERM_COUNT;

    fn evaluate_weighted(pos: &Position, weights: &[i32]) -> i32 {
        evaluate_with(pos, weights)
    }

    fn evaluate_hand(pos: &Position) -> i32 {
        evaluate_with(pos, &HAND_WEIGHTS)
    }

    /// Never stand pat in check (every evasion is searched), nor on the move that brings
    /// the Ice Age (C5): that move decides what freezes, so it is searched in full rather
    /// than guessed by the isolation term.
    fn may_stand_pat(pos: &Position, _moves: &[Move]) -> bool {
        !IceAge::in_check(pos) && !pos.ice_age_due()
    }

    /// Quiescence searches captures of pieces and promotions (ice captures onto the last
    /// rank included). Other ice captures are left to the main search: they win no material,
    /// the ice comes back at every Ice Age (the reason C10 does not count them as progress),
    /// and an opening position has dozens of them, which would swamp quiescence.
    fn is_noisy(_pos: &Position, mv: &Move) -> bool {
        mv.is_piece_capture() || mv.promotion.is_some()
    }

    /// Most valuable victim first, least valuable attacker first among equals; promotions
    /// by the promoted piece; ice captures last among tactical moves.
    fn order_hint(_pos: &Position, mv: &Move) -> i32 {
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

    /// Every technique but the Ice Age extension, which lost its SPRT (docs/strength.md:
    /// -6.9 ± 7.8 Elo over 2,626 games at 5,000 nodes, H0; issue 15 keeps a change only with a
    /// gain). `on=iae` brings it back for a match. There is no second tuning (`tuned2`). The
    /// techniques added on 2026-12-02 ([`SearchOptions::BEFORE_DEC_2`]) stay off: five of them
    /// together lost 26.7 ± 26.1 Elo at 50,000 nodes here (docs/strength.md); `on=` tries them.
    const OPTIONS: SearchOptions = SearchOptions {
        ice_age_extension: false,
        tuned2: false,
        ..SearchOptions::BEFORE_DEC_2
    };

    /// No pass with only king and pawns (zugzwang is common there), in check, or on the
    /// move that brings the Ice Age ([`iceage::Position::pass`]).
    fn null_move(pos: &Position, _moves: &[Move]) -> Option<Position> {
        let b = pos.board();
        let own = b.by_color(pos.side_to_move());
        let pieces = own & !(b.by_role(Role::Pawn) | b.by_role(Role::King));
        if pieces.is_empty() {
            return None;
        }
        pos.pass()
    }

    fn see_ge(pos: &Position, mv: &Move, threshold: i32) -> bool {
        crate::see::see_ge(pos, mv, threshold)
    }

    /// The move that brings the Ice Age (C5).
    fn transforms_board(pos: &Position) -> bool {
        pos.ice_age_due()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        IceAge::parse_position(fen).expect("valid FEN")
    }

    #[test]
    fn start_is_balanced_but_for_tempo() {
        assert_eq!(evaluate(&IceAge::start_position()), WEIGHTS[TEMPO]);
    }

    #[test]
    fn hand_weights_give_the_old_evaluation() {
        // The terms with the hand-set weights reproduce the baseline's evaluation on every
        // position of random games (Ice Ages included: 200 plies pass two of them).
        use crate::baseline::BaselineVariant;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let mut checked = 0;
        for _ in 0..40 {
            let mut p = IceAge::start_position();
            for _ in 0..200 {
                if IceAge::outcome(&p).is_some() {
                    break;
                }
                assert_eq!(
                    evaluate_with(&p, &HAND_WEIGHTS),
                    IceAge::baseline_evaluate(&p),
                    "{}",
                    IceAge::position_text(&p)
                );
                checked += 1;
                let moves = IceAge::legal_moves(&p);
                p = IceAge::play_unchecked(&p, &moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(checked > 4_000);
    }

    #[test]
    fn extra_queen_counts() {
        let p = pos("4k3/3p4/8/8/8/8/2QP4/4K3 w - - 0 1");
        assert!(evaluate(&p) > 800);
    }

    #[test]
    fn isolated_piece_costs_more_as_the_ice_age_nears() {
        // The same position (a White rook alone on a4), far from and just before the Ice
        // Age (Black's 20th move is next: White has no move left to save it).
        let far = pos("4k3/3p4/8/8/R7/8/4P3/4K3 b - - 0 3");
        let near = pos("4k3/3p4/8/8/R7/8/4P3/4K3 b - - 0 20");
        assert!(evaluate(&near) > evaluate(&far) + 300);
    }

    #[test]
    fn ice_age_move_is_never_stood_on() {
        let p = pos("4k3/3p4/8/8/R7/8/4P3/4K3 b - - 0 20");
        assert!(!IceAge::may_stand_pat(&p, &IceAge::legal_moves(&p)));
        let q = pos("4k3/3p4/8/8/R7/8/4P3/4K3 b - - 0 19");
        assert!(IceAge::may_stand_pat(&q, &IceAge::legal_moves(&q)));
    }
}
