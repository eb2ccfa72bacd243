//! A gone opponent (issue 38): when every socket of a real-time game's player has closed, the
//! game says so (`gone`, stored with the game, so every process's sockets and the opponent's
//! countdown see it); the opponent may then, after the wait of [`Gone::wait_ms`], claim the win
//! or call it a draw. A socket of the player that opens again ends it.
//!
//! Sockets are counted per process. The process whose last socket of a seat closes marks the
//! seat gone; every other process that reloads the game (the bus's announcement, or any read
//! of a newer version) and still holds an open socket of that seat ends the mark at once, as a
//! socket that opens does ([`GameService::reclaim_presence`]). So a player with pages on two
//! processes of one site (two tabs behind a balancer, a phone and a laptop) is gone only when
//! no process holds a page of theirs (issue 41, round 3).
//!
//! The game has one mark: the first side to leave keeps it, so a blip of the other side (its
//! socket dropped and back) cannot erase it. A side that leaves while the other's mark stands
//! is remembered here and marked, since it left, once the first comes back.

use std::sync::Arc;

use game::{Color, EndReason};

use super::{GameService, GameSlot, finish};
use crate::view::{GameView, seat_of};
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::PlayerToken;
use site_model::state::{Claim, GameKind, GameStatus, Gone, YourSeat};
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

/// A seat's pages in this process: how many are open and, once none is, its absence left
/// unmarked because the opponent's mark stood first.
#[derive(Debug, Default)]
pub(super) struct Pages {
    open: usize,
    unmarked: Option<Gone>,
}

type PresenceMap = std::collections::HashMap<(String, Color), Pages>;

impl GameService {
    fn lock_presence(&self) -> std::sync::MutexGuard<'_, PresenceMap> {
        self.presence.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The absence of `side` in game `id` left unmarked here, if any: the mark the game takes
    /// once the opponent's ends (it stays until `side` comes back or the game ends).
    pub(super) fn unmarked(&self, id: &str, side: Color) -> Option<Gone> {
        self.lock_presence()
            .get(&(id.to_string(), side))
            .and_then(|p| p.unmarked)
    }

    /// A socket of `token` opened on the game in `slot`: counted; a gone mark of its seat ends
    /// (the opponent's stays), and an absence of the opponent left unmarked meanwhile is marked.
    pub async fn seat_opened(self: &Arc<Self>, slot: &Arc<GameSlot>, token: &PlayerToken) {
        let mut g = slot.game.lock().await;
        let Some(side) = own_side(g.row(), token) else {
            return;
        };
        {
            let mut presence = self.lock_presence();
            let pages = presence.entry((g.row().id.clone(), side)).or_default();
            pages.open += 1;
            pages.unmarked = None;
        }
        if g.row().gone.is_some_and(|x| x.side == side) {
            let mut row = g.row().clone();
            row.gone = self.unmarked(&row.id, !side);
            if let Err(e) = self.save_state(slot, &mut g, row).await {
                tracing::warn!(error = %e.message, "cannot end a gone mark");
            }
        }
    }

