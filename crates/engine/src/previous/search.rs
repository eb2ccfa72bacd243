//! The frozen search (a copy of `crate::search` of 2026-12-07): iterative deepening with
//! aspiration windows over a negamax alpha-beta with principal variation search, the frozen
//! transposition table ([`super::tt`]), the staged move picker, null-move, futility,
//! late-move and SEE pruning, late-move reductions, internal iterative reduction, check and
//! singular extensions ([`super::options`]), quiescence with table cutoffs, and Lazy SMP.
//! The limits, iterations and results are today's types ([`crate::search`]), which only
//! carry data.
//!
//! Determinism: with one thread, the same position and the same depth or node limit, a
//! fresh [`Searcher`] visits the same nodes in the same order and returns the same move.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::clock::Instant;

use game::{Outcome, Variant};

use super::options::{self, SearchOptions};
use super::worker::Worker;
use crate::previous::PreviousVariant;
use crate::previous::tt::{Table, move_hash};
use crate::score::{self, DRAW, INFINITY, WIN_BOUND};
use crate::search::{Iteration, Limits, SearchResult};

/// Deepest ply the search reaches (iterations, extensions and quiescence included).
pub const MAX_PLY: u32 = 128;
/// Most threads a search may use.
pub const MAX_THREADS: usize = 256;
/// Default transposition table size in MiB.
pub const DEFAULT_TT_MIB: usize = 16;

/// What the threads of one search share: the table, the stop signal, the node count, the
/// limits and the start time.
pub(crate) struct Shared<'a> {
    pub(crate) tt: &'a Table,
    /// Set when the search must end (a limit reached, the main thread done).
    pub(crate) stop: AtomicBool,
    /// Nodes of every thread, added in batches.
    pub(crate) nodes: AtomicU64,
    pub(crate) limits: &'a Limits,
    pub(crate) start: Instant,
    pub(crate) threads: usize,
}

/// A search engine with its table and threads; keep one per game to reuse the table and
/// the history between moves, or make a fresh one for a reproducible search.
pub struct Searcher<V: PreviousVariant> {
    tt: Arc<Table>,
    /// `workers[0]` runs on the calling thread; the others are the Lazy SMP helpers.
    workers: Vec<Worker<V>>,
    options: SearchOptions,
}

impl<V: PreviousVariant> Default for Searcher<V> {
    fn default() -> Self {
        Searcher::new(DEFAULT_TT_MIB)
    }
}

impl<V: PreviousVariant> Searcher<V> {
    /// A one-thread searcher with a transposition table of `tt_mib` MiB and the game's
    /// search options of 2026-12-07 ([`PreviousVariant::PREVIOUS_OPTIONS`]).
    pub fn new(tt_mib: usize) -> Self {
        Searcher::with_table(Arc::new(Table::new(tt_mib)), 1)
    }

    /// A searcher of `threads` threads (1 to [`MAX_THREADS`]) over `table`, which other
    /// searchers may share.
    pub fn with_table(table: Arc<Table>, threads: usize) -> Self {
        let mut s = Searcher {
            tt: table,
            workers: Vec::new(),
            options: V::PREVIOUS_OPTIONS,
        };
        s.set_threads(threads);
        s
    }

