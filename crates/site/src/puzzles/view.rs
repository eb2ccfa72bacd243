//! The puzzle API's answers (docs/api.md, "Puzzles").

use serde::{Deserialize, Serialize};
use site_model::ratings::Rating;
use site_model::state::GameKind;
use site_store::{AttemptRow, PuzzleRatingRow, PuzzleRow, ThemeRecord};

/// A puzzle, as `GET /api/puzzles/next`, `/{id}`, `/daily` and `/streak` send it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PuzzleView {
    /// Its id.
    pub id: String,
    /// The game.
    pub variant: GameKind,
    /// The start position; the solver is the side to move.
    pub fen: String,
    /// Both sides' moves, canonical text, the solver's first.
    pub solution: Vec<String>,
    /// Its rating, rounded.
    pub rating: i64,
    /// First attempts by accounts.
    pub plays: i64,
    /// The solver's moves.
    pub length: i64,
    /// Theme names.
    pub themes: Vec<String>,
    /// A hint (the seeds' worked examples carry the seed's words).
    pub hint: Option<String>,
    /// Where it was mined, when known.
    pub source: Option<SourceView>,
    /// The logged-in player's puzzle rating in this game and whether they attempted it.
    pub you: Option<YouView>,
    /// The daily puzzle's UTC day, `YYYY-MM-DD`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// Where a puzzle was mined.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceView {
    /// A site game's id, `selfplay:<seed>:<n>`, or a file's `name#n`.
    pub game: String,
    /// Plies played in that game before the puzzle's position.
    pub ply: i64,
    /// `found`: the game's player played the winning move; `missed`: did not; `null`: unknown.
    pub seen: Option<&'static str>,
    /// `/game/<id>` when the game is a game of this site.
    pub url: Option<String>,
}

/// The logged-in player, as a puzzle shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct YouView {
    /// Their puzzle rating in the puzzle's game, rounded (1500 before their first).
    pub rating: i64,
    /// Its deviation, rounded.
    pub deviation: i64,
    /// Whether they attempted this puzzle (a new attempt is then unrated).
    pub attempted: bool,
}

impl PuzzleView {
    /// The view of `p`, without `you` and `date`; `site_game`: its source is a game here.
    pub fn of(p: &PuzzleRow, site_game: bool) -> PuzzleView {
        PuzzleView {
            id: p.id.clone(),
            variant: p.variant,
            fen: p.fen.clone(),
            solution: p.moves.clone(),
            rating: p.rating.rating.round() as i64,
            plays: p.plays,
            length: p.length,
            themes: p.themes.clone(),
            hint: (!p.hint.is_empty()).then(|| p.hint.clone()),
            source: (!p.game.is_empty()).then(|| SourceView {
                game: p.game.clone(),
                ply: p.ply,
                seen: match p.seen.as_str() {
                    "yes" => Some("found"),
                    "no" => Some("missed"),
                    _ => None,
                },
                url: site_game.then(|| format!("/game/{}", p.game)),
            }),
            you: None,
            date: None,
        }
    }
}

/// A Glicko-2 rating as the browser keeps an anonymous player's (in its session) and sends
/// it back: rating and deviation on the Glicko scale, volatility sigma.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionRating {
    /// 400 to 4000.
    pub rating: f64,
    /// 30 to 350.
    pub deviation: f64,
    /// 0.01 to 0.2.
    pub volatility: f64,
}

impl From<Rating> for SessionRating {
    fn from(r: Rating) -> SessionRating {
        SessionRating {
            rating: r.rating,
            deviation: r.rd,
            volatility: r.volatility,
        }
    }
}

