//! The JSON shapes the API sends (docs/api.md: GameView, GameSummary, stats).

use game::{Color, EndReason, RecordResult};
use serde::{Deserialize, Serialize};

use crate::permissions::{self, Action};
use site_model::clock::ClockView;
use site_model::json_list::JsonList;
use site_model::ratings::{PlayerRating, RatingChange, Unrated};
use site_model::secrets::{PlayerToken, invite_for, invite_hash};
use site_model::state::{GameKind, GameStatus, Level, Notice, SeatKind, YourSeat};
use site_store::{GameRow, SeatRow};

/// A seat as shown: `{"kind": "human"}` (with `"username"` for an account), `{"kind":
/// "engine", "level": 3}`, `{"kind": "open"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// Who holds it.
    pub kind: SeatKind,
    /// Engine level.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub level: Option<Level>,
    /// The holder's account name, when it sat down logged in.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub username: Option<String>,
    /// The holder's rating in the game and speed, `{"rating": 1662, "provisional": true}`
    /// (shown `1662?`, issue 41): sent for an account's seat of a clocked game.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rating: Option<PlayerRating>,
    /// A BOT account's seat (issue 44): `"bot": true`, shown `BOT` before the name; absent
    /// otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub bot: bool,
}

impl From<&SeatRow> for SeatView {
    fn from(s: &SeatRow) -> Self {
        SeatView {
            kind: s.kind,
            level: s.level,
            username: s.name.clone(),
            rating: s.rating,
            bot: s.bot,
        }
    }
}

/// One played move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveView {
    /// 1 for the first move.
    pub ply: i64,
    /// Full-move number.
    pub number: u32,
    /// The side that moved.
    pub color: Color,
    /// Canonical notation (A16 text, SAN).
    pub text: String,
    /// Machine form (A16 text, UCI).
    pub id: String,
    /// Every square visited, `a1`..`h8`.
    pub path: Vec<String>,
    /// Position text after the move.
    pub fen: String,
    /// Ice Age comment etc.
    pub event: Option<String>,
    /// Antarctos: the living men this turn captured (they became ice, A8).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub captured: Vec<String>,
    /// Antarctos: the ice this turn jumped (it melted, A7).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub melted: Vec<String>,
    /// Ice Age Chess: what the Ice Age this move brought did (C5-C9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ice_age: Option<IceAgeView>,
}

/// What one Ice Age did (C5-C9), as the page shows it: squares named `a1`..`h8`, listed a1
/// first (file, then rank).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IceAgeView {
    /// The isolated pieces that froze (C6), replaced by ice.
    pub frozen: Vec<FrozenView>,
    /// The empty squares that received ice (frozen squares not repeated).
    pub filled: Vec<String>,
    /// The empty squares left empty: closed on all four orthogonal sides by pieces or the
    /// board's edge (C6).
    pub closed: Vec<String>,
    /// The position right after Black's move, before the Ice Age: the one it was judged on.
    pub before_fen: String,
    /// Kings that froze (C7: one loses, two draw).
    pub kings_frozen: Vec<Color>,
}

/// A piece that froze in an Ice Age.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrozenView {
    /// Its square.
    pub square: String,
    /// Its colour.
    pub color: Color,
    /// Its role as FEN's lower-case letter: `k`, `q`, `r`, `b`, `n`, `p`.
    pub role: String,
}

/// One legal move of the side to move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalView {
    /// Machine form.
    pub id: String,
    /// Canonical notation.
    pub text: String,
    /// Every square visited.
    pub path: Vec<String>,
}

/// The result of a finished game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultView {
    /// `1-0`, `0-1`, `1/2-1/2` (`*` if a stored finished game lacks it).
    pub result: RecordResult,
    /// `white`, `black` or `null` (a draw).
    pub winner: Option<Color>,
    /// `EndReason::as_str`.
    pub reason: EndReason,
    /// A sentence: `White wins by breakthrough`.
    pub words: String,
}

/// A game as seen by one token (docs/api.md, GameView).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameView {
    pub id: String,
    pub variant: GameKind,
    pub title: String,
    /// `white`, `black`, `both` or `null`.
    pub you: Option<YourSeat>,
    pub white: SeatView,
    pub black: SeatView,
    pub status: GameStatus,
    pub fen: String,
    pub start_fen: String,
    pub turn: Color,
    pub ply: i64,
    /// Shared with the game in memory and every state sent, serialised once (issue 12).
    pub moves: JsonList<MoveView>,
    /// Shared and serialised once, like `moves`.
    pub legal: JsonList<LegalView>,
    pub draw_offer: Option<Color>,
    pub result: Option<ResultView>,
    pub invite_url: Option<String>,
    pub rematch_of: Option<String>,
    pub rematch: Option<String>,
    /// The tournament that paired the game (issue 40): the page links back to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    pub engine_thinking: bool,
    /// Grows by one with every change of the game (a newer state has a higher version).
    pub version: i64,
    /// What the asking token may do now (`permissions::actions`); empty for a watcher.
    pub actions: Vec<Action>,
    /// The side whose takeback offer stands.
    pub takeback_offer: Option<Color>,
    /// The side whose rematch offer stands.
    pub rematch_offer: Option<Color>,
    /// What the last change was, when the players are told of it (once: only while its
    /// version is the game's).
    pub notice: Option<Notice>,
    /// Antarctos: a capture is compulsory now (A9), so a man that cannot take cannot move.
    pub capture_compulsory: bool,
    /// Ice Age Chess: Black moves until the next Ice Age, counting the one that brings it
    /// (C5); `null` when the game is over or in Antarctos.
    pub ice_age_in: Option<u32>,
    /// The analysis board of this game, once the site has one (`null` until then).
    pub analysis_url: Option<String>,
    /// The clock as it stands when the view is made (`site_model::clock::ClockView`); `null` for
    /// an unlimited game.
    pub clock: Option<ClockView>,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// A rated game's rating changes, once it is rated (`site_model::ratings::RatingChange`);
    /// `null` before and for every unrated game.
    pub ratings: Option<RatingChange>,
    /// Why a game played as rated did not count (`pair_limit`: the two accounts' sixth rated
    /// game in 24 hours, `site_model::ratings::PAIR_GAMES_PER_DAY`; `sandbag`: a player held
    /// for quick losses, `site_model::sandbag`; `marked`: a marked player); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unrated: Option<Unrated>,
    /// A game played offline in the browser and uploaded (`POST /api/games/upload`, issue
    /// 42): unrated, against the computer. Sent only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub offline: bool,
    /// A player of a real-time game whose pages all closed (issue 38): sent only then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gone: Option<GoneView>,
}

