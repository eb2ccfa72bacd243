//! Matches between two engine settings, A and B, played in pairs: each opening (a seeded
//! run of random plies, balanced on request: [`crate::openings`]) is played twice, A with
//! White then B with White. Reports the score,
//! the Elo difference of A over B with a 95 % error bar (pentanomial, see [`crate::stats`]),
//! and optionally an SPRT ([`crate::sprt`]) that stops the match when it decides.
//!
//! A game stopped by the ply cap scores as a draw in a match (a match needs a score for
//! every game); the report counts such games separately so they are never hidden.

use std::ops::ControlFlow;

use engine::{EngineConfig, EngineVariant};
use game::{Color, Variant};

use crate::games::{Chooser, EngineChooser, PlayedGame, play_game, tag_record};
use crate::pool::{JobPanicked, run_parallel};
use crate::seeds::{game_seed, splitmix64};
use crate::setting::setting_name;
use crate::sprt::{SprtParams, SprtStatus, Verdict};
use crate::stats::{GameEnd, Pentanomial, Wdl};

/// What was wrong with a match request, or why it failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// Paired games need an even, positive count.
    #[error(
        "--games {0}: a match plays openings in pairs, so the number of games must be even and at least 2"
    )]
    OddGames(u32),
    /// An engine's `weights=` do not fit the game's evaluation
    /// ([`engine::EngineConfig::check_weights`]); `engine` is `A` or `B`.
    #[error("engine {engine}: {reason}")]
    BadWeights {
        /// `A` or `B`.
        engine: &'static str,
        /// What does not fit.
        reason: String,
    },
    /// A game panicked.
    #[error(transparent)]
    Panicked(#[from] JobPanicked),
}

/// The settings of a match.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchOptions {
    /// Engine A (the one whose score and Elo are reported).
    pub a: EngineConfig,
    /// Engine B.
    pub b: EngineConfig,
    /// Maximum number of games (even: pairs).
    pub games: u32,
    /// Worker threads.
    pub threads: usize,
    /// Match seed; pair `i` uses [`game_seed`]`(seed, i)`.
    pub seed: u64,
    /// Random plies of each opening.
    pub random_plies: u32,
    /// Balanced openings only: the judge's score of each within this many centi-units of
    /// 0 ([`crate::openings::choose_opening`]); `None`: the first random opening drawn.
    pub balanced: Option<i32>,
    /// Ply cap per game.
    pub max_plies: u32,
    /// Stop early when this test decides.
    pub sprt: Option<SprtParams>,
    /// Pairs of an earlier run of the same test (same engines, other openings), by A's
    /// half-points: the SPRT goes on from them, as if the cap of that run had been raised.
    /// The score and Elo of the report are of this run's games alone. Zero: a new test.
    pub sprt_prior: Pentanomial,
}

/// The two games of one opening: `games[0]` with A as White, `games[1]` with B as White.
#[derive(Debug, Clone)]
pub struct PlayedPair<V: Variant> {
    /// The two games.
    pub games: [PlayedGame<V>; 2],
    /// The judge's score of the opening, centi-units for the side to move after it, when
    /// the match asked for balanced openings.
    pub opening_score: Option<i32>,
    /// Openings drawn for this pair (1: the first random one was kept).
    pub opening_draws: u32,
    /// Whether the opening is within the match's bound (`None`: no bound asked for).
    pub opening_balanced: Option<bool>,
}

impl<V: Variant> PlayedPair<V> {
    /// A's half-points in game `k` (2 win, 1 draw or capped, 0 loss).
    pub fn a_half_points(&self, k: usize) -> u8 {
        let a_color = if k == 0 { Color::White } else { Color::Black };
        match self.games[k].end.winner() {
            Some(c) if c == a_color => 2,
            Some(_) => 0,
            None => 1,
        }
    }
}

/// The result of a match so far, from A's side.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchReport {
    /// A's wins, draws (capped games included) and losses over all games.
    pub games: Wdl,
    /// A's pair scores.
    pub pairs: Pentanomial,
    /// Games stopped by the ply cap (scored as draws).
    pub capped: u64,
    /// White's wins, draws and losses (colour advantage in this match).
    pub white: Wdl,
    /// The SPRT after the last pair, when one was asked for.
    pub sprt: Option<SprtStatus>,
}

impl MatchReport {
    fn new() -> Self {
        MatchReport {
            games: Wdl::default(),
            pairs: Pentanomial::default(),
            capped: 0,
            white: Wdl::default(),
            sprt: None,
        }
    }

