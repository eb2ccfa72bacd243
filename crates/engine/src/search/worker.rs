//! One thread's search: iterative deepening over negamax PVS alpha-beta with the shared
//! transposition table, the staged move picker, and the techniques of
//! [`super::options::SearchOptions`]. Every thread of a Lazy SMP search runs one
//! [`Worker`]; the main one reports the iterations, the helpers only fill the shared table.

use std::sync::atomic::Ordering;

use crate::EngineVariant;
use crate::score::{self, INFINITY, WIN_BOUND};
use crate::search::options::{self as opt, SearchOptions};
use crate::search::picker::{Picker, Stage};
use crate::search::{MAX_PLY, Shared, terminal_score};
use crate::tt::{Bound, move_hash};

/// Extra plies quiescence may add beyond the nominal depth before it evaluates.
pub(crate) const MAX_QUIESCENCE: u32 = 24;
/// Cap of a history counter: below the killers' place in the old ordering.
const HISTORY_MAX: i32 = 900_000;
/// Nodes between two looks at the clock and the stop flags.
const CHECK_INTERVAL: u64 = 1024;

/// What one node keeps while its children are searched: its moves, their ordering scores,
/// its principal variation and its killer moves.
pub(crate) struct Frame<V: EngineVariant> {
    moves: Vec<V::Move>,
    scores: Vec<i32>,
    pub(crate) pv: Vec<V::Move>,
    killers: [Option<V::Move>; 2],
}

impl<V: EngineVariant> Frame<V> {
    fn new() -> Self {
        Frame {
            moves: Vec::new(),
            scores: Vec::new(),
            pv: Vec::new(),
            killers: [None, None],
        }
    }
}

/// The principal variation of `frame`: `mv` followed by the child's.
fn update_pv<V: EngineVariant>(frame: &mut Frame<V>, child: &[Frame<V>], mv: &V::Move) {
    frame.pv.clear();
    frame.pv.push(mv.clone());
    if let Some(c) = child.first() {
        frame.pv.extend(c.pv.iter().cloned());
    }
}

/// One search thread.
pub(crate) struct Worker<V: EngineVariant> {
    /// 0 for the main thread.
    pub(crate) id: usize,
    pub(crate) options: SearchOptions,
    /// History counters by side, origin and destination square.
    history: Vec<[[i32; 64]; 64]>,
    frames: Vec<Frame<V>>,
    /// Nodes this thread visited in the current search.
    pub(crate) nodes: u64,
    /// Nodes not yet added to the shared count.
    unflushed: u64,
    pub(crate) stopped: bool,
}

impl<V: EngineVariant> Worker<V> {
    pub(crate) fn new(id: usize, options: SearchOptions) -> Self {
        Worker {
            id,
            options,
            history: vec![[[0; 64]; 64]; 2],
            frames: (0..MAX_PLY as usize + 2).map(|_| Frame::new()).collect(),
            nodes: 0,
            unflushed: 0,
            stopped: false,
        }
    }

    /// Forgets killers and history.
    pub(crate) fn clear(&mut self) {
        self.history = vec![[[0; 64]; 64]; 2];
        self.frames
            .iter_mut()
            .for_each(|f| f.killers = [None, None]);
    }

    /// Prepares a new search: counters reset, killers forgotten, history aged.
    pub(crate) fn begin(&mut self) {
        self.nodes = 0;
        self.unflushed = 0;
        self.stopped = false;
        self.frames
            .iter_mut()
            .for_each(|f| f.killers = [None, None]);
        // Old history still says something, but should not dominate the new search.
        for side in self.history.iter_mut() {
            for row in side.iter_mut() {
                for h in row.iter_mut() {
                    *h /= 8;
                }
            }
        }
    }

    /// The principal variation found by the last root iteration.
    pub(crate) fn root_pv(&self) -> &[V::Move] {
        &self.frames[0].pv
    }

