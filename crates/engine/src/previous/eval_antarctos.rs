//! The Antarctos evaluation of 2026-12-07, frozen (a copy of `crate::eval::antarctos` and its
//! tuned weights, `crate::eval::antarctos_weights`, with the game's search hooks of then): a
//! race to the far row (A12) fought with captures that leave ice behind (A8); every term is
//! counted for both sides and the difference is weighed from the side to move, in
//! centi-units (a man is about 100). Bitboards in the layout of `antarctos::SquareSet::bits`.

use antarctos::{Antarctos, Move, Position, Square};
use game::Color;

use super::PreviousVariant;
use super::options::SearchOptions;
use super::terms::{Score, Terms};

/// A living man: a runner, a blocker, and one more turn before a total freeze (A13).
pub const MAN: usize = 0;
/// Rows advanced, 1 to 6 (0 = home row, 6 = one step from the goal row): the race of A12.
/// `ADVANCE + k - 1` is the term of `k` rows.
pub const ADVANCE: usize = 1;
/// A man on its own home row keeps a landing square of the enemy's goal row shut.
pub const HOME_GUARD: usize = 7;
/// Per empty square a man can step to: moves in hand, the cure for A14.
pub const STEP: usize = 8;
/// A man with no step and no jump: it neither races nor defends until freed.
pub const BLOCKED: usize = 9;
/// Ice diagonally ahead of a man with an empty square behind it: a springboard, two rows
/// in one turn (A7).
pub const SPRINGBOARD: usize = 10;
/// A man no enemy man can reach before it arrives (no enemy in the cone ahead of it).
pub const RUNNER: usize = 11;
/// Both sides have runners and ours arrives first (the side to move wins ties): +1, or
/// theirs first: -1.
pub const RACE_WON: usize = 12;
/// Only one side has a runner: +1 for us, -1 for them.
pub const RACE_ALONE: usize = 13;
/// Having the move.
pub const TEMPO: usize = 14;
/// A man on the a- or h-file: it cannot be captured (A6 needs a square beyond it) but has
/// one forward step at most.
pub const EDGE: usize = 15;
/// A man whose two squares behind are not empty (a man, ice or the board's edge): no
/// enemy man can capture it from the front (A6).
pub const BACKED: usize = 16;
/// A man of the side to move that an enemy man could capture at once were it the enemy's
/// turn (A6): a threat the side to move must meet. Counted for the side to move only;
/// the other side's would be a capture the side to move must make (A9), and such
/// positions are not quiet.
pub const EXPOSED: usize = 17;
/// Number of terms.
pub const TERM_COUNT: usize = 18;

/// The tuned weights of 2026-12-07 (`crate::eval::antarctos_weights::WEIGHTS` then), in the
/// order of the term constants above.
const WEIGHTS: [i32; TERM_COUNT] = [
    100, -10, -28, 6, -2, 72, 36, -3, 11, -15, 37, -13, 202, 30, 7, -7, 9, -49,
];

impl PreviousVariant for Antarctos {
    fn previous_evaluate(pos: &Position) -> i32 {
        evaluate(pos)
    }

    /// A9: while a capture is compulsory the side to move must capture, so the position
    /// is not quiet and its static value would be a lie.
    fn previous_may_stand_pat(pos: &Position, moves: &[Move]) -> bool {
        !moves.first().is_some_and(|m| starts_with_capture(pos, m))
    }

    /// In quiet positions quiescence looks at turns that capture a living man (material)
    /// or end on the goal row (an immediate win, A12); plain ice jumps are left to the main
    /// search (they are frequent and change no material).
    fn previous_is_noisy(pos: &Position, mv: &Move) -> bool {
        !mv.captured().is_empty() || ends_on_goal_row(pos, mv)
    }

    /// Winning turns first, then by men captured.
    fn previous_order_hint(pos: &Position, mv: &Move) -> i32 {
        let win = if ends_on_goal_row(pos, mv) { 50_000 } else { 0 };
        win + 1_000 * mv.captured().len() as i32 + 10 * mv.ice_jumped().len() as i32
    }

    /// The set of 2026-12-07 (today's `Antarctos::OPTIONS` then): every technique but
    /// countermoves, history-adjusted reductions, "improving" and goal threats as checks.
    const PREVIOUS_OPTIONS: SearchOptions = SearchOptions {
        null_move: true,
        aspiration: true,
        see: true,
        reverse_futility: true,
        futility: true,
        late_move_pruning: true,
        ice_age_extension: true,
        lmr_log: true,
        history_malus: true,
        countermove: false,
        iir: true,
        history_lmr: false,
        quiescence_tt: true,
        lmr_non_pv: true,
        improving: false,
        singular: true,
        threat: false,
    };

    /// A12: the side not to move has a man that could end its next turn on its goal row.
    fn previous_threatened(pos: &Position) -> bool {
        goal_threat(pos)
    }

