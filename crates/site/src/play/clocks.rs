//! Clocks at the game's level (issue 13): a side out of time loses (A15a, C11b) or its game
//! is aborted before its first move; a database outage is given back to the running clocks
//! before any of them is charged it or flagged (crate::timeouts).

use super::*;

impl GameService {
    /// Ends the game on time if its running side's time is over now: a loss by time
    /// forfeit (A15a, C11b: every side can still win in both games, so never a draw), or an
    /// abort when the side had not made its first move (ply < 2, as lichess).
    pub(crate) async fn flag(
        &self,
        slot: &GameSlot,
        g: &mut MutexGuard<'_, Box<dyn LiveGame>>,
    ) -> Result<bool, SiteError> {
        let mut row = g.row().clone();
        let Some(side) = row.clock.and_then(|c| c.flagged(self.time.now_ms())) else {
            return Ok(false);
        };
        if row.status != GameStatus::Ongoing {
            return Ok(false);
        }
        // A correspondence side on vacation is not flagged: its deadline moves on (a game
        // made where its vacations were not counted, or one set since).
        let before = row.clock;
        self.hold_vacations(&mut row).await;
        if row.clock != before
            && row
                .clock
                .and_then(|c| c.flagged(self.time.now_ms()))
                .is_none()
        {
            self.save_state(slot, g, row).await?;
            return Ok(false);
        }
        self.end_on_time(slot, g, row, side).await?;
        Ok(true)
    }

    /// Ends the game in `row` because `side`'s time is over: a loss by time forfeit, or an
    /// abort before the game's second move (as [`GameService::flag`]); stored as a flag.
    pub(super) async fn end_on_time(
        &self,
        slot: &GameSlot,
        g: &mut MutexGuard<'_, Box<dyn LiveGame>>,
        mut row: GameRow,
        side: Color,
    ) -> Result<(), SiteError> {
        if row.ply < crate::permissions::ABORT_BEFORE_PLY {
            row.status = GameStatus::Aborted;
            row.draw_offer = None;
            row.takeback_offer = None;
            if let Some(clock) = row.clock.as_mut() {
                clock.stop(self.time.now_ms());
            }
            notify(&mut row, NoticeCode::FirstMoveMissed, Some(side));
        } else {
            finish(
                &mut row,
                Some(!side),
                EndReason::TimeForfeit,
                self.time.now_ms(),
            );
        }
        self.save_row(slot, g, row, true).await?;
        tracing::info!(game = %g.row().id, %side, status = %g.row().status, "flagged");
        Ok(())
    }

    /// Gives the running side of game `id` back the part of the outage `[from, now]` (Unix
    /// ms, timeouts.rs) its clock ran through (`Clock::credit_outage`).
    pub async fn credit_clock(&self, id: &str, from: i64, now: i64) -> Result<(), SiteError> {
        let slot = self.slot(id).await?;
        let mut g = self.lock_fresh(&slot).await?;
        let mut row = g.row().clone();
        let Some(clock) = row.clock.as_mut() else {
            return Ok(());
        };
        if row.status != GameStatus::Ongoing
            || clock.running().is_none()
            || clock.given_back() == Some(from)
        {
            // Not running, or given this outage already (by a giver that died): its players
            // could move since.
            return Ok(());
        }
        clock.credit_outage(from, now);
        self.save_state(&slot, &mut g, row).await
    }

    /// 503 while the timeout sweeper's lease has lapsed for longer than
    /// [`lease::OUTAGE_MS`]: an outage is owed to the clocks and not yet given back
    /// to `clock` (the give-back goes game by game: a clock that had it runs again, and its
    /// game takes moves, while the others wait for theirs).
    pub(super) async fn refuse_while_clocks_owed(&self, clock: &Clock) -> Result<(), SiteError> {
        let expired = self.sweeper_lease.expiry(&self.store).await?;
        if let Some(expired) = expired {
            let lapse = now_ms() - expired;
            if lapse > lease::OUTAGE_MS && clock.given_back() != Some(lease::outage_start(expired))
            {
                return Err(StoreError::ClocksOwed { lapse_ms: lapse }.into());
            }
        }
        Ok(())
    }

    /// A clock started now (a join, a lobby game) while an outage is owed to the running
    /// clocks ran none of it: it is marked as given it ([`Clock::mark_given_back`]), so its
    /// game takes moves at once instead of waiting until every other clock has had its share.
    pub(crate) async fn started_during_outage(
        &self,
        clock: Option<&mut Clock>,
    ) -> Result<(), SiteError> {
        let Some(clock) = clock.filter(|c| c.running().is_some()) else {
            return Ok(());
        };
        if let Some(expired) = self.sweeper_lease.expiry(&self.store).await?
            && now_ms() - expired > lease::OUTAGE_MS
        {
            clock.mark_given_back(lease::outage_start(expired));
        }
        Ok(())
    }

    /// [`GameService::flag`] of game `id` (the timeout sweeper; a client that saw its
    /// opponent's clock reach zero).
    pub async fn flag_if_due(&self, id: &str) -> Result<bool, SiteError> {
        let slot = self.slot(id).await?;
        let mut g = self.lock_fresh(&slot).await?;
        self.flag(&slot, &mut g).await
    }
}