    /// Uses `threads` threads (clamped to 1..=[`MAX_THREADS`]) from the next search on.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, MAX_THREADS);
        self.workers.truncate(threads);
        while self.workers.len() < threads {
            let id = self.workers.len();
            self.workers.push(Worker::new(id, self.options));
        }
    }

    /// The number of threads a search uses.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// The shared transposition table.
    pub fn table(&self) -> &Arc<Table> {
        &self.tt
    }

    /// Forgets everything learnt (table, killers, history): the next search behaves like
    /// one of a fresh searcher.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.workers.iter_mut().for_each(Worker::clear);
    }

    /// Searches `pos` within `limits` on every thread, calling `on_iteration` (on the
    /// calling thread) after every iteration the main thread completes. With `limits.nodes`
    /// and several threads, the limit counts the nodes of all of them.
    pub fn search(
        &mut self,
        pos: &V::Position,
        limits: &Limits,
        mut on_iteration: impl FnMut(&Iteration<V>),
    ) -> SearchResult<V> {
        self.tt.new_search();
        let shared = Shared {
            tt: &self.tt,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            limits,
            start: Instant::now(),
            threads: self.workers.len(),
        };
        let moves = V::legal_moves(pos);
        let (main, helpers) = self.workers.split_first_mut().expect("at least one worker");
        if moves.is_empty() {
            return SearchResult {
                best: None,
                score: terminal_score::<V>(pos, 0),
                depth: 0,
                nodes: 0,
                elapsed: Duration::ZERO,
                pv: Vec::new(),
            };
        }
        main.begin();
        helpers.iter_mut().for_each(Worker::begin);
        let result = if helpers.is_empty() {
            iterate(main, &shared, pos, &moves, limits, &mut on_iteration)
        } else {
            std::thread::scope(|scope| {
                for helper in helpers.iter_mut() {
                    let (shared, moves) = (&shared, &moves);
                    scope.spawn(move || {
                        iterate(helper, shared, pos, moves, limits, &mut |_| {});
                    });
                }
                let r = iterate(main, &shared, pos, &moves, limits, &mut on_iteration);
                shared.stop.store(true, Ordering::Relaxed);
                r
            })
        };
        SearchResult {
            nodes: shared.nodes.load(Ordering::Relaxed),
            elapsed: shared.start.elapsed(),
            ..result
        }
    }

    /// Exact-window scores of every legal move at `depth` plies (the root move included),
    /// best first: for the lower strength levels, which pick among them with noise. When a
    /// limit stops it, only the completely searched moves are returned. One thread.
    pub fn score_moves(
        &mut self,
        pos: &V::Position,
        depth: u32,
        limits: &Limits,
    ) -> Vec<(V::Move, i32)> {
        self.tt.new_search();
        let shared = Shared {
            tt: &self.tt,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            limits,
            start: Instant::now(),
            threads: 1,
        };
        let main = &mut self.workers[0];
        main.begin();
        let mut root: Vec<(V::Move, i32)> = V::legal_moves(pos)
            .into_iter()
            .map(|m| (m, -INFINITY))
            .collect();
        order_root::<V>(&shared, pos, &mut root);
        let mut out = Vec::with_capacity(root.len());
        let depth = depth.clamp(1, MAX_PLY - 1) as i32;
        for (mv, _) in &root {
            let child = V::play_unchecked(pos, mv);
            let s = main.score_child(&shared, &child, depth);
            if main.stopped {
                break;
            }
            out.push((mv.clone(), s));
        }
        out.sort_by_key(|e| std::cmp::Reverse(e.1));
        out
    }
}

/// The root moves in their first order: table move, tactical moves by hint, the rest.
fn order_root<V: PreviousVariant>(shared: &Shared, pos: &V::Position, root: &mut [(V::Move, i32)]) {
    let tt_mv = shared.tt.probe(V::zobrist(pos)).map_or(0, |e| e.mv);
    for entry in root.iter_mut() {
        entry.1 = if tt_mv != 0 && move_hash(&entry.0) == tt_mv {
            INFINITY
        } else if V::is_tactical(pos, &entry.0) {
            WIN_BOUND + V::previous_order_hint(pos, &entry.0)
        } else {
            0
        };
    }
    root.sort_by_key(|e| std::cmp::Reverse(e.1));
}

