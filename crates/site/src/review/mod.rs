//! Computer analysis of a whole game (issue 14's evaluation graph): `POST
//! /api/games/{id}/review` (a finished game) or `POST /api/imports/{id}/review` (an imported
//! one) evaluates every position of the main line at [`REVIEW_NODES`] nodes, in the
//! background, through the engine queue's analysis lane in the asking player's share. Each
//! evaluation is stored as it comes (store/reviews.rs), so the progress shows and a restart
//! resumes where it stopped; a game is analysed once, for everyone. The evaluations, the
//! marks (lichess's thresholds) and the answer are in `review/view.rs`.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use engine::Limits;
use engine::score::is_decisive;
use game::{Color, RecordResult};

use crate::analysis::{ScoreView, job_failed};
use crate::engine_queue::{JobSpec, Lane, Owner};
use crate::import::imported;
use crate::live_game::SiteVariant;
use crate::play::{GameService, valid_id};
use crate::positions::read_position;
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::{PlayerToken, TokenHash};
use site_model::state::{GameKind, GameStatus, ReviewStatus};
use site_store::{ReviewRow, StoreError, now_ms};

mod view;
pub use view::{Eval, Mark, MarkKind, ReviewView, SideSummary, Summary, WhiteScore, marks};
use view::{evals_of, view_of};

/// Nodes searched in each position of a reviewed game (by default: `SiteOptions::review_nodes`).
pub const REVIEW_NODES: u64 = 150_000;
/// Longest game reviewed, in moves (its positions are one more).
pub const MAX_REVIEW_PLIES: usize = 600;
/// Reviews one process runs at once; another asked for is answered 503 `too_many`.
pub const MAX_RUNNING_REVIEWS: usize = 8;
/// Wall time allowed to one position's search in the queue. Long on purpose: the node budget
/// ends a search, and a review waiting behind live replies must not store a shallower
/// evaluation.
const POSITION_BUDGET: Duration = Duration::from_secs(600);
/// A review left `running` whose progress is older than this, and that this process does not
/// run, is taken up again when someone looks at it (its worker died with a crash elsewhere, or
/// gave up).
const STALLED_MS: i64 = 20_000;
/// Transposition table of one position's search, MiB.
const TABLE_MIB: usize = 8;

/// What is reviewed: a stored game or an imported one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// A game played on the site (finished).
    Game(String),
    /// A game imported into the analysis board.
    Import(String),
}

impl Subject {
    /// Its key in the `reviews` table: `game/<id>` or `import/<id>`.
    pub fn key(&self) -> String {
        match self {
            Subject::Game(id) => format!("game/{id}"),
            Subject::Import(id) => format!("import/{id}"),
        }
    }

    fn of_key(key: &str) -> Option<Subject> {
        let (kind, id) = key.split_once('/')?;
        match kind {
            "game" => Some(Subject::Game(id.to_string())),
            "import" => Some(Subject::Import(id.to_string())),
            _ => None,
        }
    }

    fn id(&self) -> &str {
        match self {
            Subject::Game(id) | Subject::Import(id) => id,
        }
    }
}

/// The positions of a game's main line, and its moves, as text.
struct GameLine {
    variant: GameKind,
    /// `moves.len() + 1` positions, from the start.
    fens: Vec<String>,
    /// Canonical move texts.
    moves: Vec<String>,
}

async fn line_of(service: &Arc<Reviews>, subject: &Subject) -> Result<GameLine, SiteError> {
    let not_found = |what: &str| SiteError::new(ErrorCode::NotFound, format!("no such {what}"));
    match subject {
        Subject::Game(id) => {
            if !valid_id(id) {
                return Err(not_found("game"));
            }
            let (row, moves) = service
                .play
                .store
                .load_game(id)
                .await?
                .ok_or_else(|| not_found("game"))?;
            if row.status == GameStatus::Ongoing {
                return Err(SiteError::new(
                    ErrorCode::Conflict,
                    "the game is still being played: its computer analysis comes once it ends",
                ));
            }
            if row.result.is_none() || moves.is_empty() {
                return Err(SiteError::new(
                    ErrorCode::Conflict,
                    "the game was called off without a result: there is nothing to analyse",
                ));
            }
            let mut fens = vec![row.start_fen.clone()];
            fens.extend(moves.iter().map(|m| m.fen.clone()));
            Ok(GameLine {
                variant: row.variant,
                fens,
                moves: moves.into_iter().map(|m| m.move_text).collect(),
            })
        }
        Subject::Import(id) => {
            let game = imported(&service.play, id).await?;
            let mut fens = vec![game.record.start_fen.clone()];
            fens.extend(game.record.moves.iter().map(|m| m.fen.clone()));
            Ok(GameLine {
                variant: game.variant,
                fens,
                moves: game.record.moves.into_iter().map(|m| m.text).collect(),
            })
        }
    }
}