    /// A pass, except when a capture is compulsory (A9: passing would dodge it).
    fn previous_null_move(pos: &Position, moves: &[Move]) -> Option<Position> {
        if moves.first().is_some_and(|m| starts_with_capture(pos, m)) {
            return None;
        }
        Some(pos.pass())
    }
}

/// True when the first jump of `mv` takes a living enemy man (A9: then every legal turn
/// does, because captures are compulsory).
fn starts_with_capture(pos: &Position, mv: &Move) -> bool {
    let mut path = mv.path();
    let (Some(a), Some(b)) = (path.next(), path.next()) else {
        return false;
    };
    if !mv.is_jump() {
        return false;
    }
    let mid = Square::new((a.file() + b.file()) / 2, (a.rank() + b.rank()) / 2);
    let enemy = pos.men(!pos.side_to_move());
    mid.is_some_and(|sq| enemy.contains(sq))
}

fn ends_on_goal_row(pos: &Position, mv: &Move) -> bool {
    let rank = mv.to().rank();
    match pos.side_to_move() {
        Color::White => rank == 7,
        Color::Black => rank == 0,
    }
}

/// True when a man of the side not to move could reach its goal row (A12) with its next
/// turn if that side moved now: a step from the row before it onto an empty goal square, or
/// a jump sequence over men or ice (A6, A7, A10) that can land on one. The jumps are
/// followed as a flood over every hurdle in the four directions, so the cue may see a
/// sequence that A8-A10 forbid (a hurdle jumped twice, an ice jump where a capture must
/// be made, a man that must jump on from the goal row), and A9 may force a capture
/// elsewhere first: it is the search's cue, not a proof.
fn goal_threat(pos: &Position) -> bool {
    let them = !pos.side_to_move();
    let men = pos.men(them).bits();
    let hurdles = pos.men(!them).bits() | pos.ice().bits();
    let empty = BOARD & !(men | hurdles);
    let (goal, near, fwd) = if them == Color::White {
        (RANKS[7], RANKS[6], [4, 5])
    } else {
        (RANKS[0], RANKS[1], [-4, -5])
    };
    let land = empty & goal;
    if land == 0 {
        return false;
    }
    if fwd.iter().any(|&d| men & near & step(land, -d) != 0) {
        return true;
    }
    // Squares a man can land on by one jump or more.
    let mut from = men;
    let mut reached = 0u64;
    loop {
        let mut next = 0u64;
        for d in [4, 5, -4, -5] {
            next |= step(step(from, d) & hurdles, d) & empty;
        }
        let new = next & !reached;
        if new == 0 {
            return false;
        }
        if new & goal != 0 {
            return true;
        }
        reached |= new;
        from = new;
    }
}

/// Bit of square (`file`, `rank`) in the bitboard layout.
const fn bit(file: i32, rank: i32) -> u64 {
    1u64 << ((9 * rank + file) / 2)
}

/// The 32 dark squares.
const BOARD: u64 = {
    let mut m = 0;
    let mut r = 0;
    while r < 8 {
        let mut f = r % 2;
        while f < 8 {
            m |= bit(f, r);
            f += 2;
        }
        r += 1;
    }
    m
};

/// The dark squares of one rank.
const fn rank_mask(rank: i32) -> u64 {
    let mut m = 0;
    let mut f = rank % 2;
    while f < 8 {
        m |= bit(f, rank);
        f += 2;
    }
    m
}

/// The dark squares of each rank, 0 to 7 (a table: `rank_mask` with a rank known only at
/// run time loops over the files).
const RANKS: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut r = 0;
    while r < 8 {
        t[r] = rank_mask(r as i32);
        r += 1;
    }
    t
};

/// The dark squares of the a- and h-files.
const EDGE_FILES: u64 = {
    let mut m = 0;
    let mut r = 0;
    while r < 8 {
        m |= bit(if r % 2 == 0 { 0 } else { 7 }, r);
        r += 1;
    }
    m
};

/// Cones ahead of every square, by colour (0 White, 1 Black): on a row `k` rows further
/// on, the files within `k + 1` of the man's. An enemy man outside it cannot stop the man
/// in time (enemy men move towards this man's home row only).
const CONES: [[u64; 36]; 2] = {
    let mut cones = [[0u64; 36]; 2];
    let mut c = 0;
    while c < 2 {
        let dir = if c == 0 { 1 } else { -1 };
        let mut r = 0;
        while r < 8 {
            let mut f = r % 2;
            while f < 8 {
                let mut cone = 0u64;
                let mut k = 1;
                let mut row = r + dir;
                while row >= 0 && row < 8 {
                    let mut file = f - k - 1;
                    while file <= f + k + 1 {
                        if file >= 0 && file < 8 && (file + row) % 2 == 0 {
                            cone |= bit(file, row);
                        }
                        file += 1;
                    }
                    k += 1;
                    row += dir;
                }
                cones[c][((9 * r + f) / 2) as usize] = cone;
                f += 2;
            }
            r += 1;
        }
        c += 1;
    }
    cones
};

