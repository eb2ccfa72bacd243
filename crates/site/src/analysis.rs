//! Engine analysis of any position for scripts and pages (issue 14): `POST /api/analysis`
//! answers once after at most [`MAX_MOVETIME_MS`]; `POST /api/analysis/stream` streams every
//! iteration as server-sent events for up to [`MAX_STREAM_MS`] (the analysis board), and
//! stops when the client closes the connection (docs/api.md). Searches run in the site's
//! engine queue ([`Lane::Analysis`], behind every engine reply a game waits for, fair among
//! players), at most [`MAX_ANALYSES_PER_PLAYER`] at once per player.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use engine::score::{WIN, is_decisive};
use engine::{Limits, StopFlag};
use serde::Serialize;

use crate::engine_queue::{EngineQueue, JobError, JobHandle, JobSpec, Lane, Owner};
use crate::live_game::SiteVariant;
use crate::positions::{in_range, read_position};
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::PlayerToken;
use site_model::state::GameKind;
use site_store::now_ms;

/// Longest search a request may ask for, in milliseconds.
pub const MAX_MOVETIME_MS: u64 = 5_000;
/// Longest streamed search, in milliseconds (and its default).
pub const MAX_STREAM_MS: u64 = 30_000;
/// Analyses one player may have queued or running at once; more are answered 429.
pub const MAX_ANALYSES_PER_PLAYER: usize = 2;
/// Transposition table of one analysis, MiB.
const TABLE_MIB: usize = 16;

/// What `POST /api/analysis` asks, its game named (site-http parses the body into it).
#[derive(Debug, Clone)]
pub struct AnalysisRequest {
    /// The game.
    pub variant: GameKind,
    /// The position (Antarctos A18, Ice Age Chess C12), at most 256 bytes.
    pub fen: String,
    /// Search time, 1 to [`MAX_MOVETIME_MS`] milliseconds (required by `POST /api/analysis`;
    /// the stream's default and cap is [`MAX_STREAM_MS`]).
    pub movetime_ms: Option<u64>,
}

/// A score from the side to move's point of view: `{"cp": 35}` (centi-units: a man or a pawn
/// is about 100), `{"win": 7}` or `{"loss": 4}` (a proven result in that many plies).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreView {
    /// Centi-units.
    Cp(i32),
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
}

impl ScoreView {
    /// The view of an engine score ([`engine::score`]).
    pub fn of(score: i32) -> Self {
        if !is_decisive(score) {
            ScoreView::Cp(score)
        } else if score > 0 {
            ScoreView::Win((WIN - score).unsigned_abs())
        } else {
            ScoreView::Loss((WIN + score).unsigned_abs())
        }
    }
}

/// The answer of `POST /api/analysis`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnalysisView {
    /// Deepest completed iteration, plies (0 when the time ran out during the first).
    pub depth: u32,
    /// The best move's score.
    pub score: ScoreView,
    /// The principal variation in the game's canonical notation (A16, C13), best move first.
    pub pv: Vec<String>,
    /// The best move in canonical notation.
    pub bestmove: String,
    /// Positions searched.
    pub nodes: u64,
}

/// One completed iteration of a streamed search (the `iteration` event).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IterationView {
    /// Nominal depth, plies.
    pub depth: u32,
    /// The best move's score.
    pub score: ScoreView,
    /// The principal variation in canonical notation, best move first.
    pub pv: Vec<String>,
    /// Positions searched so far.
    pub nodes: u64,
    /// Positions per second so far.
    pub nps: u64,
    /// Time since the search started, milliseconds.
    pub elapsed_ms: u64,
}

/// The analyses of positions in this process (`POST /api/analysis`, `/api/solve`): the
/// engine queue they search in and each player's count in flight. Its own service, not part of
/// play's (issue 37).
pub struct Analyses {
    pub(crate) engine_queue: Arc<EngineQueue>,
    in_flight: InFlight,
}

impl Analyses {
    /// The analyses searching in `engine_queue` (the one engine games use: it shares the
    /// machine among all searches).
    pub fn new(engine_queue: Arc<EngineQueue>) -> Arc<Analyses> {
        Arc::new(Analyses {
            engine_queue,
            in_flight: InFlight::default(),
        })
    }
}

/// Counts each player's analyses in flight (see [`MAX_ANALYSES_PER_PLAYER`]).
#[derive(Debug, Default)]
struct InFlight(Mutex<HashMap<String, usize>>);

