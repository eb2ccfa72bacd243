//! The frozen engine as one side of a game (a copy of `crate::player` of 2026-12-07): a move
//! for a level or explicit limits, with the search's table and history kept from move to
//! move under [`crate::EngineConfig::keep_table`] (`table=game`, the site's level 8).

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::tt::Table;
use super::{PreviousVariant, Searcher};
use crate::{EngineConfig, level, score};

/// One side of one game played by the frozen engine; make one per side and game and call
/// [`Player::choose`] for each of that side's moves in order.
pub struct Player<V: PreviousVariant> {
    /// The searcher of the previous move and its table's size (MiB), kept under
    /// `keep_table` only.
    searcher: Option<(usize, Searcher<V>)>,
}

impl<V: PreviousVariant> Default for Player<V> {
    fn default() -> Self {
        Player { searcher: None }
    }
}

/// Table size for a search of `nodes` nodes: about 1 MiB per 50,000 nodes, 1 to 16 MiB.
fn table_mib(nodes: Option<u64>) -> usize {
    nodes.map_or(16, |n| (n / 50_000).clamp(1, 16) as usize)
}

impl<V: PreviousVariant> Player<V> {
    /// The frozen engine's move in `pos` under `config` (its level or limits, seed, threads
    /// and `keep_table`; its switches and weights are ignored), or `None` when the game is
    /// over. Always a legal move.
    pub fn choose(&mut self, pos: &V::Position, config: &EngineConfig) -> Option<V::Move> {
        let explicit =
            config.depth.is_some() || config.nodes.is_some() || config.movetime.is_some();
        let limits = config.limits();
        let tt_mib = table_mib(limits.nodes);
        let threads = config.threads.max(1);
        let reusable = config.keep_table
            && self
                .searcher
                .as_ref()
                .is_some_and(|(mib, s)| *mib == tt_mib && s.threads() == threads);
        if !reusable {
            self.searcher = None;
        }
        let (_, searcher) = self.searcher.get_or_insert_with(|| {
            let table = Arc::new(Table::new(tt_mib));
            (tt_mib, Searcher::<V>::with_table(table, threads))
        });
        let noisy = config
            .level
            .filter(|_| !explicit)
            .map(level::settings)
            .and_then(|s| Some((s.depth?, s.noise)));
        let best = match noisy {
            Some((depth, noise)) => choose_with_noise::<V>(searcher, pos, depth, config, noise),
            None => searcher.search(pos, &limits, |_| {}).best,
        };
        if !config.keep_table {
            self.searcher = None;
        }
        best
    }
}

/// Levels 1-4: every move scored at `depth`, then the best of score + noise; proven wins
/// are taken without noise.
fn choose_with_noise<V: PreviousVariant>(
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
