//! The frozen baseline search: the search of commit 4974cdc (tag `engine-baseline`), before
//! issue 15, kept verbatim but for names so that `icebound match` can play today's engine
//! against it (`engine=baseline` in a setting). Do not improve it: it is the yardstick.
//! Iterative deepening over negamax PVS, a two-slot transposition table, table move,
//! MVV-LVA, killers, history, late-move reductions by 1 or 2, quiescence.

use std::time::Duration;

use crate::clock::Instant;

use crate::baseline::BaselineVariant;
use crate::baseline::tt::{Bound, Table, move_hash};
use crate::score::{self, INFINITY, WIN_BOUND};
use crate::search::{Iteration, Limits, SearchResult, terminal_score};

/// Deepest ply the search reaches (iterations, extensions and quiescence included).
const MAX_PLY: u32 = 128;
/// Extra plies quiescence may add beyond the nominal depth before it evaluates.
const MAX_QUIESCENCE: u32 = 24;

/// A search engine with its tables; keep one per game to reuse the transposition table
/// between moves, or make a fresh one for a reproducible search.
pub struct Searcher<V: BaselineVariant> {
    tt: Table,
    killers: Vec<[Option<V::Move>; 2]>,
    /// History counters by side, origin and destination square.
    history: Vec<[[i32; 64]; 64]>,
    move_stack: Vec<Vec<V::Move>>,
    pv_table: Vec<Vec<V::Move>>,
    nodes: u64,
    limits: Limits,
    start: Instant,
    stopped: bool,
}

impl<V: BaselineVariant> Default for Searcher<V> {
    fn default() -> Self {
        Searcher::new(16)
    }
}

impl<V: BaselineVariant> Searcher<V> {
    /// A searcher with a transposition table of `tt_mib` MiB.
    pub fn new(tt_mib: usize) -> Self {
        let plies = MAX_PLY as usize + 2;
        Searcher {
            tt: Table::new(tt_mib),
            killers: vec![[None, None]; plies],
            history: vec![[[0; 64]; 64]; 2],
            move_stack: (0..plies).map(|_| Vec::new()).collect(),
            pv_table: (0..plies).map(|_| Vec::new()).collect(),
            nodes: 0,
            limits: Limits::default(),
            start: Instant::now(),
            stopped: false,
        }
    }

