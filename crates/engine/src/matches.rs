//! Matches between two engine settings, A and B, played in pairs: each opening (a seeded
//! run of random plies) is played twice, A with White then B with White. Reports the score,
//! the Elo difference of A over B with a 95 % error bar (pentanomial, see [`crate::stats`]),
//! and optionally an SPRT ([`crate::sprt`]) that stops the match when it decides.
//!
//! A game stopped by the ply cap scores as a draw in a match (a match needs a score for
//! every game); the report counts such games separately so they are never hidden.

use std::ops::ControlFlow;
use std::time::Duration;

use game::{Color, Variant};

use crate::selfplay::{
    JobPanicked, PlayedGame, game_seed, play_game, random_opening, run_parallel, setting_name,
    splitmix64, tag_record,
};
use crate::sprt::{SprtParams, SprtStatus, Verdict};
use crate::stats::{GameEnd, Pentanomial, Wdl};
use crate::{EngineConfig, EngineVariant, choose_move};

/// What was wrong with an engine setting such as `level=5` or `nodes=20000,seed=7`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    /// Nothing given.
    #[error("empty engine setting (expected e.g. level=5 or nodes=20000)")]
    Empty,
    /// An item without `=`.
    #[error("'{0}' is not key=value (expected e.g. level=5 or nodes=20000)")]
    NotKeyValue(String),
    /// A key the engine does not know.
    #[error("unknown engine setting '{0}' (known: level, depth, nodes, movetime, seed)")]
    UnknownKey(String),
    /// A value that is not a non-negative integer.
    #[error("{key}={value}: not a non-negative integer")]
    BadNumber {
        /// The key.
        key: String,
        /// The value as written.
        value: String,
    },
    /// `level` outside 1..=8.
    #[error("level={0}: levels go from 1 to 8")]
    LevelRange(u64),
    /// `depth`, `nodes` or `movetime` of 0.
    #[error("{0}=0: must be at least 1")]
    Zero(&'static str),
    /// The same key twice.
    #[error("engine setting '{0}' given twice")]
    Duplicate(String),
    /// Only a seed: the engine needs a level or a limit.
    #[error("engine setting '{0}' has no level, depth, nodes or movetime")]
    NoLimit(String),
}

/// Reads an engine setting: comma-separated `key=value` items with keys `level` (1-8),
/// `depth` (plies), `nodes`, `movetime` (milliseconds) and `seed`; at least one of the
/// first four. Examples: `level=5`, `nodes=20000`, `level=3,seed=7`.
pub fn parse_setting(text: &str) -> Result<EngineConfig, SettingError> {
    let mut config = EngineConfig::default();
    let mut seen: Vec<&str> = Vec::new();
    for item in text.split(',').map(str::trim) {
        if item.is_empty() {
            continue;
        }
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| SettingError::NotKeyValue(item.to_string()))?;
        let (key, value) = (key.trim(), value.trim());
        let key: &'static str = match key {
            "level" => "level",
            "depth" => "depth",
            "nodes" => "nodes",
            "movetime" => "movetime",
            "seed" => "seed",
            _ => return Err(SettingError::UnknownKey(key.to_string())),
        };
        if seen.contains(&key) {
            return Err(SettingError::Duplicate(key.to_string()));
        }
        seen.push(key);
        let number: u64 = value.parse().map_err(|_| SettingError::BadNumber {
            key: key.to_string(),
            value: value.to_string(),
        })?;
        if number == 0 && matches!(key, "depth" | "nodes" | "movetime") {
            return Err(SettingError::Zero(key));
        }
        match key {
            "level" => {
                if !(1..=8).contains(&number) {
                    return Err(SettingError::LevelRange(number));
                }
                config.level = Some(number as u8);
            }
            "depth" => {
                config.depth = Some(u32::try_from(number).map_err(|_| SettingError::BadNumber {
                    key: key.to_string(),
                    value: value.to_string(),
                })?)
            }
            "nodes" => config.nodes = Some(number),
            "movetime" => config.movetime = Some(Duration::from_millis(number)),
            _ => config.seed = number,
        }
    }
    if seen.is_empty() {
        return Err(SettingError::Empty);
    }
    if config.level.is_none()
        && config.depth.is_none()
        && config.nodes.is_none()
        && config.movetime.is_none()
    {
        return Err(SettingError::NoLimit(text.trim().to_string()));
    }
    Ok(config)
}

