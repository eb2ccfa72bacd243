//! Engine self-play: many games of one engine setting against itself, on several threads,
//! reproducible from one seed.
//!
//! Game `i` of a run with seed `S` uses the seed `game_seed(S, i)` (splitmix64 of both): the
//! random opening plies and every engine seed of that game come from it, so a game's moves
//! depend only on `S`, `i` and the settings, not on the thread count (under node or depth
//! limits with one search thread; a time limit is never reproducible). Results come back in
//! game order. A run stopped early goes on from game `k` with `first_game`: the games after
//! it are the ones the whole run would have played.

use std::ops::ControlFlow;

use engine::{EngineConfig, EngineVariant};
use game::Variant;

use crate::games::{
    Chooser, DEFAULT_MAX_PLIES, EngineChooser, PlayedGame, play_game, random_opening, tag_record,
};
use crate::pool::{JobPanicked, run_parallel};
use crate::seeds::{game_seed, splitmix64};
use crate::setting::setting_name;
use crate::stats::SelfplayStats;

/// The settings of a self-play run.
#[derive(Debug, Clone, PartialEq)]
pub struct SelfplayOptions {
    /// Number of games of the whole run.
    pub games: u32,
    /// 0-based index of the first game played: games `first_game..games` are played, the
    /// ones before are left out (to finish a stopped run; 0 plays them all).
    pub first_game: u32,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Run seed; game `i` uses [`game_seed`]`(seed, i)`.
    pub seed: u64,
    /// Random legal plies played before the engine takes over (seeded per game).
    pub random_plies: u32,
    /// Ply cap per game (safety net).
    pub max_plies: u32,
    /// The engine setting, used for both sides.
    pub engine: EngineConfig,
}

impl SelfplayOptions {
    /// `games` games of `engine` against itself, one thread, seed 1, no random plies,
    /// [`DEFAULT_MAX_PLIES`].
    pub fn new(games: u32, engine: EngineConfig) -> Self {
        SelfplayOptions {
            games,
            first_game: 0,
            threads: 1,
            seed: 1,
            random_plies: 0,
            max_plies: DEFAULT_MAX_PLIES,
            engine,
        }
    }
}

/// Plays game `index` of a self-play run with `chooser`, with its record tagged (`Event`,
/// `Site`, `Date`, `Round`, `White`, `Black`, `Result`, `Termination`).
pub fn selfplay_game<V, C>(opts: &SelfplayOptions, index: u32, chooser: &C) -> PlayedGame<V>
where
    V: Variant,
    C: Chooser<V>,
{
    let seed = game_seed(opts.seed, u64::from(index));
    let start = V::start_position();
    let (opening, _) = random_opening::<V>(&start, opts.random_plies, splitmix64(seed));
    let mut game = play_game::<V, C>(
        &start,
        &opening,
        &opts.engine,
        &opts.engine,
        seed,
        opts.max_plies,
        chooser,
    );
    let name = format!("icebound {}", setting_name(&opts.engine));
    tag_record(
        &mut game,
        "icebound selfplay",
        index + 1,
        &name,
        &name,
        opts.random_plies,
    );
    game
}

/// Runs a self-play run with the engine ([`EngineChooser`]); `on_game(index, game)` is
/// called on the calling thread for each game, in order (for a progress bar and the
/// records; `index` counts from 0 at game 0 of the whole run); `Break` stops the run after
/// that game. Returns the games played, in order, and their tallies.
pub fn selfplay<V: EngineVariant>(
    opts: &SelfplayOptions,
    on_game: impl FnMut(usize, &PlayedGame<V>) -> ControlFlow<()>,
) -> Result<(Vec<PlayedGame<V>>, SelfplayStats), JobPanicked> {
    selfplay_with::<V, _>(opts, &EngineChooser, on_game)
}

/// [`selfplay`] with any move chooser (tests use simple ones).
pub fn selfplay_with<V, C>(
    opts: &SelfplayOptions,
    chooser: &C,
    mut on_game: impl FnMut(usize, &PlayedGame<V>) -> ControlFlow<()>,
) -> Result<(Vec<PlayedGame<V>>, SelfplayStats), JobPanicked>
where
    V: Variant,
    C: Chooser<V> + Sync,
{
    let mut stats = SelfplayStats::default();
    let first = opts.first_game.min(opts.games);
    let games = run_parallel(
        (opts.games - first) as usize,
        opts.threads,
        |i| selfplay_game::<V, C>(opts, first + i as u32, chooser),
        |i, game: &PlayedGame<V>| {
            stats.add(game.end, u64::from(game.plies));
            on_game(first as usize + i, game)
        },
    )?;
    Ok((games, stats))
}
