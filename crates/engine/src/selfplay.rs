//! Engine self-play: many games of one engine setting against itself, on several threads,
//! reproducible from one seed.
//!
//! Game `i` of a run with seed `S` uses the seed `game_seed(S, i)` (splitmix64 of both): the
//! random opening plies and every engine seed of that game come from it, so a game's moves
//! depend only on `S`, `i` and the settings, not on the thread count (under node or depth
//! limits; a time limit is never reproducible). Results come back in game order.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use game::{Record, RecordResult, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::stats::{GameEnd, SelfplayStats};
use crate::{EngineConfig, EngineVariant, choose_move};

/// Default safety cap on the plies of one lab game. Antarctos cannot draw (A15) and its
/// games are bounded well below this; Ice Age Chess ends by the fifty-move rule (C10); a
/// game that still reaches the cap is reported as capped, not as a draw.
pub const DEFAULT_MAX_PLIES: u32 = 1000;

/// splitmix64 (S. Vigna): a bijective 64-bit mixer, used to derive independent seeds.
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The seed of game (or pair) `index` of a run with seed `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    splitmix64(splitmix64(seed) ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03))
}

/// The text naming an engine setting in records and reports, in the form
/// [`crate::matches::parse_setting`] reads: `level=5`, `nodes=2000`, `depth=4,nodes=500`
/// (`default` when nothing is set). The seed is shown only when not 0.
pub fn setting_name(config: &EngineConfig) -> String {
    let mut parts = Vec::new();
    if let Some(l) = config.level {
        parts.push(format!("level={l}"));
    }
    if let Some(d) = config.depth {
        parts.push(format!("depth={d}"));
    }
    if let Some(n) = config.nodes {
        parts.push(format!("nodes={n}"));
    }
    if let Some(t) = config.movetime {
        parts.push(format!("movetime={}", t.as_millis()));
    }
    if config.seed != 0 {
        parts.push(format!("seed={}", config.seed));
    }
    if parts.is_empty() {
        "default".to_string()
    } else {
        parts.join(",")
    }
}

/// `plies` random legal moves from `start` (fewer if the game ends first), drawn with a
/// ChaCha8 generator seeded by `seed`; the moves and the position after them.
pub fn random_opening<V: Variant>(
    start: &V::Position,
    plies: u32,
    seed: u64,
) -> (Vec<V::Move>, V::Position) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    for _ in 0..plies {
        if V::outcome(&pos).is_some() {
            break;
        }
        V::legal_moves_into(&pos, &mut legal);
        if legal.is_empty() {
            break;
        }
        let mv = legal.swap_remove(rng.random_range(0..legal.len()));
        pos = V::play_unchecked(&pos, &mv);
        moves.push(mv);
    }
    (moves, pos)
}

/// One finished (or capped) lab game.
#[derive(Debug, Clone)]
pub struct PlayedGame<V: Variant> {
    /// The game as a record: start position, every move (random opening plies included),
    /// result; tags are left to the caller.
    pub record: Record<V>,
    /// How it ended.
    pub end: GameEnd,
    /// Its length in plies.
    pub plies: u32,
}

/// Plays one game from `start`: first the `opening` moves, then `white` and `black` move
/// by `chooser`, until the rules end the game or `max_plies` plies have been played. The
/// engine seed of ply `p` is derived from the setting's own seed, `seed` and `p`.
///
/// A chooser that returns `None` (or an illegal move) in a position the rules call
/// unfinished ends the game as capped rather than inventing a result; it is never
/// expected to happen.
pub fn play_game<V, C>(
    start: &V::Position,
    opening: &[V::Move],
    white: &EngineConfig,
    black: &EngineConfig,
    seed: u64,
    max_plies: u32,
    chooser: &C,
) -> PlayedGame<V>
where
    V: Variant,
    C: Fn(&V::Position, &EngineConfig) -> Option<V::Move>,
{
    let mut record = Record::new(start.clone());
    let mut pos = start.clone();
    for mv in opening {
        match V::play(&pos, mv) {
            Ok(next) => {
                pos = next;
                record.moves.push(mv.clone());
            }
            Err(_) => break,
        }
    }
    let end = loop {
        if let Some(outcome) = V::outcome(&pos) {
            break GameEnd::Finished(outcome);
        }
        let ply = record.moves.len() as u32;
        if ply >= max_plies {
            break GameEnd::PlyCap;
        }
        let base = if V::side_to_move(&pos) == game::Color::White {
            white
        } else {
            black
        };
        let config = EngineConfig {
            seed: game_seed(base.seed ^ seed, u64::from(ply)),
            ..base.clone()
        };
        let Some(mv) = chooser(&pos, &config) else {
            break GameEnd::PlyCap;
        };
        match V::play(&pos, &mv) {
            Ok(next) => {
                pos = next;
                record.moves.push(mv);
            }
            Err(_) => break GameEnd::PlyCap,
        }
    };
    record.result = match end {
        GameEnd::Finished(o) => RecordResult::from_outcome(Some(o)),
        GameEnd::PlyCap => RecordResult::Unknown,
    };
    let plies = record.moves.len() as u32;
    PlayedGame { record, end, plies }
}

/// A lab job that panicked (a rules or engine bug, not bad input): which one and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("lab game {index} panicked: {message}")]
pub struct JobPanicked {
    /// 0-based index of the job (game or pair).
    pub index: usize,
    /// The panic message, when it was a string.
    pub message: String,
}

/// Runs `job(0..count)` on `threads` worker threads (at least one), handing each result to
/// `on_result` on the calling thread **in index order**. When `on_result` returns
/// `Break`, no new job starts, and the results up to and including that index are
/// returned (jobs already running are finished and dropped), so the returned prefix does
/// not depend on the thread count. A panicking job stops the run with [`JobPanicked`].
pub fn run_parallel<T, F, R>(
    count: usize,
    threads: usize,
    job: F,
    mut on_result: R,
) -> Result<Vec<T>, JobPanicked>
where
    T: Send,
    F: Fn(usize) -> T + Sync,
    R: FnMut(usize, &T) -> ControlFlow<()>,
{
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let threads = threads.clamp(1, count.max(1));
    let mut done = Vec::with_capacity(count);
    let panicked: Mutex<Option<JobPanicked>> = Mutex::new(None);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, T)>();
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop, job, panicked) = (&next, &stop, &job, &panicked);
            scope.spawn(move || {
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(i))) {
                        Ok(value) => {
                            if tx.send((i, value)).is_err() {
                                break;
                            }
                        }
                        Err(payload) => {
                            let message = payload
                                .downcast_ref::<&str>()
                                .map(|s| s.to_string())
                                .or_else(|| payload.downcast_ref::<String>().cloned())
                                .unwrap_or_else(|| "(no message)".to_string());
                            if let Ok(mut p) = panicked.lock()
                                && p.is_none()
                            {
                                *p = Some(JobPanicked { index: i, message });
                            }
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, T> = BTreeMap::new();
        let mut expected = 0;
        'recv: for (i, value) in rx {
            pending.insert(i, value);
            while let Some(value) = pending.remove(&expected) {
                let flow = on_result(expected, &value);
                done.push(value);
                expected += 1;
                if flow.is_break() {
                    stop.store(true, Ordering::Relaxed);
                    break 'recv;
                }
            }
        }
    });
    match panicked.into_inner() {
        Ok(None) => Ok(done),
        Ok(Some(p)) => Err(p),
        Err(_) => Err(JobPanicked {
            index: 0,
            message: "lock poisoned".to_string(),
        }),
    }
}

/// The settings of a self-play run.
#[derive(Debug, Clone, PartialEq)]
pub struct SelfplayOptions {
    /// Number of games.
    pub games: u32,
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
    C: Fn(&V::Position, &EngineConfig) -> Option<V::Move>,
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

/// Sets the tags of a lab game's record.
pub(crate) fn tag_record<V: Variant>(
    game: &mut PlayedGame<V>,
    event: &str,
    round: u32,
    white: &str,
    black: &str,
    random_plies: u32,
) {
    let r = &mut game.record;
    r.set_tag("Event", event);
    r.set_tag("Site", "icebound lab");
    r.set_tag("Date", "????.??.??");
    r.set_tag("Round", round.to_string());
    r.set_tag("White", white);
    r.set_tag("Black", black);
    r.set_tag("Result", r.result.as_str());
    let termination = match game.end {
        GameEnd::Finished(o) => o.reason().as_str().to_string(),
        GameEnd::PlyCap => format!("unterminated: ply cap {} reached", game.plies),
    };
    r.set_tag("Termination", termination);
    if random_plies > 0 {
        r.set_tag("Opening", format!("{random_plies} random plies"));
    }
}

/// Runs a self-play run with the engine's [`choose_move`]; `on_game(index, game)` is
/// called on the calling thread for each game, in order (for a progress bar). Returns the
/// games in order and their tallies.
pub fn selfplay<V: EngineVariant>(
    opts: &SelfplayOptions,
    on_game: impl FnMut(usize, &PlayedGame<V>),
) -> Result<(Vec<PlayedGame<V>>, SelfplayStats), JobPanicked> {
    selfplay_with::<V, _>(opts, &|pos, cfg| choose_move::<V>(pos, cfg), on_game)
}

/// [`selfplay`] with any move chooser (tests use simple ones).
pub fn selfplay_with<V, C>(
    opts: &SelfplayOptions,
    chooser: &C,
    mut on_game: impl FnMut(usize, &PlayedGame<V>),
) -> Result<(Vec<PlayedGame<V>>, SelfplayStats), JobPanicked>
where
    V: Variant,
    C: Fn(&V::Position, &EngineConfig) -> Option<V::Move> + Sync,
{
    let mut stats = SelfplayStats::default();
    let games = run_parallel(
        opts.games as usize,
        opts.threads,
        |i| selfplay_game::<V, C>(opts, i as u32, chooser),
        |i, game: &PlayedGame<V>| {
            stats.add(game.end, u64::from(game.plies));
            on_game(i, game);
            ControlFlow::Continue(())
        },
    )?;
    Ok((games, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_per_game_and_reproduce() {
        let a: Vec<u64> = (0..100).map(|i| game_seed(1, i)).collect();
        let b: Vec<u64> = (0..100).map(|i| game_seed(1, i)).collect();
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 100);
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }

    #[test]
    fn run_parallel_keeps_order_and_stops() {
        let out = run_parallel(50, 3, |i| i * i, |_, _| ControlFlow::Continue(())).unwrap();
        assert_eq!(out, (0..50).map(|i| i * i).collect::<Vec<_>>());
        let mut seen = Vec::new();
        let out = run_parallel(
            50,
            4,
            |i| i,
            |i, _| {
                seen.push(i);
                if i == 9 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        )
        .unwrap();
        assert_eq!(out, (0..10).collect::<Vec<_>>());
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
        assert!(
            run_parallel(0, 2, |i| i, |_, _| ControlFlow::Continue(()))
                .unwrap()
                .is_empty()
        );
        let err = run_parallel(
            5,
            2,
            |i| {
                if i == 3 {
                    panic!("boom");
                }
                i
            },
            |_, _| ControlFlow::Continue(()),
        )
        .unwrap_err();
        assert_eq!(err.index, 3);
        assert_eq!(err.message, "boom");
    }

    #[test]
    fn setting_names() {
        assert_eq!(setting_name(&EngineConfig::level(5)), "level=5");
        let c = EngineConfig {
            nodes: Some(2000),
            seed: 7,
            ..Default::default()
        };
        assert_eq!(setting_name(&c), "nodes=2000,seed=7");
        assert_eq!(setting_name(&EngineConfig::default()), "default");
    }
}
