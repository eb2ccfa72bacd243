//! The engine as it was before issue 15 (commit 4974cdc, git tag `engine-baseline`): its
//! search, transposition table and both evaluations, frozen, so that the engine of today can
//! be measured against it in one command at any time:
//!
//! ```text
//! icebound match --variant iceage --engine-a movetime=200 --engine-b engine=baseline,movetime=200 --games 400
//! ```
//!
//! The copy is deliberate (a yardstick must not move when the engine is improved); only the
//! names changed: [`BaselineVariant`] stands for the old `EngineVariant` (its methods
//! prefixed `baseline_`), and the search limits, iteration and result types are the current
//! ones (the same fields and more). `baseline_is_frozen`
//! in the tests pins its node counts to the numbers the old engine printed.

mod eval_antarctos;
mod eval_iceage;
mod search;
mod tt;

use game::Variant;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use search::Searcher;

use crate::{EngineConfig, level, score};

/// What the baseline search needs from a game (the old `EngineVariant`, with the old
/// evaluations of both games).
pub trait BaselineVariant: Variant {
    /// The old static evaluation, centi-units from the side to move.
    fn baseline_evaluate(pos: &Self::Position) -> i32;

    /// Whether quiescence may stop on the static evaluation (default: not in check).
    fn baseline_may_stand_pat(pos: &Self::Position, moves: &[Self::Move]) -> bool {
        let _ = moves;
        !Self::in_check(pos)
    }

    /// Whether quiescence searches `mv` where it may stand pat (default: tactical moves).
    fn baseline_is_noisy(pos: &Self::Position, mv: &Self::Move) -> bool {
        Self::is_tactical(pos, mv)
    }

    /// Ordering bonus of a tactical move, 0..=100,000 (default 0).
    fn baseline_order_hint(pos: &Self::Position, mv: &Self::Move) -> i32 {
        let _ = (pos, mv);
        0
    }
}

/// The old `engine::choose_move`: the move of the baseline engine for a level or explicit
/// limits (the config's threads and search options are ignored: it had one thread).
pub fn choose_move<V: BaselineVariant>(
    pos: &V::Position,
    config: &EngineConfig,
) -> Option<V::Move> {
    let explicit = config.depth.is_some() || config.nodes.is_some() || config.movetime.is_some();
    let limits = config.limits();
    let tt_mib = limits
        .nodes
        .map_or(16, |n| (n / 50_000).clamp(1, 16) as usize);
    let mut searcher = Searcher::<V>::new(tt_mib);
    if let Some(l) = config.level
        && !explicit
    {
        let settings = level::settings(l);
        if let Some(depth) = settings.depth {
            return choose_with_noise::<V>(&mut searcher, pos, depth, config, settings.noise);
        }
    }
    searcher.search(pos, &limits, |_| {}).best
}

fn choose_with_noise<V: BaselineVariant>(
    searcher: &mut Searcher<V>,
    pos: &V::Position,
    depth: u32,
    config: &EngineConfig,
    noise: i32,
) -> Option<V::Move> {
    let scored = searcher.score_moves(pos, depth, &config.limits());
    let Some(first) = scored.first() else {
        return V::legal_moves(pos).into_iter().next();
    };
    if first.1 >= score::WIN_BOUND {
        return Some(first.0.clone());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed ^ V::zobrist(pos));
    let mut best: Option<(&V::Move, i32)> = None;
    for (mv, s) in &scored {
        let blurred = if score::is_decisive(*s) {
            *s
        } else {
            s + rng.random_range(-noise..=noise)
        };
        if best.is_none_or(|(_, b)| blurred > b) {
            best = Some((mv, blurred));
        }
    }
    best.map(|(m, _)| m.clone())
}
