//! The puzzle trainer (issue 39): puzzles "X begins and wins", each proven by the solver when
//! mined (crate `puzzles`), offered near the player's puzzle rating, judged on the server,
//! and rated with Glicko-2 for the player and for the puzzle.
//!
//! An account's first attempt at a puzzle is stored and may be rated; later ones are judged
//! and answered but change nothing (store/puzzles.rs makes that hold across processes). An
//! anonymous player is rated in the browser's session only: the page sends its session
//! rating with the attempt and keeps the one answered; the puzzle's rating moves only with
//! accounts' attempts.

use std::ops::RangeInclusive;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use engine::solve::Prover;
use game::Variant;
use puzzles::{Theme, Themed, Verdict, parse_moves};
use rand::seq::IndexedRandom;
use site_model::error::{ErrorCode, SiteError};
use site_model::ratings::{self, Rating};
use site_model::state::GameKind;
use site_model::time::WallTime;
use site_store::{AttemptStored, PuzzleRow, Store};
use tokio::sync::Semaphore;

use crate::accounts::Account;

pub mod shipped;
mod streak;
mod upkeep;
mod view;

pub use streak::{STREAK_LENGTH, StreakRequest, spread};
pub use view::{
    AttemptView, ChangeView, DashboardView, PuzzleFigures, PuzzleView, RatingView, RatingsView,
    RecentView, SessionRating, SourceView, StreakView, ThemeCount, ThemeRecordView, ThemesView,
    YouView,
};

/// Most ids `GET /api/puzzles/next` takes in `exclude`.
pub const MAX_EXCLUDE: usize = 100;
/// Most moves an attempt may send (the longest puzzle has 15 plies).
pub const MAX_ATTEMPT_MOVES: usize = 32;
/// Attempts on the dashboard.
pub const DASHBOARD_ATTEMPTS: i64 = 50;
/// Time the solver may take over an attempt that left the stored line.
pub const JUDGE_MS: u64 = 3_000;
/// Attempts judged at once: one that leaves the stored line costs a proof.
const JUDGES: usize = 2;
/// The candidates nearest the rating among which the next puzzle is drawn.
const DRAW_AMONG: usize = 6;

/// A theme choice: `mix` (every theme) or one theme's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThemeChoice {
    /// Every puzzle.
    Mix,
    /// Puzzles with this theme.
    One(Theme),
}

impl FromStr for ThemeChoice {
    type Err = SiteError;

    fn from_str(text: &str) -> Result<ThemeChoice, SiteError> {
        if text == "mix" {
            return Ok(ThemeChoice::Mix);
        }
        text.parse()
            .map(ThemeChoice::One)
            .map_err(|e: puzzles::themes::UnknownTheme| {
                SiteError::bad_request(format!("theme: {e} (mix, or a theme's name)"))
            })
    }
}

/// `GET /api/puzzles/next`, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct NextRequest {
    /// The game.
    pub variant: GameKind,
    /// The theme.
    pub theme: ThemeChoice,
    /// An anonymous player's session rating (ignored for an account).
    pub rating: Option<f64>,
    /// Puzzle ids not to offer (an anonymous player's session), at most [`MAX_EXCLUDE`].
    pub exclude: Vec<String>,
}

/// `POST /api/puzzles/{id}/attempt`'s body.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttemptRequest {
    /// Both sides' moves from the puzzle's position, up to the first wrong one or to the end.
    pub moves: Vec<String>,
    /// Whether the attempt counts for the rating; absent: it does (an account's first
    /// attempt at a puzzle is its rated one, as on lichess).
    #[serde(default = "rated_by_default")]
    pub rated: bool,
    /// An anonymous player's session rating; absent: a new player's.
    #[serde(default)]
    pub session_rating: Option<SessionRating>,
}

fn rated_by_default() -> bool {
    true
}

/// The puzzle service.
pub struct Puzzles {
    store: Store,
    time: WallTime,
    judges: Semaphore,
}

fn not_found(id: &str) -> SiteError {
    SiteError::new(
        ErrorCode::NotFound,
        format!("no puzzle '{}'", game::excerpt(id)),
    )
}

