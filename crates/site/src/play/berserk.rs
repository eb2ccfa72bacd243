//! Berserk (issue 40, lichess's arena): a player halves their own clock before their first
//! move, for an extra point if they win. Play only changes the clock; which games may go
//! berserk (an arena's) is the tournaments' to say.

use super::*;

impl GameService {
    /// Halves the caller's main time in game `id` before their first move: the side that
    /// went berserk. 403 `not_a_player` for a watcher, 409 `game_over`, 409 `conflict` after
    /// the player's first move, for a correspondence clock, or berserk twice.
    pub async fn berserk(&self, id: &str, token: &PlayerToken) -> Result<Color, SiteError> {
        let slot = self.slot(id).await?;
        let mut g = self.lock_fresh(&slot).await?;
        let mut row = g.row().clone();
        let side = crate::view::seat_of(&row, token)
            .and_then(|s| s.color())
            .ok_or_else(|| SiteError::new(ErrorCode::NotAPlayer, "only a player can go berserk"))?;
        if row.status != GameStatus::Ongoing {
            return Err(SiteError::new(ErrorCode::GameOver, "the game is over"));
        }
        let halved = row.clock.as_mut().is_some_and(|c| c.berserk(side));
        if !halved {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "berserk is only before your first move, once, with a real-time clock",
            ));
        }
        self.save_state(&slot, &mut g, row).await?;
        tracing::info!(game = %id, %side, "berserk");
        Ok(side)
    }
}