    /// Adds the unflushed nodes to the shared count.
    pub(crate) fn flush(&mut self, shared: &Shared) {
        shared.nodes.fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    fn count_node(&mut self, shared: &Shared) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.stopped {
            return;
        }
        let limits = shared.limits;
        if shared.threads == 1 {
            // One thread: the node limit is exact, so the search is reproducible.
            if limits.nodes.is_some_and(|n| self.nodes >= n) {
                self.stopped = true;
            }
            if !self.nodes.is_multiple_of(CHECK_INTERVAL) {
                return;
            }
            self.flush(shared);
        } else {
            if !self.nodes.is_multiple_of(CHECK_INTERVAL) {
                return;
            }
            self.flush(shared);
            if limits
                .nodes
                .is_some_and(|n| shared.nodes.load(Ordering::Relaxed) >= n)
            {
                self.stopped = true;
            }
        }
        if shared.stop.load(Ordering::Relaxed)
            || limits.movetime.is_some_and(|t| shared.start.elapsed() >= t)
            || limits.stop.as_ref().is_some_and(|f| f.checkpoint())
        {
            self.stopped = true;
        }
        if self.stopped {
            shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// One iteration at the root in the window (`alpha`, `beta`); reorders `root` best
    /// first. Returns the best score and whether at least one move was searched completely
    /// (the first is the previous best, so anything completed is usable after a stop).
    /// A move that fails high ends the iteration (it is moved to the front).
    pub(crate) fn root_iteration(
        &mut self,
        shared: &Shared,
        pos: &V::Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        root: &mut [(V::Move, i32)],
    ) -> (i32, bool) {
        let mut frames = std::mem::take(&mut self.frames);
        let (frame, rest) = frames.split_first_mut().expect("frames for every ply");
        let depth = depth as i32;
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_index = 0;
        let mut completed = 0;
        frame.pv.clear();
        #[allow(clippy::needless_range_loop)] // root[i] is written inside the loop
        for i in 0..root.len() {
            let mv = root[i].0.clone();
            let child = V::play_unchecked(pos, &mv);
            let score = if i == 0 {
                -self.negamax(
                    shared,
                    rest,
                    &child,
                    depth - 1,
                    -beta,
                    -alpha,
                    1,
                    true,
                    true,
                )
            } else {
                let s = -self.negamax(
                    shared,
                    rest,
                    &child,
                    depth - 1,
                    -alpha - 1,
                    -alpha,
                    1,
                    false,
                    true,
                );
                if s > alpha && !self.stopped {
                    -self.negamax(
                        shared,
                        rest,
                        &child,
                        depth - 1,
                        -beta,
                        -alpha,
                        1,
                        true,
                        true,
                    )
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
                    update_pv(frame, rest, &mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if completed > 0 && (best > alpha0 || alpha0 == -INFINITY) {
            // Best first, the rest in the order they were tried (after a fail low every
            // score is only a bound: the order stays).
            let chosen = root[best_index].clone();
            root[..=best_index].rotate_right(1);
            root[0] = chosen;
            shared.tt.store(
                V::zobrist(pos),
                move_hash(&root[0].0),
                score::to_table(best, 0),
                depth,
                Bound::of(best, alpha0, beta),
            );
        }
        if frame.pv.is_empty() && completed > 0 {
            frame.pv.push(root[0].0.clone());
        }
        self.frames = frames;
        (best, completed > 0)
    }

    /// Exact-window score of `child` (reached by a root move) searched `depth - 1` plies.
    pub(crate) fn score_child(&mut self, shared: &Shared, child: &V::Position, depth: i32) -> i32 {
        let mut frames = std::mem::take(&mut self.frames);
        let s = -self.negamax(
            shared,
            &mut frames[1..],
            child,
            depth - 1,
            -INFINITY,
            INFINITY,
            1,
            true,
            true,
        );
        self.frames = frames;
        s
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        shared: &Shared,
        frames: &mut [Frame<V>],
        pos: &V::Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: u32,
        is_pv: bool,
        null_allowed: bool,
    ) -> i32 {
        let (frame, rest) = frames.split_first_mut().expect("frames for every ply");
        frame.pv.clear();
        if depth <= 0 || ply >= MAX_PLY - MAX_QUIESCENCE - 1 {
            return self.quiesce(shared, frames, pos, alpha, beta, ply, 0);
        }
        self.count_node(shared);
        if self.stopped {
            return 0;
        }
        V::legal_moves_into(pos, &mut frame.moves);
        if frame.moves.is_empty() {
            return terminal_score::<V>(pos, ply);
        }
        // Mate-distance pruning: nothing here beats a win at the next ply or loses
        // faster than a loss now.
        alpha = alpha.max(score::loss_in(ply));
        beta = beta.min(score::win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let key = V::zobrist(pos);
        let mut tt_mv = 0;
        let mut tt_entry = None;
        if let Some(e) = shared.tt.probe(key) {
            tt_mv = e.mv;
            let s = score::from_table(e.score, ply);
            if !is_pv && i32::from(e.depth) >= depth && e.bound.cuts(s, alpha, beta) {
                return s;
            }
            tt_entry = Some((s, e.bound));
        }
        let options = self.options;
        let in_check = V::in_check(pos);
        let pivotal = V::transforms_board(pos);
        // Check and single-reply extensions: forced lines are searched to their end
        // (chess checks; Antarctos compulsory captures with one way to take); with the
        // option, the move that brings an Ice Age too.
        if in_check || frame.moves.len() == 1 || (pivotal && options.ice_age_extension) {
            depth += 1;
        }
        // The static evaluation, sharpened by a table bound that says more.
        let eval = if in_check {
            -INFINITY
        } else {
            let e = self.evaluate(pos);
            match tt_entry {
                Some((s, Bound::Lower)) if s > e && !score::is_decisive(s) => s,
                Some((s, Bound::Upper)) if s < e && !score::is_decisive(s) => s,
                Some((s, Bound::Exact)) if !score::is_decisive(s) => s,
                _ => e,
            }
        };
        let prunable = !is_pv && !in_check && !pivotal && !score::is_decisive(beta);
        if prunable {
            if options.reverse_futility
                && depth <= opt::RFP_MAX_DEPTH
                && eval - opt::RFP_MARGIN * depth >= beta
            {
                return eval;
            }
            if options.null_move
                && null_allowed
                && depth >= opt::NMP_MIN_DEPTH
                && eval >= beta
                && let Some(child) = V::null_move(pos, &frame.moves)
            {
                let r = opt::NMP_BASE + depth / opt::NMP_DEPTH_DIVISOR;
                let s = -self.negamax(
                    shared,
                    rest,
                    &child,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                    false,
                );
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    let s = if score::is_decisive(s) { beta } else { s };
                    if depth < opt::NMP_VERIFY_DEPTH {
                        return s;
                    }
                    // Zugzwang insurance: the same node without null moves must agree
                    // (it reuses this node's frame, whose moves are generated again below).
                    let v = self.negamax(
                        shared,
                        frames,
                        pos,
                        depth - r,
                        beta - 1,
                        beta,
                        ply,
                        false,
                        false,
                    );
                    if self.stopped {
                        return 0;
                    }
                    if v >= beta {
                        return s;
                    }
                    V::legal_moves_into(pos, &mut frames[0].moves);
                }
            }
        }
        let (frame, rest) = frames.split_first_mut().expect("frames for every ply");
        let side = V::side_to_move(pos).index();
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_hash = 0;
        let mut picker = Picker::new(tt_mv, options.see);
        let mut searched = 0usize;
        let mut quiets = 0usize;
        let killers = frame.killers.clone();
        while let Some(idx) = {
            let history = &self.history[side];
            picker.next::<V>(pos, &mut frame.moves, &mut frame.scores, &killers, |m| {
                let (from, to) = V::move_squares(m);
                history[from as usize & 63][to as usize & 63]
            })
        } {
            let stage = picker.stage();
            let mv = frame.moves[idx].clone();
            let quiet = matches!(stage, Stage::Quiet | Stage::Killer)
                || (stage == Stage::Table && !V::is_tactical(pos, &mv));
            if quiet {
                quiets += 1;
            }
            let late = stage == Stage::Quiet || (options.see && stage == Stage::BadTactical);
            let child = V::play_unchecked(pos, &mv);
            // A checking move is never pruned nor reduced: sacrifices that mate (WAC.001,
            // 1. Qg6) start with a quiet move onto an attacked square and end in a check.
            let checks = V::in_check(&child);
            // Pruning of moves that cannot matter, once a move that does not lose is known.
            if !is_pv && !in_check && !checks && !pivotal && searched > 0 && best > -WIN_BOUND {
                if quiet && stage == Stage::Quiet {
                    if options.late_move_pruning
                        && depth <= opt::LMP_MAX_DEPTH
                        && quiets > opt::LMP_BASE + (depth * depth) as usize
                    {
                        continue;
                    }
                    if options.futility
                        && depth <= opt::FUTILITY_MAX_DEPTH
                        && eval + opt::FUTILITY_BASE + opt::FUTILITY_MARGIN * depth <= alpha
                    {
                        continue;
                    }
                    if options.see
                        && depth <= opt::SEE_MAX_DEPTH
                        && !V::see_ge(pos, &mv, -opt::SEE_QUIET_MARGIN * depth * depth)
                    {
                        continue;
                    }
                }
                if stage == Stage::BadTactical
                    && options.see
                    && depth <= opt::SEE_MAX_DEPTH
                    && !V::see_ge(pos, &mv, -opt::SEE_CAPTURE_MARGIN * depth)
                {
                    continue;
                }
            }
            let score = if searched == 0 {
                -self.negamax(
                    shared,
                    rest,
                    &child,
                    depth - 1,
                    -beta,
                    -alpha,
                    ply + 1,
                    is_pv,
                    true,
                )
            } else {
                // Late-move reduction of quiet (and losing tactical) moves far down the list.
                let r = if late && !in_check && !checks {
                    opt::lmr_reduction(&options, depth, searched)
                } else {
                    0
                };
                let mut s = -self.negamax(
                    shared,
                    rest,
                    &child,
                    depth - 1 - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    true,
                );
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.negamax(
                        shared,
                        rest,
                        &child,
                        depth - 1,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                        true,
                    );
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(
                        shared,
                        rest,
                        &child,
                        depth - 1,
                        -beta,
                        -alpha,
                        ply + 1,
                        true,
                        true,
                    );
                }
                s
            };
            searched += 1;
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_hash = move_hash(&mv);
                if score > alpha {
                    alpha = score;
                    update_pv(frame, rest, &mv);
                    if alpha >= beta {
                        if quiet {
                            self.reward(frame, &mv, side, depth);
                        }
                        break;
                    }
                }
            }
        }
        if searched == 0 {
            // Every move was pruned (cannot happen: the first move is never pruned), or
            // none exists: keep the bound honest.
            return alpha;
        }
        let bound = Bound::of(best, original_alpha, beta);
        shared
            .tt
            .store(key, best_hash, score::to_table(best, ply), depth, bound);
        best
    }

    /// The static evaluation with the weights the options ask for.
    fn evaluate(&self, pos: &V::Position) -> i32 {
        if self.options.tuned && self.options.tuned2 {
            V::evaluate(pos)
        } else if self.options.tuned {
            V::evaluate_first_tuning(pos)
        } else {
            V::evaluate_hand(pos)
        }
    }

    fn reward(&mut self, frame: &mut Frame<V>, mv: &V::Move, side: usize, depth: i32) {
        let k = &mut frame.killers;
        if k[0].as_ref() != Some(mv) {
            k[1] = k[0].take();
            k[0] = Some(mv.clone());
        }
        let (from, to) = V::move_squares(mv);
        let h = &mut self.history[side][from as usize & 63][to as usize & 63];
        *h = (*h + depth * depth).min(HISTORY_MAX);
    }

    /// Quiescence: stands pat on the evaluation where the game allows it
    /// ([`EngineVariant::may_stand_pat`]) and searches only the moves that change the
    /// evaluation a lot ([`EngineVariant::is_noisy`]), without the ones that lose material
    /// by static exchange when SEE is on; where it may not stand pat it searches every
    /// legal move.
    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        shared: &Shared,
        frames: &mut [Frame<V>],
        pos: &V::Position,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        q: u32,
    ) -> i32 {
        let (frame, rest) = frames.split_first_mut().expect("frames for every ply");
        frame.pv.clear();
        self.count_node(shared);
        if self.stopped {
            return 0;
        }
        V::legal_moves_into(pos, &mut frame.moves);
        if frame.moves.is_empty() {
            return terminal_score::<V>(pos, ply);
        }
        let stand_pat = V::may_stand_pat(pos, &frame.moves);
        if q >= MAX_QUIESCENCE || ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        let mut best = -INFINITY;
        if stand_pat {
            let eval = self.evaluate(pos);
            if eval >= beta {
                return eval;
            }
            best = eval;
            alpha = alpha.max(eval);
            frame.moves.retain(|m| V::is_noisy(pos, m));
        }
        let mut picker = Picker::quiescence(self.options.see && stand_pat);
        let none = [None, None];
        while let Some(idx) =
            picker.next::<V>(pos, &mut frame.moves, &mut frame.scores, &none, |_| 0)
        {
            let mv = frame.moves[idx].clone();
            let child = V::play_unchecked(pos, &mv);
            let score = -self.quiesce(shared, rest, &child, -beta, -alpha, ply + 1, q + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    update_pv(frame, rest, &mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
