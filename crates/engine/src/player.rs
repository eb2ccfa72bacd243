//! The engine as one side of a game: a move for a level or explicit limits, with the
//! search's table and history (aged) kept from move to move when the config asks for it
//! ([`EngineConfig::keep_table`]), as every engine keeps its hash table over a game.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::search::Searcher;
use crate::{EngineConfig, EngineVariant, Yardstick, baseline, level, previous, score, tt};

/// One side of one game. Make one per side and game and call [`GamePlayer::choose`] for
/// each of that side's moves in order; with [`EngineConfig::keep_table`] unset it keeps
/// nothing and every move is that of [`crate::choose_move`].
pub struct GamePlayer<V: EngineVariant> {
    /// The searcher of the previous move and its table's size asked for (MiB), kept only
    /// under `keep_table`.
    searcher: Option<(usize, Searcher<V>)>,
    /// The same for the frozen engine of 2026-12-07 (`engine=previous`).
    previous: previous::Player<V>,
}

impl<V: EngineVariant> Default for GamePlayer<V> {
    fn default() -> Self {
        GamePlayer {
            searcher: None,
            previous: previous::Player::default(),
        }
    }
}

/// Table size for a search of `nodes` nodes: about 1 MiB per 50,000 nodes, 1 to 16 MiB
/// (16 without a node limit), so the thousands of cheap moves of self-play do not spend
/// their time zeroing memory.
fn table_mib(nodes: Option<u64>) -> usize {
    nodes.map_or(16, |n| (n / 50_000).clamp(1, 16) as usize)
}

impl<V: EngineVariant> GamePlayer<V> {
    /// The searcher kept from this player's last move (under `keep_table` only).
    pub fn kept(&self) -> Option<&Searcher<V>> {
        self.searcher.as_ref().map(|(_, s)| s)
    }

    /// The engine's move in `pos` under `config`, or `None` when the game is over. Always
    /// a legal move. With `config.keep_table` the searcher (table and history; killers restart) of
    /// this player's previous move is searched on again when it has the same size and
    /// threads; otherwise, and for the baseline engine, the search starts fresh. The frozen
    /// engines play as [`EngineConfig::engine`] says ([`previous::Player`] keeps its own
    /// searcher under `keep_table`).
    pub fn choose(&mut self, pos: &V::Position, config: &EngineConfig) -> Option<V::Move> {
        match config.engine {
            Yardstick::Baseline => return baseline::choose_move::<V>(pos, config),
            Yardstick::Previous => return self.previous.choose(pos, config),
            Yardstick::Current => {}
        }
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
            let table = Arc::new(tt::Table::new(tt_mib));
            (tt_mib, Searcher::<V>::with_table(table, threads))
        });
        searcher.set_options(config.options::<V>());
        searcher.set_weights(config.weights.clone());
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
/// are taken without noise (shortest first).
fn choose_with_noise<V: EngineVariant>(
    searcher: &mut Searcher<V>,
    pos: &V::Position,
    depth: u32,
    config: &EngineConfig,
    noise: i32,
) -> Option<V::Move> {
    let scored = searcher.score_moves(pos, depth, &config.limits());
    let Some(first) = scored.first() else {
        // Stopped before one move was scored (or the game is over).
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
