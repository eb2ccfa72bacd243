//! Quiescence: the search below the nominal depth, until the position is quiet enough for
//! the static evaluation.

use crate::previous::PreviousVariant;
use crate::previous::picker::Picker;
use crate::previous::search::{MAX_PLY, Shared, terminal_score};
use crate::score::{self, INFINITY};

use super::{Frame, MAX_QUIESCENCE, Worker, update_pv};

impl<V: PreviousVariant> Worker<V> {
    /// Quiescence: stands pat on the evaluation where the game allows it
    /// ([`PreviousVariant::previous_may_stand_pat`]) and searches only the moves that change the
    /// evaluation a lot ([`PreviousVariant::previous_is_noisy`]), without the ones that lose material
    /// by static exchange when SEE is on; where it may not stand pat it searches every
    /// legal move.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn quiesce(
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
        let key = V::zobrist(pos);
        if self.options.quiescence_tt {
            shared.tt.prefetch(key);
        }
        V::legal_moves_into(pos, &mut frame.moves);
        if frame.moves.is_empty() {
            return terminal_score::<V>(pos, ply);
        }
        // With `thr`, a goal threat is answered as a check: every move is searched.
        let stand_pat = V::previous_may_stand_pat(pos, &frame.moves)
            && !(self.options.threat && V::previous_threatened(pos));
        // The evaluation comes before the table's answer, which it does not change: the
        // bucket prefetched above arrives meanwhile.
        let eval = if stand_pat || q >= MAX_QUIESCENCE || ply >= MAX_PLY - 1 {
            self.evaluate(pos, ply)
        } else {
            -INFINITY
        };
        if self.options.quiescence_tt
            && let Some(e) = shared.tt.probe(key)
        {
            let s = score::from_table(e.score, ply);
            if e.bound.cuts(s, alpha, beta) {
                return s;
            }
        }
        if q >= MAX_QUIESCENCE || ply >= MAX_PLY - 1 {
            return eval;
        }
        let mut best = -INFINITY;
        if stand_pat {
            if eval >= beta {
                return eval;
            }
            best = eval;
            alpha = alpha.max(eval);
            frame.moves.retain(|m| V::previous_is_noisy(pos, m));
        }
        let mut picker = Picker::quiescence(self.options.see && stand_pat);
        let none: [Option<V::Move>; 0] = [];
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
