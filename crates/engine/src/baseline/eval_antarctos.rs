//! The frozen baseline evaluation of Antarctos (commit 4974cdc, tag `engine-baseline`), kept
//! verbatim for `engine=baseline`; see [`crate::baseline`].
//!
//! Antarctos evaluation: the game is a race to the far row (A12) fought with captures that
//! leave ice behind (A8), so the terms measure who gets there first and what stands in
//! the way. Every term is computed for both sides and the difference is returned from the
//! side to move's point of view, in centi-units (a man = 100).

use antarctos::{Antarctos, Move, Position, Square, SquareSet};
use game::Color;

use crate::baseline::BaselineVariant;

/// A living man: a runner, a blocker, and one more turn before a total freeze (A13).
const MAN: i32 = 100;
/// Bonus by rows advanced (0 = home row, 6 = one step from the goal row): the race of
/// A12. Grows faster than linearly because a man near the goal row ties the opponent
/// down and wins outright when it gets through.
const ADVANCE: [i32; 7] = [0, 3, 7, 13, 22, 36, 58];
/// A man on its own home row keeps a landing square of the enemy's goal row shut (an
/// enemy man must land on an empty square of that row to win).
const HOME_GUARD: i32 = 10;
/// Per empty square a man can step to: moves in hand, the cure for A14 (no moves loses)
/// and for being forced into a losing step.
const STEP: i32 = 3;
/// A man with no step and no jump: it neither races nor defends until freed.
const BLOCKED: i32 = -8;
/// Ice diagonally ahead of a man with an empty square behind it: a springboard, two rows
/// in one turn (A7), and the ice is gone after it.
const SPRINGBOARD: i32 = 9;
/// A man no enemy man can reach before it arrives (no enemy in the cone ahead of it):
/// worth most of a man, plus its own progress already counted.
const RUNNER: i32 = 120;
/// The side whose fastest runner arrives first (the side to move wins ties: it moves
/// first) is winning the race outright.
const RACE_WON: i32 = 250;
/// Having the move in a race: one step ahead of the same position with the other side
/// to move.
const TEMPO: i32 = 8;

impl BaselineVariant for Antarctos {
    fn baseline_evaluate(pos: &Position) -> i32 {
        evaluate(pos)
    }

    /// A9: while a capture is compulsory the side to move must capture, so the position
    /// is not quiet and its static value would be a lie.
    fn baseline_may_stand_pat(pos: &Position, moves: &[Move]) -> bool {
        !moves.first().is_some_and(|m| starts_with_capture(pos, m))
    }

    /// In quiet positions quiescence looks at turns that capture a living man (material)
    /// or end on the goal row (an immediate win, A12); plain ice jumps are left to the main
    /// search (they are frequent and change no material).
    fn baseline_is_noisy(pos: &Position, mv: &Move) -> bool {
        !mv.captured().is_empty() || ends_on_goal_row(pos, mv)
    }

    /// Winning turns first, then by men captured.
    fn baseline_order_hint(pos: &Position, mv: &Move) -> i32 {
        let win = if ends_on_goal_row(pos, mv) { 50_000 } else { 0 };
        win + 1_000 * mv.captured().len() as i32 + 10 * mv.ice_jumped().len() as i32
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

/// 8x8 board: 0 empty (or light), 1 White man, 2 Black man, 3 ice.
type Grid = [[u8; 8]; 8];

fn grid(pos: &Position) -> Grid {
    let mut g = [[0u8; 8]; 8];
    let mut put = |set: SquareSet, v: u8| {
        for sq in set.iter() {
            g[sq.rank() as usize][sq.file() as usize] = v;
        }
    };
    put(pos.men(Color::White), 1);
    put(pos.men(Color::Black), 2);
    put(pos.ice(), 3);
    g
}

fn at(g: &Grid, file: i32, rank: i32) -> Option<u8> {
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some(g[rank as usize][file as usize])
    } else {
        None
    }
}

/// Per-side terms and the distance of the side's fastest runner (in turns).
struct Side {
    score: i32,
    runner: Option<i32>,
}

fn side_terms(g: &Grid, men: SquareSet, color: Color) -> Side {
    let (me, enemy, dir) = match color {
        Color::White => (1u8, 2u8, 1i32),
        Color::Black => (2u8, 1u8, -1i32),
    };
    let _ = me;
    let mut score = 0;
    let mut runner: Option<i32> = None;
    for sq in men.iter() {
        let f = i32::from(sq.file());
        let r = i32::from(sq.rank());
        let progress = if dir == 1 { r } else { 7 - r };
        let distance = 7 - progress;
        score += MAN + ADVANCE[progress.clamp(0, 6) as usize];
        if progress == 0 {
            score += HOME_GUARD;
        }
        let mut steps = 0;
        let mut jumps = 0;
        for df in [-1, 1] {
            match at(g, f + df, r + dir) {
                Some(0) => steps += 1,
                Some(v) => {
                    let beyond = at(g, f + 2 * df, r + 2 * dir);
                    if beyond == Some(0) && (v == 3 || v == enemy) {
                        jumps += 1;
                        if v == 3 {
                            score += SPRINGBOARD;
                        }
                    }
                }
                None => {}
            }
            // Backward jumps (captures and ice jumps go both ways, A6-A7).
            if let Some(v) = at(g, f + df, r - dir)
                && (v == 3 || v == enemy)
                && at(g, f + 2 * df, r - 2 * dir) == Some(0)
            {
                jumps += 1;
            }
        }
        score += STEP * steps;
        if steps == 0 && jumps == 0 {
            score += BLOCKED;
        }
        if is_runner(g, f, r, dir, enemy) {
            score += RUNNER;
            runner = Some(runner.map_or(distance, |d: i32| d.min(distance)));
        }
    }
    Side { score, runner }
}

/// No enemy man in the cone ahead: on a row `k` rows further on, within `k + 1` files.
/// Enemy men move towards this man's home row only, so nothing outside the cone can get in
/// its way in time (ice can, but ice is also a springboard: not counted).
fn is_runner(g: &Grid, f: i32, r: i32, dir: i32, enemy: u8) -> bool {
    let mut k = 1;
    let mut row = r + dir;
    while (0..8).contains(&row) {
        for file in (f - k - 1).max(0)..=(f + k + 1).min(7) {
            if g[row as usize][file as usize] == enemy {
                return false;
            }
        }
        k += 1;
        row += dir;
    }
    true
}

/// Static evaluation from the side to move, centi-units (see the constants for the terms).
pub fn evaluate(pos: &Position) -> i32 {
    let g = grid(pos);
    let us = pos.side_to_move();
    let mine = side_terms(&g, pos.men(us), us);
    let theirs = side_terms(&g, pos.men(!us), !us);
    let mut score = mine.score - theirs.score + TEMPO;
    match (mine.runner, theirs.runner) {
        (Some(a), Some(b)) => {
            // We move first: we arrive first when our runner needs no more turns.
            score += if a <= b { RACE_WON } else { -RACE_WON };
        }
        (Some(_), None) => score += RACE_WON / 2,
        (None, Some(_)) => score -= RACE_WON / 2,
        (None, None) => {}
    }
    score
}
