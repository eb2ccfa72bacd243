//! Conditional premoves (issue 38): on the opponent's turn of a correspondence game, a player
//! enters a line, "if they play X, I play Y; if then Z, W". It is stored (only its author sees
//! it) and played by the server the moment the opponent's move matches: the reply goes through
//! the same checked write as any move, so it is played once, whatever process took the
//! opponent's move. A move that does not match, a takeback, or the game's end drops the line.

use std::sync::Arc;

use serde::Serialize;
use tokio::sync::MutexGuard;

use super::{GameService, GameSlot};
use crate::live_game::LiveGame;
use crate::view::seat_of;
use site_model::clock::Speed;
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::PlayerToken;
use site_model::state::{GameStatus, YourSeat};
use site_store::{ConditionalRow, GameRow, LineMove, now_ms};

/// Most moves in a line (ten of the opponent's and ten replies).
pub const MAX_LINE: usize = 20;

/// A player's conditional line as its author sees it (`GET`, `PUT /api/games/{id}/conditional`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConditionalView {
    /// The game's ply when it was entered: its first move is the opponent's next.
    pub after_ply: i64,
    /// The opponent's move, the reply, and so on.
    pub moves: Vec<LineMove>,
}

impl From<ConditionalRow> for ConditionalView {
    fn from(c: ConditionalRow) -> ConditionalView {
        ConditionalView {
            after_ply: c.after_ply,
            moves: c.line,
        }
    }
}

/// Whether `row` is a game where lines may be entered: a correspondence or unlimited game
/// between two seats held apart (not one screen, not the engine).
fn takes_lines(row: &GameRow) -> bool {
    let slow = row
        .clock
        .is_none_or(|c| c.control().speed() == Some(Speed::Correspondence));
    let humans = row.white.token.is_some()
        && row.black.token.is_some()
        && row.white.token != row.black.token;
    slow && humans
}

impl GameService {
    /// The side `token` plays in the locked game, for a line: 403 for a watcher or a
    /// one-screen game.
    fn line_side(row: &GameRow, token: &PlayerToken) -> Result<game::Color, SiteError> {
        match seat_of(row, token) {
            Some(YourSeat::White) => Ok(game::Color::White),
            Some(YourSeat::Black) => Ok(game::Color::Black),
            _ => Err(SiteError::new(
                ErrorCode::NotAPlayer,
                "conditional moves are for a player of the game",
            )),
        }
    }

    /// `PUT /api/games/{id}/conditional`: stores `moves` (the opponent's move, the reply, ...;
    /// an even number, 2 to [`MAX_LINE`]) as the caller's line, replacing any. Only on the
    /// opponent's turn of an ongoing correspondence or unlimited game between two players.
    pub async fn set_conditional(
        &self,
        id: &str,
        token: &PlayerToken,
        moves: &[String],
    ) -> Result<ConditionalView, SiteError> {
        if moves.len() < 2 || moves.len() > MAX_LINE || !moves.len().is_multiple_of(2) {
            return Err(SiteError::bad_request(format!(
                "moves: {} moves; a line is pairs of the opponent's move and your reply, 2 to \
                 {MAX_LINE} moves",
                moves.len()
            )));
        }
        let slot = self.slot(id).await?;
        let g = self.lock_fresh(&slot).await?;
        let row = g.row();
        let side = Self::line_side(row, token)?;
        if row.status != GameStatus::Ongoing {
            return Err(SiteError::new(ErrorCode::GameOver, "the game is over"));
        }
        if !takes_lines(row) {
            return Err(SiteError::bad_request(
                "conditional moves are for correspondence games between two players",
            ));
        }
        if row.turn == side {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "it is your move: conditional moves are entered on your opponent's turn",
            ));
        }
        let line = g
            .read_line(moves)?
            .into_iter()
            .map(|(id, text)| LineMove { id, text })
            .collect();
        let c = ConditionalRow {
            game_id: row.id.clone(),
            side,
            after_ply: row.ply,
            line,
            created_at: now_ms(),
        };
        self.store.set_conditional(&c).await?;
        Ok(c.into())
    }

    /// `GET /api/games/{id}/conditional`: the caller's line, `None` when there is none (or it
    /// no longer applies). Another player's line is never shown.
    pub async fn conditional(
        &self,
        id: &str,
        token: &PlayerToken,
    ) -> Result<Option<ConditionalView>, SiteError> {
        let slot = self.slot(id).await?;
        let g = self.lock_fresh(&slot).await?;
        let side = Self::line_side(g.row(), token)?;
        let line = self.store.conditional(id, side).await?;
        Ok(line
            .filter(|c| c.after_ply == g.row().ply && g.row().status == GameStatus::Ongoing)
            .map(ConditionalView::from))
    }

    /// `DELETE /api/games/{id}/conditional`: cancels the caller's line; whether there was one.
    pub async fn cancel_conditional(
        &self,
        id: &str,
        token: &PlayerToken,
    ) -> Result<bool, SiteError> {
        let slot = self.slot(id).await?;
        let g = self.lock_fresh(&slot).await?;
        let side = Self::line_side(g.row(), token)?;
        Ok(self.store.delete_conditional(id, side).await?)
    }

    /// After a move stored in the locked game `g`: if the side to move now has a line whose
    /// first move is the one just played, plays its reply and keeps the rest of the line; a
    /// line that does not match is dropped. Never fails the move that was played: a problem is
    /// logged, and the line dropped.
    pub(super) async fn follow_conditional(
        self: &Arc<Self>,
        slot: &Arc<GameSlot>,
        g: &mut MutexGuard<'_, Box<dyn LiveGame>>,
    ) {
        let row = g.row().clone();
        if row.status != GameStatus::Ongoing || !takes_lines(&row) {
            return;
        }
        let side = row.turn;
        let line = match self.store.conditional(&row.id, side).await {
            Ok(Some(line)) => line,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(game = %row.id, error = %e, "cannot read a conditional line");
                return;
            }
        };
        let drop_line = || async {
            if let Err(e) = self.store.delete_conditional(&row.id, side).await {
                tracing::warn!(game = %row.id, error = %e, "cannot drop a conditional line");
            }
        };
        let matches = line.after_ply + 1 == row.ply
            && line.line.len() >= 2
            && g.last_move_id().as_deref() == Some(line.line[0].id.as_str());
        if !matches {
            drop_line().await;
            return;
        }
        let reply = &line.line[1];
        let prepared = match g.prepare_move(&reply.id) {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!(game = %row.id, error = %e.message, "a conditional reply is not legal");
                drop_line().await;
                return;
            }
        };
        if let Err(e) = self.store_move(slot, g, prepared).await {
            // Another process moved first, or the store is down: the line is left as it is;
            // it no longer matches the game and is dropped at the next look.
            tracing::warn!(game = %row.id, error = %e.message, "a conditional reply was not stored");
            return;
        }
        tracing::info!(game = %row.id, "conditional premove played");
        if let Some(owner) = row.seat(side).token.as_ref() {
            self.notifications
                .move_answered(owner, &row.id, row.ply)
                .await;
        }
        let rest = line.line[2..].to_vec();
        if rest.len() >= 2 && g.row().status == GameStatus::Ongoing {
            let next = ConditionalRow {
                after_ply: g.row().ply,
                line: rest,
                ..line
            };
            if let Err(e) = self.store.set_conditional(&next).await {
                tracing::warn!(game = %row.id, error = %e, "cannot keep a conditional line");
            }
        } else {
            drop_line().await;
        }
    }
}