/// Iterative deepening of one worker (the main one reports through `on_iteration`; a
/// helper's odd id searches one ply deeper than the iteration number).
fn iterate<V: PreviousVariant>(
    worker: &mut Worker<V>,
    shared: &Shared,
    pos: &V::Position,
    moves: &[V::Move],
    limits: &Limits,
    on_iteration: &mut dyn FnMut(&Iteration<V>),
) -> SearchResult<V> {
    let mut result = SearchResult {
        best: moves.first().cloned(),
        score: 0,
        depth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
        pv: Vec::new(),
    };
    let mut root: Vec<(V::Move, i32)> = moves.iter().map(|m| (m.clone(), -INFINITY)).collect();
    order_root::<V>(shared, pos, &mut root);
    if worker.id > 0 {
        // Helpers start from another order, so that they explore other subtrees first.
        let n = root.len();
        root.rotate_left(worker.id % n);
    }
    let max_depth = limits.depth.unwrap_or(MAX_PLY).clamp(1, MAX_PLY - 1);
    let mut previous: Option<i32> = None;
    for iteration in 1..=max_depth {
        let depth = (iteration + (worker.id as u32 & 1)).min(MAX_PLY - 1);
        let (score, completed_any) = aspiration(worker, shared, pos, depth, previous, &mut root);
        if worker.stopped && !completed_any {
            break;
        }
        result.best = Some(root[0].0.clone());
        result.score = score;
        result.pv = worker.root_pv().to_vec();
        if result.pv.first() != Some(&root[0].0) {
            result.pv = vec![root[0].0.clone()];
        }
        if worker.stopped {
            break;
        }
        previous = Some(score);
        result.depth = depth;
        if worker.id == 0 {
            worker.flush(shared);
            let it = Iteration {
                depth,
                score,
                nodes: shared.nodes.load(Ordering::Relaxed),
                elapsed: shared.start.elapsed(),
                pv: result.pv.clone(),
            };
            on_iteration(&it);
        }
        // A proven result no deeper than this iteration cannot get shorter.
        if score::is_decisive(score) && score::WIN - score.abs() <= depth as i32 {
            break;
        }
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
    }
    worker.flush(shared);
    result
}

/// One iteration in an aspiration window around the previous score (when the options
/// have them and the iteration is deep enough), widened until the score falls inside.
fn aspiration<V: PreviousVariant>(
    worker: &mut Worker<V>,
    shared: &Shared,
    pos: &V::Position,
    depth: u32,
    previous: Option<i32>,
    root: &mut [(V::Move, i32)],
) -> (i32, bool) {
    let centre = match previous {
        Some(p)
            if worker.options.aspiration
                && depth >= options::ASPIRATION_MIN_DEPTH
                && !score::is_decisive(p) =>
        {
            p
        }
        _ => return worker.root_iteration(shared, pos, depth, -INFINITY, INFINITY, root),
    };
    let mut delta = options::ASPIRATION_DELTA;
    let mut alpha = (centre - delta).max(-INFINITY);
    let mut beta = (centre + delta).min(INFINITY);
    let mut last: Option<i32> = None;
    loop {
        let (score, completed) = worker.root_iteration(shared, pos, depth, alpha, beta, root);
        if worker.stopped {
            return match (completed, last) {
                (true, _) => (score, true),
                (false, Some(l)) => (l, true),
                (false, None) => (score, false),
            };
        }
        last = Some(score);
        if score <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-INFINITY);
        } else if score >= beta {
            beta = (score + delta).min(INFINITY);
        } else {
            return (score, true);
        }
        delta *= 2;
        if delta > 1_000 {
            alpha = -INFINITY;
            beta = INFINITY;
        }
    }
}

/// The score of a position with no legal move, `ply` plies from the root: the game's
/// outcome from the side to move (a draw is 0). A position without moves and without an
/// outcome breaks the [`Variant`] contract; it is scored as a loss (Antarctos A14 style).
pub fn terminal_score<V: Variant>(pos: &V::Position, ply: u32) -> i32 {
    match V::outcome(pos) {
        Some(Outcome::Win { winner, .. }) => {
            if winner == V::side_to_move(pos) {
                score::win_in(ply)
            } else {
                score::loss_in(ply)
            }
        }
        Some(Outcome::Draw { .. }) => DRAW,
        None => score::loss_in(ply),
    }
}