fn game_name(variant: GameKind) -> &'static str {
    match variant {
        GameKind::Antarctos => "Antarctos",
        GameKind::IceAge => "Ice Age Chess",
    }
}

/// The themes game `variant`'s puzzles may have.
pub fn themes_of(variant: GameKind) -> &'static [Theme] {
    match variant {
        GameKind::Antarctos => antarctos::Antarctos::THEMES,
        GameKind::IceAge => iceage::IceAge::THEMES,
    }
}

/// The UTC day of `ms`, `YYYY-MM-DD`, and its number since the epoch.
fn utc_day(ms: i64) -> (String, i64) {
    let day = ms.div_euclid(86_400_000);
    let date = chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.date_naive().to_string())
        .unwrap_or_default();
    (date, day)
}

/// A well-mixed 64-bit hash (SplitMix64's finaliser): the daily puzzle of day `n`.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The session ratings taken and given: rating, deviation and volatility ranges.
const SESSION_RATING: (
    RangeInclusive<f64>,
    RangeInclusive<f64>,
    RangeInclusive<f64>,
) = (400.0..=4000.0, 30.0..=350.0, 0.01..=0.2);

fn check_session_rating(r: &SessionRating) -> Result<Rating, SiteError> {
    let (rating, deviation, volatility) = SESSION_RATING;
    for (name, value, range) in [
        ("rating", r.rating, rating),
        ("deviation", r.deviation, deviation),
        ("volatility", r.volatility, volatility),
    ] {
        if !range.contains(&value) {
            return Err(SiteError::bad_request(format!(
                "session_rating.{name}: {value} is outside {}-{}",
                range.start(),
                range.end()
            )));
        }
    }
    Ok(Rating::from(*r))
}

/// `r` brought inside the ranges [`check_session_rating`] takes: the answer is sent back
/// with the next attempt, and must never be refused then (a tester's session stuck at a
/// rating of 399.9 after 273 failures).
fn clamp_session_rating(r: Rating) -> Rating {
    let (rating, deviation, volatility) = SESSION_RATING;
    Rating {
        rating: r.rating.clamp(*rating.start(), *rating.end()),
        rd: r.rd.clamp(*deviation.start(), *deviation.end()),
        volatility: r.volatility.clamp(*volatility.start(), *volatility.end()),
    }
}

/// Judges `moves` against puzzle `p` of game `V`.
fn judge_texts<V: Variant>(p: &PuzzleRow, moves: &[String]) -> Result<Verdict, SiteError> {
    let start = V::parse_position(&p.fen)
        .map_err(|e| SiteError::new(ErrorCode::Internal, format!("puzzle {}: {e}", p.id)))?;
    let line = parse_moves::<V>(&start, &p.moves)
        .map_err(|e| SiteError::new(ErrorCode::Internal, format!("puzzle {}: {e}", p.id)))?;
    let mut prover = Prover::<V>::new(8);
    let deadline = engine::clock::Instant::now() + Duration::from_millis(JUDGE_MS);
    puzzles::judge_texts(&mut prover, &start, &line, moves, Some(deadline)).map_err(|e| match e {
        puzzles::AttemptError::OutOfTime => SiteError::new(ErrorCode::Unavailable, e.to_string()),
        _ => SiteError::bad_request(format!("moves: {e}")),
    })
}

impl Puzzles {
    /// The service over `store`, dating the daily puzzle by `time`.
    pub fn new(store: Store, time: WallTime) -> Arc<Puzzles> {
        Arc::new(Puzzles {
            store,
            time,
            judges: Semaphore::new(JUDGES),
        })
    }

    /// Adds the shipped puzzles not stored yet ([`shipped`]); returns how many.
    ///
    /// # Errors
    /// A shipped file that does not read (internal), or storage.
    pub async fn import_shipped(&self) -> Result<u64, SiteError> {
        let rows = shipped::all().map_err(|e| SiteError::new(ErrorCode::Internal, e))?;
        Ok(self.store.import_puzzles(&rows, self.time.now_ms()).await?)
    }

