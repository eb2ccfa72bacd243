//! Engine settings as text, the form `icebound match --engine-a` and `selfplay` records
//! use: parsing ([`parse_setting`]) and naming ([`setting_name`]), each the other's inverse.

use std::time::Duration;

use engine::{EngineConfig, SearchOptions, Yardstick};

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
    #[error(
        "unknown engine setting '{0}' (known: level, depth, nodes, movetime, seed, threads, engine, on, off, weights, table)"
    )]
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
    /// `threads` outside 1..=256.
    #[error("threads={0}: from 1 to 256")]
    ThreadsRange(u64),
    /// `depth`, `nodes` or `movetime` of 0.
    #[error("{0}=0: must be at least 1")]
    Zero(&'static str),
    /// The same key twice.
    #[error("engine setting '{0}' given twice")]
    Duplicate(String),
    /// Only a seed: the engine needs a level or a limit.
    #[error("engine setting '{0}' has no level, depth, nodes or movetime")]
    NoLimit(String),
    /// `weights=` with an item that is not an integer.
    #[error("weights={value}: '{item}' is not an integer (expected e.g. weights=100/-10/6)")]
    BadWeight {
        /// The value as written.
        value: String,
        /// The item that is not an integer.
        item: String,
    },
    /// `table=` with another value than `move` or `game`.
    #[error(
        "table={0}: expected table=move (a fresh table each move) or table=game (one kept over the game)"
    )]
    UnknownTable(String),
    /// A weight beyond ±[`MAX_WEIGHT`].
    #[error("weights={value}: {item} is beyond ±{MAX_WEIGHT} (a man is about 100)")]
    WeightRange {
        /// The value as written.
        value: String,
        /// The weight out of range.
        item: i32,
    },
    /// `engine=baseline` with a key that only today's engine reads (the frozen engine
    /// would ignore it while the records name it).
    #[error("engine=baseline does not take {0}= (only today's engine has it)")]
    NotForBaseline(&'static str),
    /// `engine=previous` with a key that only today's engine reads (`weights`, `on`,
    /// `off`: the frozen engine of 2026-12-07 has its own fixed evaluation and techniques).
    #[error("engine=previous does not take {0}= (only today's engine has it)")]
    NotForPrevious(&'static str),
    /// `engine=` with another name than `current`, `previous` or `baseline`.
    #[error("engine={0}: known engines are current, previous and baseline")]
    UnknownEngine(String),
    /// The same switch both in `on=` and in `off=`: which wins would depend on the order.
    #[error("'{0}' is both in on= and in off=")]
    OnAndOff(String),
    /// `on=`/`off=` with a name that is not a search switch.
    #[error("{key}={value}: '{name}' is not a search switch (known: {known})")]
    UnknownSwitch {
        /// `on` or `off`.
        key: String,
        /// The value as written.
        value: String,
        /// The unknown name.
        name: String,
        /// The known names.
        known: String,
    },
}

/// Largest weight `weights=` takes, either sign: far above any tuned weight (a man is
/// about 100), and small enough that no evaluation's sum can overflow.
pub const MAX_WEIGHT: i32 = 10_000;

/// Reads an engine setting: comma-separated `key=value` items. Keys: `level` (1-8),
/// `depth` (plies), `nodes`, `movetime` (milliseconds), at least one of these four;
/// `seed`; `threads` (1-256, Lazy SMP); `engine` (`current`, the default; `previous`, the
/// frozen engine of 2026-12-07, [`engine::previous`], which takes `table` and `threads` but
/// not `on`, `off` or `weights`; or `baseline`, the frozen engine of before issue 15,
/// [`engine::baseline`], one thread, no `table` or `weights`); `off` and `on` (search
/// switches joined by `+`, e.g. `off=nmp+see`, [`engine::SearchOptions::NAMES`]); `weights`
/// (the evaluation's weights joined by `/`, in the order of the game's term names, as
/// `icebound tune --fit` prints them, e.g. `weights=100/-10/-28/...`; the count is checked
/// against the game by [`engine::EngineConfig::check_weights`]); `table` (`move`, the
/// default: a fresh transposition table each move, or `game`: one kept over the game,
/// [`engine::EngineConfig::keep_table`]).
/// Examples: `level=5`, `nodes=20000`, `level=3,seed=7`, `engine=baseline,movetime=200`,
/// `engine=previous,movetime=150,table=game`.
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
            "threads" => "threads",
            "engine" => "engine",
            "on" => "on",
            "off" => "off",
            "weights" => "weights",
            "table" => "table",
            _ => return Err(SettingError::UnknownKey(key.to_string())),
        };
        if seen.contains(&key) {
            return Err(SettingError::Duplicate(key.to_string()));
        }
        seen.push(key);
        match key {
            "engine" => {
                config.engine = match value {
                    "current" => Yardstick::Current,
                    "previous" => Yardstick::Previous,
                    "baseline" => Yardstick::Baseline,
                    _ => return Err(SettingError::UnknownEngine(value.to_string())),
                };
                continue;
            }
            "table" => {
                config.keep_table = match value {
                    "move" => false,
                    "game" => true,
                    _ => return Err(SettingError::UnknownTable(value.to_string())),
                };
                continue;
            }
            "weights" => {
                let weights = value
                    .split('/')
                    .map(|item| {
                        item.trim()
                            .parse::<i32>()
                            .map_err(|_| SettingError::BadWeight {
                                value: value.to_string(),
                                item: item.to_string(),
                            })
                    })
                    .collect::<Result<Vec<i32>, _>>()?;
                if let Some(&item) = weights.iter().find(|w| w.abs() > MAX_WEIGHT) {
                    return Err(SettingError::WeightRange {
                        value: value.to_string(),
                        item,
                    });
                }
                config.weights = Some(weights.into());
                continue;
            }
            "on" | "off" => {
                for name in value.split('+').map(str::trim) {
                    let known = SearchOptions::NAMES
                        .iter()
                        .find(|n| **n == name)
                        .ok_or_else(|| SettingError::UnknownSwitch {
                            key: key.to_string(),
                            value: value.to_string(),
                            name: name.to_string(),
                            known: SearchOptions::NAMES.join(", "),
                        })?;
                    let on = key == "on";
                    if config.switches.iter().any(|&(n, o)| n == *known && o != on) {
                        return Err(SettingError::OnAndOff(name.to_string()));
                    }
                    config.switches.push((known, on));
                }
                continue;
            }
            _ => {}
        }
        let number: u64 = value.parse().map_err(|_| SettingError::BadNumber {
            key: key.to_string(),
            value: value.to_string(),
        })?;
        if number == 0 && matches!(key, "depth" | "nodes" | "movetime") {
            return Err(SettingError::Zero(key));
        }
        match key {
            "level" => {
                let level = i64::try_from(number)
                    .ok()
                    .and_then(engine::level::Level::new)
                    .ok_or(SettingError::LevelRange(number))?;
                config.level = Some(level.get());
            }
            "threads" => {
                if !(1..=256).contains(&number) {
                    return Err(SettingError::ThreadsRange(number));
                }
                config.threads = number as usize;
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
    if config.engine == Yardstick::Baseline
        && let Some(key) = ["weights", "table"].into_iter().find(|k| seen.contains(k))
    {
        return Err(SettingError::NotForBaseline(key));
    }
    if config.engine == Yardstick::Previous
        && let Some(key) = ["weights", "on", "off"]
            .into_iter()
            .find(|k| seen.contains(k))
    {
        return Err(SettingError::NotForPrevious(key));
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

/// The text naming an engine setting in records and reports, in the form [`parse_setting`]
/// reads: `level=5`, `nodes=2000`, `depth=4,nodes=500`, `engine=baseline,movetime=200`,
/// `engine=previous,movetime=150`
/// (`default` when nothing is set). The seed is shown only when not 0, the threads only
/// when more than one.
pub fn setting_name(config: &EngineConfig) -> String {
    let mut parts = Vec::new();
    match config.engine {
        Yardstick::Current => {}
        Yardstick::Previous => parts.push("engine=previous".to_string()),
        Yardstick::Baseline => parts.push("engine=baseline".to_string()),
    }
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
    if config.threads > 1 {
        parts.push(format!("threads={}", config.threads));
    }
    for (key, on) in [("on", true), ("off", false)] {
        let names: Vec<&str> = config
            .switches
            .iter()
            .filter(|(_, o)| *o == on)
            .map(|(n, _)| *n)
            .collect();
        if !names.is_empty() {
            parts.push(format!("{key}={}", names.join("+")));
        }
    }
    if config.keep_table {
        parts.push("table=game".to_string());
    }
    if let Some(w) = &config.weights {
        let items: Vec<String> = w.iter().map(i32::to_string).collect();
        parts.push(format!("weights={}", items.join("/")));
    }
    if parts.is_empty() {
        "default".to_string()
    } else {
        parts.join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn weights_parse_and_name_back() {
        let c = parse_setting("nodes=100,weights=100/-10/ 6").unwrap();
        assert_eq!(c.weights.as_deref(), Some(&[100, -10, 6][..]));
        assert_eq!(setting_name(&c), "nodes=100,weights=100/-10/6");
        assert_eq!(parse_setting(&setting_name(&c)).unwrap(), c);
        assert_eq!(
            parse_setting("nodes=100,weights=100/x/6")
                .unwrap_err()
                .to_string(),
            "weights=100/x/6: 'x' is not an integer (expected e.g. weights=100/-10/6)"
        );
        assert!(matches!(
            parse_setting("nodes=100,weights="),
            Err(SettingError::BadWeight { .. })
        ));
        assert_eq!(
            parse_setting("nodes=100,weights=100/-10001/6")
                .unwrap_err()
                .to_string(),
            "weights=100/-10001/6: -10001 is beyond ±10000 (a man is about 100)"
        );
        assert!(parse_setting("nodes=100,weights=10000/-10000").is_ok());
        assert_eq!(
            parse_setting("engine=baseline,nodes=100,weights=1/2"),
            Err(SettingError::NotForBaseline("weights"))
        );
        assert_eq!(
            parse_setting("engine=baseline,movetime=300,table=game")
                .unwrap_err()
                .to_string(),
            "engine=baseline does not take table= (only today's engine has it)"
        );
    }

    #[test]
    fn table_kept_over_the_game_parses() {
        assert!(parse_setting("movetime=300,table=game").unwrap().keep_table);
        assert!(!parse_setting("movetime=300,table=move").unwrap().keep_table);
        assert!(!parse_setting("movetime=300").unwrap().keep_table);
        assert_eq!(
            parse_setting("nodes=9,table=hash").unwrap_err().to_string(),
            "table=hash: expected table=move (a fresh table each move) or table=game (one kept over the game)"
        );
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
        // Which of on= and off= wins would depend on the order, and the name would not say.
        for text in [
            "nodes=300,on=tuned2,off=tuned2",
            "nodes=300,off=nmp+tuned2,on=tuned2",
        ] {
            assert_eq!(
                parse_setting(text),
                Err(SettingError::OnAndOff("tuned2".into())),
                "{text}"
            );
        }
        assert!(parse_setting("nodes=300,off=tuned2+tuned2").is_ok());
        assert_eq!(
            parse_setting("level=2,level=3"),
            Err(SettingError::Duplicate("level".into()))
        );
        assert_eq!(parse_setting("nodes=0"), Err(SettingError::Zero("nodes")));
        assert_eq!(
            parse_setting("seed=4"),
            Err(SettingError::NoLimit("seed=4".into()))
        );
        assert_eq!(
            parse_setting("nodes=9,engine=old"),
            Err(SettingError::UnknownEngine("old".into()))
        );
        assert_eq!(
            parse_setting("nodes=9,engine=old").unwrap_err().to_string(),
            "engine=old: known engines are current, previous and baseline"
        );
        assert_eq!(
            parse_setting("nodes=9,threads=0"),
            Err(SettingError::ThreadsRange(0))
        );
        let e = parse_setting("nodes=9,off=nmp+fast")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("off=nmp+fast: 'fast' is not a search switch (known: nmp, asp"),
            "{e}"
        );
    }

    #[test]
    fn engine_threads_and_switches_parse() {
        let c = parse_setting("engine=baseline,movetime=200").unwrap();
        assert_eq!(c.engine, Yardstick::Baseline);
        let c = parse_setting("engine=previous,movetime=200,threads=2,table=game").unwrap();
        assert_eq!(c.engine, Yardstick::Previous);
        assert!(c.keep_table);
        assert_eq!(
            parse_setting("engine=current,nodes=9").unwrap().engine,
            Yardstick::Current
        );
        for (text, key) in [
            ("engine=previous,nodes=9,on=nnue", "on"),
            ("engine=previous,nodes=9,off=nmp", "off"),
            ("engine=previous,nodes=9,weights=1/2", "weights"),
        ] {
            assert_eq!(
                parse_setting(text),
                Err(SettingError::NotForPrevious(key)),
                "{text}"
            );
        }
        assert_eq!(
            parse_setting("engine=previous,nodes=9,on=nnue")
                .unwrap_err()
                .to_string(),
            "engine=previous does not take on= (only today's engine has it)"
        );
        let c = parse_setting("nodes=100,threads=2,off=nmp+see,on=iae").unwrap();
        assert_eq!(c.engine, Yardstick::Current);
        assert_eq!(c.threads, 2);
        assert_eq!(
            c.switches,
            vec![("nmp", false), ("see", false), ("iae", true)]
        );
    }

    #[test]
    fn settings_round_trip_through_names() {
        for text in [
            "level=5",
            "nodes=2000",
            "level=3,seed=7",
            "depth=4,nodes=500",
            "engine=baseline,movetime=200",
            "engine=previous,movetime=150,threads=2,table=game",
            "nodes=20000,threads=2,off=nmp+see",
            "nodes=5000,on=iae,off=asp",
            "movetime=300,table=game",
        ] {
            let c = parse_setting(text).unwrap();
            assert_eq!(setting_name(&c), text);
        }
    }
}
