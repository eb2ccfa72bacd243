//! Sandbagging (issue 41; after lichess's SandbagWatch): a player who loses many rated games
//! quickly, to one opponent or to anyone, is warned, then their rated games stop counting for a
//! while. The store counts the quick losses and holds the account (`store::sandbag`); this
//! module says what a quick loss is and where the thresholds lie.
//!
//! lila warns a player at 3 short losses among their last rated games and reports them to the
//! moderators at 4; here the 4th stops the games counting, since no moderator watches at once.

use game::EndReason;

/// A rated loss is quick when the game had fewer plies than this (under 10 moves of each
/// side). Time is not used: an honest bullet game is short, and a sandbagger can wait.
pub const QUICK_PLIES: i64 = 20;

/// Quick losses are counted over this window before the game's end (ms): 24 hours.
pub const WINDOW_MS: i64 = 24 * 3_600_000;

/// Quick losses to one opponent within [`WINDOW_MS`] that bring a warning (once).
pub const PAIR_WARN: i64 = 3;

/// Quick losses to one opponent within [`WINDOW_MS`] that stop the pair's rated games counting
/// for [`HOLD_MS`] (the game that reaches it included).
pub const PAIR_HOLD: i64 = 4;

/// Quick losses to anyone within [`WINDOW_MS`] that bring a warning (once).
pub const ANY_WARN: i64 = 6;

/// Quick losses to anyone within [`WINDOW_MS`] that stop all the account's rated games
/// counting for [`HOLD_MS`].
pub const ANY_HOLD: i64 = 8;

/// How long a hold lasts (ms): 7 days.
pub const HOLD_MS: i64 = 7 * 24 * 3_600_000;

/// Whether a loss that ended for `reason` after `ply` plies is quick: under [`QUICK_PLIES`]
/// plies, whatever ended it. A loss on the board counts as a resignation does (issue 41's
/// hostile round: an Antarctos breakthrough handed over in 11 plies); lila's SandbagWatch also
/// counts any short loss. `reason` is `None` for a game that has not ended.
pub fn is_quick_loss(reason: Option<EndReason>, ply: i64) -> bool {
    reason.is_some() && ply < QUICK_PLIES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_losses_are_any_losses_in_under_twenty_plies() {
        assert!(is_quick_loss(Some(EndReason::Resignation), 2));
        assert!(is_quick_loss(Some(EndReason::Abandoned), 19));
        assert!(is_quick_loss(Some(EndReason::TimeForfeit), 3));
        assert!(is_quick_loss(Some(EndReason::Breakthrough), 11));
        assert!(!is_quick_loss(Some(EndReason::Resignation), 20));
        assert!(!is_quick_loss(Some(EndReason::TimeForfeit), 60));
        assert!(!is_quick_loss(Some(EndReason::Breakthrough), 20));
        assert!(!is_quick_loss(None, 4));
    }
}