    async fn view(
        &self,
        p: &PuzzleRow,
        account: Option<&Account>,
    ) -> Result<PuzzleView, SiteError> {
        let site_game = !p.game.is_empty()
            && crate::play::valid_id(&p.game)
            && self.store.version_of(&p.game).await?.is_some();
        let mut view = PuzzleView::of(p, site_game);
        if let Some(a) = account {
            let rating = self.store.puzzle_rating(&a.id, p.variant).await?;
            let r = rating.map(|r| r.rating).unwrap_or_default();
            view.you = Some(YouView {
                rating: r.rating.round() as i64,
                deviation: r.rd.round() as i64,
                attempted: self.store.puzzle_attempted(&a.id, &p.id).await?,
            });
        }
        Ok(view)
    }

    async fn load(&self, id: &str) -> Result<PuzzleRow, SiteError> {
        if !puzzles::valid_id(id) {
            return Err(not_found(id));
        }
        let p = self.store.puzzle(id).await?.ok_or_else(|| not_found(id))?;
        if !p.retired.is_empty() {
            return Err(SiteError::new(
                ErrorCode::NotFound,
                format!("puzzle '{id}' is out of service: {}", p.retired),
            ));
        }
        Ok(p)
    }

    /// `GET /api/puzzles/{id}`: 404 for an unknown id.
    pub async fn get(&self, account: Option<&Account>, id: &str) -> Result<PuzzleView, SiteError> {
        let p = self.load(id).await?;
        self.view(&p, account).await
    }

    /// `GET /api/puzzles/next`: a puzzle of the theme near the player's puzzle rating (an
    /// account's stored one, an anonymous player's `rating`, else 1500) that the account
    /// never attempted and that is not in `exclude`, drawn among the nearest few. 400 for a
    /// theme of the other game, 404 when none is left.
    pub async fn next(
        &self,
        account: Option<&Account>,
        req: &NextRequest,
    ) -> Result<PuzzleView, SiteError> {
        let theme = match req.theme {
            ThemeChoice::Mix => None,
            ThemeChoice::One(t) if themes_of(req.variant).contains(&t) => Some(t.name()),
            ThemeChoice::One(t) => {
                return Err(SiteError::bad_request(format!(
                    "theme: '{t}' is no {} theme",
                    game_name(req.variant)
                )));
            }
        };
        let near = match account {
            Some(a) => self
                .store
                .puzzle_rating(&a.id, req.variant)
                .await?
                .map(|r| r.rating.rating)
                .unwrap_or(ratings::START_RATING),
            None => req
                .rating
                .filter(|r| r.is_finite())
                .map(|r| r.clamp(400.0, 4000.0))
                .unwrap_or(ratings::START_RATING),
        };
        let each = (DRAW_AMONG + req.exclude.len()) as i64;
        let mut found = self
            .store
            .puzzles_near(
                req.variant,
                theme,
                near,
                account.map(|a| a.id.as_str()),
                each,
            )
            .await?;
        found.retain(|p| !req.exclude.contains(&p.id));
        found.sort_by(|a, b| {
            (a.rating.rating - near)
                .abs()
                .total_cmp(&(b.rating.rating - near).abs())
                .then(a.ordinal.cmp(&b.ordinal))
        });
        found.truncate(DRAW_AMONG);
        let Some(p) = found.choose(&mut rand::rng()) else {
            return Err(SiteError::new(
                ErrorCode::NotFound,
                format!(
                    "no {} puzzle{} is left to try",
                    game_name(req.variant),
                    theme.map(|t| format!(" of theme {t}")).unwrap_or_default()
                ),
            ));
        };
        self.view(p, account).await
    }

    /// `GET /api/puzzles/daily`: the game's puzzle of the UTC day, the same for everyone.
    pub async fn daily(
        &self,
        account: Option<&Account>,
        variant: GameKind,
    ) -> Result<PuzzleView, SiteError> {
        let (total, _) = self.store.puzzle_counts(variant).await?;
        if total == 0 {
            return Err(SiteError::new(
                ErrorCode::NotFound,
                format!("there are no {} puzzles", game_name(variant)),
            ));
        }
        let (date, day) = utc_day(self.time.now_ms());
        // The place among the puzzles in service, not an ordinal: a retired or missing row
        // must not leave a day without its puzzle.
        let n = (mix(day as u64) % total as u64) as i64;
        let p = self
            .store
            .puzzle_nth(variant, n)
            .await?
            .ok_or_else(|| not_found(&format!("{variant}#{n}")))?;
        let mut view = self.view(&p, account).await?;
        view.date = Some(date);
        Ok(view)
    }

