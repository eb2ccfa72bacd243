//! A bot's moves and resignations (issue 44): `POST /api/bot/game/{id}/move/{move}` and
//! `POST /api/bot/game/{id}/resign`, draw offers and answers, through the game service as the
//! page's moves go.

use std::sync::Arc;

use crate::play::{DrawAction, GameService};
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::PlayerToken;
use site_model::state::{GameKind, GameStatus};

/// Plays `text` (any accepted move text; lichess clients send UCI) for `token` in game `id`,
/// at the game's ply now, and with `offer_draw` offers a draw after it (lichess's
/// `offeringDraw`; a move that ends the game offers nothing). The service's errors: 403
/// `not_a_player`, 409 `not_your_turn` or `game_over`, 422 `illegal_move` (site-http
/// answers these as 400, as lichess does); 400 for a draw offer in Antarctos (A15), before
/// the move is played (bot client finding 5: the offer was dropped without a word).
pub async fn play_move(
    play: &Arc<GameService>,
    id: &str,
    token: &PlayerToken,
    text: &str,
    offer_draw: bool,
) -> Result<(), SiteError> {
    let view = play.get(id, token).await?;
    if offer_draw && view.variant == GameKind::Antarctos {
        return Err(SiteError::bad_request(
            "offeringDraw: Antarctos has no draws (A15); the move was not played",
        ));
    }
    if view.you.is_none() {
        return Err(SiteError::new(
            ErrorCode::NotAPlayer,
            "you hold no seat of this game",
        ));
    }
    if view.status != GameStatus::Ongoing {
        return Err(SiteError::new(
            ErrorCode::GameOver,
            format!("game {} is over: no more moves", view.id),
        ));
    }
    if view
        .you
        .and_then(|y| y.color())
        .is_some_and(|c| c != view.turn)
    {
        return Err(SiteError::new(
            ErrorCode::NotYourTurn,
            format!("not your turn: {} is to move", view.turn.name()),
        ));
    }
    let (after, _) = play.play_or_retry(id, token, text, view.ply, None).await?;
    if offer_draw && after.status == GameStatus::Ongoing {
        play.draw(id, token, DrawAction::Offer).await?;
    }
    Ok(())
}

/// `POST /api/bot/game/{id}/draw/{accept}`: `yes` (or `true`) accepts the opponent's offer or
/// makes one, `no` (or `false`) declines it. 400 for another answer, or in Antarctos (A15).
pub async fn draw(
    play: &Arc<GameService>,
    id: &str,
    token: &PlayerToken,
    answer: &str,
) -> Result<(), SiteError> {
    let view = play.get(id, token).await?;
    let theirs = view.draw_offer.is_some_and(|side| {
        view.you
            .and_then(|y| y.color())
            .is_some_and(|mine| mine != side)
    });
    let action = match (answer.trim(), theirs) {
        ("yes" | "true", true) => DrawAction::Accept,
        ("yes" | "true", false) => DrawAction::Offer,
        ("no" | "false", _) => DrawAction::Decline,
        (other, _) => {
            return Err(SiteError::bad_request(format!(
                "accept: '{}' is neither yes nor no",
                game::excerpt(other)
            )));
        }
    };
    play.draw(id, token, action).await.map(|_| ())
}

/// Resigns game `id` for `token`.
pub async fn resign(
    play: &Arc<GameService>,
    id: &str,
    token: &PlayerToken,
) -> Result<(), SiteError> {
    play.resign(id, token).await.map(|_| ())
}
