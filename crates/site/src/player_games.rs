//! One game of a player's lists, from that player's side (`PlayerGameView`): the profile's
//! game list (`players`) and its recent activity (`profile`) both show it, so it lives apart
//! from both (no import cycle between them).

use game::Color;
use serde::Serialize;

use crate::live_game::result_view;
use crate::view::ResultView;
use site_model::clock::Speed;
use site_model::secrets::TokenHash;
use site_model::state::{GameKind, GameStatus, SeatKind};
use site_store::GameRow;

/// The opponent in a profile's game line: `{"kind": "human", "username": "bob" | null}`
/// (`null`: an anonymous player) or `{"kind": "engine", "level": 3}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpponentView {
    /// `human` or `engine`.
    pub kind: SeatKind,
    /// An account's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// An engine's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<i64>,
}

/// One game of a profile's list, from the player's side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerGameView {
    /// Game id (`/game/{id}`).
    pub id: String,
    /// The game.
    pub variant: GameKind,
    /// `ongoing` or `finished`.
    pub status: GameStatus,
    /// Whether it is rated.
    pub rated: bool,
    /// `realtime`, `correspondence` or `null` (no clock).
    pub speed: Option<Speed>,
    /// The player's colour.
    pub color: Color,
    /// Who played the other side.
    pub opponent: OpponentView,
    /// `win`, `loss`, `draw`, or `null` while the game goes on.
    pub outcome: Option<&'static str>,
    /// The result as in GameView.
    pub result: Option<ResultView>,
    /// Moves played.
    pub ply: i64,
    /// The player's rating change in a rated game (`+12`), once rated.
    pub rating_diff: Option<i64>,
    /// The player's rating after it, once rated.
    pub rating_after: Option<i64>,
    /// Whether that rating was provisional.
    pub provisional: Option<bool>,
    /// Unix milliseconds of the game's last change.
    pub updated_at: i64,
    /// Played offline in the browser and uploaded: unverified (the computer's level is the
    /// uploader's claim). Sent only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub offline: bool,
}

/// One game of a profile's lists, from the side of the player whose seats hold `hash`
/// (`names`: account names by token hash).
pub(crate) fn game_line(
    row: &GameRow,
    hash: &TokenHash,
    names: &std::collections::HashMap<String, String>,
) -> PlayerGameView {
    let color = if row.white.token.as_ref() == Some(hash) {
        Color::White
    } else {
        Color::Black
    };
    let other = row.seat(!color);
    let opponent = OpponentView {
        kind: other.kind,
        username: other
            .token
            .as_ref()
            .and_then(|t| names.get(t.as_str()).cloned()),
        level: other.level.map(i64::from),
    };
    let outcome = (row.status == GameStatus::Finished).then(|| match row.winner {
        None => "draw",
        Some(w) if w == color => "win",
        Some(_) => "loss",
    });
    let mine = row.ratings.as_ref().map(|c| match color {
        Color::White => &c.white,
        Color::Black => &c.black,
    });
    PlayerGameView {
        id: row.id.clone(),
        variant: row.variant,
        status: row.status,
        rated: row.rated,
        speed: row.clock.and_then(|c| c.control().speed()),
        color,
        opponent,
        outcome,
        result: result_view(row),
        ply: row.ply,
        rating_diff: mine.map(|m| m.diff),
        rating_after: mine.map(|m| m.after),
        provisional: mine.map(|m| m.provisional),
        updated_at: row.updated_at,
        offline: row.upload_key.is_some(),
    }
}