/// The computer analyses of whole games in this process: the games and records they read, the
/// reviews running here and the nodes per position. Its own service, not part of play's
/// (issue 37).
pub struct Reviews {
    play: Arc<GameService>,
    running: Running,
    /// Nodes per position of a computer analysis (`SiteOptions::review_nodes`).
    nodes: std::sync::atomic::AtomicU64,
}

impl Reviews {
    /// The reviews of the games and imports of `play`, at [`REVIEW_NODES`] per position.
    pub fn new(play: Arc<GameService>) -> Arc<Reviews> {
        Arc::new(Reviews {
            play,
            running: Running::default(),
            nodes: std::sync::atomic::AtomicU64::new(REVIEW_NODES),
        })
    }

    /// Sets the nodes per position of a computer analysis (`SiteOptions::review_nodes`).
    pub fn set_nodes(&self, nodes: u64) {
        self.nodes.store(nodes, Ordering::Relaxed);
    }
}

/// The reviews this process is running: subject key to owner.
#[derive(Debug, Default)]
struct Running(Mutex<HashMap<String, TokenHash>>);

impl Running {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, TokenHash>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// `GET .../review`: 404 when none was asked for.
pub async fn review(service: &Arc<Reviews>, subject: &Subject) -> Result<ReviewView, SiteError> {
    if !valid_id(subject.id()) {
        return Err(SiteError::new(ErrorCode::NotFound, "no such game"));
    }
    let Some(row) = service.play.store.load_review(&subject.key()).await? else {
        // An id that names nothing is told so, not offered an analysis to request.
        let exists = match subject {
            Subject::Game(id) => service.play.store.version_of(id).await?.is_some(),
            Subject::Import(id) => service.play.store.load_import(id).await?.is_some(),
        };
        return Err(if exists {
            SiteError::new(
                ErrorCode::NotFound,
                "no computer analysis of this game yet: request one",
            )
        } else {
            SiteError::new(ErrorCode::NotFound, "no such game")
        });
    };
    if row.status == ReviewStatus::Running
        && now_ms() - row.updated_at > STALLED_MS
        && claim(service, &row)
    {
        tracing::info!(review = %row.subject, done = row.done, "taking up a stalled computer analysis");
        spawn_work(service, row.clone());
    }
    view_of(&row)
}

/// `POST .../review`: the review of `subject`, started now unless there is one (a failed one
/// starts again). 404 for an unknown game, 409 for a game still being played, 400 for a
/// game longer than [`MAX_REVIEW_PLIES`], 429 `too_many_analyses` when this player's other
/// review still runs, 503 when [`MAX_RUNNING_REVIEWS`] run.
pub async fn request(
    service: &Arc<Reviews>,
    token: &PlayerToken,
    subject: &Subject,
) -> Result<ReviewView, SiteError> {
    let key = subject.key();
    if let Some(row) = service.play.store.load_review(&key).await?
        && row.status != ReviewStatus::Failed
    {
        if row.status == ReviewStatus::Running && claim(service, &row) {
            spawn_work(service, row.clone());
        }
        return view_of(&row);
    }
    let line = line_of(service, subject).await?;
    if line.moves.len() > MAX_REVIEW_PLIES {
        return Err(SiteError::bad_request(format!(
            "a game of {} moves is too long to analyse (at most {MAX_REVIEW_PLIES})",
            line.moves.len()
        )));
    }
    let owner = token.hash();
    let busy_here = {
        let running = service.running.lock();
        running.contains_key(&key)
    };
    if busy_here {
        // Started here an instant ago by another request for the same game.
        return match service.play.store.load_review(&key).await? {
            Some(row) => view_of(&row),
            None => Err(SiteError::new(ErrorCode::TooMany, "try again in a moment")),
        };
    }
    {
        // The slot is reserved before the database write, so requests arriving together
        // cannot all pass the caps.
        let mut running = service.running.lock();
        if running.contains_key(&key) {
            return Err(SiteError::new(
                ErrorCode::TooMany,
                "this game's computer analysis is starting: look again in a moment",
            ));
        }
        if running.values().any(|o| *o == owner) {
            return Err(SiteError::new(
                ErrorCode::TooManyAnalyses,
                "your other computer analysis is still running: one at a time per player",
            ));
        }
        if running.len() >= MAX_RUNNING_REVIEWS {
            return Err(SiteError::new(
                ErrorCode::TooMany,
                format!(
                    "the server is analysing {MAX_RUNNING_REVIEWS} games: try again in a minute"
                ),
            ));
        }
        running.insert(key.clone(), owner.clone());
    }
    let release = |service: &Arc<Reviews>| {
        service.running.lock().remove(&key);
    };
    let now = now_ms();
    let started = service
        .play
        .store
        .start_review(&ReviewRow {
            subject: key.clone(),
            variant: line.variant,
            owner,
            status: ReviewStatus::Running,
            nodes: service.nodes.load(Ordering::Relaxed) as i64,
            total: line.fens.len() as i64,
            done: 0,
            evals: "[]".into(),
            created_at: now,
            updated_at: now,
        })
        .await;
    let row = match started {
        Ok(row) => row,
        Err(e) => {
            release(service);
            return Err(e.into());
        }
    };
    if row.status == ReviewStatus::Running {
        spawn_work(service, row.clone());
    } else {
        release(service);
    }
    view_of(&row)
}

/// Restarts every review left running in the store (after a restart); returns how many.
pub async fn resume_all(service: &Arc<Reviews>) -> Result<usize, StoreError> {
    let mut n = 0;
    for key in service.play.store.running_reviews().await? {
        if let Some(row) = service.play.store.load_review(&key).await?
            && claim(service, &row)
        {
            spawn_work(service, row);
            n += 1;
        }
    }
    Ok(n)
}

/// Reserves `row`'s review for this process; false when it runs here already.
fn claim(service: &Arc<Reviews>, row: &ReviewRow) -> bool {
    let mut running = service.running.lock();
    if running.contains_key(&row.subject) {
        return false;
    }
    running.insert(row.subject.clone(), row.owner.clone());
    true
}

/// Runs the review of `row`, reserved by [`claim`] or `request`, in the background.
fn spawn_work(service: &Arc<Reviews>, row: ReviewRow) {
    let service = service.clone();
    tokio::spawn(async move {
        let key = row.subject.clone();
        if let Err(e) = work(&service, row).await {
            tracing::error!(review = %key, error = %e.message, "computer analysis stopped");
        }
        service.running.lock().remove(&key);
    });
}

/// Longest wait between two attempts to save progress after a storage fault.
const MAX_SAVE_BACKOFF: Duration = Duration::from_secs(30);

async fn work(service: &Arc<Reviews>, mut row: ReviewRow) -> Result<(), SiteError> {
    let subject = Subject::of_key(&row.subject)
        .ok_or_else(|| SiteError::new(ErrorCode::Internal, "an unknown review subject"))?;
    let line = line_of(service, &subject).await?;
    let mut evals = evals_of(&row)?;
    let shutdown = service.play.shutdown_signal();
    while evals.len() < line.fens.len() {
        if *shutdown.borrow() {
            // The next start resumes it (resume_all).
            return Ok(());
        }
        let ply = evals.len();
        let played = ply.checked_sub(1).and_then(|i| line.moves.get(i)).cloned();
        let nodes = u64::try_from(row.nodes).unwrap_or(REVIEW_NODES);
        let eval = match evaluate(service, line.variant, &line.fens[ply], &row.owner, nodes).await {
            Ok(mut e) => {
                e.ply = ply;
                e.played = played;
                e
            }
            Err(e) if *shutdown.borrow() => {
                tracing::info!(review = %row.subject, "computer analysis paused for shutdown: {}", e.message);
                return Ok(());
            }
            Err(e) => {
                row.status = ReviewStatus::Failed;
                row.updated_at = now_ms();
                let from = row.done;
                let _ = service.play.store.save_review(&row, from).await;
                return Err(e);
            }
        };
        evals.push(eval);
        let from = row.done;
        row.done = evals.len() as i64;
        row.evals = serde_json::to_string(&evals)
            .map_err(|e| SiteError::new(ErrorCode::Internal, e.to_string()))?;
        row.status = if evals.len() == line.fens.len() {
            ReviewStatus::Done
        } else {
            ReviewStatus::Running
        };
        row.updated_at = now_ms();
        // A storage fault (a full disk, a database gone read-only) is waited out: the
        // review goes on by itself once the store takes writes again.
        let mut wait = Duration::from_millis(500);
        loop {
            match service.play.store.save_review(&row, from).await {
                Ok(()) => break,
                // Another process saved this step (or a commit reported failed had landed):
                // go on from the stored progress.
                Err(StoreError::Stale { .. }) => {
                    let Some(stored) = service.play.store.load_review(&row.subject).await? else {
                        return Ok(());
                    };
                    if stored.status != ReviewStatus::Running || stored.done < row.done {
                        return Ok(());
                    }
                    evals = evals_of(&stored)?;
                    row = stored;
                    break;
                }
                Err(e) => {
                    if *shutdown.borrow() {
                        return Ok(());
                    }
                    tracing::warn!(review = %row.subject, error = %e, "cannot save the analysis; retrying in {} s", wait.as_secs_f64());
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(MAX_SAVE_BACKOFF);
                }
            }
        }
    }
    Ok(())
}

async fn evaluate(
    service: &Arc<Reviews>,
    variant: GameKind,
    fen: &str,
    owner: &TokenHash,
    nodes: u64,
) -> Result<Eval, SiteError> {
    games::with_game!(variant, G => evaluate_as::<G>(service, fen, owner, nodes).await)
}

/// One position's evaluation at `nodes` nodes (`ply` and `played` left for the caller).
async fn evaluate_as<V: SiteVariant>(
    service: &Arc<Reviews>,
    fen: &str,
    owner: &TokenHash,
    nodes: u64,
) -> Result<Eval, SiteError> {
    let pos = read_position::<V>(fen)?;
    let turn = V::side_to_move(&pos);
    let sign = if turn == Color::White { 1 } else { -1 };
    if let Some(outcome) = V::outcome(&pos) {
        return Ok(Eval {
            ply: 0,
            turn,
            played: None,
            score: WhiteScore::End(RecordResult::from_outcome(Some(outcome)).to_string()),
            best: None,
            pv: Vec::new(),
            depth: 0,
        });
    }
    let spec = JobSpec {
        owner: Owner(owner.as_str().to_string()),
        lane: Lane::Analysis,
        budget: POSITION_BUDGET,
        since_ms: now_ms(),
    };
    let job = service.play.engine_queue.submit(spec, move |stop| {
        let limits = Limits {
            nodes: Some(nodes),
            stop: Some(stop),
            ..Limits::default()
        };
        let found = engine::analyse::<V>(&pos, &limits, 1, TABLE_MIB, |_| {});
        let best = found.best.map(|b| V::move_text(&pos, &b));
        let mut pv = game::line_move_texts::<V>(&pos, &found.pv);
        pv.truncate(8);
        if pv.first() != best.as_ref() {
            pv = best.iter().cloned().collect();
        }
        (best, pv, found.score, found.depth)
    });
    let (best, pv, score, depth) = job
        .result()
        .await
        .map_err(|e| job_failed(e, "computer analysis", fen))?;
    let score = if is_decisive(score) {
        match ScoreView::of(score) {
            ScoreView::Win(n) => WhiteScore::Mate(sign * n as i32),
            ScoreView::Loss(n) => WhiteScore::Mate(-sign * n as i32),
            ScoreView::Cp(c) => WhiteScore::Cp(sign * c),
        }
    } else {
        WhiteScore::Cp(sign * score)
    };
    Ok(Eval {
        ply: 0,
        turn,
        played: None,
        score,
        best,
        pv,
        depth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_have_keys() {
        for s in [Subject::Game("ab12".into()), Subject::Import("Zx9".into())] {
            assert_eq!(Subject::of_key(&s.key()), Some(s));
        }
        assert_eq!(Subject::of_key("other/x"), None);
    }
}
