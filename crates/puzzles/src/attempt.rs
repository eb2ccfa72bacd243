//! A player's attempt at a puzzle, judged (issue 39): the winner's moves must be the line's,
//! and a defence other than the line's is accepted where it resists as long.
//!
//! While the attempt follows the stored line, no proof is needed: [`crate::check`] kept the
//! puzzle only because each of the winner's moves on it is the only one that wins within the
//! plies left. After a different defence the stored moves no longer apply, and the solver
//! proves each of the winner's moves (and each later defence) again.

use engine::clock::Instant;
use engine::solve::{Proof, Prover};
use game::{Outcome, Variant};

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Every winner's move was right and the game ended with the winner's win.
    Solved,
    /// The winner's move at `ply` (0: the first move) does not win within the plies left;
    /// moves after it are not judged.
    Failed {
        /// The ply of the first wrong move, counted from the puzzle's position.
        ply: u32,
    },
}

/// Why an attempt cannot be judged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttemptError {
    /// No moves.
    #[error("the attempt has no moves")]
    Empty,
    /// A move text that is no legal move where it stands.
    #[error("move {} ('{text}'): {message}", ply + 1)]
    Illegal {
        /// Its ply, from 0.
        ply: u32,
        /// The text as sent.
        text: String,
        /// Why it is not a legal move.
        message: String,
    },
    /// A move after the end of the game or of the puzzle's line.
    #[error("move {}: the puzzle is over before it", ply + 1)]
    AfterEnd {
        /// Its ply, from 0.
        ply: u32,
    },
    /// Every winner's move was right but the attempt stops before the end of the game.
    #[error("the attempt stops after {plies} plies, before the end of the puzzle")]
    Incomplete {
        /// Plies sent.
        plies: u32,
    },
    /// A defence that loses sooner than the longest resistance.
    #[error("move {}: this defence loses sooner than the best one; play a defence that resists longest", ply + 1)]
    WeakDefence {
        /// Its ply, from 0.
        ply: u32,
    },
    /// After this defence the solver finds no win: the puzzle's proof does not hold.
    #[error("move {}: no win is found after this defence; the puzzle is at fault", ply + 1)]
    Escapes {
        /// Its ply, from 0.
        ply: u32,
    },
    /// The proof of a move off the stored line ran out of time.
    #[error("the attempt's proof ran out of time")]
    OutOfTime,
}

/// Parses the attempt's move texts (the game's canonical text, or any text its
/// [`Variant::parse_move`] takes) from `start`, one after the other.
///
/// # Errors
/// [`AttemptError::Illegal`] for the first text that is no legal move where it stands,
/// [`AttemptError::AfterEnd`] for a text after the end of the game.
pub fn parse_moves<V: Variant>(
    start: &V::Position,
    texts: &[String],
) -> Result<Vec<V::Move>, AttemptError> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let ply = i as u32;
        if V::outcome(&pos).is_some() {
            return Err(AttemptError::AfterEnd { ply });
        }
        let mv = V::parse_move(&pos, text).map_err(|e| AttemptError::Illegal {
            ply,
            text: text.clone(),
            message: e.to_string(),
        })?;
        pos = V::play_unchecked(&pos, &mv);
        moves.push(mv);
    }
    Ok(moves)
}

/// Plies in which `side` wins from `pos`, proven within `max_plies`; `None` when no such
/// win is proven.
fn wins_in<V: Variant>(
    prover: &mut Prover<V>,
    pos: &V::Position,
    side: game::Color,
    max_plies: u32,
    deadline: Option<Instant>,
) -> Result<Option<u32>, AttemptError> {
    if let Some(outcome) = V::outcome(pos) {
        return Ok(match outcome {
            Outcome::Win { winner, .. } if winner == side => Some(0),
            _ => None,
        });
    }
    if max_plies == 0 {
        return Ok(None);
    }
    let to_move = V::side_to_move(pos) == side;
    let found = prover.solve(pos, max_plies, deadline);
    match found.proof {
        Proof::Win { plies, .. } if to_move => Ok(Some(plies)),
        Proof::Loss { plies, .. } if !to_move => Ok(Some(plies)),
        _ if found.stopped => Err(AttemptError::OutOfTime),
        _ => Ok(None),
    }
}

/// Judges `attempt` (both sides' moves from `start`, as [`parse_moves`] reads them) against
/// the puzzle's `line` (see the module doc). Moves after the first wrong winner's move are
/// not judged.
///
/// # Errors
/// [`AttemptError`]: an empty attempt, a move after the end, a weak defence, an incomplete
/// attempt, or a proof out of time.
pub fn judge<V: Variant>(
    prover: &mut Prover<V>,
    start: &V::Position,
    line: &[V::Move],
    attempt: &[V::Move],
    deadline: Option<Instant>,
) -> Result<Verdict, AttemptError> {
    if attempt.is_empty() {
        return Err(AttemptError::Empty);
    }
    let winner = V::side_to_move(start);
    let mut pos = start.clone();
    let mut on_line = true;
    for (i, mv) in attempt.iter().enumerate() {
        let ply = i as u32;
        if i >= line.len() || V::outcome(&pos).is_some() {
            return Err(AttemptError::AfterEnd { ply });
        }
        let left = (line.len() - i) as u32;
        let next = V::play(&pos, mv).map_err(|e| AttemptError::Illegal {
            ply,
            text: V::move_text(&pos, mv),
            message: e.to_string(),
        })?;
        if i % 2 == 0 {
            let right = if on_line {
                *mv == line[i]
            } else {
                wins_in(prover, &next, winner, left - 1, deadline)?.is_some()
            };
            if !right {
                return Ok(Verdict::Failed { ply });
            }
        } else if !(on_line && *mv == line[i]) {
            match wins_in(prover, &next, winner, left - 1, deadline)? {
                Some(plies) if plies < left - 1 => return Err(AttemptError::WeakDefence { ply }),
                Some(_) => on_line = false,
                None => return Err(AttemptError::Escapes { ply }),
            }
        }
        pos = next;
    }
    match V::outcome(&pos) {
        Some(Outcome::Win { winner: w, .. }) if w == winner => Ok(Verdict::Solved),
        _ => Err(AttemptError::Incomplete {
            plies: attempt.len() as u32,
        }),
    }
}