impl InFlight {
    /// Counts one more analysis of `owner`; false when they already have the most allowed.
    fn try_take(&self, owner: &str) -> bool {
        let mut m = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let n = m.entry(owner.to_string()).or_default();
        if *n >= MAX_ANALYSES_PER_PLAYER {
            return false;
        }
        *n += 1;
        true
    }

    fn release(&self, owner: &str) {
        let mut m = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = m.get_mut(owner) {
            *n -= 1;
            if *n == 0 {
                m.remove(owner);
            }
        }
    }
}

/// One counted analysis; uncounted when dropped (answered, failed, or the client went away).
pub(crate) struct Ticket {
    service: Arc<Analyses>,
    owner: String,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.service.in_flight.release(&self.owner);
    }
}

/// The position of `fen`, checked: 413 when too long, 400 when unreadable or finished.
fn position<V: SiteVariant>(fen: &str) -> Result<V::Position, SiteError> {
    let pos = read_position::<V>(fen)?;
    if let Some(outcome) = V::outcome(&pos) {
        return Err(SiteError::bad_request(format!(
            "the position is finished ({outcome}): there is nothing to analyse"
        )));
    }
    Ok(pos)
}

/// The search of `pos` until `stop` says (its deadline is the request's time), on the
/// queue's thread; `on_iteration` sees each completed iteration.
fn search<V: SiteVariant>(
    pos: &V::Position,
    stop: StopFlag,
    mut on_iteration: impl FnMut(IterationView),
) -> Option<AnalysisView> {
    let limits = Limits {
        stop: Some(stop),
        ..Limits::default()
    };
    let found = engine::analyse::<V>(pos, &limits, 1, TABLE_MIB, |it| {
        on_iteration(IterationView {
            depth: it.depth,
            score: ScoreView::of(it.score),
            pv: game::line_move_texts::<V>(pos, &it.pv),
            nodes: it.nodes,
            nps: it.nps(),
            elapsed_ms: u64::try_from(it.elapsed.as_millis()).unwrap_or(u64::MAX),
        });
    });
    let best = found.best?;
    let mut pv = game::line_move_texts::<V>(pos, &found.pv);
    let bestmove = V::move_text(pos, &best);
    if pv.first() != Some(&bestmove) {
        pv = vec![bestmove.clone()];
    }
    Some(AnalysisView {
        depth: found.depth,
        score: ScoreView::of(found.score),
        pv,
        bestmove,
        nodes: found.nodes,
    })
}

/// The checked request: the position, the player's ticket and the queue's job spec.
pub(crate) fn prepare<V: SiteVariant>(
    service: &Arc<Analyses>,
    token: &PlayerToken,
    fen: &str,
    movetime_ms: u64,
) -> Result<(V::Position, Ticket, JobSpec), SiteError> {
    let pos = position::<V>(fen)?;
    let owner = token.hash().into_string();
    if !service.in_flight.try_take(&owner) {
        return Err(SiteError::new(
            ErrorCode::TooManyAnalyses,
            format!(
                "at most {MAX_ANALYSES_PER_PLAYER} analyses at once per player: wait for an \
                 answer, or close one"
            ),
        ));
    }
    let ticket = Ticket {
        service: service.clone(),
        owner: owner.clone(),
    };
    let spec = JobSpec {
        owner: Owner(owner),
        lane: Lane::Analysis,
        budget: Duration::from_millis(movetime_ms),
        since_ms: now_ms(),
    };
    Ok((pos, ticket, spec))
}

async fn run<V: SiteVariant>(
    service: &Arc<Analyses>,
    token: &PlayerToken,
    req: &AnalysisRequest,
    movetime_ms: u64,
) -> Result<AnalysisView, SiteError> {
    let (pos, _ticket, spec) = prepare::<V>(service, token, &req.fen, movetime_ms)?;
    let job = service
        .engine_queue
        .submit(spec, move |stop| search::<V>(&pos, stop, |_| {}));
    match job.result().await {
        Ok(Some(view)) => Ok(view),
        // The position was checked unfinished: a search always has a move there.
        Ok(None) => Err(SiteError::new(
            ErrorCode::Internal,
            "the engine found no move",
        )),
        Err(e) => Err(job_failed(e, "analysis", &req.fen)),
    }
}

/// The answer to a search job that gave no result: the server shutting down (503) or the
/// search panicking (500, logged with the position).
pub(crate) fn job_failed(e: JobError, what: &str, fen: &str) -> SiteError {
    match e {
        JobError::Cancelled => SiteError::new(
            ErrorCode::TooMany,
            format!("the server is shutting down: the {what} was cancelled"),
        ),
        JobError::Panicked(_) => {
            tracing::error!(error = %e, fen = %game::excerpt(fen), "{what} failed");
            SiteError::new(ErrorCode::Internal, format!("the {what} failed"))
        }
    }
}

