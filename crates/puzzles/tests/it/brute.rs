//! An independent judge of puzzles: plain minimax with no table and no pruning, and the
//! puzzle rules (crate doc) applied over its values. Slow; for small positions and short
//! limits.

use game::{Outcome, Variant};

/// Win in `k` plies: `k`; loss in `k`: `-k`; neither within `depth`: 0.
pub fn value<V: Variant>(pos: &V::Position, depth: u32) -> i32 {
    if let Some(o) = V::outcome(pos) {
        return match o {
            // Never seen by the callers: they stop at the end. A lost game is a loss in 0.
            Outcome::Win { winner, .. } if winner == V::side_to_move(pos) => i32::MAX,
            Outcome::Win { .. } => -1_000,
            _ => 0,
        };
    }
    if depth == 0 {
        return 0;
    }
    let mut best: Option<i32> = None;
    for mv in V::legal_moves(pos) {
        let child = V::play_unchecked(pos, &mv);
        let v = match V::outcome(&child) {
            Some(Outcome::Win { winner, .. }) if winner == V::side_to_move(pos) => 1,
            Some(Outcome::Win { .. }) => -1,
            Some(_) => 0,
            None => match value::<V>(&child, depth - 1) {
                k if k < 0 => -k + 1,
                k if k > 0 => -(k + 1),
                _ => 0,
            },
        };
        best = Some(match best {
            None => v,
            Some(b) => better(b, v),
        });
    }
    best.unwrap_or(0)
}

/// The better value for the side to move: a shorter win, then no result, then a longer loss.
fn better(a: i32, b: i32) -> i32 {
    let rank = |v: i32| -> (i32, i32) {
        match v {
            v if v > 0 => (2, -v),
            0 => (1, 0),
            v => (0, -v),
        }
    };
    if rank(b) > rank(a) { b } else { a }
}

/// The brute force's verdict on `pos` as a puzzle within `max_plies`: `Ok(plies)` or the
/// name of the rule that rejects it (`Reject::name`).
pub fn verdict<V: Variant>(pos: &V::Position, max_plies: u32) -> Result<u32, &'static str> {
    if V::outcome(pos).is_some() {
        return Err("game_over");
    }
    let r = value::<V>(pos, max_plies);
    if r <= 0 {
        return Err("no_forced_win");
    }
    if V::legal_moves(pos).len() == 1 {
        return Err("only_legal_move");
    }
    winner::<V>(pos, r as u32)?;
    Ok(r as u32)
}

fn winner<V: Variant>(pos: &V::Position, left: u32) -> Result<(), &'static str> {
    let me = V::side_to_move(pos);
    let mut wins = Vec::new();
    for mv in V::legal_moves(pos) {
        let child = V::play_unchecked(pos, &mv);
        let within = match V::outcome(&child) {
            Some(Outcome::Win { winner, .. }) => winner == me,
            Some(_) => false,
            None => {
                let v = value::<V>(&child, left - 1);
                v < 0 && (-v as u32) < left
            }
        };
        if within {
            wins.push(child);
        }
    }
    if wins.len() != 1 {
        return Err("second_winning_move");
    }
    let child = wins.pop().expect("one");
    if V::outcome(&child).is_some() {
        return Ok(());
    }
    // Every defence that lasts longest.
    let mut longest = Vec::new();
    let mut best = 0;
    for mv in V::legal_moves(&child) {
        let grand = V::play_unchecked(&child, &mv);
        let lasts = match V::outcome(&grand) {
            Some(_) => 1,
            None => value::<V>(&grand, left - 2) as u32 + 1,
        };
        if lasts > best {
            best = lasts;
            longest.clear();
        }
        if lasts == best {
            longest.push(grand);
        }
    }
    for grand in longest {
        if V::outcome(&grand).is_none() {
            winner::<V>(&grand, best - 1)?;
        }
    }
    Ok(())
}

/// Whether the side to move in `pos` forces a win within `depth` plies: an AND-OR search
/// with no table (a winner's node stops at its first winning move, a defender's at its
/// first escape). Cheaper than [`value`] on full boards, as independent.
pub fn wins_within<V: Variant>(pos: &V::Position, depth: u32) -> bool {
    if depth == 0 || V::outcome(pos).is_some() {
        return false;
    }
    let me = V::side_to_move(pos);
    V::legal_moves(pos).iter().any(|mv| {
        let child = V::play_unchecked(pos, mv);
        match V::outcome(&child) {
            Some(Outcome::Win { winner, .. }) => winner == me,
            Some(_) => false,
            None => loses_within::<V>(&child, depth - 1),
        }
    })
}

/// Whether the side to move in `pos` (the game going on) loses within `depth` plies
/// whatever it plays.
pub fn loses_within<V: Variant>(pos: &V::Position, depth: u32) -> bool {
    if depth < 2 {
        // Only a move of its own could end it so soon: Ice Age Chess's self-freezing,
        // which `confirm_line` meets as a game end.
        return false;
    }
    let me = V::side_to_move(pos);
    let moves = V::legal_moves(pos);
    !moves.is_empty()
        && moves.iter().all(|mv| {
            let child = V::play_unchecked(pos, mv);
            match V::outcome(&child) {
                Some(Outcome::Win { winner, .. }) => winner != me,
                Some(_) => false,
                None => wins_within::<V>(&child, depth - 1),
            }
        })
}

/// Confirms a puzzle's `line` from `start` with [`wins_within`] alone: from each winner's
/// position on the line the win takes exactly the plies left (within them, not within one
/// fewer), the line's move wins within them and every other move does not; each defence
/// of the line resists longest (after it the win still takes exactly the plies left, so
/// no defence lasts longer and it is not shorter); the line ends with the winner's win.
pub fn confirm_line<V: Variant>(start: &V::Position, line: &[V::Move]) -> Result<(), String> {
    let winner = V::side_to_move(start);
    let mut pos = start.clone();
    for (i, mv) in line.iter().enumerate() {
        let left = (line.len() - i) as u32;
        let text = V::move_text(&pos, mv);
        if i % 2 == 0 {
            if !wins_within::<V>(&pos, left) || wins_within::<V>(&pos, left - 1) {
                return Err(format!(
                    "ply {i}: the win does not take exactly {left} plies"
                ));
            }
            for other in V::legal_moves(&pos) {
                let child = V::play_unchecked(&pos, &other);
                let wins = match V::outcome(&child) {
                    Some(Outcome::Win { winner: w, .. }) => w == winner,
                    Some(_) => false,
                    None => loses_within::<V>(&child, left - 1),
                };
                if wins != (other == *mv) {
                    let o = V::move_text(&pos, &other);
                    return Err(format!("ply {i}: {o} wins: {wins}; the line plays {text}"));
                }
            }
        } else {
            let child = V::play_unchecked(&pos, mv);
            let exact = match V::outcome(&child) {
                Some(Outcome::Win { winner: w, .. }) => w == winner && left == 1,
                Some(_) => false,
                None => wins_within::<V>(&child, left - 1) && !wins_within::<V>(&child, left - 2),
            };
            if !exact {
                return Err(format!(
                    "ply {i}: the defence {text} does not last {left} plies"
                ));
            }
        }
        pos = V::play(&pos, mv).map_err(|e| format!("ply {i}: {text}: {e}"))?;
    }
    match V::outcome(&pos) {
        Some(Outcome::Win { winner: w, .. }) if w == winner => Ok(()),
        _ => Err("the line does not end with the winner's win".to_string()),
    }
}
