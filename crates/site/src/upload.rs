//! `POST /api/games/upload` (issue 42): a finished game against the computer, played offline
//! in the browser, stored on the site as an unrated game of the uploading player. The server
//! trusts nothing of it: it replays every move with the rules from the start position and
//! works the result out itself. The same upload twice stores one game (a unique key, the
//! SHA-256 of the player and the upload, written in the same transaction as the game).

use std::sync::Arc;

use game::{Color, MoveTextFault, MoveTextKind, RecordResult};
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::{PlayerToken, content_digest};
use site_model::state::{GameKind, GameStatus, Level, SeatKind};
use site_store::{GameRow, MoveRow, SeatRow, now_ms};

use crate::live_game::{SiteVariant, move_error};
use crate::permissions::{self, Action};
use crate::play::{GameService, random_token};
use crate::view::GameView;

/// Most moves an upload may hold (plies); the request body's size limit comes first for
/// ordinary move text.
pub const MAX_UPLOAD_PLIES: usize = 2000;

/// An upload, typed (site-http parses the request body into it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    /// The game played.
    pub variant: GameKind,
    /// The moves from the start position, in any form the rules read (A16 text, SAN, UCI).
    pub moves: Vec<String>,
    /// The computer's level in the browser (the same levels as the site's engine seats).
    pub level: Level,
    /// The colour the player had; the computer had the other.
    pub color: Color,
    /// The result the browser claims: the server's own must agree.
    pub result: RecordResult,
}

/// What an upload gave: the game as the uploader sees it, and whether this upload stored it
/// (`false`: the same upload was stored before, and this is that game).
#[derive(Debug, Clone)]
pub struct Uploaded {
    /// The stored game (`offline: true`, unrated).
    pub game: GameView,
    /// Whether this request stored it.
    pub created: bool,
}

/// The game replayed: its start, its moves as stored, and how it ended.
struct Replayed {
    start_fen: String,
    rows: Vec<MoveRow>,
    turn: Color,
    /// How the rules ended it; `None`: the last position is not over (a resignation).
    outcome: Option<(Option<Color>, game::EndReason)>,
}

/// Replays `moves` from `V`'s start position; errors name the ply (1-based) and the move.
fn replay<V: SiteVariant>(moves: &[String]) -> Result<Replayed, SiteError> {
    let start = V::start_position();
    let mut pos = start.clone();
    let mut rows = Vec::with_capacity(moves.len());
    let now = now_ms();
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        // Each refusal carries the move's fault as data, as the moves route's does.
        let refused = |kind: MoveTextKind,
                       candidates: &[String],
                       reason: Option<&game::MoveHint>,
                       message: String| {
            let mut error = move_error(text.trim(), kind, candidates, reason, String::new());
            error.message = message;
            error
        };
        if let Some(outcome) = V::outcome(&pos) {
            return Err(refused(
                MoveTextKind::NoMatch,
                &[],
                None,
                format!(
                    "ply {ply} ('{}'): the game was already over after ply {i} ({outcome})",
                    game::excerpt(text)
                ),
            ));
        }
        let illegal =
            |e: String| format!("ply {ply} ('{}') is not legal: {e}", game::excerpt(text));
        let mv = V::parse_move(&pos, text.trim())
            .map_err(|e| refused(e.kind(), e.candidates(), e.hint(), illegal(e.to_string())))?;
        let next = V::play(&pos, &mv)
            .map_err(|e| refused(MoveTextKind::NoMatch, &[], None, illegal(e.to_string())))?;
        rows.push(MoveRow {
            ply: ply as i64,
            move_id: V::move_id(&pos, &mv),
            move_text: V::move_text(&pos, &mv),
            fen: V::position_text(&next),
            event: V::event(&pos, &mv),
            created_at: now,
        });
        pos = next;
    }
    Ok(Replayed {
        start_fen: V::position_text(&start),
        rows,
        turn: V::side_to_move(&pos),
        outcome: V::outcome(&pos).map(|o| (o.winner(), o.reason())),
    })
}

fn result_of(winner: Option<Color>) -> RecordResult {
    match winner {
        Some(Color::White) => RecordResult::WhiteWins,
        Some(Color::Black) => RecordResult::BlackWins,
        None => RecordResult::Draw,
    }
}

/// The upload's unique key: SHA-256 (hex) of the player's token hash and the upload in
/// canonical form (the moves as their machine ids), so that the same game sent twice, in
/// whatever move notation, is one game.
fn upload_key(player_hash: &str, upload: &Upload, rows: &[MoveRow]) -> String {
    let ids: Vec<&str> = rows.iter().map(|r| r.move_id.as_str()).collect();
    content_digest(&format!(
        "upload\n{player_hash}\n{}\n{}\n{}\n{}\n{}",
        upload.variant.as_str(),
        i64::from(upload.level),
        upload.color.name(),
        upload.result.as_str(),
        ids.join(" ")
    ))
}

