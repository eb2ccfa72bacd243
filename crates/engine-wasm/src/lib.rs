//! The engine of both games for the browser: a WebAssembly module with plain `extern "C"`
//! exports (no wasm-bindgen), loaded by `web/wasm/icebound-engine.mjs`, built by
//! `scripts/build-wasm.sh`.
//!
//! The host-independent part is compiled natively too: a [`Session`] (`session.rs`) holds one
//! position of either game and answers with JSON text (legal moves, moves played, a search
//! with an iteration callback (`search.rs`), the exact solver, the board's view (`board.rs`)).
//! The exports and the host's imports are in `wasm.rs`, compiled for `wasm32-unknown-unknown`
//! only; its module doc gives the ABI. This file holds the names both sides share.
//!
//! Stopping: the search and the solver ask a [`StopFlag`] at each check (every 1,024 nodes of
//! the search, every 4,096 of the solver). In the browser that flag polls the host's
//! `should_stop` import, which reads a stop cell the page shares with the Web Worker
//! (a `SharedArrayBuffer`), and the iteration callback may ask to stop too
//! ([`Session::search`]). docs/performance.md ("The engine in the browser") says how a page
//! without a shared buffer stops a search.
//!
//! Determinism: one thread, and a fresh transposition table per search unless
//! [`SearchParams::keep_table`]; a depth or node limit then gives the same nodes and the
//! same move as `icebound analyze --threads 1 --hash <the same size>`.

use engine::search::MAX_PLY;
use serde::Serialize;

mod board;
mod search;
mod session;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod wasm;

pub use board::{BoardView, FrozenInfo, IceAgeInfo, NextMove, ResultInfo};
pub use search::{IterationInfo, SearchInfo, SearchParams, SolveInfo};
pub use session::{PositionInfo, Session};

/// Transposition table size of a search when none is asked for, in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;
/// Largest transposition table a search may ask for, in MiB (a 32-bit module has 4 GiB).
pub const MAX_HASH_MIB: usize = 1024;
/// Deepest search iteration, in plies.
pub const MAX_DEPTH: u32 = MAX_PLY - 1;
/// Longest proof the solver looks for, in plies.
pub const MAX_SOLVE_PLIES: u32 = MAX_PLY - 2;

/// The games, by the names `--variant` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Game {
    /// Antarctos (icebound checkers), `antarctos`.
    Antarctos,
    /// Ice Age Chess, `iceage`.
    Iceage,
}

impl Game {
    /// The game named `name` (`antarctos` or `iceage`).
    ///
    /// # Errors
    /// A message naming both games for any other text.
    pub fn parse(name: &str) -> Result<Game, String> {
        match name.trim() {
            "antarctos" => Ok(Game::Antarctos),
            "iceage" => Ok(Game::Iceage),
            other => Err(format!(
                "unknown variant '{}': antarctos or iceage",
                game::excerpt(other)
            )),
        }
    }
}

/// `value` as JSON text (the exports' answers).
pub fn to_json<T: Serialize>(value: &T) -> String {
    // Serialising these plain structs cannot fail (no maps with non-string keys, no I/O).
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
