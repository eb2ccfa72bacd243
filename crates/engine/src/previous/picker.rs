//! The staged move picker: hands out the moves of a node best first, doing only the work
//! each stage needs, so that a cutoff by the table move costs no ordering at all.
//!
//! Stages: the table move; the tactical moves that do not lose material (by the game's
//! [`crate::previous::PreviousVariant::previous_order_hint`], e.g. most valuable victim first); the two killer
//! moves, then the countermove where the search gives one (handed out as
//! [`Stage::Killer`], so never reduced or pruned); the quiet moves by history; last the tactical moves that lose material by static
//! exchange (only when SEE is on; otherwise every tactical move is "good"). The moves stay
//! in the node's own buffer ([`super::worker::Frame`]); the picker reorders them in place
//! and returns indices.

use crate::previous::PreviousVariant;
use crate::previous::tt::move_hash;

/// Where a picked move came from (the search treats the stages differently: only quiet
/// and losing tactical moves are reduced or pruned).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The transposition table's move.
    Table,
    /// A tactical move that does not lose material.
    GoodTactical,
    /// A killer move (a quiet move that cut off at this ply before), or the countermove.
    Killer,
    /// Any other quiet move.
    Quiet,
    /// A tactical move that loses material by static exchange.
    BadTactical,
}

/// Added to the ordering score of a losing tactical move: below every good one (order hints
/// are 0 to 100,000).
const BAD: i32 = -1_000_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Init,
    Tactical,
    Killers,
    Quiet,
    Bad,
}

/// The picker of one node. `moves` and `scores` are the node's buffers; the picker owns
/// their order until the node ends.
pub struct Picker {
    phase: Phase,
    last: Stage,
    tt_mv: u32,
    /// Tactical moves live in `[tactical_next, tactical_end)`, unpicked.
    tactical_next: usize,
    tactical_end: usize,
    /// Quiet moves live in `[quiet_next, len)`, unpicked.
    quiet_next: usize,
    killer_index: usize,
    see: bool,
    /// Quiescence: every given move is ordered by its hint; with `see` the losing
    /// tactical ones are never handed out.
    quiescence: bool,
}

impl Picker {
    /// A picker for a full-width node: `tt_mv` is the table move's hash (0 for none);
    /// with `see` losing tactical moves come last.
    pub fn new(tt_mv: u32, see: bool) -> Picker {
        Picker {
            phase: Phase::Init,
            last: Stage::Table,
            tt_mv,
            tactical_next: 0,
            tactical_end: 0,
            quiet_next: 0,
            killer_index: 0,
            see,
            quiescence: false,
        }
    }

    /// A picker for quiescence: every move given, by order hint; with `see` the tactical
    /// moves that lose material are skipped.
    pub fn quiescence(see: bool) -> Picker {
        Picker {
            quiescence: true,
            ..Picker::new(0, see)
        }
    }

    /// The stage of the move returned last.
    pub fn stage(&self) -> Stage {
        self.last
    }

    /// The index in `moves` of the next move to search, or `None` when all were handed
    /// out. `killers` are this ply's killer moves (and countermove), tried in that order
    /// where they are legal quiet moves; `history(mv)` scores a quiet move.
    pub fn next<V: PreviousVariant>(
        &mut self,
        pos: &V::Position,
        moves: &mut [V::Move],
        scores: &mut Vec<i32>,
        killers: &[Option<V::Move>],
        history: impl Fn(&V::Move) -> i32,
    ) -> Option<usize> {
        loop {
            match self.phase {
                Phase::Init => {
                    scores.clear();
                    scores.resize(moves.len(), 0);
                    let mut start = 0;
                    let found = if self.tt_mv != 0 {
                        moves.iter().position(|m| move_hash(m) == self.tt_mv)
                    } else {
                        None
                    };
                    if let Some(i) = found {
                        moves.swap(0, i);
                        start = 1;
                    }
                    self.partition::<V>(pos, moves, scores, start);
                    self.phase = Phase::Tactical;
                    if found.is_some() {
                        self.last = Stage::Table;
                        return Some(0);
                    }
                }
                Phase::Tactical => {
                    if let Some(i) = best_in(scores, self.tactical_next, self.tactical_end)
                        && scores[i] >= 0
                    {
                        self.last = Stage::GoodTactical;
                        return Some(self.take_tactical(moves, scores, i));
                    }
                    self.phase = if self.quiescence {
                        Phase::Bad
                    } else {
                        Phase::Killers
                    };
                }
                Phase::Killers => {
                    while self.killer_index < killers.len() {
                        let k = killers[self.killer_index].as_ref();
                        self.killer_index += 1;
                        let Some(k) = k else { continue };
                        if let Some(i) = (self.quiet_next..moves.len()).find(|&i| &moves[i] == k) {
                            moves.swap(self.quiet_next, i);
                            self.quiet_next += 1;
                            self.last = Stage::Killer;
                            return Some(self.quiet_next - 1);
                        }
                    }
                    for i in self.quiet_next..moves.len() {
                        scores[i] = history(&moves[i]);
                    }
                    self.phase = Phase::Quiet;
                }
                Phase::Quiet => {
                    if let Some(i) = best_in(scores, self.quiet_next, moves.len()) {
                        moves.swap(self.quiet_next, i);
                        scores.swap(self.quiet_next, i);
                        self.quiet_next += 1;
                        self.last = Stage::Quiet;
                        return Some(self.quiet_next - 1);
                    }
                    self.phase = Phase::Bad;
                }
                Phase::Bad => {
                    if self.quiescence && self.see {
                        return None;
                    }
                    let i = best_in(scores, self.tactical_next, self.tactical_end)?;
                    self.last = Stage::BadTactical;
                    return Some(self.take_tactical(moves, scores, i));
                }
            }
        }
    }

    fn take_tactical<M>(&mut self, moves: &mut [M], scores: &mut [i32], i: usize) -> usize {
        moves.swap(self.tactical_next, i);
        scores.swap(self.tactical_next, i);
        self.tactical_next += 1;
        self.tactical_next - 1
    }

    /// Moves the tactical moves of `moves[start..]` to its front and scores them (all
    /// moves in quiescence); the quiet ones follow.
    fn partition<V: PreviousVariant>(
        &mut self,
        pos: &V::Position,
        moves: &mut [V::Move],
        scores: &mut [i32],
        start: usize,
    ) {
        let mut end = start;
        for i in start..moves.len() {
            let tactical = V::is_tactical(pos, &moves[i]);
            if !(tactical || self.quiescence) {
                continue;
            }
            let mut s = V::previous_order_hint(pos, &moves[i]);
            if self.see && tactical && !V::previous_see_ge(pos, &moves[i], 0) {
                s += BAD;
            }
            moves.swap(end, i);
            scores[end] = s;
            end += 1;
        }
        self.tactical_next = start;
        self.tactical_end = end;
        self.quiet_next = end;
    }
}

/// Index of the highest score in `scores[from..to]` (the first among equals), if any.
fn best_in(scores: &[i32], from: usize, to: usize) -> Option<usize> {
    let mut best: Option<usize> = None;
    for i in from..to {
        if best.is_none_or(|b| scores[i] > scores[b]) {
            best = Some(i);
        }
    }
    best
}
