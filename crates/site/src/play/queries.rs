//! What the site reads about games: records, "my games", statistics, and the count of
//! live WebSocket connections.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use game::Color;

use super::{
    GameService, GameSlot, MAX_WS_PER_GAME, MAX_WS_TOTAL, WS_SEAT_RESERVE, WsGuard, holds,
};
use crate::live_game;
use crate::view::{GameSummary, SeatView, VariantStats, seat_of};
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::PlayerToken;
use site_model::state::{GameKind, GameStatus};

impl GameService {
    /// `GET /api/games/{id}/record`: file name and text.
    pub async fn record(&self, id: &str) -> Result<(String, String), SiteError> {
        let slot = self.slot(id).await?;
        let g = self.lock_fresh(&slot).await?;
        let ext = if g.row().variant == GameKind::IceAge {
            "pgn"
        } else {
            "pdn"
        };
        Ok((format!("icebound-{id}.{ext}"), g.record()))
    }

    /// `GET /api/my-games`: the games waiting for this player's move first, the least time
    /// left first, then the others.
    pub async fn my_games(&self, token: &PlayerToken) -> Result<Vec<GameSummary>, SiteError> {
        let mut rows = self.store.games_of(&token.hash(), 100).await?;
        // The games waiting for this player's move first, the least time left first (issue
        // 38); then the others as stored (unfinished, then the most recently changed).
        rows.sort_by_key(|r| {
            let waiting = r.status == GameStatus::Ongoing && holds(r, r.turn, token);
            let deadline = r.clock.and_then(|c| c.deadline_ms()).unwrap_or(i64::MAX);
            (!waiting, if waiting { deadline } else { 0 })
        });
        Ok(rows
            .into_iter()
            .map(|r| {
                let you = seat_of(&r, token);
                let your_turn = r.status == GameStatus::Ongoing && holds(&r, r.turn, token);
                GameSummary {
                    title: r.variant.title().to_string(),
                    you,
                    white: SeatView::from(&r.white),
                    black: SeatView::from(&r.black),
                    result: live_game::result_view(&r),
                    your_turn,
                    id: r.id,
                    variant: r.variant,
                    status: r.status,
                    turn: r.turn,
                    ply: r.ply,
                    created_at: r.created_at,
                    updated_at: r.updated_at,
                    clock: r.clock.map(|c| c.view(self.time.now_ms())),
                    rated: r.rated,
                    offline: r.upload_key.is_some(),
                }
            })
            .collect())
    }

    /// `GET /api/stats`: finished games per variant, with the newest stored engine self-play
    /// runs (`selfplay`) and matches (`matches`) of that variant.
    pub async fn stats(&self) -> Result<serde_json::Value, SiteError> {
        let rows = self.store.stats().await?;
        let mut out = serde_json::Map::new();
        for variant in GameKind::ALL {
            let count = |w: Option<Color>| {
                rows.iter()
                    .filter(|r| r.variant == variant && r.winner == w)
                    .map(|r| r.count)
                    .sum::<i64>()
            };
            let s = VariantStats::new(
                count(Some(Color::White)),
                count(Some(Color::Black)),
                count(None),
            );
            let mut value = serde_json::to_value(s).unwrap_or_default();
            if let Some(map) = value.as_object_mut() {
                crate::lab::add_shown_runs(&self.store, variant, map).await?;
            }
            out.insert(variant.to_string(), value);
        }
        Ok(serde_json::Value::Object(out))
    }

    /// Registers a WebSocket connection of `token` on `slot`, refusing past the limits. A
    /// player of the game has [`WS_SEAT_RESERVE`] more than watchers: watchers filling the
    /// game's cap must not lock its players out of their own game.
    pub async fn ws_guard(
        self: &Arc<Self>,
        slot: &GameSlot,
        token: &PlayerToken,
    ) -> Result<WsGuard, SiteError> {
        let seated = seat_of(slot.game.lock().await.row(), token).is_some();
        let cap = if seated {
            MAX_WS_PER_GAME + WS_SEAT_RESERVE
        } else {
            MAX_WS_PER_GAME
        };
        if slot.tx.receiver_count() >= cap {
            return Err(SiteError::new(
                ErrorCode::TooMany,
                format!("this game has {MAX_WS_PER_GAME} watchers already"),
            ));
        }
        let before = self.ws_connections.fetch_add(1, Ordering::SeqCst);
        let guard = WsGuard {
            service: self.clone(),
        };
        if before >= MAX_WS_TOTAL {
            return Err(SiteError::new(
                ErrorCode::TooMany,
                "the server holds too many live connections; try again later",
            ));
        }
        Ok(guard)
    }
}