    /// `GET /api/puzzles/themes`: the game's puzzle count, and per theme.
    pub async fn themes(&self, variant: GameKind) -> Result<ThemesView, SiteError> {
        let (total, themes) = self.store.puzzle_counts(variant).await?;
        Ok(ThemesView {
            total,
            themes: themes
                .into_iter()
                .map(|(theme, count)| ThemeCount { theme, count })
                .collect(),
        })
    }

    /// `POST /api/puzzles/{id}/attempt`: judges the moves (see the module doc) and rates the
    /// attempt when asked and allowed. 400 for bad moves (the ply and why), 404 for an
    /// unknown puzzle, 503 when the proof of a move off the stored line runs out of time.
    pub async fn attempt(
        &self,
        account: Option<&Account>,
        id: &str,
        req: &AttemptRequest,
    ) -> Result<AttemptView, SiteError> {
        if req.moves.len() > MAX_ATTEMPT_MOVES {
            return Err(SiteError::bad_request(format!(
                "moves: at most {MAX_ATTEMPT_MOVES}"
            )));
        }
        let session = req
            .session_rating
            .as_ref()
            .map(check_session_rating)
            .transpose()?;
        let p = self.load(id).await?;
        let verdict = {
            let _judge = self
                .judges
                .acquire()
                .await
                .map_err(|_| SiteError::new(ErrorCode::Unavailable, "shutting down"))?;
            let (row, moves) = (p.clone(), req.moves.clone());
            tokio::task::spawn_blocking(
                move || games::with_game!(row.variant, G => judge_texts::<G>(&row, &moves)),
            )
            .await
            .map_err(|e| SiteError::new(ErrorCode::Internal, format!("judging: {e}")))??
        };
        let (solved, failed_at) = match verdict {
            Verdict::Solved => (true, None),
            Verdict::Failed { ply } => (false, Some(ply)),
        };
        let (rating, session_rating) = match account {
            Some(a) => {
                let stored = self
                    .store
                    .record_puzzle_attempt(&a.id, &p, solved, req.rated, self.time.now_ms())
                    .await?;
                let change = match stored {
                    AttemptStored::First(Some((before, after))) => Some(ChangeView {
                        before: before.rating.round() as i64,
                        after: after.rating.round() as i64,
                    }),
                    AttemptStored::First(None) | AttemptStored::Again => None,
                };
                (change, None)
            }
            None if req.rated => {
                let before = session.unwrap_or_default();
                let (after, _) =
                    ratings::after_game(before, p.rating, if solved { 1.0 } else { 0.0 });
                let after = clamp_session_rating(after);
                (
                    Some(ChangeView {
                        before: before.rating.round() as i64,
                        after: after.rating.round() as i64,
                    }),
                    Some(SessionRating::from(after)),
                )
            }
            None => (None, None),
        };
        let now = self.store.puzzle(id).await?.unwrap_or(p);
        Ok(AttemptView {
            solved,
            failed_at,
            rating,
            session_rating,
            puzzle: PuzzleFigures {
                rating: now.rating.rating.round() as i64,
                plays: now.plays,
            },
        })
    }

    /// `GET /api/puzzles/dashboard`: the account's puzzle ratings, newest attempts and
    /// record per theme.
    pub async fn dashboard(&self, account: &Account) -> Result<DashboardView, SiteError> {
        let antarctos = self
            .store
            .puzzle_rating(&account.id, GameKind::Antarctos)
            .await?;
        let iceage = self
            .store
            .puzzle_rating(&account.id, GameKind::IceAge)
            .await?;
        let (recent, themes) = self
            .store
            .puzzle_history(&account.id, DASHBOARD_ATTEMPTS)
            .await?;
        Ok(DashboardView {
            ratings: RatingsView {
                antarctos: antarctos.as_ref().map(RatingView::from),
                iceage: iceage.as_ref().map(RatingView::from),
            },
            recent: recent.iter().map(RecentView::from).collect(),
            themes: themes.iter().map(ThemeRecordView::from).collect(),
        })
    }
}
