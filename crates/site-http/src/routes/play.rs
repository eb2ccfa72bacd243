//! Moves, resignation, draw offers and rematches.

use crate::error::HttpError;
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use serde::Deserialize;

use super::{ApiJson, AppState, PathText};
use crate::player::Player;
use site::play::{Answer, DrawAction};
use site::view::GameView;
use site_model::error::SiteError;

/// Body of `POST /api/games/{id}/moves`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    /// Move text in any accepted form.
    #[serde(rename = "move")]
    pub mv: String,
    /// The game's ply the client saw: required, so that a resent move (a double click, a
    /// retry after a timeout) is answered once and never played as the next side's move. A
    /// negative number is refused as malformed.
    #[serde(default)]
    pub ply: Option<u32>,
    /// The game `version` the client holds, optional: when the move was played on that very
    /// version, the answer carries only the new move, with `moves_from` (docs/api.md).
    #[serde(default)]
    pub version: Option<i64>,
    /// The network lag the client measured for this move, ms (its socket's round trip, half
    /// of it): forgiven within the player's lag quota (docs/api.md, "Lag").
    #[serde(default)]
    pub lag: Option<u32>,
}

/// The answer to a move: the game, with `moves_from` N when `moves` holds only the moves
/// after the first N (the client said it holds the version the move was played on).
#[derive(Debug, serde::Serialize)]
pub struct MoveAnswer {
    #[serde(skip_serializing_if = "Option::is_none")]
    moves_from: Option<usize>,
    #[serde(flatten)]
    game: GameView,
}

impl MoveAnswer {
    /// `game`, just changed by a move from the version before it (`retry`: no change, the
    /// move was stored already), for a client that holds version `held`.
    fn new(mut game: GameView, retry: bool, held: Option<i64>) -> MoveAnswer {
        // A move adds one version and one move: a holder of the version before has every
        // move but the last.
        let from = match (retry, held, game.moves.history()) {
            (false, Some(v), Some((_, len))) if v.checked_add(1) == Some(game.version) => {
                len.checked_sub(1)
            }
            _ => None,
        };
        let tail = from.and_then(|f| Some((f, game.moves.tail(f)?)));
        let moves_from = tail.map(|(f, list)| {
            game.moves = list;
            f
        });
        MoveAnswer { moves_from, game }
    }
}

/// The required `ply` of a move, or the `bad_request` that explains it.
pub(crate) fn required_ply(ply: Option<u32>) -> Result<i64, HttpError> {
    ply.map(i64::from).ok_or_else(|| {
        HttpError::from(SiteError::bad_request(
            "a move needs \"ply\": the number of moves the game had when you chose it (so a \
             resent move is never played twice)",
        ))
    })
}

/// Body of `POST /api/games/{id}/takeback`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakebackBody {
    /// `offer`, `accept` or `decline`.
    pub action: String,
    /// The number of moves the game had when the player asked (optional): a takeback asked
    /// at another ply takes nothing back, so a resent or doubled request takes back once.
    #[serde(default)]
    pub ply: Option<u32>,
}

/// Body of `POST /api/games/{id}/draw`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawBody {
    /// `offer`, `accept` or `decline`.
    pub action: String,
}

/// Body of `POST /api/games/{id}/rematch`: the action may be left out (`offer`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RematchBody {
    /// `offer` (the default), `accept` or `decline`.
    #[serde(default)]
    pub action: Option<String>,
}

/// `POST /api/games/{id}/moves`.
pub async fn moves(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
    ApiJson(body): ApiJson<MoveBody>,
) -> Result<Json<MoveAnswer>, HttpError> {
    let ply = required_ply(body.ply)?;
    let (game, retry) = svc
        .play
        .play_or_retry(&id, &token, &body.mv, ply, body.lag.map(i64::from))
        .await?;
    Ok(Json(MoveAnswer::new(game, retry, body.version)))
}

/// `POST /api/games/{id}/resign` (any body is ignored).
pub async fn resign(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<Json<GameView>, HttpError> {
    Ok(Json(svc.play.resign(&id, &token).await?))
}

/// `POST /api/games/{id}/draw`.
pub async fn draw(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
    ApiJson(body): ApiJson<DrawBody>,
) -> Result<Json<GameView>, HttpError> {
    let action = DrawAction::parse_draw(&body.action)?;
    Ok(Json(svc.play.draw(&id, &token, action).await?))
}

/// `POST /api/games/{id}/abort` (any body is ignored).
pub async fn abort(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<Json<GameView>, HttpError> {
    Ok(Json(svc.play.abort(&id, &token).await?))
}

/// `POST /api/games/{id}/takeback`.
pub async fn takeback(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
    ApiJson(body): ApiJson<TakebackBody>,
) -> Result<Json<GameView>, HttpError> {
    let action = Answer::parse_for(&body.action, "takeback")?;
    Ok(Json(
        svc.play.takeback(&id, &token, action, body.ply).await?,
    ))
}

/// `POST /api/games/{id}/rematch` -> 201 (new) or 200 (an offer, an answer, or the existing
/// rematch). An empty body is an offer.
pub async fn rematch(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
    _: super::DeclaredLength,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<GameView>), HttpError> {
    // The body may be empty (an offer), so it is read as bytes, not as `ApiJson`; its
    // rejections are still the API's errors (a body over the limit: 413 `too_large`).
    let body = body.map_err(super::body_error)?;
    let text = body.trim_ascii_start();
    let body: RematchBody = if text.is_empty() {
        RematchBody::default()
    } else if !text.starts_with(b"{") {
        // serde would read `["accept"]` into the struct by position.
        return Err(HttpError::from(SiteError::bad_request(
            "rematch body: a JSON object, e.g. {\"action\": \"accept\"}, or nothing",
        )));
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| SiteError::bad_request(format!("rematch body: {e}")))?
    };
    let action = match body.action.as_deref() {
        None => Answer::Offer,
        Some(text) => Answer::parse_for(text, "rematch")?,
    };
    let (view, created) = svc.play.rematch(&id, &token, action).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(view)))
}

/// Body of `POST /api/games/{id}/claim`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimBody {
    /// `win` or `draw`.
    pub action: String,
}

/// `POST /api/games/{id}/claim`: the opponent of a gone player takes the win or a draw.
pub async fn claim(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
    ApiJson(body): ApiJson<ClaimBody>,
) -> Result<Json<GameView>, HttpError> {
    let claim = site_model::state::Claim::parse(&body.action).ok_or_else(|| {
        HttpError::from(SiteError::bad_request(format!(
            "action: '{}' is neither 'win' nor 'draw'",
            game::excerpt(&body.action)
        )))
    })?;
    Ok(Json(svc.play.claim(&id, &token, claim).await?))
}