/// What a streamed search sends: an iteration, or the final answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamEvent {
    /// A completed iteration (`event: iteration`).
    Iteration(IterationView),
    /// The search ended (`event: done`): its final answer.
    Done(AnalysisView),
}

/// A streamed search: its events, in order, then the end of the stream. Dropping it (the
/// client closed the connection) cancels the search and frees the player's ticket.
pub struct AnalysisStream {
    events: tokio::sync::mpsc::UnboundedReceiver<StreamEvent>,
    job: Option<JobHandle<()>>,
    _ticket: Ticket,
}

impl AnalysisStream {
    /// The next event; `None` once the search ended (or failed: the log says why).
    pub async fn next(&mut self) -> Option<StreamEvent> {
        if let Some(e) = self.events.recv().await {
            return Some(e);
        }
        if let Some(job) = self.job.take()
            && let Err(e @ JobError::Panicked(_)) = job.result().await
        {
            tracing::error!(error = %e, "streamed analysis failed");
        }
        None
    }
}

async fn stream_of<V: SiteVariant>(
    service: &Arc<Analyses>,
    token: &PlayerToken,
    req: &AnalysisRequest,
    movetime_ms: u64,
) -> Result<AnalysisStream, SiteError> {
    let (pos, ticket, spec) = prepare::<V>(service, token, &req.fen, movetime_ms)?;
    let (tx, events) = tokio::sync::mpsc::unbounded_channel();
    let job = service.engine_queue.submit(spec, move |stop| {
        let each = tx.clone();
        if let Some(done) = search::<V>(&pos, stop, |it| {
            let _ = each.send(StreamEvent::Iteration(it));
        }) {
            let _ = tx.send(StreamEvent::Done(done));
        }
    });
    Ok(AnalysisStream {
        events,
        job: Some(job),
        _ticket: ticket,
    })
}

/// `POST /api/analysis/stream`: checks the request as [`analyse`] does (`movetime_ms` may be
/// left out: [`MAX_STREAM_MS`]), then streams the search's iterations and its answer.
pub async fn stream(
    service: &Arc<Analyses>,
    token: &PlayerToken,
    req: &AnalysisRequest,
) -> Result<AnalysisStream, SiteError> {
    let variant = req.variant;
    let movetime_ms = in_range(
        "movetime_ms",
        req.movetime_ms.unwrap_or(MAX_STREAM_MS),
        1,
        MAX_STREAM_MS,
    )?;
    games::with_game!(variant, G => stream_of::<G>(service, token, req, movetime_ms).await)
}

/// `POST /api/analysis`: checks the request (400 for a bad variant, position or time, 413
/// for a long position), then searches in the engine queue.
pub async fn analyse(
    service: &Arc<Analyses>,
    token: &PlayerToken,
    req: &AnalysisRequest,
) -> Result<AnalysisView, SiteError> {
    let variant = req.variant;
    let Some(movetime_ms) = req.movetime_ms else {
        return Err(SiteError::bad_request(format!(
            "missing field `movetime_ms` (1 to {MAX_MOVETIME_MS})"
        )));
    };
    let movetime_ms = in_range("movetime_ms", movetime_ms, 1, MAX_MOVETIME_MS)?;
    games::with_game!(variant, G => run::<G>(service, token, req, movetime_ms).await)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::score::{loss_in, win_in};

    #[test]
    fn scores_as_centi_units_or_plies_to_the_end() {
        assert_eq!(ScoreView::of(35), ScoreView::Cp(35));
        assert_eq!(ScoreView::of(-120), ScoreView::Cp(-120));
        assert_eq!(ScoreView::of(win_in(7)), ScoreView::Win(7));
        assert_eq!(ScoreView::of(loss_in(4)), ScoreView::Loss(4));
        let json = serde_json::to_value(ScoreView::of(win_in(3))).expect("json");
        assert_eq!(json, serde_json::json!({"win": 3}));
    }

    #[test]
    fn a_player_holds_at_most_two_analyses() {
        let counts = InFlight::default();
        assert!(counts.try_take("p") && counts.try_take("p"));
        assert!(!counts.try_take("p"), "a third waits for an answer");
        assert!(counts.try_take("q"), "another player is not held up");
        counts.release("p");
        assert!(counts.try_take("p"), "one answered: room again");
        for owner in ["p", "p", "q"] {
            counts.release(owner);
        }
        assert!(
            counts.0.lock().expect("lock").is_empty(),
            "nothing left counted"
        );
    }
}
