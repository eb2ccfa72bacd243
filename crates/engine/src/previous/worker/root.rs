//! The root of one iteration: every root move searched in its window, best first, and the
//! exact score of one root move for the site's multi-line analysis.

use crate::previous::PreviousVariant;
use crate::previous::search::Shared;
use crate::previous::tt::{Bound, move_hash};
use crate::score::{self, INFINITY};

use super::{Worker, update_pv};

impl<V: PreviousVariant> Worker<V> {
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
            rest[0].prev = Some(V::move_squares(&mv));
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
        frames[1].prev = None;
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
}
