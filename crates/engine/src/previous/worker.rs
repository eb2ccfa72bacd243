//! One thread's search: iterative deepening over negamax PVS alpha-beta with the shared
//! transposition table, the staged move picker, and the techniques of
//! [`crate::previous::options::SearchOptions`]. Every thread of a Lazy SMP search runs one
//! [`Worker`]; the main one reports the iterations, the helpers only fill the shared table.

use std::sync::atomic::Ordering;

mod quiesce;
mod root;

use crate::previous::PreviousVariant;
use crate::previous::history::History;
use crate::previous::options::{self as opt, SearchOptions};
use crate::previous::picker::{Picker, Stage};
use crate::previous::search::{MAX_PLY, Shared, terminal_score};
use crate::previous::tt::{Bound, move_hash};
use crate::score::{self, INFINITY, WIN_BOUND};

/// Extra plies quiescence may add beyond the nominal depth before it evaluates.
pub(crate) const MAX_QUIESCENCE: u32 = 24;
/// No static evaluation at this ply (in check, or the root).
const NO_EVAL: i32 = i32::MIN;
/// Depths and move numbers below which late-move reductions come from a table.
const LMR_TABLE: usize = 64;
/// Nodes between two looks at the clock and the stop flags.
const CHECK_INTERVAL: u64 = 1024;

/// What one node keeps while its children are searched: its moves, their ordering scores,
/// its principal variation and its killer moves.
pub(crate) struct Frame<V: PreviousVariant> {
    moves: Vec<V::Move>,
    scores: Vec<i32>,
    pub(crate) pv: Vec<V::Move>,
    killers: [Option<V::Move>; 2],
    /// Origin and destination of the move that led here (`None` at the root and after a
    /// null move): the key of the countermove table.
    prev: Option<(u8, u8)>,
    /// Squares of the quiet moves searched so far at this node (for the history malus).
    quiets_tried: Vec<(u8, u8)>,
    /// Hash of a move this node must not search (the table move, during the singular
    /// extension's search of the others); 0 for none.
    excluded: u32,
}

impl<V: PreviousVariant> Frame<V> {
    fn new() -> Self {
        Frame {
            moves: Vec::new(),
            scores: Vec::new(),
            pv: Vec::new(),
            killers: [None, None],
            prev: None,
            quiets_tried: Vec::new(),
            excluded: 0,
        }
    }
}

/// The principal variation of `frame`: `mv` followed by the child's.
fn update_pv<V: PreviousVariant>(frame: &mut Frame<V>, child: &[Frame<V>], mv: &V::Move) {
    frame.pv.clear();
    frame.pv.push(mv.clone());
    if let Some(c) = child.first() {
        frame.pv.extend(c.pv.iter().cloned());
    }
}

/// One search thread.
pub(crate) struct Worker<V: PreviousVariant> {
    /// 0 for the main thread.
    pub(crate) id: usize,
    pub(crate) options: SearchOptions,
    /// History and countermoves.
    history: History<V::Move>,
    /// Log-formula reductions by `depth * LMR_TABLE + move index`.
    lmr: Vec<i32>,
    /// Static evaluation by ply on the current line ([`NO_EVAL`] in check), for `impr`.
    evals: Vec<i32>,
    frames: Vec<Frame<V>>,
    /// Nodes this thread visited in the current search.
    pub(crate) nodes: u64,
    /// Nodes not yet added to the shared count.
    unflushed: u64,
    pub(crate) stopped: bool,
}

impl<V: PreviousVariant> Worker<V> {
    pub(crate) fn new(id: usize, options: SearchOptions) -> Self {
        Worker {
            id,
            options,
            history: History::new(),
            lmr: (0..LMR_TABLE * LMR_TABLE)
                .map(|i| {
                    let log = SearchOptions {
                        lmr_log: true,
                        ..SearchOptions::NONE
                    };
                    opt::lmr_reduction(&log, (i / LMR_TABLE) as i32, i % LMR_TABLE)
                })
                .collect(),
            evals: vec![NO_EVAL; MAX_PLY as usize + 2],
            frames: (0..MAX_PLY as usize + 2).map(|_| Frame::new()).collect(),
            nodes: 0,
            unflushed: 0,
            stopped: false,
        }
    }

