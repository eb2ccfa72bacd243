//! Judging a player's attempt at a puzzle (issue 39, `POST /api/puzzles/{id}/attempt`):
//! the site gets the moves both sides played from the puzzle's position and asks whether
//! they solve it.
//!
//! The rules, ply by ply from the puzzle's position (ply 0: the winner's first move):
//! - while the attempt has followed the stored line exactly, a winner's move must be the
//!   stored one (the line is unique by construction, [`crate::check`]), and the stored
//!   defence is accepted as it is;
//! - a defence other than the stored one is accepted only when it resists as long: the
//!   solver proves that the winner still wins in exactly the plies left, not fewer
//!   ([`AttemptError::WeakDefence`] otherwise);
//! - once a defence differed, the stored moves no longer apply: a winner's move must be one
//!   that the solver proves wins in exactly the plies left;
//! - the first wrong winner's move ends the attempt ([`Verdict::Failed`]); the moves after
//!   it are accepted but not judged (not even parsed for legality by [`judge`]);
//! - the attempt is [`Verdict::Solved`] when it reaches the end of the game with the
//!   winner's win.

use engine::clock::Instant;
use engine::solve::{Proof, Prover};
use game::{Outcome, Variant};

/// What an attempt achieved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The attempt reached the end of the game with the winner's win.
    Solved,
    /// The winner's move at `ply` (0-based, counted from the puzzle's position; always
    /// even) does not win in the plies left.
    Failed {
        /// The ply of the first wrong winner's move.
        ply: u32,
    },
}

/// Why an attempt cannot be judged. Plies are 0-based, counted from the puzzle's position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttemptError {
    /// The move at `ply` is not legal there (or its text does not read as a move).
    #[error("ply {ply}: '{text}' is not a legal move here{}", if reason.is_empty() { String::new() } else { format!(" ({reason})") })]
    Illegal {
        /// The ply.
        ply: u32,
        /// The move's text as given ([`parse_moves`]) or its identifier
        /// ([`Variant::move_id`], [`judge`]).
        text: String,
        /// What the rules answered; may be empty.
        reason: String,
    },
    /// The attempt has no move.
    #[error("the attempt has no move")]
    Empty,
    /// The attempt goes on after the game ended, from `ply` on.
    #[error("ply {ply}: the game is already over")]
    AfterEnd {
        /// The first ply after the end.
        ply: u32,
    },
    /// The attempt goes on beyond the line's `plies` plies (the game not over: only when
    /// the stored line itself does not end the game).
    #[error("ply {ply}: the puzzle's line has only {plies} plies")]
    TooLong {
        /// The first ply beyond the line.
        ply: u32,
        /// The line's length in plies.
        plies: u32,
    },
    /// Every winner's move was right but the attempt stops after `plies` plies, before
    /// the end of the game.
    #[error("the attempt stops after {plies} {}, before the end of the game", if *plies == 1 { "ply" } else { "plies" })]
    Incomplete {
        /// The attempt's length in plies.
        plies: u32,
    },
    /// The defence at `ply` differs from the stored one and loses sooner than the line.
    #[error("ply {ply}: the defence does not resist longest")]
    WeakDefence {
        /// The defender's ply.
        ply: u32,
    },
    /// The defence at `ply` escapes the win the puzzle claims: the stored puzzle is wrong
    /// (a defect to report, never the player's fault).
    #[error("ply {ply}: the defence escapes the puzzle's win (the stored puzzle is wrong)")]
    NotAPuzzle {
        /// The defender's ply.
        ply: u32,
    },
    /// The deadline came before a proof was done.
    #[error("the proof ran out of time")]
    OutOfTime,
}

/// Judges `attempt`, both sides' moves from `start` (the puzzle's position, the winner to
/// move), against the stored `line` (both sides' moves to the end of the game, as proven
/// by [`crate::check`] or read by [`crate::read_rows`]), with the rules of the module doc.
/// `prover` proves only where the attempt leaves the stored line; its table is kept
/// between calls. `deadline`: when a proof gives up ([`AttemptError::OutOfTime`]).
///
/// # Errors
/// [`AttemptError`]: an empty attempt, an illegal move, moves after the end or beyond the
/// line, an attempt that stops early, a weaker defence, a wrong stored line, the deadline.
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
    let plies = line.len() as u32;
    let mut pos = start.clone();
    let mut on_line = true;
    for (i, mv) in attempt.iter().enumerate() {
        let ply = i as u32;
        if V::outcome(&pos).is_some() {
            return Err(AttemptError::AfterEnd { ply });
        }
        if ply >= plies {
            return Err(AttemptError::TooLong { ply, plies });
        }
        let child = V::play(&pos, mv).map_err(|e| AttemptError::Illegal {
            ply,
            text: V::move_id(&pos, mv),
            reason: e.to_string(),
        })?;
        let left = plies - ply;
        let stored = on_line && line[i] == *mv;
        if i % 2 == 0 {
            // The winner's move.
            let right = if on_line {
                stored
            } else {
                wins_in_exactly::<V>(prover, &child, winner, left, deadline)?
            };
            if !right {
                return Ok(Verdict::Failed { ply });
            }
        } else if !stored {
            // A defence of the defender's own: it must resist as long as the line.
            match lasts::<V>(prover, &child, winner, left, deadline)? {
                Some(n) if n == left => {}
                Some(_) => return Err(AttemptError::WeakDefence { ply }),
                None => return Err(AttemptError::NotAPuzzle { ply }),
            }
            on_line = false;
        }
        pos = child;
    }
    match V::outcome(&pos) {
        Some(Outcome::Win { winner: w, .. }) if w == winner => Ok(Verdict::Solved),
        // A defence that ends the game otherwise was checked to lose as long: unreachable
        // for a right puzzle.
        Some(_) => Err(AttemptError::NotAPuzzle {
            ply: attempt.len() as u32 - 1,
        }),
        None => Err(AttemptError::Incomplete {
            plies: attempt.len() as u32,
        }),
    }
}

