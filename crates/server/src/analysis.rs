//! Engine analysis of any position for scripts and pages (issue 14): `POST /api/analysis`
//! (docs/api.md). The search runs in the site's engine queue ([`Lane::Analysis`], behind every
//! engine reply a game waits for, fair among players), at most
//! [`MAX_ANALYSES_PER_PLAYER`] at once per player, for at most [`MAX_MOVETIME_MS`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use antarctos::Antarctos;
use engine::score::{WIN, is_decisive};
use engine::{Limits, StopFlag};
use game::Variant;
use iceage::IceAge;
use serde::{Deserialize, Serialize};

use crate::GameService;
use crate::engine_queue::{JobError, JobSpec, Lane, Owner};
use crate::error::{ApiError, ErrorCode};
use crate::live_game::{MAX_FEN_TEXT, SiteVariant};
use crate::secrets::hash_hex;
use crate::state::VariantName;
use crate::store::now_ms;

/// Longest search a request may ask for, in milliseconds.
pub const MAX_MOVETIME_MS: u64 = 5_000;
/// Analyses one player may have queued or running at once; more are answered 429.
pub const MAX_ANALYSES_PER_PLAYER: usize = 2;
/// Transposition table of one analysis, MiB.
const TABLE_MIB: usize = 16;

/// Body of `POST /api/analysis`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// `antarctos` or `iceage`.
    pub variant: String,
    /// The position (Antarctos A18, Ice Age Chess C12), at most 256 bytes.
    pub fen: String,
    /// Search time, 1 to [`MAX_MOVETIME_MS`] milliseconds.
    pub movetime_ms: u64,
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

/// Counts each player's analyses in flight (see [`MAX_ANALYSES_PER_PLAYER`]).
#[derive(Debug, Default)]
pub struct InFlight(Mutex<HashMap<String, usize>>);

/// One counted analysis; uncounted when dropped (answered, failed or abandoned).
struct Ticket<'a> {
    counts: &'a InFlight,
    owner: String,
}

impl InFlight {
    fn take(&self, owner: &str) -> Option<Ticket<'_>> {
        let mut m = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let n = m.entry(owner.to_string()).or_default();
        if *n >= MAX_ANALYSES_PER_PLAYER {
            return None;
        }
        *n += 1;
        Some(Ticket {
            counts: self,
            owner: owner.to_string(),
        })
    }
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        let mut m = self.counts.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = m.get_mut(&self.owner) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.owner);
            }
        }
    }
}

/// The position of `fen`, checked: 413 when too long, 400 when unreadable or finished.
fn position<V: Variant>(fen: &str) -> Result<V::Position, ApiError> {
    if fen.len() > MAX_FEN_TEXT {
        return Err(ApiError::new(
            ErrorCode::TooLarge,
            format!("fen of {} bytes (at most {MAX_FEN_TEXT})", fen.len()),
        ));
    }
    let pos = V::parse_position(fen.trim())
        .map_err(|e| ApiError::bad_request(format!("fen '{}': {e}", game::excerpt(fen.trim()))))?;
    if let Some(outcome) = V::outcome(&pos) {
        return Err(ApiError::bad_request(format!(
            "the position is finished ({outcome}): there is nothing to analyse"
        )));
    }
    Ok(pos)
}

/// The search of `pos` until `stop` says (its deadline is the request's time), on the
/// queue's thread.
fn search<V: SiteVariant>(pos: &V::Position, stop: StopFlag) -> Option<AnalysisView> {
    let limits = Limits {
        stop: Some(stop),
        ..Limits::default()
    };
    let found = engine::analyse::<V>(pos, &limits, 1, TABLE_MIB, |_| {});
    let best = found.best?;
    let mut at = pos.clone();
    let mut pv = Vec::with_capacity(found.pv.len());
    for mv in &found.pv {
        pv.push(V::move_text(&at, mv));
        match V::play(&at, mv) {
            Ok(next) => at = next,
            Err(_) => break,
        }
    }
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

async fn run<V: SiteVariant>(
    service: &Arc<GameService>,
    token: &str,
    req: &AnalysisRequest,
) -> Result<AnalysisView, ApiError> {
    let pos = position::<V>(&req.fen)?;
    let owner = hash_hex(token);
    let Some(_ticket) = service.analyses.take(&owner) else {
        return Err(ApiError::new(
            ErrorCode::TooManyAnalyses,
            format!(
                "at most {MAX_ANALYSES_PER_PLAYER} analyses at once per player: wait for an \
                 answer"
            ),
        ));
    };
    let spec = JobSpec {
        owner: Owner(owner),
        lane: Lane::Analysis,
        budget: Duration::from_millis(req.movetime_ms),
        since_ms: now_ms(),
    };
    let job = service
        .engine_queue
        .submit(spec, move |stop| search::<V>(&pos, stop));
    match job.result().await {
        Ok(Some(view)) => Ok(view),
        // The position was checked unfinished: a search always has a move there.
        Ok(None) => Err(ApiError::new(
            ErrorCode::Internal,
            "the engine found no move",
        )),
        Err(JobError::Cancelled) => Err(ApiError::new(
            ErrorCode::TooMany,
            "the server is shutting down: the analysis was cancelled",
        )),
        Err(e @ JobError::Panicked(_)) => {
            tracing::error!(error = %e, fen = %game::excerpt(&req.fen), "analysis failed");
            Err(ApiError::new(ErrorCode::Internal, "the analysis failed"))
        }
    }
}

/// `POST /api/analysis`: checks the request (400 for a bad variant, position or time, 413
/// for a long position), then searches in the engine queue.
pub async fn analyse(
    service: &Arc<GameService>,
    token: &str,
    req: &AnalysisRequest,
) -> Result<AnalysisView, ApiError> {
    let variant = VariantName::parse(&req.variant).ok_or_else(|| {
        ApiError::bad_request(format!(
            "unknown variant '{}' (antarctos or iceage)",
            game::excerpt(&req.variant)
        ))
    })?;
    if !(1..=MAX_MOVETIME_MS).contains(&req.movetime_ms) {
        return Err(ApiError::bad_request(format!(
            "movetime_ms {} is out of range (1 to {MAX_MOVETIME_MS})",
            req.movetime_ms
        )));
    }
    match variant {
        VariantName::Antarctos => run::<Antarctos>(service, token, req).await,
        VariantName::IceAge => run::<IceAge>(service, token, req).await,
    }
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
        let a = counts.take("p").expect("first");
        let b = counts.take("p").expect("second");
        assert!(counts.take("p").is_none(), "a third waits for an answer");
        assert!(counts.take("q").is_some(), "another player is not held up");
        drop(a);
        let c = counts.take("p").expect("one answered: room again");
        drop((b, c));
        assert!(
            counts.0.lock().expect("lock").is_empty(),
            "nothing left counted"
        );
    }
}
