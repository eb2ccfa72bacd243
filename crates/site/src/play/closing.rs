//! A closed account's games in play (issue 41's hostile round: they stayed rated and its
//! correspondence games waited out their clocks for days): a moderator's close ends each one
//! at once, as the closed player leaving it. Before the game's second move it is aborted
//! (as a resignation then is); after, the closed side loses by leaving (`abandoned`) and the
//! game is rated by the usual rules, in the write that ends it.

use game::EndReason;
use site_model::error::SiteError;
use site_model::state::GameStatus;

use super::{GameService, finish};

/// Most games ended for one closed account (its games in play are read ten at a time).
const MAX_ENDED: usize = 1000;

impl GameService {
    /// Ends every game in play of the player whose seats hold `player_hash` (the closed side
    /// loses, or the game is aborted before its second move); how many were ended.
    pub async fn end_games_of_closed(&self, player_hash: &str) -> Result<usize, SiteError> {
        let mut ended = 0;
        let mut seen = std::collections::HashSet::new();
        while ended < MAX_ENDED {
            let ids = self.store.games_in_play(player_hash).await?;
            let fresh: Vec<String> = ids
                .into_iter()
                .filter(|id| seen.insert(id.clone()))
                .collect();
            if fresh.is_empty() {
                break;
            }
            for id in fresh {
                if self.end_for_closed(&id, player_hash).await? {
                    ended += 1;
                }
            }
        }
        Ok(ended)
    }

    /// Ends game `id` for the closed player whose seats hold `player_hash`; false when it was
    /// over already or that player holds no seat in it.
    async fn end_for_closed(&self, id: &str, player_hash: &str) -> Result<bool, SiteError> {
        let slot = self.slot(id).await?;
        let mut g = self.lock_fresh(&slot).await?;
        let mut row = g.row().clone();
        if row.status != GameStatus::Ongoing {
            return Ok(false);
        }
        let white = row
            .white
            .token
            .as_ref()
            .is_some_and(|t| t.as_str() == player_hash);
        let black = row
            .black
            .token
            .as_ref()
            .is_some_and(|t| t.as_str() == player_hash);
        let loser = match (white, black) {
            (true, false) => game::Color::White,
            (false, true) => game::Color::Black,
            _ => return Ok(false),
        };
        if row.ply < crate::permissions::ABORT_BEFORE_PLY {
            self.abort_now(id, &slot, &mut g, row, Some(loser)).await?;
        } else {
            row.gone = None;
            finish(
                &mut row,
                Some(!loser),
                EndReason::Abandoned,
                self.time.now_ms(),
            );
            self.save_state(&slot, &mut g, row).await?;
        }
        tracing::info!(game = %id, "ended: a player's account was closed");
        Ok(true)
    }
}