/// What was wrong with a match request, or why it failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// Paired games need an even, positive count.
    #[error(
        "--games {0}: a match plays openings in pairs, so the number of games must be even and at least 2"
    )]
    OddGames(u32),
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
    /// Ply cap per game.
    pub max_plies: u32,
    /// Stop early when this test decides.
    pub sprt: Option<SprtParams>,
}

/// The two games of one opening: `games[0]` with A as White, `games[1]` with B as White.
#[derive(Debug, Clone)]
pub struct PlayedPair<V: Variant> {
    /// The two games.
    pub games: [PlayedGame<V>; 2],
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
    C: Fn(&V::Position, &EngineConfig) -> Option<V::Move>,
{
    let seed = game_seed(opts.seed, u64::from(index));
    let start = V::start_position();
    let (opening, _) = random_opening::<V>(&start, opts.random_plies, splitmix64(seed));
    let (name_a, name_b) = (
        format!("A {}", setting_name(&opts.a)),
        format!("B {}", setting_name(&opts.b)),
    );
    let mut first = play_game::<V, C>(
        &start,
        &opening,
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
        &opening,
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
    PlayedPair {
        games: [first, second],
    }
}

/// Plays a match with the engine's [`choose_move`]; `on_pair(index, pair, report)` runs on
/// the calling thread after each pair, in order, with the report so far.
pub fn run_match<V: EngineVariant>(
    opts: &MatchOptions,
    on_pair: impl FnMut(usize, &PlayedPair<V>, &MatchReport),
) -> Result<(Vec<PlayedPair<V>>, MatchReport), MatchError> {
    run_match_with::<V, _>(opts, &|pos, cfg| choose_move::<V>(pos, cfg), on_pair)
}

/// [`run_match`] with any move chooser. Stops after the pair at which the SPRT (if any)
/// reaches a verdict; the pairs after it are not counted, so the stopping point does not
/// depend on the thread count.
pub fn run_match_with<V, C>(
    opts: &MatchOptions,
    chooser: &C,
    mut on_pair: impl FnMut(usize, &PlayedPair<V>, &MatchReport),
) -> Result<(Vec<PlayedPair<V>>, MatchReport), MatchError>
where
    V: Variant,
    C: Fn(&V::Position, &EngineConfig) -> Option<V::Move> + Sync,
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
                report.sprt = Some(sprt.status_pentanomial(&report.pairs));
            }
            on_pair(i, pair, &report);
            match report.sprt.map(|s| s.verdict) {
                Some(Verdict::H0 | Verdict::H1) => ControlFlow::Break(()),
                _ => ControlFlow::Continue(()),
            }
        },
    )?;
    Ok((pairs, report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_parse() {
        assert_eq!(parse_setting("level=5").unwrap(), EngineConfig::level(5));
        let c = parse_setting("nodes=20000").unwrap();
        assert_eq!(c.nodes, Some(20000));
        let c = parse_setting(" level=3 , seed=7 ").unwrap();
        assert_eq!((c.level, c.seed), (Some(3), 7));
        let c = parse_setting("depth=4,movetime=250").unwrap();
        assert_eq!(c.depth, Some(4));
        assert_eq!(c.movetime, Some(Duration::from_millis(250)));
    }

    #[test]
    fn settings_errors_say_what() {
        assert_eq!(parse_setting(""), Err(SettingError::Empty));
        assert_eq!(parse_setting("level=9"), Err(SettingError::LevelRange(9)));
        assert_eq!(parse_setting("level=0"), Err(SettingError::LevelRange(0)));
        assert_eq!(
            parse_setting("speed=3"),
            Err(SettingError::UnknownKey("speed".into()))
        );
        assert_eq!(
            parse_setting("nodes=-1").unwrap_err().to_string(),
            "nodes=-1: not a non-negative integer"
        );
        assert_eq!(
            parse_setting("level5"),
            Err(SettingError::NotKeyValue("level5".into()))
        );
        assert_eq!(
            parse_setting("level=2,level=3"),
            Err(SettingError::Duplicate("level".into()))
        );
        assert_eq!(parse_setting("nodes=0"), Err(SettingError::Zero("nodes")));
        assert_eq!(
            parse_setting("seed=4"),
            Err(SettingError::NoLimit("seed=4".into()))
        );
    }

    #[test]
    fn settings_round_trip_through_names() {
        for text in [
            "level=5",
            "nodes=2000",
            "level=3,seed=7",
            "depth=4,nodes=500",
        ] {
            let c = parse_setting(text).unwrap();
            assert_eq!(setting_name(&c), text);
        }
    }
}