impl From<SessionRating> for Rating {
    fn from(r: SessionRating) -> Rating {
        Rating {
            rating: r.rating,
            rd: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// A rating change, rounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ChangeView {
    /// Before.
    pub before: i64,
    /// After.
    pub after: i64,
}

/// The puzzle's figures after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PuzzleFigures {
    /// Its rating, rounded.
    pub rating: i64,
    /// First attempts by accounts.
    pub plays: i64,
}

/// `POST /api/puzzles/{id}/attempt`'s answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttemptView {
    /// Whether the attempt solved the puzzle.
    pub solved: bool,
    /// The ply (from 0) of the first wrong move.
    pub failed_at: Option<u32>,
    /// The player's rating change; `null` when unrated, or an account's later attempt.
    pub rating: Option<ChangeView>,
    /// An anonymous player's new session rating, after a rated attempt.
    pub session_rating: Option<SessionRating>,
    /// The puzzle's figures now.
    pub puzzle: PuzzleFigures,
}

/// `GET /api/puzzles/themes`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThemesView {
    /// The game's puzzles.
    pub total: i64,
    /// Each theme that has puzzles, the most first.
    pub themes: Vec<ThemeCount>,
}

/// One theme's puzzles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThemeCount {
    /// Its name.
    pub theme: String,
    /// How many puzzles have it.
    pub count: i64,
}

/// `GET /api/puzzles/streak`'s answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StreakView {
    /// The puzzles, easiest first.
    pub puzzles: Vec<PuzzleView>,
}

/// An account's puzzle rating in one game, on the dashboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RatingView {
    /// Rounded.
    pub rating: i64,
    /// Rounded.
    pub deviation: i64,
    /// Deviation over 110.
    pub provisional: bool,
    /// Puzzles attempted.
    pub attempts: i64,
    /// Of those, solved.
    pub solved: i64,
}

impl From<&PuzzleRatingRow> for RatingView {
    fn from(r: &PuzzleRatingRow) -> RatingView {
        RatingView {
            rating: r.rating.rating.round() as i64,
            deviation: r.rating.rd.round() as i64,
            provisional: r.rating.provisional(),
            attempts: r.attempts,
            solved: r.solved,
        }
    }
}

/// Both games' ratings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RatingsView {
    /// Antarctos, or `null` before the first attempt.
    pub antarctos: Option<RatingView>,
    /// Ice Age Chess, or `null`.
    pub iceage: Option<RatingView>,
}

/// One attempt on the dashboard.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecentView {
    /// The puzzle.
    pub id: String,
    /// Its game.
    pub variant: GameKind,
    /// Solved or not.
    pub solved: bool,
    /// Rated or not.
    pub rated: bool,
    /// Unix ms.
    pub at: i64,
    /// The account's puzzle rating before it, rounded, when rated.
    pub rating_before: Option<i64>,
    /// The account's puzzle rating after it, rounded, when rated.
    pub rating_after: Option<i64>,
    /// The puzzle's rating now, rounded.
    pub puzzle_rating: i64,
    /// Its themes.
    pub themes: Vec<String>,
}

impl From<&AttemptRow> for RecentView {
    fn from(a: &AttemptRow) -> RecentView {
        RecentView {
            id: a.puzzle_id.clone(),
            variant: a.variant,
            solved: a.solved,
            rated: a.rated,
            at: a.at,
            rating_before: a.rating_before.map(|r| r.round() as i64),
            rating_after: a.rating_after.map(|r| r.round() as i64),
            puzzle_rating: a.puzzle_rating.round() as i64,
            themes: a.themes.clone(),
        }
    }
}

/// One theme's record on the dashboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThemeRecordView {
    /// The game.
    pub variant: GameKind,
    /// The theme.
    pub theme: String,
    /// Attempts.
    pub attempts: i64,
    /// Solved.
    pub solved: i64,
    /// Failed.
    pub failed: i64,
}

impl From<&ThemeRecord> for ThemeRecordView {
    fn from(t: &ThemeRecord) -> ThemeRecordView {
        ThemeRecordView {
            variant: t.variant,
            theme: t.theme.clone(),
            attempts: t.attempts,
            solved: t.solved,
            failed: t.attempts - t.solved,
        }
    }
}

/// `GET /api/puzzles/dashboard`'s answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DashboardView {
    /// The account's puzzle ratings.
    pub ratings: RatingsView,
    /// Its newest attempts, up to 50.
    pub recent: Vec<RecentView>,
    /// Its record per theme, the themes missed most first.
    pub themes: Vec<ThemeRecordView>,
}