/// Whether the winner's move that led to `child` wins in exactly `left` plies (that move
/// included).
fn wins_in_exactly<V: Variant>(
    prover: &mut Prover<V>,
    child: &V::Position,
    winner: game::Color,
    left: u32,
    deadline: Option<Instant>,
) -> Result<bool, AttemptError> {
    Ok(lasts::<V>(prover, child, winner, left, deadline)? == Some(left))
}

/// How many plies the game lasts from the move that led to `child` (that move included)
/// under best play, when the winner wins within `left` plies; `None` when it does not.
fn lasts<V: Variant>(
    prover: &mut Prover<V>,
    child: &V::Position,
    winner: game::Color,
    left: u32,
    deadline: Option<Instant>,
) -> Result<Option<u32>, AttemptError> {
    match V::outcome(child) {
        Some(Outcome::Win { winner: w, .. }) if w == winner => return Ok(Some(1)),
        Some(_) => return Ok(None),
        None if left < 2 => return Ok(None),
        None => {}
    }
    let s = prover.solve(child, left - 1, deadline);
    if s.stopped {
        return Err(AttemptError::OutOfTime);
    }
    let to_move_is_winner = V::side_to_move(child) == winner;
    Ok(match s.proof {
        Proof::Win { plies, .. } if to_move_is_winner => Some(plies + 1),
        Proof::Loss { plies, .. } if !to_move_is_winner => Some(plies + 1),
        _ => None,
    })
}

/// Reads `texts`, canonical move texts ([`Variant::move_text`]) played one after another
/// from `start`, as moves.
///
/// # Errors
/// [`AttemptError::Illegal`] naming the ply and the text that does not read as a legal
/// move there; [`AttemptError::AfterEnd`] for a text after the end of the game. An empty
/// list is no error here ([`judge`] says so).
pub fn parse_moves<V: Variant>(
    start: &V::Position,
    texts: &[String],
) -> Result<Vec<V::Move>, AttemptError> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let ply = i as u32;
        if V::outcome(&pos).is_some() {
            return Err(AttemptError::AfterEnd { ply });
        }
        let illegal = |reason: String| AttemptError::Illegal {
            ply,
            text: text.clone(),
            reason,
        };
        let mv = V::parse_move(&pos, text).map_err(|e| illegal(with_hint::<V>(&pos, e)))?;
        pos = V::play(&pos, &mv).map_err(|e| illegal(with_hint::<V>(&pos, e)))?;
        out.push(mv);
    }
    Ok(out)
}

/// The rules' answer about a move text, with the legal moves where it does not list them
/// already (both games' players get the same help).
fn with_hint<V: Variant>(pos: &V::Position, e: impl std::fmt::Display) -> String {
    let reason = e.to_string();
    if reason.contains("legal here") {
        reason
    } else {
        format!("{reason}; {}", game::legal_moves_hint::<V>(pos))
    }
}

/// [`judge`] over move texts as a player sends them ([`parse_moves`]): the texts after the
/// first wrong winner's move are not judged, so a text there that does not read as a legal
/// move is no error (the module doc). An unreadable text before it, or in an attempt that
/// has no wrong move, is the [`parse_moves`] error.
///
/// # Errors
/// Those of [`parse_moves`] and [`judge`].
pub fn judge_texts<V: Variant>(
    prover: &mut Prover<V>,
    start: &V::Position,
    line: &[V::Move],
    texts: &[String],
    deadline: Option<Instant>,
) -> Result<Verdict, AttemptError> {
    let unreadable = match parse_moves::<V>(start, texts) {
        Ok(attempt) => return judge(prover, start, line, &attempt, deadline),
        Err(e) => e,
    };
    let read = match unreadable {
        AttemptError::Illegal { ply, .. } | AttemptError::AfterEnd { ply } => ply as usize,
        _ => 0,
    };
    if read == 0 {
        return Err(unreadable);
    }
    // The prefix that reads is judged; only a wrong move inside it excuses the rest.
    let prefix = parse_moves::<V>(start, &texts[..read])?;
    match judge(prover, start, line, &prefix, deadline) {
        Ok(Verdict::Failed { ply }) => Ok(Verdict::Failed { ply }),
        Ok(Verdict::Solved) | Err(AttemptError::Incomplete { .. }) => Err(unreadable),
        Err(e) => Err(e),
    }
}
