//! Engine opponents: when an engine seat is to move, one task per game submits the search
//! (`engine::choose_move` at the seat's level) to the [`crate::engine_queue`], then stores the
//! move and broadcasts it like a player's. The queue shares the machine fairly among players
//! (the human playing the engine owns the job) and enforces the per-level budget as wall time
//! from the stored move, through the search's stop flag, not `movetime`: an explicit
//! `movetime` would replace the level's own limits (its fixed depth, noise and node budget,
//! `engine::level`) and so change its strength.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use engine::EngineConfig;

use crate::engine_queue::{JobError, JobSpec, Lane, Owner};
use crate::play::{EngineSeats, GameService, GameSlot};
use site_model::state::{GameStatus, Level, SeatKind};
use site_store::GameRow;

/// Thinking time of each level (1-8), in milliseconds.
pub const LEVEL_BUDGET_MS: [u64; 8] = [50, 100, 200, 400, 700, 1000, 1500, 2500];

/// The time budget of `level`.
pub fn budget(level: Level) -> Duration {
    Duration::from_millis(LEVEL_BUDGET_MS[level.index()])
}

/// The budget of `level` in game `row` at `now` (Unix ms): the level's own, or less on a
/// real-time clock: a thirtieth of the engine's time left plus half its increment, at least
/// 20 ms, so that it plays its game out on the clock as a player would (issue 38: games
/// against the computer may have a clock).
pub fn clocked_budget(level: Level, row: &GameRow, now: i64) -> Duration {
    let own = budget(level);
    let Some(site_model::clock::Clock::Realtime { increment_ms, .. }) = row.clock else {
        return own;
    };
    let Some(side) = row.clock.and_then(|c| c.running()) else {
        return own;
    };
    let left = row.clock.map_or(0, |c| c.left_ms(side, now)).max(0);
    let share = (left / 30 + increment_ms / 2).max(20);
    own.min(Duration::from_millis(u64::try_from(share).unwrap_or(20)))
}

/// The engine settings of `level` (the queue adds its stop flag); `seed` varies the levels
/// that randomise. Level 8, full strength, keeps its search over the game
/// ([`crate::engine_memory`]); the lower levels search each move afresh, so each plays as the
/// level ladder measured it (docs/strength.md).
pub fn config(level: Level, seed: u64) -> EngineConfig {
    let mut config = EngineConfig::level(level.get());
    config.seed = seed;
    config.keep_table = level == Level::MAX;
    config
}

/// Whose fair share the engine's move in `row` uses: the human playing it (the token of the
/// other seat), else the game itself.
pub fn owner_of(row: &GameRow) -> Owner {
    [&row.white, &row.black]
        .into_iter()
        .find(|s| s.kind == SeatKind::Human)
        .and_then(|s| s.token.clone())
        .map_or_else(
            || Owner(format!("game {}", row.id)),
            |t| Owner(t.into_string()),
        )
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

/// The engine seats of the site: play's [`EngineSeats`] port, set on the game service by
/// `Services::new` so that play starts engine moves without importing this module.
pub struct EnginePlayer;

impl EngineSeats for EnginePlayer {
    fn maybe_start(&self, service: &Arc<GameService>, slot: &Arc<GameSlot>, row: &GameRow) {
        maybe_start(service, slot, row);
    }
}

/// How long an engine's lease on its game's move outlives the start of its search, ms:
/// past it, another process may take the move over (its holder died).
pub const ENGINE_LEASE_MS: i64 = 10_000;
/// An engine move due for this long with no lease held is taken up by the supervisor.
pub const STALLED_MS: i64 = 4_000;
/// How often the supervisor looks for stalled engine moves.
pub const SUPERVISE_EVERY: Duration = Duration::from_secs(2);

/// Starts the engine of every game whose engine move is overdue (its process died during
/// the search): every process looks, the game's lease lets one of them think.
pub async fn supervise(
    service: Arc<GameService>,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    loop {
        tokio::select! {
            _ = tokio::time::sleep(SUPERVISE_EVERY) => {}
            _ = shutdown.changed() => return,
        }
        let cutoff = site_store::now_ms() - STALLED_MS;
        let ids = match service.store().stalled_engine_games(cutoff).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!(error = %e, "cannot look for stalled engine moves");
                continue;
            }
        };
        for id in ids {
            if let Ok(slot) = service.slot(&id).await
                && let Ok(g) = service.lock_fresh(&slot).await
            {
                maybe_start(&service, &slot, g.row());
            }
        }
    }
}