/// A gone player as the game view shows it: the opponent sees a countdown to `claim_at_ms`,
/// then may claim the win or a draw (`POST /api/games/{id}/claim`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoneView {
    /// The side whose pages all closed.
    pub side: Color,
    /// Unix ms its last page closed.
    pub since_ms: i64,
    /// Unix ms from which the opponent may claim.
    pub claim_at_ms: i64,
}

/// Which seats a token holds (the row keeps the token's hash, `PlayerToken::hash`).
pub fn seat_of(row: &GameRow, token: &PlayerToken) -> Option<YourSeat> {
    let hash = token.hash();
    let w = row.white.token.as_ref() == Some(&hash);
    let b = row.black.token.as_ref() == Some(&hash);
    match (w, b) {
        (true, true) => Some(YourSeat::Both),
        (true, false) => Some(YourSeat::White),
        (false, true) => Some(YourSeat::Black),
        (false, false) => None,
    }
}

impl GameView {
    /// Fills the fields that depend on who asks (`you`, `invite_url`, `actions`) for `token`. The
    /// invitation is derived from the creator's token (`secrets::invite_for`): shown when its
    /// hash is the one stored, that is, to the creator alone.
    pub fn personalize(mut self, row: &GameRow, token: &PlayerToken) -> GameView {
        self.you = seat_of(row, token);
        self.actions = permissions::actions(row, self.you);
        self.invite_url = match (&self.you, &row.invite) {
            (Some(_), Some(stored)) if row.has_open_seat() && row.status == GameStatus::Ongoing => {
                let invite = invite_for(token, &row.id);
                (invite_hash(&invite) == *stored).then(|| format!("/join/{invite}"))
            }
            _ => None,
        };
        self
    }
}

/// One line of "my games".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    pub id: String,
    pub variant: GameKind,
    pub title: String,
    pub you: Option<YourSeat>,
    pub white: SeatView,
    pub black: SeatView,
    pub status: GameStatus,
    pub turn: Color,
    pub ply: i64,
    pub your_turn: bool,
    pub result: Option<ResultView>,
    pub created_at: i64,
    pub updated_at: i64,
    /// The clock now (a correspondence game's deadline: when the player's time runs out).
    pub clock: Option<ClockView>,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// Played offline in the browser and uploaded: unverified (the computer's level is the
    /// uploader's claim). Sent only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub offline: bool,
}

/// Finished games of one variant.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct VariantStats {
    pub white: i64,
    pub black: i64,
    pub draws: i64,
    pub total: i64,
    pub white_pct: f64,
    pub black_pct: f64,
    pub draws_pct: f64,
}

impl VariantStats {
    /// Counts with their percentages of the total, rounded half-up to one decimal.
    pub fn new(white: i64, black: i64, draws: i64) -> VariantStats {
        let total = white + black + draws;
        let pct = |n: i64| rounded_percent(n, total);
        VariantStats {
            white,
            black,
            draws,
            total,
            white_pct: pct(white),
            black_pct: pct(black),
            draws_pct: pct(draws),
        }
    }
}

/// `n` in % of `total`, rounded half-up to one decimal (2 of 3 is 66.7, not the 66.66 a
/// truncation gives), in integer arithmetic so that no float error moves a half. 0 when
/// `total` is 0.
pub fn rounded_percent(n: i64, total: i64) -> f64 {
    if total <= 0 {
        0.0
    } else {
        let n = i128::from(n);
        let total = i128::from(total);
        let tenths = (n * 2000 + total) / (2 * total);
        tenths as f64 / 10.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_percentages_round_half_up_to_one_decimal() {
        // The seed's page's counts: 3,887 / 4,095 / 197 of 8,179.
        let s = VariantStats::new(3887, 4095, 197);
        assert_eq!(s.total, 8179);
        assert_eq!((s.white_pct, s.black_pct, s.draws_pct), (47.5, 50.1, 2.4));
        // 2 of 3: 66.666… shows as 66.7 (was 66.66, truncated); 1 of 3: 33.3.
        let s = VariantStats::new(2, 1, 0);
        assert_eq!((s.white_pct, s.black_pct), (66.7, 33.3));
        // An exact half rounds up: 1 of 16 is 6.25 %, 1 of 8 is 12.5 %.
        assert_eq!(rounded_percent(1, 16), 6.3);
        assert_eq!(rounded_percent(1, 8), 12.5);
        assert_eq!(rounded_percent(1, 1), 100.0);
        assert_eq!(VariantStats::new(0, 0, 0).white_pct, 0.0);
    }
}
