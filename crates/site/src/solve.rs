//! `POST /api/solve` (issue 14, the analysis board's "Solve"): the exact solver
//! (`engine::solve`, as `icebound solve`) proves a forced win or loss within a ply limit, or
//! says there is none within the plies it searched in full. It runs in the engine queue's
//! analysis lane under the same per-player limit as the analyses, for at most
//! [`MAX_SOLVE_MS`].

use site_model::secrets::PlayerToken;
use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::solve::Proof;
use game::Color;
use serde::Serialize;

use crate::analysis::{Analyses, job_failed, prepare};
use crate::live_game::SiteVariant;
use crate::positions::in_range;
use site_model::error::SiteError;
use site_model::state::GameKind;

/// Longest proof search a request may ask for, milliseconds (and the default).
pub const MAX_SOLVE_MS: u64 = 10_000;
/// Longest line the solver searches, plies (its tables are sized for it, as the CLI's).
pub const MAX_PLIES: u32 = 100;
/// The ply limit when the request names none.
pub const DEFAULT_PLIES: u32 = 30;

/// What `POST /api/solve` asks, its game named (site-http parses the body into it).
#[derive(Debug, Clone)]
pub struct SolveRequest {
    /// The game.
    pub variant: GameKind,
    /// The position, at most 256 bytes.
    pub fen: String,
    /// Longest line searched, 1 to [`MAX_PLIES`] plies (default [`DEFAULT_PLIES`]).
    pub max_plies: Option<u32>,
    /// Time limit, 1 to [`MAX_SOLVE_MS`] ms (default the most).
    pub movetime_ms: Option<u64>,
}

/// `POST /api/solve`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SolveView {
    /// `win` or `loss` for the side to move, or `unknown` (no forced result within
    /// `max_plies`).
    pub result: &'static str,
    /// Who wins, when proven.
    pub winner: Option<Color>,
    /// Plies to the end of the game, when proven.
    pub plies: Option<u32>,
    /// A main line in canonical notation (the winner's fastest win against the longest
    /// defence); empty when unknown.
    pub line: Vec<String>,
    /// The plies searched in full: the request's limit, or less when the time ran out.
    pub max_plies: u32,
    /// The time limit ended the search before the request's ply limit.
    pub stopped: bool,
    /// Positions visited.
    pub nodes: u64,
}

fn prove<V: SiteVariant>(pos: &V::Position, max_plies: u32, deadline: Instant) -> SolveView {
    let found = engine::solve::solve_until::<V>(pos, max_plies, Some(deadline));
    let side = V::side_to_move(pos);
    let (result, winner, plies, line, searched) = match &found.proof {
        Proof::Win { plies, line } => (
            "win",
            Some(side),
            Some(*plies),
            game::line_move_texts::<V>(pos, line),
            max_plies,
        ),
        Proof::Loss { plies, line } => (
            "loss",
            Some(!side),
            Some(*plies),
            game::line_move_texts::<V>(pos, line),
            max_plies,
        ),
        Proof::Unknown { max_plies } => ("unknown", None, None, Vec::new(), *max_plies),
    };
    SolveView {
        result,
        winner,
        plies,
        line,
        max_plies: searched,
        stopped: found.stopped,
        nodes: found.nodes,
    }
}

async fn run<V: SiteVariant>(
    service: &Arc<Analyses>,
    token: &PlayerToken,
    req: &SolveRequest,
    max_plies: u32,
    movetime_ms: u64,
) -> Result<SolveView, SiteError> {
    let (pos, _ticket, spec) = prepare::<V>(service, token, &req.fen, movetime_ms)?;
    let budget = Duration::from_millis(movetime_ms);
    // The solver keeps its own deadline (it has no pause): the request's time from when the
    // queue starts it.
    let job = service.engine_queue.submit(spec, move |_stop| {
        prove::<V>(&pos, max_plies, Instant::now() + budget)
    });
    match job.result().await {
        Ok(view) => Ok(view),
        Err(e) => Err(job_failed(e, "proof search", &req.fen)),
    }
}

/// `POST /api/solve`: 400 for a bad variant, position, finished position, ply limit or time,
/// 413 for a long position, 429 past the per-player limit (shared with the analyses).
pub async fn solve(
    service: &Arc<Analyses>,
    token: &PlayerToken,
    req: &SolveRequest,
) -> Result<SolveView, SiteError> {
    let variant = req.variant;
    let max_plies = in_range(
        "max_plies",
        u64::from(req.max_plies.unwrap_or(DEFAULT_PLIES)),
        1,
        u64::from(MAX_PLIES),
    )? as u32;
    let movetime_ms = in_range(
        "movetime_ms",
        req.movetime_ms.unwrap_or(MAX_SOLVE_MS),
        1,
        MAX_SOLVE_MS,
    )?;
    games::with_game!(variant, G => run::<G>(service, token, req, max_plies, movetime_ms).await)
}
