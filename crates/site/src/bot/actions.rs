//! A bot's moves and resignations (issue 44): `POST /api/bot/game/{id}/move/{move}` and
//! `POST /api/bot/game/{id}/resign`, through the game service as the page's moves go.

use std::sync::Arc;

use crate::play::GameService;
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::PlayerToken;
use site_model::state::GameStatus;

/// Plays `text` (any accepted move text; lichess clients send UCI) for `token` in game `id`,
/// at the game's ply now. The service's errors: 403 `not_a_player`, 409 `not_your_turn` or
/// `game_over`, 422 `illegal_move` (site-http answers these as 400, as lichess does).
pub async fn play_move(
    play: &Arc<GameService>,
    id: &str,
    token: &PlayerToken,
    text: &str,
) -> Result<(), SiteError> {
    let view = play.get(id, token).await?;
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
    play.play_or_retry(id, token, text, view.ply, None)
        .await
        .map(|_| ())
}

/// Resigns game `id` for `token`.
pub async fn resign(
    play: &Arc<GameService>,
    id: &str,
    token: &PlayerToken,
) -> Result<(), SiteError> {
    play.resign(id, token).await.map(|_| ())
}
