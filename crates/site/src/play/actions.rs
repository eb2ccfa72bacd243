//! What a seat does to its game: moves (with retries), resignation, draw offers and
//! rematches (an offer between friends). Each change is stored before it is answered or
//! broadcast. Aborts and takebacks are in `takeback.rs`.

use std::sync::Arc;

use game::{Color, EndReason};
use tokio::sync::MutexGuard;

use super::declined::OfferKind;
use super::{
    Answer, DrawAction, GameService, bump, finish, holds, notify, random_token,
    refuse_while_waiting,
};
use crate::live_game::{self, LiveGame};
use crate::permissions::{Opponent, opponent};
use crate::view::{GameView, seat_of};
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::{PlayerToken, TokenHash, invite_for, invite_hash};
use site_model::state::{GameKind, GameStatus, NoticeCode, SeatKind};
use site_store::{Between, GameRow, StoreError};

impl GameService {
    /// `POST /api/games/{id}/moves`.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        token: &PlayerToken,
        text: &str,
        ply: i64,
    ) -> Result<GameView, SiteError> {
        self.play_or_retry(id, token, text, ply, None)
            .await
            .map(|(view, _)| view)
    }

    /// [`GameService::play`], also saying whether the move was a retry of the move just stored
    /// (`true`: nothing changed, so no state is broadcast). `ply` is the game's ply the client
    /// saw: a move for another ply is a retry of the last move (answered, not played) or a
    /// `conflict`, never the next side's move. `lag_ms` is the network lag the client claims
    /// for this move (issue 38: forgiven within the player's quota, `clock::lag`).
    pub async fn play_or_retry(
        self: &Arc<Self>,
        id: &str,
        token: &PlayerToken,
        text: &str,
        ply: i64,
        lag_ms: Option<i64>,
    ) -> Result<(GameView, bool), SiteError> {
        let slot = self.slot(id).await?;
        // Optimistic (issue 12: one read less per move): the move is judged against the game
        // in memory, and the checked write refuses it if another process moved on meanwhile.
        // A refusal of either kind looks at the store, and when the game there is newer the
        // move is judged once more against it, as if the game had been fresh from the start.
        // A retry answered from memory is checked the same way: the copy may be stale (a
        // takeback through another process while Redis was down), and answering "stored" for a
        // move the store no longer has would be an acknowledged move that is lost.
        let mut g = slot.game.lock().await;
        let before = g.row().version;
        let first = self
            .play_locked(&slot, &mut g, token, text, ply, lag_ms)
            .await;
        let retry = matches!(first, Ok((_, true)));
        if !retry && first.is_ok() {
            // Stored by this call: its commit is the confirmation.
            return first;
        }
        match self.refresh(&slot, &mut g).await {
            // Without the store, a retry cannot be confirmed.
            Err(e) if retry => return Err(e),
            Err(_) => return first,
            Ok(()) if g.row().version == before => return first,
            Ok(()) => {}
        }
        self.play_locked(&slot, &mut g, token, text, ply, lag_ms)
            .await
    }

    /// [`GameService::play_or_retry`] on the locked game `g`.
    async fn play_locked(
        self: &Arc<Self>,
        slot: &Arc<super::GameSlot>,
        g: &mut MutexGuard<'_, Box<dyn LiveGame>>,
        token: &PlayerToken,
        text: &str,
        ply: i64,
        lag_ms: Option<i64>,
    ) -> Result<(GameView, bool), SiteError> {
        let row = g.row();
        let you = seat_of(row, token).ok_or_else(|| {
            SiteError::new(
                ErrorCode::NotAPlayer,
                "you hold no seat in this game: watchers can only watch",
            )
        })?;
        if ply != row.ply {
            let expected = ply;
            // A retry of the move just stored (same seat, the same move in any accepted form)
            // is answered, not refused.
            let view = g.view();
            if let Some(last) = view.moves.last()
                && expected.checked_add(1) == Some(row.ply)
                && holds(row, last.color, token)
                && g.is_last_move(text)
            {
                return Ok((view.personalize(row, token), true));
            }
            return Err(SiteError::new(
                ErrorCode::Conflict,
                format!(
                    "the move was sent for ply {expected}, but the game is at ply {}",
                    row.ply
                ),
            ));
        }
        if row.status != GameStatus::Ongoing {
            return Err(SiteError::new(ErrorCode::GameOver, "the game is over"));
        }
        refuse_while_waiting(row)?;
        let turn = row.turn;
        if !holds(row, turn, token) {
            return Err(SiteError::new(
                ErrorCode::NotYourTurn,
                format!("it is {turn}'s turn and you play {you}"),
            ));
        }
        let mut prepared = g.prepare_move(text)?;
        prepared.lag_ms = lag_ms;
        self.store_move(slot, g, prepared).await?;
        // The opponent may have answered this move in advance.
        self.follow_conditional(slot, g).await;
        self.start_engine(slot, g.row());
        Ok((g.view().personalize(g.row(), token), false))
    }

    /// `POST /api/games/{id}/resign`: the caller's side loses (in a local game, the side to
    /// move). Before the game's second move a resignation aborts it instead, as lichess does:
    /// a game that has barely begun counts for no one (`abort`, docs/api.md).
    pub async fn resign(&self, id: &str, token: &PlayerToken) -> Result<GameView, SiteError> {
        let slot = self.slot(id).await?;
        let mut g = self.lock_fresh(&slot).await?;
        let mut row = g.row().clone();
        let you = seat_of(&row, token)
            .ok_or_else(|| SiteError::new(ErrorCode::NotAPlayer, "only a player can resign"))?;
        if row.status != GameStatus::Ongoing {
            return Err(SiteError::new(ErrorCode::GameOver, "the game is over"));
        }
        refuse_while_waiting(&row)?;
        if row.ply < crate::permissions::ABORT_BEFORE_PLY {
            self.abort_now(id, &slot, &mut g, row, you.color()).await?;
            return Ok(g.view().personalize(g.row(), token));
        }
        let loser = you.color().unwrap_or(row.turn);
        finish(
            &mut row,
            Some(!loser),
            EndReason::Resignation,
            self.time.now_ms(),
        );
        self.save_state(&slot, &mut g, row).await?;
        Ok(g.view().personalize(g.row(), token))
    }

    /// `POST /api/games/{id}/draw` (Ice Age Chess only: Antarctos has no draws, A15).
    pub async fn draw(
        &self,
        id: &str,
        token: &PlayerToken,
        action: DrawAction,
    ) -> Result<GameView, SiteError> {
        let slot = self.slot(id).await?;
        let mut g = self.lock_fresh(&slot).await?;
        let mut row = g.row().clone();
        if row.variant != GameKind::IceAge {
            return Err(SiteError::bad_request(
                "Antarctos has no draws (A15): there is nothing to offer",
            ));
        }
        let you = seat_of(&row, token).ok_or_else(|| {
            SiteError::new(
                ErrorCode::NotAPlayer,
                "only a player can offer or answer a draw",
            )
        })?;
        if row.status != GameStatus::Ongoing {
            return Err(SiteError::new(ErrorCode::GameOver, "the game is over"));
        }
        refuse_while_waiting(&row)?;
        let offer = row.draw_offer;
        // The side this caller speaks for: its colour, or in a local game the side to move
        // (offer) / the side that did not offer (answer).
        let side = match (you.color(), action) {
            (Some(c), _) => c,
            (None, DrawAction::Offer) => row.turn,
            (None, _) => offer.map(|o| !o).unwrap_or(row.turn),
        };
        match action {
            DrawAction::Offer => {
                if offer == Some(side) {
                    return Ok(g.view().personalize(&row, token));
                }
                if offer == Some(!side) {
                    // Offering while the opponent's offer stands is accepting it.
                    finish(&mut row, None, EndReason::Agreement, self.time.now_ms());
                } else if row.seat(!side).kind == SeatKind::Engine {
                    // The engine declines at once (docs/api.md), and the offering side is
                    // told so: the only change is the notice.
                    notify(&mut row, NoticeCode::DrawDeclined, Some(!side));
                } else {
                    slot.declined.check(OfferKind::Draw, side, row.ply)?;
                    row.draw_offer = Some(side);
                }
            }
            DrawAction::Accept | DrawAction::Decline => {
                if offer != Some(!side) {
                    return Err(SiteError::new(
                        ErrorCode::Conflict,
                        "there is no draw offer from your opponent to answer",
                    ));
                }
                if action == DrawAction::Accept {
                    finish(&mut row, None, EndReason::Agreement, self.time.now_ms());
                } else {
                    row.draw_offer = None;
                    slot.declined.note(OfferKind::Draw, !side, row.ply);
                    notify(&mut row, NoticeCode::DrawDeclined, Some(side));
                }
            }
        }
        self.save_state(&slot, &mut g, row).await?;
        Ok(g.view().personalize(g.row(), token))
    }

    /// `POST /api/games/{id}/rematch`: the view of the new game and `true` when it was
    /// created now; otherwise (an offer made or declined, an offer already standing) the view
    /// of this game and `false`. An existing rematch is returned as it is. Against the engine
    /// and on one screen the rematch is created at once; between friends it is an offer the
    /// other side accepts (or makes too) or declines.
    pub async fn rematch(
        self: &Arc<Self>,
        id: &str,
        token: &PlayerToken,
        action: Answer,
    ) -> Result<(GameView, bool), SiteError> {
        let slot = self.slot(id).await?;
        let mut g = self.lock_fresh(&slot).await?;
        let old = g.row().clone();
        let Some(you) = seat_of(&old, token) else {
            return Err(SiteError::new(
                ErrorCode::NotAPlayer,
                "only a player can ask for a rematch",
            ));
        };
        if let Some(existing) = &old.rematch {
            let existing = existing.clone();
            drop(g);
            return Ok((self.get(&existing, token).await?, false));
        }
        if old.tournament.is_some() {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "a tournament game has no rematch: the tournament pairs your next game",
            ));
        }
        if you.color().is_some_and(|c| old.seat(!c).bot) {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "a BOT account answers challenges, not rematch offers: challenge it again",
            ));
        }
        if old.status != GameStatus::Finished {
            return Err(SiteError::new(
                ErrorCode::GameOver,
                "the game is not over yet: finish it before a rematch",
            ));
        }

        // The two accounts of a friend game, checked again in the rematch's transaction.
        let mut players: Option<(TokenHash, TokenHash)> = None;
        if let (Opponent::Friend, Some(me)) = (opponent(&old, you), you.color()) {
            // A block between the two accounts: a rematch offer is a challenge, and a blocked
            // player's challenges never reach the blocker (issue 41's hostile round).
            if action != Answer::Decline {
                let (mine, theirs) = match me {
                    Color::White => (&old.white.token, &old.black.token),
                    Color::Black => (&old.black.token, &old.white.token),
                };
                if let (Some(mine), Some(theirs)) = (mine, theirs) {
                    players = Some((mine.clone(), theirs.clone()));
                    if self
                        .store
                        .blocks_player(mine.as_str(), theirs.as_str())
                        .await?
                    {
                        return Err(SiteError::new(
                            ErrorCode::Conflict,
                            "you have blocked this player: unblock them for a rematch",
                        ));
                    }
                    if self
                        .store
                        .blocks_player(theirs.as_str(), mine.as_str())
                        .await?
                    {
                        return Err(SiteError::new(
                            ErrorCode::NotAccepted,
                            "your opponent does not accept challenges from you",
                        ));
                    }
                    // A closed account never answers: the offer would wait for ever (browser
                    // finding 20 of round 4).
                    if self.store.player_closed(theirs.as_str()).await? {
                        return Err(SiteError::new(
                            ErrorCode::NotAccepted,
                            "your opponent's account is closed: there is no rematch",
                        ));
                    }
                }
            }
            let theirs = old.rematch_offer == Some(!me);
            let create = match action {
                Answer::Offer => theirs,
                Answer::Accept | Answer::Decline if !theirs => {
                    return Err(SiteError::new(
                        ErrorCode::Conflict,
                        "there is no rematch offer from your opponent to answer",
                    ));
                }
                Answer::Accept => true,
                Answer::Decline => false,
            };
            if !create {
                let mut row = old.clone();
                if action == Answer::Decline {
                    row.rematch_offer = None;
                    notify(&mut row, NoticeCode::RematchDeclined, Some(me));
                } else if row.rematch_offer == Some(me) {
                    return Ok((g.view().personalize(&row, token), false));
                } else {
                    row.rematch_offer = Some(me);
                }
                self.save_state(&slot, &mut g, row).await?;
                return Ok((g.view().personalize(g.row(), token), false));
            }
        } else if action == Answer::Decline {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "there is no rematch offer to decline: the rematch starts when you ask",
            ));
        }
        if old.white.kind == SeatKind::Engine || old.black.kind == SeatKind::Engine {
            self.check_engine_games(token).await?;
        }
        let (_, turn) = live_game::start_of(old.variant, Some(&old.start_fen))?;
        let now = self.time.now_ms();
        let new_id = random_token(8);
        let invite = old
            .has_open_seat()
            .then(|| invite_hash(&invite_for(token, &new_id)));
        let mut new = GameRow {
            invite,
            rematch_of: Some(old.id.clone()),
            // The same control, rated as before; both players are there, so the clock runs.
            clock: old
                .clock
                .and_then(|c| c.control().new_clock())
                .map(|mut c| {
                    if !old.has_open_seat() {
                        c.start(turn, now);
                    }
                    c
                }),
            rated: old.rated,
            ..GameRow::new_game(
                new_id,
                old.variant,
                old.start_fen.clone(),
                old.black.clone(),
                old.white.clone(),
                turn,
                now,
            )
        };
        // Its clock starts now: during an outage's give-back it ran none of it, like a join's.
        self.started_during_outage(new.clock.as_mut()).await?;
        let mut updated = old.clone();
        updated.rematch = Some(new.id.clone());
        updated.rematch_offer = None;
        bump(&mut updated);
        let pair = players.as_ref().map(|(a, b)| (a.as_str(), b.as_str()));
        match self.store.insert_rematch(&updated, &new, pair).await {
            Ok(Ok(())) => {}
            // A block or a close stored since the checks above (hostile finding 3 of round 7).
            Ok(Err(between)) => return Err(rematch_refused(between)),
            Err(e) => {
                if matches!(e, StoreError::Stale { .. }) {
                    self.reload(&slot, &mut g).await;
                }
                return Err(e.into());
            }
        }
        g.set_row(updated);
        self.broadcast(&slot, g.as_ref());
        drop(g);
        Ok((self.open_new(new, token, "rematch").await?, true))
    }
}

/// Why a rematch was not made, for the player who asked (`a` of [`Between`]).
fn rematch_refused(between: Between) -> SiteError {
    match between {
        Between::AClosed => SiteError::new(
            ErrorCode::NotLoggedIn,
            "your account was closed: your log-in has ended",
        ),
        Between::BClosed => SiteError::new(
            ErrorCode::NotAccepted,
            "your opponent's account is closed: there is no rematch",
        ),
        Between::ABlocksB => SiteError::new(
            ErrorCode::Conflict,
            "you have blocked this player: unblock them for a rematch",
        ),
        Between::BBlocksA => SiteError::new(
            ErrorCode::NotAccepted,
            "your opponent does not accept challenges from you",
        ),
    }
}
