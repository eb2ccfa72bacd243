//! `POST /api/games/upload` (issue 42): a finished game against the computer played offline
//! in the browser. The JSON body is read here into `site::upload::Upload` (names checked once,
//! at the edge); `site::upload` replays and stores it.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use game::{Color, RecordResult};
use serde::Deserialize;
use site::positions::variant_named;
use site::upload::Upload;
use site::view::GameView;
use site_model::error::SiteError;
use site_model::state::Level;

use super::{ApiJson, AppState};
use crate::error::HttpError;
use crate::player::Player;

/// The request body as sent: `{"variant": "antarctos", "moves": ["c3-d4", ...], "level": 1,
/// "color": "white", "result": "1-0"}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UploadBody {
    /// `antarctos` or `iceage`.
    pub variant: String,
    /// The moves from the start position, in order.
    pub moves: Vec<String>,
    /// The computer's level, 1-8.
    pub level: i64,
    /// The player's colour, `white` or `black`.
    pub color: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
}

impl TryFrom<UploadBody> for Upload {
    type Error = SiteError;

    fn try_from(body: UploadBody) -> Result<Upload, SiteError> {
        let variant = variant_named(&body.variant)?;
        let level = Level::try_from(body.level).map_err(SiteError::bad_request)?;
        // Exact lower case, as `variant` and the other routes' colours (no `W`, no `White`).
        let color = [Color::White, Color::Black]
            .into_iter()
            .find(|c| c.name() == body.color)
            .ok_or_else(|| {
                SiteError::bad_request(format!(
                    "unknown color '{}' (white or black)",
                    game::excerpt(&body.color)
                ))
            })?;
        let result = match body.result.trim() {
            "1-0" => RecordResult::WhiteWins,
            "0-1" => RecordResult::BlackWins,
            "1/2-1/2" => RecordResult::Draw,
            other => {
                return Err(SiteError::bad_request(format!(
                    "unknown result '{}' (1-0, 0-1 or 1/2-1/2)",
                    game::excerpt(other)
                )));
            }
        };
        Ok(Upload {
            variant,
            moves: body.moves,
            level,
            color,
            result,
        })
    }
}

/// `POST /api/games/upload` -> 201 GameView (the stored game, `offline: true`), or 200 with
/// the same game when this upload was stored before.
pub async fn upload(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<UploadBody>,
) -> Result<(StatusCode, Json<GameView>), HttpError> {
    let input = Upload::try_from(body)?;
    let done = site::upload::upload(&svc.play, &token, input).await?;
    let status = if done.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(done.game)))
}