/// Replays and stores `upload` as `token`'s unrated game against the computer (its
/// account's name on the seat when logged in). Errors: `too_large` past
/// [`MAX_UPLOAD_PLIES`], `illegal_move` naming the first ply the rules refuse,
/// `bad_request` when the claimed result is not the rules' result, or the game is not over and
/// the claim is not the uploader's resignation (stored as one) or is one before the second
/// move (where a game is aborted, not resigned).
pub async fn upload(
    play: &Arc<GameService>,
    token: &PlayerToken,
    upload: Upload,
) -> Result<Uploaded, SiteError> {
    if upload.moves.len() > MAX_UPLOAD_PLIES {
        return Err(SiteError::new(
            ErrorCode::TooLarge,
            format!(
                "{} moves (an upload holds at most {MAX_UPLOAD_PLIES})",
                upload.moves.len()
            ),
        ));
    }
    if upload.result == RecordResult::Unknown {
        return Err(SiteError::bad_request(
            "an uploaded game is finished: its result is 1-0, 0-1 or 1/2-1/2",
        ));
    }
    let moves = upload.moves.clone();
    // Replaying a long game is CPU work: off the async threads.
    let variant = upload.variant;
    let replayed =
        tokio::task::spawn_blocking(move || games::with_game!(variant, G => replay::<G>(&moves)))
            .await
            .map_err(|e| SiteError::new(ErrorCode::Internal, format!("replay failed: {e}")))??;
    // A game the rules did not end was resigned, and only the uploader's own resignation is
    // taken (nobody gains by uploading a loss; a win must be won on the board).
    let (winner, reason) = match replayed.outcome {
        Some(ended) => ended,
        // Before the second move a game is aborted, not resigned (the site's rule,
        // `permissions`): it has no result, so there is nothing to store.
        None if permissions::ending_action(replayed.rows.len() as i64) == Action::Abort => {
            return Err(SiteError::bad_request(format!(
                "the game is not over after its {} moves, and a game of fewer than {} moves \
                 is aborted, not resigned: it has no result to upload",
                upload.moves.len(),
                permissions::ABORT_BEFORE_PLY
            )));
        }
        None if upload.result == result_of(Some(!upload.color)) => {
            (Some(!upload.color), game::EndReason::Resignation)
        }
        None => {
            return Err(SiteError::bad_request(format!(
                "the game is not over after its {} moves: only a finished game, or one the \
                 uploader resigned ({}), is uploaded",
                upload.moves.len(),
                result_of(Some(!upload.color)).as_str()
            )));
        }
    };
    let computed = result_of(winner);
    if computed != upload.result {
        return Err(SiteError::bad_request(format!(
            "the result {} disagrees with the game: after its last move the rules give {} ({})",
            upload.result.as_str(),
            computed.as_str(),
            reason.as_str()
        )));
    }
    let player_hash = token.hash();
    let key = upload_key(player_hash.as_str(), &upload, &replayed.rows);
    let human = SeatRow {
        kind: SeatKind::Human,
        level: None,
        token: Some(player_hash),
        name: play.account_name(token).await?,
        rating: None,
        bot: false,
    };
    let computer = SeatRow {
        kind: SeatKind::Engine,
        level: Some(upload.level),
        token: None,
        name: None,
        rating: None,
        bot: false,
    };
    let (white, black) = match upload.color {
        Color::White => (human, computer),
        Color::Black => (computer, human),
    };
    let now = now_ms();
    let id = random_token(8);
    let row = GameRow {
        status: GameStatus::Finished,
        result: Some(computed),
        winner,
        reason: Some(reason),
        ply: replayed.rows.len() as i64,
        rated: false,
        upload_key: Some(key),
        ..GameRow::new_game(
            id.clone(),
            upload.variant,
            replayed.start_fen,
            white,
            black,
            replayed.turn,
            now,
        )
    };
    // A failed commit's advice is for an upload: no game id to reload, a repeat is safe.
    let stored = play
        .store()
        .insert_upload(&row, &replayed.rows)
        .await
        .map_err(site_store::upload_error)?;
    let created = stored == id;
    if created {
        tracing::info!(game = %id, variant = %upload.variant, plies = row.ply, "offline game uploaded");
    }
    Ok(Uploaded {
        game: play.get(&stored, token).await?,
        created,
    })
}