/// The engine's move under its game's lease: a process whose lease is refused leaves the move
/// to the holder.
async fn run(service: Arc<GameService>, slot: Arc<GameSlot>) {
    let id = slot.game.lock().await.row().id.clone();
    let lease = format!("engine:{id}");
    let now = site_store::now_ms();
    let pid = service.process_id().to_string();
    match service
        .store()
        .take_lease(&lease, &pid, now, ENGINE_LEASE_MS)
        .await
    {
        Ok(true) => {}
        Ok(false) => {
            slot.engine_running.store(false, Ordering::SeqCst);
            return;
        }
        // The storage is failing: storing the move will tell; think meanwhile.
        Err(e) => tracing::warn!(game = %id, error = %e, "cannot take the engine's lease"),
    }
    think_with_retries(&service, &slot).await;
    if let Err(e) = service.store().release_lease(&lease, &pid).await {
        tracing::warn!(game = %id, error = %e, "cannot release the engine's lease");
    }
}

async fn think_with_retries(service: &Arc<GameService>, slot: &Arc<GameSlot>) {
    for attempt in 0..5u32 {
        if attempt > 0 {
            tokio::time::sleep(Duration::from_millis(200 << attempt)).await;
        }
        loop {
            match think_and_move(service, slot).await {
                Step::Done => return,
                Step::Retry => break,
                // Not a failure: the position changed under the search; think again at once.
                Step::Stale => continue,
            }
        }
    }
    // Gave up for now (storage keeps failing): the next start resumes it (resume_engines).
    let _g = slot.game.lock().await;
    slot.engine_running.store(false, Ordering::SeqCst);
}

enum Step {
    Done,
    Retry,
    Stale,
}

async fn think_and_move(service: &Arc<GameService>, slot: &Arc<GameSlot>) -> Step {
    let (job, line, id, spec) = {
        let g = slot.game.lock().await;
        let row = g.row();
        let Some(level) = row.engine_to_move() else {
            // Cleared under the lock: a move that makes it the engine's turn again sees it.
            slot.engine_running.store(false, Ordering::SeqCst);
            return Step::Done;
        };
        let spec = JobSpec {
            owner: owner_of(row),
            lane: Lane::Reply,
            budget: clocked_budget(level, row, service.time().now_ms()),
            // The move answered was stored with this write: time queued counts.
            since_ms: row.updated_at,
        };
        let job = g.engine_job(config(level, seed_of(&row.id, row.ply)));
        (job, g.line(), row.id.clone(), spec)
    };
    let found = service.engine_queue.submit(spec, job).result().await;
    let mut g = slot.game.lock().await;
    if g.row().engine_to_move().is_none() {
        // The game ended or it is no longer the engine's turn (resignation, takeback).
        if g.row().status != GameStatus::Ongoing {
            // The search put its searcher back after the game's end had freed the seats.
            crate::engine_memory::release(&id);
        }
        slot.engine_running.store(false, Ordering::SeqCst);
        return Step::Done;
    }
    if g.line() != line {
        // A takeback and a new move can return to the same ply with another position while
        // the search ran (the move that made it the engine's turn did not start a task, as
        // this one was running): the search is stale, search the new position.
        return Step::Stale;
    }
    let mv = match found {
        Ok(Some(mv)) => mv,
        Ok(None) => {
            tracing::error!(game = %id, "engine found no move in an unfinished game");
            slot.engine_running.store(false, Ordering::SeqCst);
            return Step::Done;
        }
        Err(JobError::Cancelled) => {
            // Shutting down: the next start resumes the game (resume_engines).
            slot.engine_running.store(false, Ordering::SeqCst);
            return Step::Done;
        }
        Err(e @ JobError::Panicked(_)) => {
            tracing::error!(game = %id, error = %e, "engine search failed");
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
        assert_eq!(budget(three), Duration::from_millis(200));
        assert_eq!(budget(Level::MAX), Duration::from_millis(2500));
        assert_eq!(config(Level::MAX, 0).level, Some(8));
        assert!(config(Level::MAX, 0).keep_table);
        assert!((1..8).all(|l| !config(Level::new(l).expect("level"), 0).keep_table));
        assert_ne!(seed_of("abc", 1), seed_of("abc", 2));
    }
}
