//! Calling a game off and taking moves back (docs/api.md: abort, takeback). An aborted game
//! ends without a result and never counts; a takeback is immediate on one screen and against
//! the engine, an offer between friends. Each change is stored before it is answered or
//! broadcast.

use site_model::secrets::PlayerToken;
use std::sync::Arc;

use tokio::sync::MutexGuard;

use super::declined::OfferKind;
use super::{Answer, GameService, GameSlot, bump, notify, refuse_while_waiting};
use crate::live_game::LiveGame;
use crate::permissions::{ABORT_BEFORE_PLY, Opponent, opponent, takeback_target};
use crate::view::{GameView, seat_of};
use site_model::error::{ErrorCode, SiteError};
use site_model::state::{GameStatus, NoticeCode};
use site_store::StoreError;

impl GameService {
    /// `POST /api/games/{id}/abort`: ends the game without a result, while the friend has not
    /// joined or fewer than two moves are played.
    pub async fn abort(&self, id: &str, token: &PlayerToken) -> Result<GameView, SiteError> {
        let slot = self.slot(id).await?;
        let mut g = self.lock_fresh(&slot).await?;
        let row = g.row().clone();
        let you = seat_of(&row, token)
            .ok_or_else(|| SiteError::new(ErrorCode::NotAPlayer, "only a player can abort"))?;
        if row.status != GameStatus::Ongoing {
            return Err(SiteError::new(ErrorCode::GameOver, "the game is over"));
        }
        if !row.has_open_seat() && row.ply >= ABORT_BEFORE_PLY {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                format!(
                    "{} moves have been played: a game is aborted only before its second move; resign instead",
                    row.ply
                ),
            ));
        }
        self.abort_now(id, &slot, &mut g, row, you.color()).await?;
        Ok(g.view().personalize(g.row(), token))
    }

    /// Ends the game in `row` without a result, for `by` (the caller's colour; `None` on one
    /// screen), and stores it. The caller has checked that the game may be aborted.
    pub(super) async fn abort_now(
        &self,
        id: &str,
        slot: &GameSlot,
        g: &mut MutexGuard<'_, Box<dyn LiveGame>>,
        mut row: site_store::GameRow,
        by: Option<game::Color>,
    ) -> Result<(), SiteError> {
        row.status = GameStatus::Aborted;
        row.draw_offer = None;
        row.takeback_offer = None;
        if let Some(clock) = row.clock.as_mut() {
            clock.stop(self.time.now_ms());
        }
        notify(&mut row, NoticeCode::Aborted, by);
        self.save_state(slot, g, row).await?;
        tracing::info!(game = %id, "aborted");
        Ok(())
    }

    /// `POST /api/games/{id}/takeback`: on one screen the last move is taken back; against
    /// the engine, the player's last move and the engine's reply to it; between friends
    /// `offer` asks, and the other side's `accept` takes back the asker's last move (and the
    /// reply to it, if made), `decline` refuses. `ply`, when given, is the number of moves
    /// the game had when the player asked: at any other ply nothing changes (`conflict`), so a
    /// request sent twice (a double tap, a resend after a lost answer) takes back once.
    pub async fn takeback(
        self: &Arc<Self>,
        id: &str,
        token: &PlayerToken,
        action: Answer,
        ply: Option<u32>,
    ) -> Result<GameView, SiteError> {
        let slot = self.slot(id).await?;
        let mut g = self.lock_fresh(&slot).await?;
        let mut row = g.row().clone();
        let you = seat_of(&row, token).ok_or_else(|| {
            SiteError::new(ErrorCode::NotAPlayer, "only a player can take moves back")
        })?;
        if row.status != GameStatus::Ongoing {
            return Err(SiteError::new(ErrorCode::GameOver, "the game is over"));
        }
        refuse_while_waiting(&row)?;
        if let Some(asked) = ply.map(i64::from)
            && asked != row.ply
            && !engine_replied_since(&row, you, asked)
        {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                format!(
                    "the takeback was asked at ply {asked}, and the game is at ply {} now: \
                     nothing was taken back",
                    row.ply
                ),
            ));
        }
        let nothing = || {
            SiteError::new(
                ErrorCode::Conflict,
                "there is no move of yours to take back",
            )
        };
        let (to_ply, by) = match (opponent(&row, you), you) {
            (Opponent::SameScreen, _) => {
                if row.ply == 0 {
                    return Err(nothing());
                }
                // The sides alternate: the last move is the side not to move's.
                (row.ply - 1, Some(!row.turn))
            }
            (Opponent::NoOne, seat) => {
                let me = seat.color().unwrap_or(row.turn);
                (takeback_target(&row, me).ok_or_else(nothing)?, Some(me))
            }
            (Opponent::Friend, seat) => {
                let me = seat.color().unwrap_or(row.turn);
                let theirs = row.takeback_offer == Some(!me);
                match action {
                    Answer::Offer if !theirs => {
                        if row.takeback_offer != Some(me) {
                            takeback_target(&row, me).ok_or_else(nothing)?;
                            slot.declined.check(OfferKind::Takeback, me, row.ply)?;
                            row.takeback_offer = Some(me);
                            self.save_state(&slot, &mut g, row).await?;
                        }
                        return Ok(g.view().personalize(g.row(), token));
                    }
                    Answer::Accept | Answer::Decline if !theirs => {
                        return Err(SiteError::new(
                            ErrorCode::Conflict,
                            "there is no takeback offer from your opponent to answer",
                        ));
                    }
                    Answer::Decline => {
                        row.takeback_offer = None;
                        slot.declined.note(OfferKind::Takeback, !me, row.ply);
                        notify(&mut row, NoticeCode::TakebackDeclined, Some(me));
                        self.save_state(&slot, &mut g, row).await?;
                        return Ok(g.view().personalize(g.row(), token));
                    }
                    // Accepting, or offering while the other's offer stands.
                    Answer::Offer | Answer::Accept => {
                        let target = takeback_target(&row, !me).ok_or_else(nothing)?;
                        (target, Some(me))
                    }
                }
            }
        };
        let from_ply = row.ply;
        row.ply = to_ply.max(0);
        let moves = g.view().moves;
        row.turn = moves
            .get(usize::try_from(row.ply).unwrap_or(0))
            .map(|m| m.color)
            .unwrap_or(row.turn);
        row.draw_offer = None;
        row.takeback_offer = None;
        if let Some(clock) = &row.clock
            && clock.running().is_some()
        {
            // The restart below charges the running side up to now: while an outage is owed to
            // this clock (crate::timeouts) that would charge it the outage, which the give-back
            // then no longer returns (the clock restarted after it began). 503, as for a move.
            self.refuse_while_clocks_owed(clock).await?;
        }
        if let Some(clock) = row.clock.as_mut()
            && clock.running().is_some()
        {
            // The side to move after the takeback starts thinking now; nobody is charged twice.
            let now = self.time.now_ms();
            clock.stop(now);
            clock.start(row.turn, now);
        }
        notify(&mut row, NoticeCode::TakebackDone, by);
        self.save_takeback(&slot, &mut g, row, from_ply).await?;
        tracing::info!(game = %id, from = from_ply, to = to_ply, seat = %you, "moves taken back");
        self.start_engine(&slot, g.row());
        Ok(g.view().personalize(g.row(), token))
    }

    /// Stores a takeback to `row.ply` from `from_ply`, then applies and broadcasts it.
    async fn save_takeback(
        &self,
        slot: &GameSlot,
        g: &mut MutexGuard<'_, Box<dyn LiveGame>>,
        mut row: site_store::GameRow,
        from_ply: i64,
    ) -> Result<(), SiteError> {
        bump(&mut row);
        if let Err(e) = self.store.save_takeback(&row, from_ply).await {
            if matches!(e, StoreError::Stale { .. }) {
                self.reload(slot, g).await;
            }
            return Err(e.into());
        }
        let to = row.ply;
        g.take_back(to, row);
        self.broadcast(slot, g.as_ref());
        Ok(())
    }
}

/// Whether the game is against the engine and its reply to the player's move is the one move
/// stored since the player asked at ply `asked` (a takeback tapped while the engine thought):
/// the takeback then takes back the same plies, the player's move and that reply.
fn engine_replied_since(
    row: &site_store::GameRow,
    you: site_model::state::YourSeat,
    asked: i64,
) -> bool {
    matches!(opponent(row, you), Opponent::NoOne)
        && row.ply == asked + 1
        && you.color() == Some(row.turn)
}
