//! The search's and the solver's settings and answers, and the runs behind
//! [`crate::Session::search`] and [`crate::Session::solve`]: one thread, a table of the size
//! asked, the iterations as they complete.

use engine::score::ScoreText;
use engine::search::StopFlag;
use engine::solve::{Proof, Solution};
use engine::tt::Table;
use engine::{EngineVariant, Iteration, Limits, SearchResult, Searcher};
use game::Variant;
use serde::Serialize;

use crate::{DEFAULT_HASH_MIB, MAX_DEPTH, MAX_HASH_MIB};

/// Limits and settings of [`Session::search`]. At least one of depth, nodes and time should
/// be set; with none the search runs until stopped (or [`MAX_DEPTH`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchParams {
    /// Deepest iteration, 1 to [`MAX_DEPTH`] plies.
    pub depth: Option<u32>,
    /// Node budget, at least 1.
    pub nodes: Option<u64>,
    /// Time budget in milliseconds, at least 1 (the host's clock).
    pub movetime_ms: Option<u64>,
    /// Transposition table in MiB, 1 to [`MAX_HASH_MIB`]; `None` for [`DEFAULT_HASH_MIB`].
    pub hash_mib: Option<usize>,
    /// Keep the table (and history) of the previous search of the same game and size, as an
    /// analysis board does between positions; `false` gives the reproducible fresh search.
    pub keep_table: bool,
}

/// One completed iteration, as the iteration callback receives it (JSON fields as named
/// here).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IterationInfo {
    /// Nominal depth in plies.
    pub depth: u32,
    /// Score from the side to move: centi-units, or near ±1,000,000 for a proven result.
    pub score: i32,
    /// The score as the CLI prints it: `35`, `win 3` or `loss 4` (plies to the end).
    pub score_text: String,
    /// Nodes since the search started.
    pub nodes: u64,
    /// Milliseconds since the search started (the host's clock).
    pub time_ms: u64,
    /// Principal variation in canonical move texts, best move first.
    pub pv: Vec<String>,
}

/// The result of [`Session::search`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchInfo {
    /// The best move in canonical text; `null` only when the game is over.
    pub best: Option<String>,
    /// Its score, as in [`IterationInfo::score`].
    pub score: i32,
    /// As in [`IterationInfo::score_text`].
    pub score_text: String,
    /// Deepest completed iteration (0 when stopped during the first).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds the search took (the host's clock).
    pub time_ms: u64,
    /// Principal variation, best move first.
    pub pv: Vec<String>,
    /// True when the stop flag (the host or the callback) ended the search.
    pub stopped: bool,
}

/// The result of [`Session::solve`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SolveInfo {
    /// `win` or `loss` (for the side to move) or `unknown`.
    pub result: &'static str,
    /// Plies to the end of a win or loss; for `unknown`, the plies searched in full.
    pub plies: u32,
    /// The main line in canonical move texts (empty for `unknown`).
    pub line: Vec<String>,
    /// The line with move numbers, as `icebound solve` prints it
    /// (`win in 3 plies: 1... c7-b6 2. a5xc7 a7xc5xe3xc1#`).
    pub text: String,
    /// Positions visited.
    pub nodes: u64,
    /// True when the time limit or the stop flag ended the solver first.
    pub stopped: bool,
}

/// Checks the search parameters; returns the table size.
pub(crate) fn check_search(params: &SearchParams) -> Result<usize, String> {
    if let Some(depth) = params.depth
        && !(1..=MAX_DEPTH).contains(&depth)
    {
        return Err(format!("depth must be 1 to {MAX_DEPTH}, not {depth}"));
    }
    if params.nodes == Some(0) {
        return Err("the node limit must be at least 1".into());
    }
    if params.movetime_ms == Some(0) {
        return Err("the time limit must be at least 1 millisecond".into());
    }
    let hash = params.hash_mib.unwrap_or(DEFAULT_HASH_MIB);
    if !(1..=MAX_HASH_MIB).contains(&hash) {
        return Err(format!(
            "the table size must be 1 to {MAX_HASH_MIB} MiB, not {hash}"
        ));
    }
    Ok(hash)
}

pub(crate) fn fresh_searcher<V: EngineVariant>(hash_mib: usize) -> Result<Searcher<V>, String> {
    let table = Table::try_new(hash_mib)
        .map_err(|e| format!("cannot allocate a transposition table of {} MiB", e.mib))?;
    Ok(Searcher::with_table(std::sync::Arc::new(table), 1))
}

pub(crate) fn run_search<V: EngineVariant>(
    mut searcher: Searcher<V>,
    pos: &V::Position,
    limits: &Limits,
    mut on_iteration: impl FnMut(&IterationInfo) -> bool,
) -> (SearchInfo, Searcher<V>) {
    let stop = limits.stop.clone();
    let result: SearchResult<V> = searcher.search(pos, limits, |it: &Iteration<V>| {
        let info = IterationInfo {
            depth: it.depth,
            score: it.score,
            score_text: ScoreText(it.score).to_string(),
            nodes: it.nodes,
            time_ms: it.elapsed.as_millis() as u64,
            pv: game::line_move_texts::<V>(pos, &it.pv),
        };
        if on_iteration(&info)
            && let Some(stop) = &stop
        {
            stop.stop();
        }
    });
    let info = SearchInfo {
        best: result.best.as_ref().map(|m| V::move_text(pos, m)),
        score: result.score,
        score_text: ScoreText(result.score).to_string(),
        depth: result.depth,
        nodes: result.nodes,
        time_ms: result.elapsed.as_millis() as u64,
        pv: game::line_move_texts::<V>(pos, &result.pv),
        stopped: stop.as_ref().is_some_and(StopFlag::is_stopped),
    };
    (info, searcher)
}

pub(crate) fn solve_info<V: Variant>(pos: &V::Position, solution: &Solution<V>) -> SolveInfo {
    let (result, plies, line) = match &solution.proof {
        Proof::Win { plies, line } => ("win", *plies, game::line_move_texts::<V>(pos, line)),
        Proof::Loss { plies, line } => ("loss", *plies, game::line_move_texts::<V>(pos, line)),
        Proof::Unknown { max_plies } => ("unknown", *max_plies, Vec::new()),
    };
    SolveInfo {
        result,
        plies,
        line,
        text: engine::solve::proof_text::<V>(pos, &solution.proof),
        nodes: solution.nodes,
        stopped: solution.stopped,
    }
}
