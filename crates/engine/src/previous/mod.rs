//! The engine as it was on 2026-12-07, before the learned evaluation was first made a
//! default (issue 43; frozen from main at commit 653fe3d): its search with Lazy SMP, its
//! transposition table and both hand-written evaluations with their tuned weights, frozen,
//! so that the engine of today can be measured against it in one command at any time:
//!
//! ```text
//! icebound match --variant iceage --engine-a movetime=200 --engine-b engine=previous,movetime=200 --games 400
//! ```
//!
//! As [`crate::baseline`] froze the engine of before issue 15, this copy is deliberate (a
//! yardstick must not move when the engine is improved). Only names changed:
//! [`PreviousVariant`] holds what the search asked of a game then (the hooks of
//! [`crate::EngineVariant`] of that day, prefixed `previous_`, and the game's set of search
//! techniques, [`PreviousVariant::PREVIOUS_OPTIONS`]); the limits, iterations and results are
//! today's types, which only carry data. Left out, as the engine of that day did not use them
//! by default: the learned evaluation (`on=nnue`), the evaluation weights of a setting
//! (`weights=`), the earlier tunings (`off=tuned`, `off=tuned2`) and the search switches
//! (`on=`/`off=`); a config's switches and weights are ignored here. The strength levels'
//! budgets are [`crate::level`]'s. `previous_is_frozen` in the engine's tests pins its moves
//! and node counts on fixed positions of both games.

mod eval_antarctos;
mod eval_iceage;
mod history;
pub mod options;
mod picker;
mod player;
mod search;
mod see;
mod terms;
pub mod tt;
mod worker;

use game::Variant;

pub use options::SearchOptions;
pub use player::Player;
pub use search::Searcher;

/// What the frozen search needs from a game: the hooks of [`crate::EngineVariant`] as they
/// were on 2026-12-07, each prefixed `previous_`, with the defaults of then.
pub trait PreviousVariant: Variant {
    /// The static evaluation of then (hand-written, tuned weights), centi-units from the
    /// side to move.
    fn previous_evaluate(pos: &Self::Position) -> i32;

    /// Whether quiescence may stop on the static evaluation (`moves`: the legal moves).
    /// Default: not in check.
    fn previous_may_stand_pat(pos: &Self::Position, moves: &[Self::Move]) -> bool {
        let _ = moves;
        !Self::in_check(pos)
    }

    /// Whether quiescence searches `mv` where it may stand pat. Default: tactical moves.
    fn previous_is_noisy(pos: &Self::Position, mv: &Self::Move) -> bool {
        Self::is_tactical(pos, mv)
    }

    /// Ordering bonus of a tactical move, 0..=100,000. Default 0.
    fn previous_order_hint(pos: &Self::Position, mv: &Self::Move) -> i32 {
        let _ = (pos, mv);
        0
    }

    /// The search techniques the game used on 2026-12-07. Default: none.
    const PREVIOUS_OPTIONS: SearchOptions = SearchOptions::NONE;

    /// The position after a pass, for null-move pruning, or `None`. Default: `None`.
    fn previous_null_move(pos: &Self::Position, moves: &[Self::Move]) -> Option<Self::Position> {
        let _ = (pos, moves);
        None
    }

    /// Static exchange evaluation: `mv` wins at least `threshold`. Default: `true`.
    fn previous_see_ge(pos: &Self::Position, mv: &Self::Move, threshold: i32) -> bool {
        let _ = (pos, mv, threshold);
        true
    }

    /// The side not to move threatens to win with its next move. Default: `false`.
    fn previous_threatened(pos: &Self::Position) -> bool {
        let _ = pos;
        false
    }

    /// The move to be played in `pos` changes the board beyond itself (the Ice Age).
    /// Default: `false`.
    fn previous_transforms_board(pos: &Self::Position) -> bool {
        let _ = pos;
        false
    }
}