    /// Adds a pair.
    pub fn add<V: Variant>(&mut self, pair: &PlayedPair<V>) {
        let mut pair_points = 0;
        for k in 0..2 {
            let hp = pair.a_half_points(k);
            pair_points += hp;
            match hp {
                2 => self.games.wins += 1,
                0 => self.games.losses += 1,
                _ => self.games.draws += 1,
            }
            let end = pair.games[k].end;
            if end == GameEnd::PlyCap {
                self.capped += 1;
            }
            match end.winner() {
                Some(Color::White) => self.white.wins += 1,
                Some(Color::Black) => self.white.losses += 1,
                None => self.white.draws += 1,
            }
        }
        self.pairs.add(pair_points);
    }
}

/// Plays pair `index` of a match with `chooser`, records tagged.
pub fn match_pair<V, C>(opts: &MatchOptions, index: u32, chooser: &C) -> PlayedPair<V>
where
    V: Variant,
    C: Chooser<V>,
{
    let seed = game_seed(opts.seed, u64::from(index));
    let start = V::start_position();
    let chosen = chooser.opening(&start, opts.random_plies, seed, opts.balanced);
    let opening = &chosen.moves;
    let (name_a, name_b) = (
        format!("A {}", setting_name(&opts.a)),
        format!("B {}", setting_name(&opts.b)),
    );
    let mut first = play_game::<V, C>(
        &start,
        opening,
        &opts.a,
        &opts.b,
        seed,
        opts.max_plies,
        chooser,
    );
    tag_record(
        &mut first,
        "icebound match",
        2 * index + 1,
        &name_a,
        &name_b,
        opts.random_plies,
    );
    let mut second = play_game::<V, C>(
        &start,
        opening,
        &opts.b,
        &opts.a,
        splitmix64(seed),
        opts.max_plies,
        chooser,
    );
    tag_record(
        &mut second,
        "icebound match",
        2 * index + 2,
        &name_b,
        &name_a,
        opts.random_plies,
    );
    if let Some(text) = chosen.tag(opts.random_plies, opts.balanced) {
        for game in [&mut first, &mut second] {
            game.record.set_tag("Opening", text.clone());
        }
    }
    PlayedPair {
        games: [first, second],
        opening_score: chosen.score,
        opening_draws: chosen.draws,
        opening_balanced: chosen.balanced,
    }
}

/// Plays a match with the engine ([`EngineChooser`]), after checking both settings'
/// weights against the game ([`MatchError::BadWeights`]); `on_pair(index, pair, report)` runs on
/// the calling thread after each pair, in order, with the report so far; it returns
/// `ControlFlow::Break(())` to end the match there (e.g. when its records can no longer be
/// written).
pub fn run_match<V: EngineVariant>(
    opts: &MatchOptions,
    on_pair: impl FnMut(usize, &PlayedPair<V>, &MatchReport) -> ControlFlow<()>,
) -> Result<(Vec<PlayedPair<V>>, MatchReport), MatchError> {
    for (engine, config) in [("A", &opts.a), ("B", &opts.b)] {
        config
            .check_weights::<V>()
            .map_err(|reason| MatchError::BadWeights { engine, reason })?;
    }
    run_match_with::<V, _>(opts, &EngineChooser, on_pair)
}

/// [`run_match`] with any move chooser. Stops after the pair at which the SPRT (if any)
/// reaches a verdict; the pairs after it are not counted, so the stopping point does not
/// depend on the thread count.
pub fn run_match_with<V, C>(
    opts: &MatchOptions,
    chooser: &C,
    mut on_pair: impl FnMut(usize, &PlayedPair<V>, &MatchReport) -> ControlFlow<()>,
) -> Result<(Vec<PlayedPair<V>>, MatchReport), MatchError>
where
    V: Variant,
    C: Chooser<V> + Sync,
{
    if opts.games < 2 || !opts.games.is_multiple_of(2) {
        return Err(MatchError::OddGames(opts.games));
    }
    let mut report = MatchReport::new();
    let pairs = run_parallel(
        (opts.games / 2) as usize,
        opts.threads,
        |i| match_pair::<V, C>(opts, i as u32, chooser),
        |i, pair: &PlayedPair<V>| {
            report.add(pair);
            if let Some(sprt) = &opts.sprt {
                report.sprt = Some(sprt.status_pentanomial(&report.pairs.plus(&opts.sprt_prior)));
            }
            if on_pair(i, pair, &report).is_break() {
                return ControlFlow::Break(());
            }
            match report.sprt.map(|s| s.verdict) {
                Some(Verdict::H0 | Verdict::H1) => ControlFlow::Break(()),
                _ => ControlFlow::Continue(()),
            }
        },
    )?;
    Ok((pairs, report))
}
