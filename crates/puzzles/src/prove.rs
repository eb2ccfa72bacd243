//! The proof that a position is a puzzle (see the crate doc): the solver's win, then a walk
//! down the line that proves every other move of the winner fails to win within the plies
//! left, and follows every defence that resists longest.

use std::fmt;

use engine::clock::Instant;
use engine::solve::{Proof, Prover};
use game::{Outcome, Variant};

/// How far and how long a proof may go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// The longest win searched, in plies (both sides' moves, to the end of the game).
    pub max_plies: u32,
    /// When the proof gives up ([`Reject::OutOfTime`]); `None`: never.
    pub deadline: Option<Instant>,
}

/// A position proven to be a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proven<V: Variant> {
    /// Both sides' moves from the puzzle's position to the end of the game: the winner's
    /// only winning moves and, where several defences resist longest, the first of them in
    /// the order the rules generate moves.
    pub line: Vec<V::Move>,
    /// Defender positions along every line followed where more than one move resists
    /// longest (each was checked as the line is).
    pub defence_choices: u32,
    /// Positions the solver visited for the whole proof.
    pub nodes: u64,
}

impl<V: Variant> Proven<V> {
    /// Plies of the line.
    pub fn plies(&self) -> u32 {
        self.line.len() as u32
    }

    /// Moves of the winning side: the puzzle's length (1 to 8).
    pub fn moves(&self) -> u32 {
        self.plies().div_ceil(2)
    }
}

/// Why a position is not a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reject {
    /// The game is over in the position.
    GameOver,
    /// The side to move has no win the solver proves within the limit.
    NoForcedWin,
    /// The deadline came before the proof was done.
    OutOfTime,
    /// The side to move has one legal move: nothing to find.
    OnlyLegalMove,
    /// At ply `ply` of the line (0: the first move) the winner has more than one move that
    /// wins within the plies left.
    SecondWinningMove {
        /// The ply, counted from the puzzle's position.
        ply: u32,
    },
    /// The solver contradicted itself (a win that a defence escapes): a defect to report,
    /// never a puzzle.
    Inconsistent {
        /// The ply, counted from the puzzle's position.
        ply: u32,
    },
}

impl Reject {
    /// The reason's name in summaries: `game_over`, `no_forced_win`, `out_of_time`,
    /// `only_legal_move`, `second_winning_move`, `inconsistent`.
    pub fn name(self) -> &'static str {
        match self {
            Reject::GameOver => "game_over",
            Reject::NoForcedWin => "no_forced_win",
            Reject::OutOfTime => "out_of_time",
            Reject::OnlyLegalMove => "only_legal_move",
            Reject::SecondWinningMove { .. } => "second_winning_move",
            Reject::Inconsistent { .. } => "inconsistent",
        }
    }
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reject::GameOver => write!(f, "the game is over"),
            Reject::NoForcedWin => write!(f, "no forced win within the limit"),
            Reject::OutOfTime => write!(f, "the proof ran out of time"),
            Reject::OnlyLegalMove => write!(f, "the first move is the only legal move"),
            Reject::SecondWinningMove { ply } => {
                write!(f, "a second move wins at ply {}", ply + 1)
            }
            Reject::Inconsistent { ply } => {
                write!(f, "the solver contradicted itself at ply {}", ply + 1)
            }
        }
    }
}

/// Proves that the side to move in `start` has a puzzle (see the crate doc), on `prover`'s
/// table (kept between calls: entries stay exact). The shortest win is the puzzle's length.
///
/// # Errors
/// [`Reject`] says why `start` is no puzzle.
pub fn check<V: Variant>(
    prover: &mut Prover<V>,
    start: &V::Position,
    limits: &Limits,
) -> Result<Proven<V>, Reject> {
    if V::outcome(start).is_some() {
        return Err(Reject::GameOver);
    }
    let first = V::legal_moves(start);
    if first.is_empty() {
        return Err(Reject::GameOver);
    }
    let nodes = prover.nodes();
    let solution = prover.solve(start, limits.max_plies, limits.deadline);
    let plies = match solution.proof {
        Proof::Win { plies, .. } => plies,
        _ if solution.stopped => return Err(Reject::OutOfTime),
        _ => return Err(Reject::NoForcedWin),
    };
    if first.len() == 1 {
        return Err(Reject::OnlyLegalMove);
    }
    let mut walk = Walk {
        prover,
        deadline: limits.deadline,
        line: Vec::new(),
        defence_choices: 0,
    };
    walk.winner(start, plies, 0, true)?;
    let Walk {
        line,
        defence_choices,
        prover,
        ..
    } = walk;
    Ok(Proven {
        line,
        defence_choices,
        nodes: prover.nodes() - nodes,
    })
}

struct Walk<'a, V: Variant> {
    prover: &'a mut Prover<V>,
    deadline: Option<Instant>,
    line: Vec<V::Move>,
    defence_choices: u32,
}