    /// Forgets killers and history.
    pub(crate) fn clear(&mut self) {
        self.history.clear();
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
        self.history.age();
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

    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
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
        let key = V::zobrist(pos);
        shared.tt.prefetch(key);
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
        // The singular extension's search of the other moves: no table, no null move.
        let excluded = frame.excluded;
        let mut tt_mv = 0;
        let mut tt_entry = None;
        if excluded == 0
            && let Some(e) = shared.tt.probe(key)
        {
            tt_mv = e.mv;
            let s = score::from_table(e.score, ply);
            if !is_pv && i32::from(e.depth) >= depth && e.bound.cuts(s, alpha, beta) {
                return s;
            }
            tt_entry = Some((s, e.bound, i32::from(e.depth)));
        }
        let options = self.options;
        let in_check = V::in_check(pos);
        let pivotal = V::previous_transforms_board(pos);
        if options.iir && tt_mv == 0 && excluded == 0 && depth >= opt::IIR_MIN_DEPTH && !in_check {
            depth -= 1;
        }
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
            let e = self.evaluate(pos, ply);
            match tt_entry {
                Some((s, Bound::Lower, _)) if s > e && !score::is_decisive(s) => s,
                Some((s, Bound::Upper, _)) if s < e && !score::is_decisive(s) => s,
                Some((s, Bound::Exact, _)) if !score::is_decisive(s) => s,
                _ => e,
            }
        };
        self.evals[ply as usize] = if in_check { NO_EVAL } else { eval };
        let improving = options.improving
            && !in_check
            && ply >= 2
            && self.evals[ply as usize - 2] != NO_EVAL
            && eval > self.evals[ply as usize - 2];
        let prunable = !is_pv && !in_check && !pivotal && !score::is_decisive(beta);
        if prunable {
            if options.reverse_futility
                && depth <= opt::RFP_MAX_DEPTH
                && eval - opt::RFP_MARGIN * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
            if options.null_move
                && null_allowed
                && excluded == 0
                && depth >= opt::NMP_MIN_DEPTH
                && eval >= beta
                && let Some(child) = V::previous_null_move(pos, &frame.moves)
            {
                let r = opt::NMP_BASE + depth / opt::NMP_DEPTH_DIVISOR;
                rest[0].prev = None;
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
                    // Zugzwang insurance: the same node without null moves must agree.
                    let v = self.search_again(shared, frames, pos, depth - r, beta, ply);
                    if self.stopped {
                        return 0;
                    }
                    if v >= beta {
                        return s;
                    }
                }
            }
        }
        // Singular extension. A node with a single reply, already extended above, may be
        // extended again here (its search of "the others" finds none): that is how it was
        // measured (docs/strength.md); leaving such nodes out is untested.
        let mut singular_extension = 0;
        if options.singular
            && excluded == 0
            && depth >= opt::SE_MIN_DEPTH
            && let Some((s, bound, d)) = tt_entry
            && tt_mv != 0
            && matches!(bound, Bound::Lower | Bound::Exact)
            && d >= depth - opt::SE_TABLE_DEPTH_SLACK
            && !score::is_decisive(s)
            && !score::is_decisive(s - opt::SE_MARGIN * depth)
        {
            let s_beta = s - opt::SE_MARGIN * depth;
            // The search of the others rewrites this ply's static evaluation unsharpened.
            let own_eval = self.evals[ply as usize];
            frames[0].excluded = tt_mv;
            let v = self.search_again(shared, frames, pos, (depth - 1) / 2, s_beta, ply);
            frames[0].excluded = 0;
            frames[0].pv.clear();
            self.evals[ply as usize] = own_eval;
            if self.stopped {
                return 0;
            }
            if v < s_beta {
                singular_extension = 1;
            } else if s_beta >= beta {
                return s_beta;
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
        let counter = match frame.prev {
            Some(prev) if options.countermove => self.history.counter(side, prev),
            _ => None,
        };
        let killers = [frame.killers[0].clone(), frame.killers[1].clone(), counter];
        frame.quiets_tried.clear();
        while let Some(idx) = {
            let history = &self.history;
            picker.next::<V>(pos, &mut frame.moves, &mut frame.scores, &killers, |m| {
                history.score(side, V::move_squares(m))
            })
        } {
            let stage = picker.stage();
            let mv = frame.moves[idx].clone();
            if excluded != 0 && move_hash(&mv) == excluded {
                continue;
            }
            let squares = V::move_squares(&mv);
            // The child's nominal depth: one ply less, but for a singular table move.
            let child_depth = if stage == Stage::Table {
                depth - 1 + singular_extension
            } else {
                depth - 1
            };
            let quiet = matches!(stage, Stage::Quiet | Stage::Killer)
                || (stage == Stage::Table && !V::is_tactical(pos, &mv));
            if quiet {
                quiets += 1;
            }
            let late = stage == Stage::Quiet || (options.see && stage == Stage::BadTactical);
            let child = V::play_unchecked(pos, &mv);
            rest[0].prev = Some(squares);
            // A checking move is never pruned nor reduced: sacrifices that mate (WAC.001,
            // 1. Qg6) start with a quiet move onto an attacked square and end in a check.
            // With `thr`, nor is a move that threatens to reach the goal row.
            let checks = V::in_check(&child) || (options.threat && V::previous_threatened(&child));
            // Pruning of moves that cannot matter, once a move that does not lose is known.
            if !is_pv && !in_check && !checks && !pivotal && searched > 0 && best > -WIN_BOUND {
                if quiet && stage == Stage::Quiet {
                    if options.late_move_pruning
                        && depth <= opt::LMP_MAX_DEPTH
                        && quiets > lmp_limit(depth, options.improving && !improving)
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
                        && !V::previous_see_ge(pos, &mv, -opt::SEE_QUIET_MARGIN * depth * depth)
                    {
                        continue;
                    }
                }
                if stage == Stage::BadTactical
                    && options.see
                    && depth <= opt::SEE_MAX_DEPTH
                    && !V::previous_see_ge(pos, &mv, -opt::SEE_CAPTURE_MARGIN * depth)
                {
                    continue;
                }
            }
            let score = if searched == 0 {
                -self.negamax(
                    shared,
                    rest,
                    &child,
                    child_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    is_pv,
                    true,
                )
            } else {
                // Late-move reduction of quiet (and losing tactical) moves far down the list.
                let r = if late && !in_check && !checks {
                    let r = self.reduction(
                        depth,
                        searched,
                        (stage == Stage::Quiet).then_some(squares),
                        side,
                    );
                    if options.lmr_non_pv && !is_pv && r > 0 {
                        (r + 1).min(depth - 1)
                    } else {
                        r
                    }
                } else {
                    0
                };
                let mut s = -self.negamax(
                    shared,
                    rest,
                    &child,
                    child_depth - r,
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
                        child_depth,
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
                        child_depth,
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
            if quiet {
                frame.quiets_tried.push(squares);
            }
            if score > best {
                best = score;
                best_hash = move_hash(&mv);
                if score > alpha {
                    alpha = score;
                    update_pv(frame, rest, &mv);
                    if alpha >= beta {
                        if quiet {
                            self.reward(frame, (&mv, squares), side, depth);
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
        if excluded == 0 {
            let bound = Bound::of(best, original_alpha, beta);
            shared
                .tt
                .store(key, best_hash, score::to_table(best, ply), depth, bound);
        }
        best
    }

    /// This node searched again at `depth` with the null window just below `beta`, without
    /// null move: the zugzwang check of a null-move cut and the singular extension's search
    /// of the other moves. The inner search reuses this node's frame, so its moves are
    /// generated again afterwards.
    fn search_again(
        &mut self,
        shared: &Shared,
        frames: &mut [Frame<V>],
        pos: &V::Position,
        depth: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        let v = self.negamax(
            shared,
            frames,
            pos,
            depth,
            beta - 1,
            beta,
            ply,
            false,
            false,
        );
        V::legal_moves_into(pos, &mut frames[0].moves);
        v
    }

    /// The static evaluation: the game's hand-written evaluation with its tuned weights of
    /// 2026-12-07 ([`PreviousVariant::previous_evaluate`]). `ply` is not used (today's
    /// search passes it to the learned evaluation, which the frozen engine does not have).
    pub(super) fn evaluate(&mut self, pos: &V::Position, ply: u32) -> i32 {
        let _ = ply;
        V::previous_evaluate(pos)
    }

    /// A quiet move cut off: it becomes a killer, and the history tables learn it
    /// ([`History::reward`]).
    fn reward(
        &mut self,
        frame: &mut Frame<V>,
        (mv, squares): (&V::Move, (u8, u8)),
        side: usize,
        depth: i32,
    ) {
        let k = &mut frame.killers;
        if k[0].as_ref() != Some(mv) {
            k[1] = k[0].take();
            k[0] = Some(mv.clone());
        }
        self.history.reward(
            &self.options,
            side,
            frame.prev,
            (mv, squares),
            &frame.quiets_tried,
            depth,
        );
    }

    /// Late-move reduction of the move numbered `index` (0-based) at `depth`; `quiet` is
    /// the move's squares when it was ordered by history (for `hlmr`).
    fn reduction(&self, depth: i32, index: usize, quiet: Option<(u8, u8)>, side: usize) -> i32 {
        let options = &self.options;
        let r = if options.lmr_log && (depth as usize) < LMR_TABLE && index < LMR_TABLE {
            self.lmr[depth as usize * LMR_TABLE + index]
        } else {
            opt::lmr_reduction(options, depth, index)
        };
        match quiet {
            Some(squares) => self
                .history
                .adjust_reduction(options, r, depth, side, squares),
            None => r,
        }
    }
}

/// Late-move pruning keeps the first `LMP_BASE + depth²` quiet moves; with `impr` at a
/// node that is not improving (`fewer`), `LMP_NOT_IMPROVING` thirds of them.
fn lmp_limit(depth: i32, fewer: bool) -> usize {
    let limit = opt::LMP_BASE + (depth * depth) as usize;
    if fewer {
        limit * opt::LMP_NOT_IMPROVING / 3
    } else {
        limit
    }
}
