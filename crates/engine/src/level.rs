//! Strength levels 1-8: what each level searches and how much noise it adds.
//!
//! Levels 1-4 score every legal move with an exact window at a small fixed depth and pick
//! the best of `score + noise`, where the noise is uniform in `[-noise, +noise]` centi-units
//! and drawn from the config's seed (mixed with the position's zobrist key, so one seed
//! gives varied but reproducible games). A proven win is never blurred by noise: every
//! level plays a winning move (shortest first) when its search sees one, so even level 1
//! never misses a one-move win. Levels 5-8 run the full search on a node budget, no noise;
//! the budget triples from one level to the next, because a doubling (120,000 to 250,000)
//! gained only about 28 Elo in Antarctos, too little to tell the levels apart.
//!
//! Per-move cost (upper bounds, nodes as counted by the search, quiescence included):
//!
//! | level | search | noise (centi-units) | nodes per move at most |
//! |---|---|---|---|
//! | 1 | depth 1 for every move | 150 | 3,000 |
//! | 2 | depth 2 for every move | 90 | 8,000 |
//! | 3 | depth 3 for every move | 45 | 20,000 |
//! | 4 | depth 4 for every move | 20 | 40,000 |
//! | 5 | full search | 0 | 20,000 |
//! | 6 | full search | 0 | 60,000 |
//! | 7 | full search | 0 | 180,000 |
//! | 8 | full search | 0 | 600,000 |
//!
//! Level 8 of Ice Age Chess evaluates with the learned evaluation since 2026-12-07
//! ([`crate::EngineVariant::NNUE_AT_LEVEL_8`]); every other level, and Antarctos, with the
//! hand-written one.

use std::time::Duration;

/// What one level does (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelSettings {
    /// Fixed depth of the per-move scoring (levels 1-4), `None` for the full search.
    pub depth: Option<u32>,
    /// Node budget per move.
    pub nodes: u64,
    /// Half-width of the uniform noise added to each move's score, in centi-units.
    pub noise: i32,
}

/// Lowest level.
pub const MIN_LEVEL: u8 = 1;
/// Highest level (full strength).
pub const MAX_LEVEL: u8 = 8;

/// A strength level, 1 (beginner) to 8 (full strength). [`Level::new`] is the one range check
/// of the workspace: the site's requests and rows, the command line, the lab's settings and
/// the engine in the browser all read a level through it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    /// Level 1.
    pub const MIN: Level = Level(MIN_LEVEL);
    /// Level 8.
    pub const MAX: Level = Level(MAX_LEVEL);

    /// The level `n`, if it is one (1-8).
    pub fn new(n: i64) -> Option<Level> {
        (i64::from(MIN_LEVEL)..=i64::from(MAX_LEVEL))
            .contains(&n)
            .then_some(Level(n as u8))
    }

    /// 1-8.
    pub fn get(self) -> u8 {
        self.0
    }

    /// 0-7, for tables indexed by level.
    pub fn index(self) -> usize {
        usize::from(self.0 - 1)
    }

    /// What this level searches.
    pub fn settings(self) -> LevelSettings {
        settings(self.0)
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The settings of `level`, clamped to 1-8 (a [`Level`]'s value; the clamp only guards the
/// engine's own callers, such as [`crate::EngineConfig::level`]).
pub fn settings(level: u8) -> LevelSettings {
    let (depth, nodes, noise) = match level.clamp(MIN_LEVEL, MAX_LEVEL) {
        1 => (Some(1), 3_000, 150),
        2 => (Some(2), 8_000, 90),
        3 => (Some(3), 20_000, 45),
        4 => (Some(4), 40_000, 20),
        5 => (None, 20_000, 0),
        6 => (None, 60_000, 0),
        7 => (None, 180_000, 0),
        _ => (None, 600_000, 0),
    };
    LevelSettings {
        depth,
        nodes,
        noise,
    }
}

/// A fallback time cap for every level, so a pathological position cannot hang a game.
pub const LEVEL_TIME_CAP: Duration = Duration::from_secs(20);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_grow_with_level() {
        // Levels 1-4 and 5-8 are two families; each grows within its family.
        for l in 1..4 {
            assert!(settings(l).noise > settings(l + 1).noise);
            assert!(settings(l).depth < settings(l + 1).depth);
        }
        for l in 5..8 {
            assert!(settings(l).nodes < settings(l + 1).nodes);
        }
        assert_eq!(settings(0), settings(1));
        assert_eq!(settings(200), settings(8));
    }

    #[test]
    fn a_level_is_one_to_eight_and_nothing_else() {
        for n in [i64::MIN, -1, 0, 9, 256, 257, i64::MAX] {
            assert_eq!(Level::new(n), None, "{n}");
        }
        assert_eq!(Level::new(1), Some(Level::MIN));
        assert_eq!(Level::new(8), Some(Level::MAX));
        for n in 1..=8 {
            let level = Level::new(n).expect("a level");
            assert_eq!(i64::from(level.get()), n);
            assert_eq!(level.index(), n as usize - 1);
            assert_eq!(level.settings(), settings(level.get()));
            assert_eq!(level.to_string(), n.to_string());
        }
    }
}
