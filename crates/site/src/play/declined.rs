//! Offers a player may not repeat at once (issue 41, third hostile round: 30 draw and 30
//! takeback offers in 2 s, each a prompt on the opponent's board). After a declined offer the
//! same side's next offer of that kind waits: a draw offer [`DRAW_AGAIN_PLIES`] plies (lichess
//! allows one draw offer per 20 plies), a takeback until a move is made. Kept in the game's
//! slot, in memory: another process, or a restart, may let one more offer through, which is
//! all a limit on nagging needs.

use std::sync::Mutex;

use game::Color;
use site_model::error::{ErrorCode, SiteError};

/// Plies after a declined draw offer before the same side may offer again.
pub const DRAW_AGAIN_PLIES: i64 = 20;

/// The kind of offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferKind {
    /// A draw offer (Ice Age Chess).
    Draw,
    /// A takeback request.
    Takeback,
}

/// The ply at which each side's last offer of each kind was declined.
#[derive(Debug, Default)]
pub struct Declined {
    plies: Mutex<[[Option<i64>; 2]; 2]>,
}

fn index(kind: OfferKind, side: Color) -> (usize, usize) {
    (
        usize::from(kind == OfferKind::Takeback),
        usize::from(side == Color::Black),
    )
}

impl Declined {
    /// Notes that `side`'s offer of `kind` was declined at `ply`.
    pub fn note(&self, kind: OfferKind, side: Color, ply: i64) {
        let (k, s) = index(kind, side);
        self.plies.lock().unwrap_or_else(|p| p.into_inner())[k][s] = Some(ply);
    }

    /// Whether `side` may offer `kind` at `ply`: 429 `rate_limited` naming the ply from which
    /// it may, if its last such offer was declined too recently.
    pub fn check(&self, kind: OfferKind, side: Color, ply: i64) -> Result<(), SiteError> {
        let (k, s) = index(kind, side);
        let Some(at) = self.plies.lock().unwrap_or_else(|p| p.into_inner())[k][s] else {
            return Ok(());
        };
        let (again, what) = match kind {
            OfferKind::Draw => (at + DRAW_AGAIN_PLIES, "draw offer"),
            OfferKind::Takeback => (at + 1, "takeback request"),
        };
        if ply >= again {
            return Ok(());
        }
        Err(SiteError::new(
            ErrorCode::RateLimited,
            format!(
                "your {what} was declined at ply {at}: you may ask again from ply {again} \
                 (the game is at ply {ply})"
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declined_offer_waits_for_its_plies_per_side_and_kind() {
        let d = Declined::default();
        assert!(d.check(OfferKind::Draw, Color::White, 4).is_ok());
        d.note(OfferKind::Draw, Color::White, 4);
        let e = d.check(OfferKind::Draw, Color::White, 23).unwrap_err();
        assert!(e.message.contains("from ply 24"), "{}", e.message);
        assert!(d.check(OfferKind::Draw, Color::White, 24).is_ok());
        assert!(d.check(OfferKind::Draw, Color::Black, 5).is_ok());
        assert!(d.check(OfferKind::Takeback, Color::White, 4).is_ok());
        d.note(OfferKind::Takeback, Color::Black, 7);
        assert!(d.check(OfferKind::Takeback, Color::Black, 7).is_err());
        assert!(d.check(OfferKind::Takeback, Color::Black, 8).is_ok());
    }
}
