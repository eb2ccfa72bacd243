//! The JSON shapes the API sends (docs/api.md: GameView, GameSummary, stats).

use game::{Color, EndReason, RecordResult};
use serde::{Deserialize, Serialize};

use crate::state::{GameStatus, Level, SeatKind, VariantName, YourSeat};
use crate::store::{GameRow, SeatRow};

/// A seat as shown: `{"kind": "human"}`, `{"kind": "engine", "level": 3}`, `{"kind": "open"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// Who holds it.
    pub kind: SeatKind,
    /// Engine level.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub level: Option<Level>,
}

impl From<&SeatRow> for SeatView {
    fn from(s: &SeatRow) -> Self {
        SeatView {
            kind: s.kind,
            level: s.level,
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
    pub variant: VariantName,
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
    pub moves: Vec<MoveView>,
    pub legal: Vec<LegalView>,
    pub draw_offer: Option<Color>,
    pub result: Option<ResultView>,
    pub invite_url: Option<String>,
    pub rematch_of: Option<String>,
    pub rematch: Option<String>,
    pub engine_thinking: bool,
}

/// Which seats a token holds.
pub fn seat_of(row: &GameRow, token: &str) -> Option<YourSeat> {
    let w = row.white.token.as_deref() == Some(token);
    let b = row.black.token.as_deref() == Some(token);
    match (w, b) {
        (true, true) => Some(YourSeat::Both),
        (true, false) => Some(YourSeat::White),
        (false, true) => Some(YourSeat::Black),
        (false, false) => None,
    }
}

impl GameView {
    /// Fills the fields that depend on who asks (`you`, `invite_url`) for `token`.
    pub fn personalize(mut self, row: &GameRow, token: &str) -> GameView {
        self.you = seat_of(row, token);
        self.invite_url = match (&self.you, &row.invite) {
            (Some(_), Some(invite)) if row.has_open_seat() && row.status == GameStatus::Ongoing => {
                Some(format!("/join/{invite}"))
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
    pub variant: VariantName,
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
    /// Counts with their percentages of the total, truncated to two decimals.
    pub fn new(white: i64, black: i64, draws: i64) -> VariantStats {
        let total = white + black + draws;
        let pct = |n: i64| truncated_percent(n, total);
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

/// `n` in % of `total`, truncated (not rounded) to two decimals: the seed's page shows
/// 50.06 % for 4,095 of 8,179. 0 when `total` is 0.
pub fn truncated_percent(n: i64, total: i64) -> f64 {
    if total <= 0 {
        0.0
    } else {
        (n.saturating_mul(10_000) / total) as f64 / 100.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_percentages_like_the_seed() {
        // The seed's page: 3,887 / 4,095 / 197 of 8,179.
        let s = VariantStats::new(3887, 4095, 197);
        assert_eq!(s.total, 8179);
        assert_eq!(s.white_pct, 47.52);
        assert_eq!(s.black_pct, 50.06);
        assert_eq!(s.draws_pct, 2.4);
        assert_eq!(VariantStats::new(0, 0, 0).white_pct, 0.0);
    }
}
