//! Any position's facts for the analysis board (issue 14): `POST /api/positions` answers the
//! side to move, the result if the game is over, and every legal move with the position after
//! it, all from the rules crates, so that the page walks a move tree without computing a rule.

use game::Color;
use serde::Serialize;

use crate::live_game::{MAX_FEN_TEXT, SiteVariant, square_name};
use crate::view::{IceAgeView, ResultView};
use game::result_words;
use site_model::error::{ErrorCode, SiteError};
use site_model::state::GameKind;

/// What `POST /api/positions` asks, its game named (site-http parses the body into it).
#[derive(Debug, Clone)]
pub struct PositionRequest {
    /// The game.
    pub variant: GameKind,
    /// The position (Antarctos A18, Ice Age Chess C12), at most 256 bytes.
    pub fen: String,
}

/// One legal move and where it leads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NextView {
    /// Machine form (`c3-d4`, `e2e4`).
    pub id: String,
    /// Canonical notation (A16, C13).
    pub text: String,
    /// Every square visited, from the start square.
    pub path: Vec<String>,
    /// The position after the move, canonical.
    pub fen: String,
    /// What happened besides the move (Ice Age Chess: the Ice Age it brings, C5-C9).
    pub event: Option<String>,
    /// Ice Age Chess: what the Ice Age this move brings does (what froze, the new ice, the
    /// squares left empty, the position before it), as the game page's moves carry it. Sent
    /// only for such a move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ice_age: Option<IceAgeView>,
}

/// `POST /api/positions`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PositionView {
    /// `antarctos` or `iceage`.
    pub variant: &'static str,
    /// The position, canonical.
    pub fen: String,
    /// The side to move.
    pub turn: Color,
    /// The move number of the side to move (a record's `12.` or `12...`).
    pub number: u32,
    /// Every legal move; empty when the game is over.
    pub legal: Vec<NextView>,
    /// The result when the game is over in this position.
    pub result: Option<ResultView>,
    /// Antarctos: a capture is compulsory (A9).
    pub capture_compulsory: bool,
    /// Ice Age Chess: Black moves until the next Ice Age, counting the one that brings it.
    pub ice_age_in: Option<u32>,
}

/// The game a request's `variant` names, or 400 `unknown variant '<name>' (antarctos or
/// iceage)` quoting (an excerpt of) the name. site-http's request bodies parse through it.
pub fn variant_named(name: &str) -> Result<GameKind, SiteError> {
    GameKind::parse(name).ok_or_else(|| {
        SiteError::bad_request(format!(
            "unknown variant '{}' (antarctos or iceage)",
            game::excerpt(name)
        ))
    })
}

/// A number of `what` in `min..=max`, or the `bad_request` that says the range.
pub(crate) fn in_range(what: &str, n: u64, min: u64, max: u64) -> Result<u64, SiteError> {
    if (min..=max).contains(&n) {
        Ok(n)
    } else {
        Err(SiteError::bad_request(format!(
            "{what} {n} is out of range ({min} to {max})"
        )))
    }
}

/// The position of `fen`: 413 when over [`MAX_FEN_TEXT`] bytes, 400 with the rules crate's
/// words, and its fault as data (`error.position`), when it cannot be read.
pub(crate) fn read_position<V: SiteVariant>(fen: &str) -> Result<V::Position, SiteError> {
    if fen.len() > MAX_FEN_TEXT {
        return Err(SiteError::new(
            ErrorCode::TooLarge,
            format!("fen of {} bytes (at most {MAX_FEN_TEXT})", fen.len()),
        ));
    }
    V::parse_position(fen.trim()).map_err(|e| SiteError::bad_position(fen.trim(), &e))
}

fn view<V: SiteVariant>(variant: GameKind, fen: &str) -> Result<PositionView, SiteError> {
    let pos = read_position::<V>(fen)?;
    let result = V::outcome(&pos).map(|o| ResultView {
        result: match o.winner() {
            Some(Color::White) => game::RecordResult::WhiteWins,
            Some(Color::Black) => game::RecordResult::BlackWins,
            None => game::RecordResult::Draw,
        },
        winner: o.winner(),
        reason: o.reason(),
        words: result_words(o.winner(), o.reason()),
    });
    let legal = V::legal_moves(&pos)
        .iter()
        .map(|mv| NextView {
            id: V::move_id(&pos, mv),
            text: V::move_text(&pos, mv),
            path: V::move_path(mv).into_iter().map(square_name).collect(),
            fen: V::position_text(&V::play_unchecked(&pos, mv)),
            event: V::event(&pos, mv),
            ice_age: V::facts(&pos, mv).ice_age,
        })
        .collect();
    Ok(PositionView {
        variant: variant.as_str(),
        fen: V::position_text(&pos),
        turn: V::side_to_move(&pos),
        number: V::fullmove_number(&pos),
        legal,
        result,
        capture_compulsory: V::capture_compulsory(&pos),
        ice_age_in: V::ice_age_in(&pos),
    })
}

/// `POST /api/positions`: 400 for an unknown variant or unreadable position text, 413 for a
/// position over 256 bytes. A finished position is answered, with its result and no moves.
pub fn position(req: &PositionRequest) -> Result<PositionView, SiteError> {
    let variant = req.variant;
    games::with_game!(variant, G => view::<G>(variant, &req.fen))
}
