//! The search, generic over any [`EngineVariant`]: iterative deepening with aspiration
//! windows over a negamax alpha-beta with principal variation search, a transposition table
//! shared by every thread ([`crate::tt`]), a staged move picker (table move, tactical moves
//! by static exchange, killers and countermove, history: [`picker`], `history.rs`), null-move,
//! futility, late-move and SEE pruning, late-move reductions, internal iterative reduction,
//! check, singular and Ice Age extensions ([`options`]), quiescence with table cutoffs,
//! exact win/loss scores with their distance ([`crate::score`]), and limits by depth, nodes,
//! time or a stop flag.
//!
//! Parallel search: Lazy SMP. With `threads` > 1 the helper threads run the same iterative
//! deepening on the same position (odd helpers one ply deeper), sharing only the table; the
//! main thread's result is the search's. Nothing is locked: the table's entries are
//! lockless ([`crate::tt`]).
//!
//! Determinism: with one thread, the same position and the same depth or node limit, a
//! fresh [`Searcher`] visits the same nodes in the same order and returns the same move.
//! A time limit, the stop flag or more than one thread make the result depend on timing.

mod history;
pub mod options;
pub mod picker;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::clock::Instant;

use game::{Color, Outcome, Variant};

use crate::EngineVariant;
use crate::score::{self, DRAW, INFINITY, WIN_BOUND};
use crate::tt::{Table, move_hash};
pub use options::SearchOptions;
use worker::Worker;

/// Deepest ply the search reaches (iterations, extensions and quiescence included).
pub const MAX_PLY: u32 = 128;
/// Most threads a search may use.
pub const MAX_THREADS: usize = 256;
/// Default transposition table size in MiB.
pub const DEFAULT_TT_MIB: usize = 16;

/// A handle shared with whoever may stop or pause a running search (the site's engine
/// queue, a UI thread). Two handles are equal when they are the same handle.
///
/// A paused search blocks at its next check (every 1,024 nodes) until it is resumed or
/// stopped; pausing changes no node count, so a search limited by depth or nodes returns the
/// same move however often it was paused. A deadline stops the search when it passes, paused
/// or not (wall time, unlike [`Limits::movetime`], which counts from the search's start and
/// replaces a level's own limits).
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<Control>);

#[derive(Debug, Default)]
struct Control {
    stopped: AtomicBool,
    paused: AtomicBool,
    /// The deadline, if any; the lock also orders the pause's waits and wake-ups.
    deadline: Mutex<Option<Instant>>,
    wake: Condvar,
    /// Asked at every check besides the flags ([`StopFlag::polling`]).
    poll: Option<fn() -> bool>,
}

impl StopFlag {
    /// A new handle: neither stopped nor paused, no deadline.
    pub fn new() -> StopFlag {
        StopFlag::default()
    }
    /// A new handle that also asks `poll` at each check (every 1,024 nodes of a search, every
    /// 4,096 of the solver) and stops the search once it answers true: for a host that cannot
    /// reach the search's thread otherwise (a Web Worker reading a shared stop cell,
    /// `crates/engine-wasm`). `poll` should be cheap; it is never asked while paused.
    pub fn polling(poll: fn() -> bool) -> StopFlag {
        StopFlag(Arc::new(Control {
            poll: Some(poll),
            ..Control::default()
        }))
    }
    /// Asks the search to stop; it returns its best move so far within about 1,000 nodes
    /// (a paused search wakes up to do so).
    pub fn stop(&self) {
        self.0.stopped.store(true, Ordering::SeqCst);
        self.notify();
    }
    /// True once [`StopFlag::stop`] was called or the deadline was seen passed.
    pub fn is_stopped(&self) -> bool {
        self.0.stopped.load(Ordering::Relaxed)
    }
    /// Stops the search at `deadline` (replacing an earlier one), paused or not.
    pub fn set_deadline(&self, deadline: Instant) {
        *self.lock() = Some(deadline);
        self.0.wake.notify_all();
    }
    /// Asks the search to wait at its next check until [`StopFlag::resume`], a stop or the
    /// deadline.
    pub fn pause(&self) {
        self.0.paused.store(true, Ordering::SeqCst);
    }
    /// Lets a paused search go on.
    pub fn resume(&self) {
        self.0.paused.store(false, Ordering::SeqCst);
        self.notify();
    }
    /// True while paused (and not resumed).
    pub fn is_paused(&self) -> bool {
        self.0.paused.load(Ordering::Relaxed)
    }
    /// The search's check: waits while paused (until resumed, stopped or the deadline), then
    /// says whether to stop.
    pub fn checkpoint(&self) -> bool {
        let mut deadline = self.lock();
        loop {
            if self.0.stopped.load(Ordering::SeqCst) {
                return true;
            }
            let now = Instant::now();
            if deadline.is_some_and(|d| now >= d) {
                self.0.stopped.store(true, Ordering::SeqCst);
                return true;
            }
            if !self.0.paused.load(Ordering::SeqCst) {
                if self.0.poll.is_some_and(|poll| poll()) {
                    self.0.stopped.store(true, Ordering::SeqCst);
                    return true;
                }
                return false;
            }
            deadline = match *deadline {
                Some(d) => {
                    let wait = self.0.wake.wait_timeout(deadline, d - now);
                    wait.map(|(g, _)| g).unwrap_or_else(|p| p.into_inner().0)
                }
                None => self
                    .0
                    .wake
                    .wait(deadline)
                    .unwrap_or_else(|p| p.into_inner()),
            };
        }
    }
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Instant>> {
        // A poisoned lock still holds a valid deadline.
        self.0.deadline.lock().unwrap_or_else(|p| p.into_inner())
    }
    fn notify(&self) {
        // Taking the lock orders this wake-up after a waiter's check of the flags.
        let _guard = self.lock();
        self.0.wake.notify_all();
    }
}

