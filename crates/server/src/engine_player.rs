//! Engine opponents: when an engine seat is to move, one task per game searches the position
//! on a blocking thread (`engine::choose_move` at the seat's level), then stores the move and
//! broadcasts it like a player's. The per-level time budget is enforced with the config's stop
//! flag, not `movetime`: an explicit `movetime` would replace the level's own limits (its fixed
//! depth, noise and node budget, `engine::level`) and so change its strength. A semaphore
//! bounds the searches running at once, so the server stays responsive while engines think.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use engine::{EngineConfig, StopFlag};

use crate::game_service::{GameService, GameSlot};
use crate::state::Level;
use crate::store::GameRow;

/// Thinking time of each level (1-8), in milliseconds.
pub const LEVEL_BUDGET_MS: [u64; 8] = [50, 100, 200, 400, 700, 1000, 1500, 2500];

/// The time budget of `level`.
pub fn budget(level: Level) -> Duration {
    Duration::from_millis(LEVEL_BUDGET_MS[level.index()])
}

/// The engine settings of `level`, with a stop flag the budget's timer sets; `seed` varies
/// the levels that randomise.
pub fn config(level: Level, seed: u64) -> EngineConfig {
    let mut config = EngineConfig::level(level.get());
    config.seed = seed;
    config.stop = Some(StopFlag::new());
    config
}

fn seed_of(id: &str, ply: i64) -> u64 {
    // FNV-1a of the id, mixed with the ply: each move of each game gets its own seed.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h ^ (ply as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Starts the engine's task for this game if an engine is to move and none is running.
/// Call it with the game's row as it is now (under the game's lock or right after).
pub fn maybe_start(service: &Arc<GameService>, slot: &Arc<GameSlot>, row: &GameRow) {
    if row.engine_to_move().is_none() {
        return;
    }
    if slot.engine_running.swap(true, Ordering::SeqCst) {
        return;
    }
    let service = service.clone();
    let slot = slot.clone();
    tokio::spawn(async move { run(service, slot).await });
}

async fn run(service: Arc<GameService>, slot: Arc<GameSlot>) {
    for attempt in 0..5u32 {
        if attempt > 0 {
            tokio::time::sleep(Duration::from_millis(200 << attempt)).await;
        }
        match think_and_move(&service, &slot).await {
            Step::Done => return,
            Step::Retry => continue,
        }
    }
    // Gave up for now (storage keeps failing): the next start resumes it (resume_engines).
    let _g = slot.game.lock().await;
    slot.engine_running.store(false, Ordering::SeqCst);
}

enum Step {
    Done,
    Retry,
}

async fn think_and_move(service: &Arc<GameService>, slot: &Arc<GameSlot>) -> Step {
    let Ok(permit) = service.engine_permits.clone().acquire_owned().await else {
        return Step::Done;
    };
    let (job, ply, id, stop, budget) = {
        let g = slot.game.lock().await;
        let Some(level) = g.row().engine_to_move() else {
            // Cleared under the lock: a move that makes it the engine's turn again sees it.
            slot.engine_running.store(false, Ordering::SeqCst);
            return Step::Done;
        };
        let row = g.row();
        let config = config(level, seed_of(&row.id, row.ply));
        let stop = config.stop.clone();
        (
            g.engine_job(config),
            row.ply,
            row.id.clone(),
            stop,
            budget(level),
        )
    };
    let mut search = tokio::task::spawn_blocking(job);
    let found = match tokio::time::timeout(budget, &mut search).await {
        Ok(done) => done,
        Err(_) => {
            // Over budget: the search returns its best move so far within ~1,000 nodes.
            if let Some(stop) = &stop {
                stop.stop();
            }
            search.await
        }
    };
    drop(permit);
    let mut g = slot.game.lock().await;
    if g.row().ply != ply || g.row().engine_to_move().is_none() {
        // The game moved on meanwhile (resignation, reload): this search is stale.
        slot.engine_running.store(false, Ordering::SeqCst);
        return Step::Done;
    }
    let mv = match found {
        Ok(Some(mv)) => mv,
        Ok(None) => {
            tracing::error!(game = %id, "engine found no move in an unfinished game");
            slot.engine_running.store(false, Ordering::SeqCst);
            return Step::Done;
        }
        Err(e) => {
            tracing::error!(game = %id, error = %e, "engine search panicked");
            return Step::Retry;
        }
    };
    let prepared = match g.prepare_move(&mv) {
        Ok(p) => p,
        Err(e) => {
            tracing::error!(game = %id, mv = %mv, error = %e, "engine move rejected by the rules");
            slot.engine_running.store(false, Ordering::SeqCst);
            return Step::Done;
        }
    };
    match service.store_move(slot, &mut g, prepared).await {
        Ok(()) => {
            tracing::debug!(game = %id, mv = %mv, "engine moved");
            slot.engine_running.store(false, Ordering::SeqCst);
            Step::Done
        }
        Err(e) => {
            tracing::warn!(game = %id, error = %e, "engine move not stored; retrying");
            Step::Retry
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_grow_with_level() {
        assert!(LEVEL_BUDGET_MS.windows(2).all(|w| w[0] < w[1]));
        let three = Level::new(3).expect("level 3");
        let c = config(three, 7);
        assert_eq!(c.level, Some(3));
        assert_eq!(c.seed, 7);
        // No explicit limit: the level keeps its own depth, noise and node budget.
        assert_eq!(c.movetime, None);
        assert!(c.stop.is_some());
        assert_eq!(budget(three), Duration::from_millis(200));
        assert_eq!(budget(Level::MAX), Duration::from_millis(2500));
        assert_eq!(config(Level::MAX, 0).level, Some(8));
        assert_ne!(seed_of("abc", 1), seed_of("abc", 2));
    }
}
