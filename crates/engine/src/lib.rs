//! The engine: search generic over [`game::Variant`], one evaluation per game, strength
//! levels, solver, self-play and matches.
//!
//! PLACEHOLDER API (issue 4 replaces the body, keeps the names): [`EngineVariant`],
//! [`EngineConfig`] and [`choose_move`] are what the CLI, the match runner and the site
//! call.

pub mod matches;
pub mod selfplay;
pub mod sprt;
pub mod stats;

use std::time::Duration;

use game::Variant;
use rand::{Rng, SeedableRng};

/// A game the engine can play: the rules plus what the search needs from each game
/// (its evaluation).
pub trait EngineVariant: Variant {}

impl EngineVariant for antarctos::Antarctos {}
impl EngineVariant for iceage::IceAge {}

/// How to choose a move: a strength level (1-8) or explicit limits, and a seed for the
/// levels that randomise.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineConfig {
    /// Strength level 1 (beginner) to 8 (full strength).
    pub level: Option<u8>,
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes searched.
    pub nodes: Option<u64>,
    /// Maximum thinking time.
    pub movetime: Option<Duration>,
    /// Seed for any randomness; same seed and limits give the same move (but under a
    /// time limit).
    pub seed: u64,
}

impl EngineConfig {
    /// The settings of strength level `level` (1-8).
    pub fn level(level: u8) -> Self {
        EngineConfig {
            level: Some(level),
            ..Default::default()
        }
    }
}

/// The engine's move in `pos`, or `None` when the game is over.
pub fn choose_move<V: EngineVariant>(pos: &V::Position, config: &EngineConfig) -> Option<V::Move> {
    // PLACEHOLDER: a seeded random legal move.
    let moves = V::legal_moves(pos);
    if moves.is_empty() {
        return None;
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(config.seed);
    Some(moves[rng.random_range(0..moves.len())].clone())
}