    /// After a reload of the game in `slot` (another process changed it): a gone mark of a
    /// seat this process still holds an open socket of is ended (that process counted only its
    /// own sockets), as [`GameService::seat_opened`] does. A failed save is logged; the next
    /// reload tries again.
    pub(super) async fn reclaim_presence(
        &self,
        slot: &GameSlot,
        g: &mut tokio::sync::MutexGuard<'_, Box<dyn crate::live_game::LiveGame>>,
    ) {
        let row = g.row();
        let Some(gone) = row.gone else { return };
        if row.status != GameStatus::Ongoing {
            return;
        }
        let here = self
            .lock_presence()
            .get(&(row.id.clone(), gone.side))
            .is_some_and(|p| p.open > 0);
        if !here {
            return;
        }
        let mut row = row.clone();
        row.gone = self.unmarked(&row.id, !gone.side);
        tracing::info!(game = %row.id, side = ?gone.side, "gone mark ended: a socket of the seat is open here");
        if let Err(e) = self.save_state(slot, g, row).await {
            tracing::warn!(error = %e.message, "cannot end a gone mark of a seat present here");
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
            let pages = presence.entry(key.clone()).or_default();
            pages.open = pages.open.saturating_sub(1);
            let last = pages.open == 0;
            if last {
                presence.remove(&key);
            }
            last
        };
        let row = g.row();
        if row.status != GameStatus::Ongoing {
            self.forget_unmarked(&row.id);
            return;
        }
        if !last
            || *self.shutdown_signal().borrow()
            || expected_s(row).is_none()
            || row.has_open_seat()
        {
            return;
        }
        let gone = Gone {
            side,
            since_ms: self.time.now_ms(),
            clean,
        };
        match row.gone {
            // The first to leave keeps the mark: this side is marked when that one comes back.
            Some(first) if first.side != side => {
                self.lock_presence().entry(key).or_default().unmarked = Some(gone);
                return;
            }
            // Marked already (its pages on another process closed first): since then.
            Some(_) => return,
            None => {}
        }
        let mut row = row.clone();
        row.gone = Some(gone);
        if let Err(e) = self.save_state(slot, &mut g, row).await {
            tracing::warn!(error = %e.message, "cannot mark a player gone");
        }
    }

    /// Drops the unmarked absences of game `id` (it is over).
    fn forget_unmarked(&self, id: &str) {
        let mut presence = self.lock_presence();
        for side in [Color::White, Color::Black] {
            let key = (id.to_string(), side);
            if let Some(pages) = presence.get_mut(&key) {
                pages.unmarked = None;
                if pages.open == 0 {
                    presence.remove(&key);
                }
            }
        }
    }

    /// `POST /api/games/{id}/claim`: the opponent of a gone player takes the win or calls it a
    /// draw (Ice Age Chess only: 400 in Antarctos, which has no draws, A15). 409 `conflict`
    /// while the player is not gone or the wait is not over (the message
    /// says how long is left); 403 for anyone but the opponent. A claimant whose own time is
    /// up loses on time instead (409 `game_over`), and before the second move the claim
    /// aborts the game, as resigning does: neither may win a game.
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
        if claim == Claim::Draw && row.variant != GameKind::IceAge {
            return Err(SiteError::bad_request(
                "Antarctos has no draws (A15): claim the win instead",
            ));
        }
        let Some(expected) = expected_s(&row) else {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "claims apply to real-time games only: a correspondence or unlimited game \
                 waits for its clock or its players",
            ));
        };
        let Some(gone) = row.gone.filter(|g| g.side != me) else {
            return Err(SiteError::new(ErrorCode::Conflict, "your opponent is here"));
        };
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
        if row.clock.and_then(|c| c.time_up(now)) == Some(me) {
            // Flagged within the grace kept for a move in flight: a claim is no move.
            self.end_on_time(&slot, &mut g, row, me).await?;
            self.forget_unmarked(id);
            return Err(SiteError::new(
                ErrorCode::GameOver,
                "your time ran out before your claim: the game is lost on time",
            ));
        }
        if row.ply < crate::permissions::ABORT_BEFORE_PLY {
            self.abort_now(id, &slot, &mut g, row, Some(me)).await?;
            self.forget_unmarked(id);
            tracing::info!(game = %id, "gone opponent claimed before the second move: aborted");
            return Ok(g.view().personalize(g.row(), token));
        }
        let mut row = row;
        row.gone = None;
        let winner = match claim {
            Claim::Win => Some(me),
            Claim::Draw => None,
        };
        finish(&mut row, winner, EndReason::Abandoned, now);
        self.save_state(&slot, &mut g, row).await?;
        self.forget_unmarked(id);
        tracing::info!(game = %id, ?claim, "gone opponent claimed");
        Ok(g.view().personalize(g.row(), token))
    }
}