/// Shifts `bits` one diagonal step by `shift` (+4, +5 towards rank 8; -4, -5 towards
/// rank 1), keeping the board's squares.
#[inline(always)]
fn step(bits: u64, shift: i32) -> u64 {
    (if shift > 0 {
        bits << shift
    } else {
        bits >> -shift
    }) & BOARD
}

/// Squares `s` of `from` with `s + d` in `over` and `s + 2d` in `land`.
#[inline(always)]
fn jumpers(from: u64, over: u64, land: u64, d: i32) -> u64 {
    from & step(over & step(land, -d), -d)
}

/// One side's terms (added with `sign`, +1 for the side to move) and the distance in
/// turns of its fastest runner. The colour is a constant (`WHITE`) so that every shift is
/// one instruction.
fn side<T: Terms, const WHITE: bool>(
    t: &mut T,
    men: u64,
    enemy: u64,
    ice: u64,
    sign: i32,
) -> Option<i32> {
    let white = WHITE;
    let empty = BOARD & !(men | enemy | ice);
    let (fwd, c) = if white { ([4, 5], 0) } else { ([-4, -5], 1) };
    let back = [-fwd[0], -fwd[1]];
    t.add(MAN, sign * men.count_ones() as i32);
    for k in 1..7 {
        let row = if white { k } else { 7 - k };
        let mut n = (men & RANKS[row]).count_ones() as i32;
        if k == 6 {
            // A man of the side not to move may stand on its goal row only in a finished
            // game; count it with row 6 rather than not at all.
            n += (men & RANKS[if white { 7 } else { 0 }]).count_ones() as i32;
        }
        t.add(ADVANCE + k - 1, sign * n);
    }
    let home = RANKS[if white { 0 } else { 7 }];
    t.add(HOME_GUARD, sign * (men & home).count_ones() as i32);
    let steps = (step(men, fwd[0]) & empty).count_ones() + (step(men, fwd[1]) & empty).count_ones();
    t.add(STEP, sign * steps as i32);
    let hurdles = enemy | ice;
    let mut movable = men & (step(empty, back[0]) | step(empty, back[1]));
    let mut springs = 0;
    for d in fwd {
        movable |= jumpers(men, hurdles, empty, d);
        springs += jumpers(men, ice, empty, d).count_ones();
    }
    for d in back {
        movable |= jumpers(men, hurdles, empty, d);
    }
    t.add(BLOCKED, sign * (men & !movable).count_ones() as i32);
    t.add(SPRINGBOARD, sign * springs as i32);
    t.add(EDGE, sign * (men & EDGE_FILES).count_ones() as i32);
    // The square behind in direction `back[i]` is empty for `s` in `step(empty, fwd[i])`.
    let open_behind = step(empty, fwd[0]) | step(empty, fwd[1]);
    t.add(BACKED, sign * (men & !open_behind).count_ones() as i32);
    if sign > 0 {
        let mut exposed = 0;
        for d in [4, 5, -4, -5] {
            exposed |= men & step(enemy, -d) & step(empty, d);
        }
        t.add(EXPOSED, exposed.count_ones() as i32);
    }
    let mut runners = 0;
    let mut fastest: Option<i32> = None;
    let mut rest = men;
    while rest != 0 {
        let b = rest.trailing_zeros();
        rest &= rest - 1;
        if CONES[c][b as usize] & enemy == 0 {
            runners += 1;
            // Rank of bit b: (9r + f) / 2 = b with 0 <= f < 8.
            let rank = ((2 * b) / 9) as i32;
            let distance = if white { 7 - rank } else { rank };
            fastest = Some(fastest.map_or(distance, |d| d.min(distance)));
        }
    }
    t.add(RUNNER, sign * runners);
    fastest
}

/// Reports the terms of `pos` (from the side to move) to `t`.
pub fn terms<T: Terms>(pos: &Position, t: &mut T) {
    let us = pos.side_to_move();
    let ours = pos.men(us).bits();
    let theirs = pos.men(!us).bits();
    let ice = pos.ice().bits();
    let white = us == Color::White;
    let (mine, other) = if white {
        let mine = side::<T, true>(t, ours, theirs, ice, 1);
        (mine, side::<T, false>(t, theirs, ours, ice, -1))
    } else {
        let mine = side::<T, false>(t, ours, theirs, ice, 1);
        (mine, side::<T, true>(t, theirs, ours, ice, -1))
    };
    t.add(TEMPO, 1);
    match (mine, other) {
        // We move first: we arrive first when our runner needs no more turns.
        (Some(a), Some(b)) => t.add(RACE_WON, if a <= b { 1 } else { -1 }),
        (Some(_), None) => t.add(RACE_ALONE, 1),
        (None, Some(_)) => t.add(RACE_ALONE, -1),
        (None, None) => {}
    }
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
