//! A gone opponent (issue 38): when every socket of a real-time game's player has closed, the
//! game says so (`gone`, stored with the game, so every process's sockets and the opponent's
//! countdown see it); the opponent may then, after the wait of [`Gone::wait_ms`], claim the win
//! or call it a draw. A socket of the player that opens again ends it.
//!
//! Sockets are counted per process: a player with pages on two processes of one site at once
//! (two tabs of one game behind a balancer) reads as gone when the pages of one process close.

use std::sync::Arc;

use game::{Color, EndReason};

use super::{GameService, GameSlot, finish};
use crate::view::{GameView, seat_of};
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::PlayerToken;
use site_model::state::{Claim, GameStatus, Gone, YourSeat};
use site_store::GameRow;

/// A control's expected length in seconds; `None` without a real-time clock.
fn expected_s(row: &GameRow) -> Option<i64> {
    row.clock.and_then(|c| c.control().expected_s())
}

/// The seat `token` holds alone (a one-screen game counts for neither).
fn own_side(row: &GameRow, token: &PlayerToken) -> Option<Color> {
    match seat_of(row, token)? {
        YourSeat::White => Some(Color::White),
        YourSeat::Black => Some(Color::Black),
        YourSeat::Both => None,
    }
}

impl GameService {
    fn lock_presence(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::HashMap<(String, Color), usize>> {
        self.presence.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A socket of `token` opened on the game in `slot`: counted; a gone mark of its seat ends.
    pub async fn seat_opened(self: &Arc<Self>, slot: &Arc<GameSlot>, token: &PlayerToken) {
        let mut g = slot.game.lock().await;
        let Some(side) = own_side(g.row(), token) else {
            return;
        };
        *self
            .lock_presence()
            .entry((g.row().id.clone(), side))
            .or_default() += 1;
        if g.row().gone.is_some_and(|x| x.side == side) {
            let mut row = g.row().clone();
            row.gone = None;
            if let Err(e) = self.save_state(slot, &mut g, row).await {
                tracing::warn!(error = %e.message, "cannot end a gone mark");
            }
        }
    }

    /// A socket of `token` on the game in `slot` closed (`clean`: the page closed it). When it
    /// was the seat's last here, in an ongoing real-time game, the seat is marked gone.
    pub async fn seat_closed(
        self: &Arc<Self>,
        slot: &Arc<GameSlot>,
        token: &PlayerToken,
        clean: bool,
    ) {
        let mut g = slot.game.lock().await;
        let Some(side) = own_side(g.row(), token) else {
            return;
        };
        let key = (g.row().id.clone(), side);
        let last = {
            let mut presence = self.lock_presence();
            let n = presence.entry(key.clone()).or_default();
            *n = n.saturating_sub(1);
            let last = *n == 0;
            if last {
                presence.remove(&key);
            }
            last
        };
        let row = g.row();
        if !last
            || *self.shutdown_signal().borrow()
            || row.status != GameStatus::Ongoing
            || expected_s(row).is_none()
            || row.has_open_seat()
        {
            return;
        }
        let mut row = row.clone();
        row.gone = Some(Gone {
            side,
            since_ms: self.time.now_ms(),
            clean,
        });
        if let Err(e) = self.save_state(slot, &mut g, row).await {
            tracing::warn!(error = %e.message, "cannot mark a player gone");
        }
    }

    /// `POST /api/games/{id}/claim`: the opponent of a gone player takes the win or calls it a
    /// draw. 409 `conflict` while the player is not gone or the wait is not over (the message
    /// says how long is left); 403 for anyone but the opponent.
    pub async fn claim(
        self: &Arc<Self>,
        id: &str,
        token: &PlayerToken,
        claim: Claim,
    ) -> Result<GameView, SiteError> {
        let slot = self.slot(id).await?;
        let mut g = self.lock_fresh(&slot).await?;
        let row = g.row().clone();
        let me = own_side(&row, token).ok_or_else(|| {
            SiteError::new(
                ErrorCode::NotAPlayer,
                "only the opponent of a gone player may claim",
            )
        })?;
        if row.status != GameStatus::Ongoing {
            return Err(SiteError::new(ErrorCode::GameOver, "the game is over"));
        }
        let (Some(gone), Some(expected)) = (row.gone, expected_s(&row)) else {
            return Err(SiteError::new(ErrorCode::Conflict, "your opponent is here"));
        };
        if gone.side == me {
            return Err(SiteError::new(ErrorCode::Conflict, "your opponent is here"));
        }
        let now = self.time.now_ms();
        let at = gone.claim_at_ms(expected);
        if now < at {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                format!(
                    "your opponent may still come back: you can claim in {} s",
                    (at - now + 999) / 1000
                ),
            ));
        }
        let mut row = row;
        row.gone = None;
        let winner = match claim {
            Claim::Win => Some(me),
            Claim::Draw => None,
        };
        finish(&mut row, winner, EndReason::Abandoned, now);
        self.save_state(&slot, &mut g, row).await?;
        tracing::info!(game = %id, ?claim, "gone opponent claimed");
        Ok(g.view().personalize(g.row(), token))
    }
}