impl<V: Variant> Walk<'_, V> {
    /// The result within `plies` plies of the side to move in `pos` (not over).
    fn prove(&mut self, pos: &V::Position, plies: u32) -> Result<Proof<V>, Reject> {
        let s = self.prover.solve(pos, plies, self.deadline);
        if s.stopped {
            return Err(Reject::OutOfTime);
        }
        Ok(s.proof)
    }

    /// The winner is to move in `pos` and wins in exactly `left` plies: exactly one move
    /// may win within them. `record`: this is the stored line.
    fn winner(
        &mut self,
        pos: &V::Position,
        left: u32,
        ply: u32,
        record: bool,
    ) -> Result<(), Reject> {
        let me = V::side_to_move(pos);
        let mut found: Option<(V::Move, V::Position, u32)> = None;
        for mv in V::legal_moves(pos) {
            let child = V::play_unchecked(pos, &mv);
            let wins_in = match V::outcome(&child) {
                Some(Outcome::Win { winner, .. }) if winner == me => Some(1),
                Some(_) => None,
                None if left >= 2 => match self.prove(&child, left - 1)? {
                    Proof::Loss { plies, .. } if plies < left => Some(plies + 1),
                    _ => None,
                },
                None => None,
            };
            if let Some(k) = wins_in {
                if found.is_some() {
                    return Err(Reject::SecondWinningMove { ply });
                }
                found = Some((mv, child, k));
            }
        }
        let Some((mv, child, k)) = found else {
            return Err(Reject::Inconsistent { ply });
        };
        if k != left {
            return Err(Reject::Inconsistent { ply });
        }
        if record {
            self.line.push(mv);
        }
        if V::outcome(&child).is_some() {
            return Ok(());
        }
        self.defender(&child, left - 1, ply + 1, record)
    }

    /// The defender is to move in `pos` and loses in exactly `left` plies: every move that
    /// resists that long is followed.
    fn defender(
        &mut self,
        pos: &V::Position,
        left: u32,
        ply: u32,
        record: bool,
    ) -> Result<(), Reject> {
        let me = V::side_to_move(pos);
        let mut longest: Vec<(V::Move, V::Position)> = Vec::new();
        let mut best = 0;
        for mv in V::legal_moves(pos) {
            let child = V::play_unchecked(pos, &mv);
            let lasts = match V::outcome(&child) {
                // The defender's own move ends the game against it (Ice Age Chess: its
                // king frozen by the Ice Age its move brought).
                Some(Outcome::Win { winner, .. }) if winner != me => 1,
                Some(_) => return Err(Reject::Inconsistent { ply }),
                None if left >= 2 => match self.prove(&child, left - 1)? {
                    Proof::Win { plies, .. } if plies < left => plies + 1,
                    _ => return Err(Reject::Inconsistent { ply }),
                },
                None => return Err(Reject::Inconsistent { ply }),
            };
            if lasts > best {
                best = lasts;
                longest.clear();
            }
            if lasts == best {
                longest.push((mv, child));
            }
        }
        if best != left {
            return Err(Reject::Inconsistent { ply });
        }
        if longest.len() > 1 {
            self.defence_choices += 1;
        }
        for (i, (mv, child)) in longest.into_iter().enumerate() {
            let record = record && i == 0;
            if record {
                self.line.push(mv);
            }
            if V::outcome(&child).is_none() {
                self.winner(&child, left - 1, ply + 1, record)?;
            }
        }
        Ok(())
    }
}

/// What is wrong with a stored line, at which ply (0: the first move).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("ply {}: {message}", ply + 1)]
pub struct LineFault {
    /// The ply, counted from the puzzle's position.
    pub ply: u32,
    /// What is wrong.
    pub message: String,
}

/// Proves a stored puzzle again, move by move: from each position of `line` where the
/// winner is to move, [`check`] must prove a win of exactly the plies left whose first
/// move is the line's; each defender move of the line must resist that long (the next
/// winner's position is again a win of exactly the plies left). The whole line must end
/// the game.
///
/// # Errors
/// The first [`LineFault`]; [`Reject::OutOfTime`] is one too.
pub fn verify_line<V: Variant>(
    prover: &mut Prover<V>,
    start: &V::Position,
    line: &[V::Move],
    deadline: Option<Instant>,
) -> Result<(), LineFault> {
    let mut pos = start.clone();
    for (i, mv) in line.iter().enumerate() {
        let ply = i as u32;
        let left = (line.len() - i) as u32;
        if i % 2 == 0 {
            let limits = Limits {
                max_plies: left,
                deadline,
            };
            // The first move may not be the only legal one; later ones may.
            let (plies, first) = match check(prover, &pos, &limits) {
                Ok(p) => (p.plies(), p.line[0].clone()),
                Err(Reject::OnlyLegalMove) if i > 0 => {
                    match prover.solve(&pos, left, deadline).proof {
                        Proof::Win { plies, line } => (plies, line[0].clone()),
                        _ => {
                            return Err(LineFault {
                                ply,
                                message: "no forced win here".to_string(),
                            });
                        }
                    }
                }
                Err(e) => {
                    return Err(LineFault {
                        ply,
                        message: e.to_string(),
                    });
                }
            };
            if plies != left {
                return Err(LineFault {
                    ply,
                    message: format!(
                        "the shortest win takes {plies} plies where the line takes {left}"
                    ),
                });
            }
            if first != *mv {
                return Err(LineFault {
                    ply,
                    message: format!(
                        "{} is not the winning move ({} is)",
                        V::move_text(&pos, mv),
                        V::move_text(&pos, &first)
                    ),
                });
            }
        }
        pos = V::play(&pos, mv).map_err(|e| LineFault {
            ply,
            message: e.to_string(),
        })?;
    }
    match V::outcome(&pos) {
        Some(Outcome::Win { winner, .. }) if winner == V::side_to_move(start) => Ok(()),
        _ => Err(LineFault {
            ply: line.len() as u32,
            message: "the line does not end the game with the solver's win".to_string(),
        }),
    }
}