impl PartialEq for StopFlag {
    fn eq(&self, other: &StopFlag) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for StopFlag {}

/// When to stop searching. With no limit at all the search runs to [`MAX_PLY`] plies
/// (or until the stop flag), so callers normally set one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Nodes (every visited position, quiescence included).
    pub nodes: Option<u64>,
    /// Thinking time.
    pub movetime: Option<Duration>,
    /// Stops the search from outside.
    pub stop: Option<StopFlag>,
}

/// What one completed iteration of iterative deepening found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Iteration<V: Variant> {
    /// Nominal depth in plies.
    pub depth: u32,
    /// Score of the best move, from the side to move ([`crate::score`]).
    pub score: i32,
    /// Nodes visited since the search started.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Principal variation, best move first (never empty while the game goes on).
    pub pv: Vec<V::Move>,
}

impl<V: Variant> Iteration<V> {
    /// Nodes per second so far (0 when no time has passed to measure).
    pub fn nps(&self) -> u64 {
        (u128::from(self.nodes) * 1_000_000)
            .checked_div(self.elapsed.as_micros())
            .map_or(0, |r| r as u64)
    }
}

/// The result of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult<V: Variant> {
    /// The move to play; `None` only when the game is over.
    pub best: Option<V::Move>,
    /// Its score from the side to move.
    pub score: i32,
    /// Deepest completed iteration (0 when stopped during the first).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Wall time used.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<V::Move>,
}

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
pub struct Searcher<V: EngineVariant> {
    tt: Arc<Table>,
    /// `workers[0]` runs on the calling thread; the others are the Lazy SMP helpers.
    workers: Vec<Worker<V>>,
    options: SearchOptions,
    weights: Option<Arc<[i32]>>,
}

impl<V: EngineVariant> Default for Searcher<V> {
    fn default() -> Self {
        Searcher::new(DEFAULT_TT_MIB)
    }
}

impl<V: EngineVariant> Searcher<V> {
    /// A one-thread searcher with a transposition table of `tt_mib` MiB and the game's
    /// search options ([`EngineVariant::OPTIONS`]).
    pub fn new(tt_mib: usize) -> Self {
        Searcher::with_table(Arc::new(Table::new(tt_mib)), 1)
    }

    /// A searcher of `threads` threads (1 to [`MAX_THREADS`]) over `table`, which other
    /// searchers may share.
    pub fn with_table(table: Arc<Table>, threads: usize) -> Self {
        let mut s = Searcher {
            tt: table,
            workers: Vec::new(),
            options: V::OPTIONS,
            weights: None,
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
            let mut w = Worker::new(id, self.options);
            w.weights = self.weights.clone();
            self.workers.push(w);
        }
    }

    /// The number of threads a search uses.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Switches search techniques on or off (for measuring them; the default is the
    /// game's [`EngineVariant::OPTIONS`]).
    pub fn set_options(&mut self, options: SearchOptions) {
        self.options = options;
        self.workers.iter_mut().for_each(|w| w.options = options);
    }

    /// Evaluates with `weights` instead of the game's tuned ones, or with those again for
    /// `None` ([`crate::EngineConfig::weights`]; the length is the caller's to check with
    /// [`crate::EngineConfig::check_weights`]). A shorter list, of an evaluation before terms
    /// were added ([`EngineVariant::EARLIER_TERM_COUNTS`]), gets weight 0 for the later terms.
    pub fn set_weights(&mut self, weights: Option<Arc<[i32]>>) {
        let weights = weights.map(|w| {
            if w.len() < V::TERM_COUNT {
                let mut full = w.to_vec();
                full.resize(V::TERM_COUNT, 0);
                full.into()
            } else {
                w
            }
        });
        self.workers
            .iter_mut()
            .for_each(|w| w.weights = weights.clone());
        self.weights = weights;
    }

    /// The search options in use.
    pub fn options(&self) -> SearchOptions {
        self.options
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
fn order_root<V: EngineVariant>(shared: &Shared, pos: &V::Position, root: &mut [(V::Move, i32)]) {
    let tt_mv = shared.tt.probe(V::zobrist(pos)).map_or(0, |e| e.mv);
    for entry in root.iter_mut() {
        entry.1 = if tt_mv != 0 && move_hash(&entry.0) == tt_mv {
            INFINITY
        } else if V::is_tactical(pos, &entry.0) {
            WIN_BOUND + V::order_hint(pos, &entry.0)
        } else {
            0
        };
    }
    root.sort_by_key(|e| std::cmp::Reverse(e.1));
}

/// Iterative deepening of one worker (the main one reports through `on_iteration`; a
/// helper's odd id searches one ply deeper than the iteration number).
fn iterate<V: EngineVariant>(
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
fn aspiration<V: EngineVariant>(
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

/// The side that wins `score` (from `to_move`'s view), if it is a proven result.
pub fn decisive_winner(score: i32, to_move: Color) -> Option<Color> {
    if score >= WIN_BOUND {
        Some(to_move)
    } else if score <= -WIN_BOUND {
        Some(!to_move)
    } else {
        None
    }
}
