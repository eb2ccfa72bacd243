//! Storing a game's changes: the row written before anything is answered or broadcast, with
//! the notifications the change makes in its transaction (`notifications::events`), and the
//! ratings a finished rated game shows.

use super::*;

impl GameService {
    /// Saves a non-move change of the row, then applies and broadcasts it.
    pub(super) async fn save_state(
        &self,
        slot: &GameSlot,
        g: &mut MutexGuard<'_, Box<dyn LiveGame>>,
        row: GameRow,
    ) -> Result<(), SiteError> {
        self.save_row(slot, g, row, false).await
    }

    /// [`GameService::save_state`]; with `flag`, a loss on time (or an abort for a missing
    /// first move), which waits for a database outage to be given back to the clocks
    /// (`Store::save_flag`, crate::timeouts).
    pub(super) async fn save_row(
        &self,
        slot: &GameSlot,
        g: &mut MutexGuard<'_, Box<dyn LiveGame>>,
        mut row: GameRow,
        flag: bool,
    ) -> Result<(), SiteError> {
        if !flag {
            // A clock started (a join, a takeback) counts its side's vacations.
            self.hold_vacations(&mut row).await;
        }
        row.outbox = notifications::events::game_change(g.row(), &row);
        bump(&mut row);
        let saved = if flag {
            self.store
                .save_flag(&row, lease::LEASE, lease::OUTAGE_MS)
                .await
        } else {
            self.store.save_state(&row).await
        };
        if let Err(e) = saved {
            if matches!(e, StoreError::Stale { .. }) {
                self.reload(slot, g).await;
            }
            return Err(e.into());
        }
        self.notifications.made(&std::mem::take(&mut row.outbox));
        self.read_rating(&mut row).await;
        let clocked = row.clock.is_some();
        g.set_row(row);
        self.broadcast(slot, g.as_ref());
        if clocked {
            self.clock_changed.notify_one();
        }
        Ok(())
    }

    /// After a stored write that may have ended a rated game: the rating change the write's
    /// transaction stored (`store::ratings`), for the view. A failed read leaves it unset; the
    /// next load of the game reads it.
    pub(super) async fn read_rating(&self, row: &mut GameRow) {
        if row.rated
            && row.status == GameStatus::Finished
            && row.ratings.is_none()
            && row.unrated.is_none()
        {
            match self.store.rating_change(&row.id).await {
                Ok((change, unrated)) => {
                    row.ratings = change;
                    row.unrated = unrated;
                }
                Err(e) => tracing::warn!(game = %row.id, error = %e, "rating change unread"),
            }
        }
    }

    /// Stores a prepared move with the state after it, then applies and broadcasts it.
    pub(crate) async fn store_move(
        &self,
        slot: &GameSlot,
        g: &mut MutexGuard<'_, Box<dyn LiveGame>>,
        prepared: PreparedMove,
    ) -> Result<(), SiteError> {
        let mut row = g.row().clone();
        if let Some(clock) = &row.clock {
            // A database outage not yet given back to this clock (crate::timeouts): the
            // mover's clock still counts it, so the move would be charged the outage and the
            // opponent's clock, started now, given it. Refused until it is given back (503,
            // try again).
            self.refuse_while_clocks_owed(clock).await?;
        }
        // The mover's vacations, then (after the move) the next mover's, stop correspondence
        // clocks (issue 38).
        self.hold_vacations(&mut row).await;
        if let Some(clock) = row.clock.as_mut()
            && clock.on_move_with_lag(prepared.mover, self.time.now_ms(), prepared.lag_ms)
                == Charge::Flagged
        {
            // The move came after the mover's deadline: it loses on time instead (A15a, C11b).
            self.flag(slot, g).await?;
            return Err(SiteError::new(
                ErrorCode::GameOver,
                "your time ran out before the move arrived: the game is lost on time",
            ));
        }
        self.hold_vacations(&mut row).await;
        row.ply += 1;
        row.turn = prepared.turn;
        if row.gone.is_some_and(|x| x.side == prepared.mover) {
            // A player who moves is not gone (a move sent without a socket); an opponent
            // that left meanwhile is.
            row.gone = self.unmarked(&row.id, !prepared.mover);
        }
        if row.draw_offer == Some(!prepared.mover) {
            // Moving answers the opponent's standing offer: declined.
            row.draw_offer = None;
        }
        // A takeback offer is about the position it was made in: a move ends it.
        row.takeback_offer = None;
        if let Some(outcome) = prepared.outcome {
            finish(
                &mut row,
                outcome.winner(),
                outcome.reason(),
                self.time.now_ms(),
            );
        }
        row.outbox = notifications::events::game_change(g.row(), &row);
        bump(&mut row);
        if let Err(e) = self.store.save_move(&row, &prepared.row).await {
            if matches!(e, StoreError::Stale { .. }) {
                self.reload(slot, g).await;
            }
            return Err(e.into());
        }
        self.notifications.made(&std::mem::take(&mut row.outbox));
        self.read_rating(&mut row).await;
        let clocked = row.clock.is_some();
        g.commit_move(prepared, row);
        self.broadcast(slot, g.as_ref());
        if clocked {
            self.clock_changed.notify_one();
        }
        Ok(())
    }
}
