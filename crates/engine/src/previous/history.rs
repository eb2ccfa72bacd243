//! What a search thread learns about quiet moves while it searches: the history table (by
//! side, origin and destination square) and the countermove table (the quiet move that last
//! refuted a move, by that move's squares). Both order the quiet moves of
//! [`crate::previous::picker::Picker`]; history also scales late-move reductions (`hlmr`).

use crate::previous::options::{self as opt, SearchOptions};

/// Without the history malus: the cap of a counter (below the killers' place in the old
/// ordering).
const HISTORY_MAX: i32 = 900_000;
/// With the history malus: the bound that history gravity keeps every counter within.
const HISTORY_GRAVITY: i32 = 16_384;
/// With the history malus: a cutoff at depth `d` is worth `min(BONUS_PER_PLY2 * d²,
/// BONUS_MAX)`.
const BONUS_PER_PLY2: i32 = 32;
/// See [`BONUS_PER_PLY2`].
const BONUS_MAX: i32 = 2_048;

/// The history and countermove tables of one thread; `M` is the game's move.
pub(crate) struct History<M> {
    /// Counters by `(side * 64 + from) * 64 + to`.
    butterfly: Vec<i32>,
    /// Countermoves by the same index, of the previous move's squares and the side to reply.
    counters: Vec<Option<M>>,
}

/// Index of (`side`, `from`, `to`) in both tables.
fn index(side: usize, (from, to): (u8, u8)) -> usize {
    ((side & 1) * 64 + (from as usize & 63)) * 64 + (to as usize & 63)
}

/// Adds `bonus` to a counter, pulled towards 0 by how close it already is to
/// [`HISTORY_GRAVITY`], so that it stays within ±`HISTORY_GRAVITY`.
fn gravity(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_GRAVITY;
}

impl<M: Clone + PartialEq> History<M> {
    pub(crate) fn new() -> Self {
        History {
            butterfly: vec![0; 2 * 64 * 64],
            counters: vec![None; 2 * 64 * 64],
        }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.butterfly.iter_mut().for_each(|h| *h = 0);
        self.counters.iter_mut().for_each(|c| *c = None);
    }

    /// Between two searches: old history still says something, but should not dominate
    /// the new search.
    pub(crate) fn age(&mut self) {
        self.butterfly.iter_mut().for_each(|h| *h /= 8);
    }

    /// The counter of the move with squares `squares` for `side`.
    pub(crate) fn score(&self, side: usize, squares: (u8, u8)) -> i32 {
        self.butterfly[index(side, squares)]
    }

    /// The countermove of `side` to the previous move `prev` (its squares), if any.
    pub(crate) fn counter(&self, side: usize, prev: (u8, u8)) -> Option<M> {
        self.counters[index(side, prev)].clone()
    }

    /// The quiet move `mv` (with its squares) of `side` cut off at `depth` after the move
    /// `prev`: it becomes the countermove of `prev` (with `cmove`) and gains history; with
    /// `hmalus` the other quiet moves tried before it (`tried`, squares) lose as much.
    pub(crate) fn reward(
        &mut self,
        options: &SearchOptions,
        side: usize,
        prev: Option<(u8, u8)>,
        (mv, squares): (&M, (u8, u8)),
        tried: &[(u8, u8)],
        depth: i32,
    ) {
        if options.countermove
            && let Some(prev) = prev
        {
            self.counters[index(side, prev)] = Some(mv.clone());
        }
        if !options.history_malus {
            let h = &mut self.butterfly[index(side, squares)];
            *h = (*h + depth * depth).min(HISTORY_MAX);
            return;
        }
        let bonus = (BONUS_PER_PLY2 * depth * depth).min(BONUS_MAX);
        for &t in tried {
            if t != squares {
                gravity(&mut self.butterfly[index(side, t)], -bonus);
            }
        }
        gravity(&mut self.butterfly[index(side, squares)], bonus);
    }

    /// With `hlmr`: the reduction `r` (> 0) of a late quiet move, less by up to
    /// [`opt::HLMR_MAX`] plies for good history and more for bad, within `0..depth`.
    pub(crate) fn adjust_reduction(
        &self,
        options: &SearchOptions,
        r: i32,
        depth: i32,
        side: usize,
        squares: (u8, u8),
    ) -> i32 {
        if !options.history_lmr || r <= 0 {
            return r;
        }
        let scale = if options.history_malus {
            HISTORY_GRAVITY
        } else {
            HISTORY_MAX
        };
        let adjust = self.score(side, squares) * opt::HLMR_MAX / scale;
        (r - adjust).clamp(0, (depth - 1).max(0))
    }
}