    /// Forgets everything learnt (table, killers, history): the next search behaves like
    /// one of a fresh searcher.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        self.history = vec![[[0; 64]; 64]; 2];
    }

    /// Searches `pos` within `limits`, calling `on_iteration` after every completed
    /// iteration.
    pub fn search(
        &mut self,
        pos: &V::Position,
        limits: &Limits,
        mut on_iteration: impl FnMut(&Iteration<V>),
    ) -> SearchResult<V> {
        self.begin(limits);
        let moves = V::legal_moves(pos);
        let mut result = SearchResult {
            best: moves.first().cloned(),
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        if moves.is_empty() {
            result.score = terminal_score::<V>(pos, 0);
            return result;
        }
        let mut root: Vec<(V::Move, i32)> = moves.into_iter().map(|m| (m, -INFINITY)).collect();
        self.order_root(pos, &mut root);
        let max_depth = limits.depth.unwrap_or(MAX_PLY).clamp(1, MAX_PLY - 1);
        for depth in 1..=max_depth {
            let (score, completed_any) = self.root_iteration(pos, depth, &mut root);
            if self.stopped && !completed_any {
                break;
            }
            result.best = Some(root[0].0.clone());
            result.score = score;
            result.pv = self.pv_table[0].clone();
            if result.pv.is_empty() {
                result.pv.push(root[0].0.clone());
            }
            if self.stopped {
                break;
            }
            result.depth = depth;
            let it = Iteration {
                depth,
                score,
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv: result.pv.clone(),
            };
            on_iteration(&it);
            // A proven result no deeper than this iteration cannot get shorter.
            if score::is_decisive(score) && score::WIN - score.abs() <= depth as i32 {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = self.start.elapsed();
        result
    }

    /// Exact-window scores of every legal move at `depth` plies (the root move included),
    /// best first: for the lower strength levels, which pick among them with noise. When a
    /// limit stops it, only the completely searched moves are returned.
    pub fn score_moves(
        &mut self,
        pos: &V::Position,
        depth: u32,
        limits: &Limits,
    ) -> Vec<(V::Move, i32)> {
        self.begin(limits);
        let moves = V::legal_moves(pos);
        let mut root: Vec<(V::Move, i32)> = moves.into_iter().map(|m| (m, -INFINITY)).collect();
        self.order_root(pos, &mut root);
        let mut out = Vec::with_capacity(root.len());
        let depth = depth.clamp(1, MAX_PLY - 1) as i32;
        for (mv, _) in &root {
            let child = V::play_unchecked(pos, mv);
            let s = -self.negamax(&child, depth - 1, -INFINITY, INFINITY, 1, true);
            if self.stopped {
                break;
            }
            out.push((mv.clone(), s));
        }
        out.sort_by_key(|e| std::cmp::Reverse(e.1));
        out
    }

    fn begin(&mut self, limits: &Limits) {
        self.limits = limits.clone();
        self.nodes = 0;
        self.stopped = false;
        self.start = Instant::now();
        self.tt.new_search();
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        // Old history still says something, but should not dominate the new search.
        for side in self.history.iter_mut() {
            for row in side.iter_mut() {
                for h in row.iter_mut() {
                    *h /= 8;
                }
            }
        }
    }

    fn order_root(&mut self, pos: &V::Position, root: &mut [(V::Move, i32)]) {
        let tt_mv = self.tt.probe(V::zobrist(pos)).map_or(0, |e| e.mv);
        for entry in root.iter_mut() {
            entry.1 = if tt_mv != 0 && move_hash(&entry.0) == tt_mv {
                INFINITY
            } else if V::is_tactical(pos, &entry.0) {
                WIN_BOUND + V::baseline_order_hint(pos, &entry.0)
            } else {
                0
            };
        }
        root.sort_by_key(|e| std::cmp::Reverse(e.1));
    }

    /// One iteration at the root; reorders `root` best first. Returns the best score and
    /// whether at least one move was searched completely (the first is the previous best,
    /// so anything completed is usable after a stop).
    fn root_iteration(
        &mut self,
        pos: &V::Position,
        depth: u32,
        root: &mut [(V::Move, i32)],
    ) -> (i32, bool) {
        let depth = depth as i32;
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best = -INFINITY;
        let mut best_index = 0;
        let mut completed = 0;
        self.pv_table[0].clear();
        #[allow(clippy::needless_range_loop)] // root[i] is written inside the loop
        for i in 0..root.len() {
            let mv = root[i].0.clone();
            let child = V::play_unchecked(pos, &mv);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1, true)
            } else {
                let s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, false);
                if s > alpha && !self.stopped {
                    -self.negamax(&child, depth - 1, -beta, -alpha, 1, true)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            completed += 1;
            root[i].1 = score;
            if score > best {
                best = score;
                best_index = i;
                if score > alpha {
                    alpha = score;
                    self.update_pv(0, &mv);
                }
            }
        }
        if completed > 0 {
            // Best first, the rest in the order they were tried.
            let chosen = root[best_index].clone();
            root[..=best_index].rotate_right(1);
            root[0] = chosen;
            self.tt.store(
                V::zobrist(pos),
                move_hash(&root[0].0),
                score::to_table(best, 0),
                depth as i16,
                Bound::Exact,
            );
        }
        (best, completed > 0)
    }

    fn update_pv(&mut self, ply: usize, mv: &V::Move) {
        let (head, tail) = self.pv_table.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv.clone());
        line.extend(tail[0].iter().cloned());
    }

    fn check_limits(&mut self) {
        if let Some(n) = self.limits.nodes
            && self.nodes >= n
        {
            self.stopped = true;
        }
        if self.nodes & 1023 == 0 {
            if let Some(t) = self.limits.movetime
                && self.start.elapsed() >= t
            {
                self.stopped = true;
            }
            if let Some(flag) = &self.limits.stop
                && flag.is_stopped()
            {
                self.stopped = true;
            }
        }
    }

    fn negamax(
        &mut self,
        pos: &V::Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: u32,
        is_pv: bool,
    ) -> i32 {
        let p = ply as usize;
        self.pv_table[p].clear();
        if depth <= 0 || ply >= MAX_PLY - MAX_QUIESCENCE - 1 {
            return self.quiesce(pos, alpha, beta, ply, 0);
        }
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        let mut moves = std::mem::take(&mut self.move_stack[p]);
        V::legal_moves_into(pos, &mut moves);
        if moves.is_empty() {
            self.move_stack[p] = moves;
            return terminal_score::<V>(pos, ply);
        }
        // Mate-distance pruning: nothing here beats a win at the next ply or loses
        // faster than a loss now.
        alpha = alpha.max(score::loss_in(ply));
        beta = beta.min(score::win_in(ply + 1));
        if alpha >= beta {
            self.move_stack[p] = moves;
            return alpha;
        }
        let key = V::zobrist(pos);
        let mut tt_mv = 0;
        if let Some(e) = self.tt.probe(key) {
            tt_mv = e.mv;
            if !is_pv && i32::from(e.depth) >= depth {
                let s = score::from_table(e.score, ply);
                if e.bound.cuts(s, alpha, beta) {
                    self.move_stack[p] = moves;
                    return s;
                }
            }
        }
        let in_check = V::in_check(pos);
        // Check and single-reply extensions: forced lines are searched to their end
        // (chess checks; Antarctos compulsory captures with one way to take).
        if in_check || moves.len() == 1 {
            depth += 1;
        }
        let side = V::side_to_move(pos).index();
        let mut order: Vec<i32> = moves
            .iter()
            .map(|m| self.order_score(pos, m, tt_mv, p, side))
            .collect();
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_hash = 0;
        for i in 0..moves.len() {
            // Selection sort: the best remaining move next (cutoffs come early).
            let mut j = i;
            for k in i + 1..moves.len() {
                if order[k] > order[j] {
                    j = k;
                }
            }
            moves.swap(i, j);
            order.swap(i, j);
            let mv = &moves[i];
            let child = V::play_unchecked(pos, mv);
            let quiet = order[i] < KILLER_2;
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, is_pv)
            } else {
                // Late-move reduction of quiet moves far down the list.
                let r = if depth >= 3 && i >= 3 && quiet && !in_check {
                    if i >= 8 && depth >= 6 { 2 } else { 1 }
                } else {
                    0
                };
                let mut s =
                    -self.negamax(&child, depth - 1 - r, -alpha - 1, -alpha, ply + 1, false);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, false);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
                s
            };
            if self.stopped {
                self.move_stack[p] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_hash = move_hash(mv);
                if score > alpha {
                    alpha = score;
                    let mv = mv.clone();
                    self.update_pv(p, &mv);
                    if alpha >= beta {
                        if quiet {
                            self.reward(&mv, p, side, depth);
                        }
                        break;
                    }
                }
            }
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.tt.store(
            key,
            best_hash,
            score::to_table(best, ply),
            depth as i16,
            bound,
        );
        self.move_stack[p] = moves;
        best
    }

    fn order_score(
        &self,
        pos: &V::Position,
        mv: &V::Move,
        tt_mv: u32,
        ply: usize,
        side: usize,
    ) -> i32 {
        if tt_mv != 0 && move_hash(mv) == tt_mv {
            return TABLE_MOVE;
        }
        if V::is_tactical(pos, mv) {
            return TACTICAL + V::baseline_order_hint(pos, mv);
        }
        let killers = &self.killers[ply];
        if killers[0].as_ref() == Some(mv) {
            return KILLER_1;
        }
        if killers[1].as_ref() == Some(mv) {
            return KILLER_2;
        }
        let (from, to) = V::move_squares(mv);
        self.history[side][from as usize & 63][to as usize & 63]
    }

    fn reward(&mut self, mv: &V::Move, ply: usize, side: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0].as_ref() != Some(mv) {
            k[1] = k[0].take();
            k[0] = Some(mv.clone());
        }
        let (from, to) = V::move_squares(mv);
        let h = &mut self.history[side][from as usize & 63][to as usize & 63];
        *h = (*h + depth * depth).min(HISTORY_MAX);
    }

    /// Quiescence: stands pat on the evaluation where the game allows it
    /// ([`BaselineVariant::may_stand_pat`]) and searches only the moves that change the
    /// evaluation a lot ([`BaselineVariant::is_noisy`]); where it may not stand pat it searches
    /// every legal move.
    fn quiesce(&mut self, pos: &V::Position, mut alpha: i32, beta: i32, ply: u32, q: u32) -> i32 {
        let p = ply as usize;
        self.pv_table[p].clear();
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        let mut moves = std::mem::take(&mut self.move_stack[p]);
        V::legal_moves_into(pos, &mut moves);
        if moves.is_empty() {
            self.move_stack[p] = moves;
            return terminal_score::<V>(pos, ply);
        }
        let stand_pat = V::baseline_may_stand_pat(pos, &moves);
        if q >= MAX_QUIESCENCE || ply >= MAX_PLY - 1 {
            self.move_stack[p] = moves;
            return V::baseline_evaluate(pos);
        }
        let mut best = -INFINITY;
        if stand_pat {
            let eval = V::baseline_evaluate(pos);
            if eval >= beta {
                self.move_stack[p] = moves;
                return eval;
            }
            best = eval;
            alpha = alpha.max(eval);
            moves.retain(|m| V::baseline_is_noisy(pos, m));
        }
        let mut order: Vec<i32> = moves
            .iter()
            .map(|m| V::baseline_order_hint(pos, m))
            .collect();
        for i in 0..moves.len() {
            let mut j = i;
            for k in i + 1..moves.len() {
                if order[k] > order[j] {
                    j = k;
                }
            }
            moves.swap(i, j);
            order.swap(i, j);
            let child = V::play_unchecked(pos, &moves[i]);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, q + 1);
            if self.stopped {
                self.move_stack[p] = moves;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    let mv = moves[i].clone();
                    self.update_pv(p, &mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.move_stack[p] = moves;
        best
    }
}

const TABLE_MOVE: i32 = 4_000_000;
const TACTICAL: i32 = 2_000_000;
const KILLER_1: i32 = 1_100_000;
const KILLER_2: i32 = 1_000_000;
const HISTORY_MAX: i32 = 900_000;
