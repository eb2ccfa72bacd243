//! The lab's tests play the toy game of `game::toy` (a pile of 15 stones, take 1 to 3, a
//! Black move leaving 7 draws) with a toy chooser instead of the engine, so that self-play
//! and matches are tested without the real rules or search.

use engine::EngineConfig;
use game::Variant;
use game::toy::PilePos;

/// The toy game with its zobrist key.
pub type Pile = game::toy::Pile<false>;
use rand::{Rng, SeedableRng};

/// The toy's "engine": level 8 plays perfectly (leaves a multiple of 4 when it can), any
/// other setting plays a random legal take seeded by the config's seed.
pub fn toy_chooser(pos: &PilePos, config: &EngineConfig) -> Option<u32> {
    let moves = Pile::legal_moves(pos);
    if moves.is_empty() {
        return None;
    }
    if config.level == Some(8)
        && let Some(&m) = moves.iter().find(|&&m| (pos.stones - m).is_multiple_of(4))
    {
        return Some(m);
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(config.seed);
    Some(moves[rng.random_range(0..moves.len())])
}
