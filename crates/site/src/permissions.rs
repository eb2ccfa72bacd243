//! What a seat holder may do in a game now: the `actions` of a GameView (docs/api.md). The
//! page shows a button for each and nothing else; the endpoints check the same conditions
//! themselves (site::play), this list only tells the page.
//!
//! The site's rules of play (not the games' rules): a friend game nobody joined can only be
//! cancelled (aborted); while fewer than two moves are played a game is aborted rather than
//! resigned; draws are Ice Age Chess only (Antarctos has none, A15); a takeback is immediate
//! on one screen and against the engine, an offer between friends; so is a rematch.

use game::Color;
use serde::{Deserialize, Serialize};

use site_model::state::{GameKind, GameStatus, SeatKind, YourSeat};
use site_store::GameRow;

/// Plies after which a game is resigned rather than aborted.
pub const ABORT_BEFORE_PLY: i64 = 2;

/// How a seat holder ends an ongoing game at `ply`: [`Action::Abort`] before
/// [`ABORT_BEFORE_PLY`], [`Action::Resign`] from then on.
pub fn ending_action(ply: i64) -> Action {
    if ply < ABORT_BEFORE_PLY {
        Action::Abort
    } else {
        Action::Resign
    }
}

/// One thing a seat holder may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Play a move (it is this token's turn).
    Move,
    /// Resign.
    Resign,
    /// Call the game off without a result.
    Abort,
    /// Offer a draw.
    OfferDraw,
    /// Accept the opponent's draw offer.
    AcceptDraw,
    /// Decline it.
    DeclineDraw,
    /// Take a move back at once (one screen, or against the engine).
    Takeback,
    /// Ask the friend to let a move be taken back.
    OfferTakeback,
    /// Accept the friend's takeback offer.
    AcceptTakeback,
    /// Decline it.
    DeclineTakeback,
    /// Ask for a rematch (created at once against the engine or on one screen).
    Rematch,
    /// Accept the friend's rematch offer.
    AcceptRematch,
    /// Decline it.
    DeclineRematch,
}

/// How the opponent of a seat is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// Both seats on one screen: everything happens at once.
    SameScreen,
    /// The engine, or a seat nobody took: no one to ask.
    NoOne,
    /// Another person: takebacks and rematches are offers.
    Friend,
}

/// Who plays against the holder of `you` in `row`.
pub fn opponent(row: &GameRow, you: YourSeat) -> Opponent {
    match you.color() {
        None => Opponent::SameScreen,
        Some(c) if row.seat(!c).kind == SeatKind::Human => Opponent::Friend,
        Some(_) => Opponent::NoOne,
    }
}

/// The ply a takeback by `side` goes back to: the position before `side`'s last move (so that
/// `side` is to move again), or `None` when `side` has not moved. The sides alternate in both
/// games (an Ice Age is part of Black's move, C-rules; a jump sequence is one move, A-rules),
/// so the last move is the side not to move's, and the one before it the other side's.
pub fn takeback_target(row: &GameRow, side: Color) -> Option<i64> {
    last_mover_target(row.ply, row.turn, side)
}

fn last_mover_target(ply: i64, turn: Color, side: Color) -> Option<i64> {
    let back = if side == !turn { 1 } else { 2 };
    (ply >= back).then_some(ply - back)
}

/// What `you` may do in `row`, in a stable order.
pub fn actions(row: &GameRow, you: Option<YourSeat>) -> Vec<Action> {
    let Some(you) = you else { return Vec::new() };
    let mut out = Vec::new();
    let opp = opponent(row, you);
    let me = you.color();
    match row.status {
        GameStatus::Ongoing if row.has_open_seat() => out.push(Action::Abort),
        GameStatus::Ongoing => {
            let turn_is_mine = me.is_none_or(|c| c == row.turn);
            if turn_is_mine && row.seat(row.turn).kind == SeatKind::Human {
                out.push(Action::Move);
            }
            out.push(ending_action(row.ply));
            if row.variant == GameKind::IceAge {
                match (row.draw_offer, me) {
                    (None, _) => out.push(Action::OfferDraw),
                    (Some(by), Some(c)) if by == c => {}
                    (Some(_), _) => out.extend([Action::AcceptDraw, Action::DeclineDraw]),
                }
            }
            match (opp, me) {
                (Opponent::SameScreen, _) if row.ply > 0 => out.push(Action::Takeback),
                (Opponent::NoOne, Some(c)) if takeback_target(row, c).is_some() => {
                    out.push(Action::Takeback)
                }
                (Opponent::Friend, Some(c)) => match row.takeback_offer {
                    Some(by) if by != c => {
                        out.extend([Action::AcceptTakeback, Action::DeclineTakeback])
                    }
                    None if takeback_target(row, c).is_some() => out.push(Action::OfferTakeback),
                    _ => {}
                },
                _ => {}
            }
        }
        // A tournament's games have no rematch: the event pairs the next one.
        GameStatus::Finished if row.rematch.is_none() && row.tournament.is_none() => {
            match (opp, me) {
                // A BOT account answers challenges, not rematch offers (issue 44, browser
                // round 5: the offer waited for ever): the page offers a new challenge.
                (Opponent::Friend, Some(c)) if row.seat(!c).bot => {}
                (Opponent::Friend, Some(c)) => match row.rematch_offer {
                    Some(by) if by != c => {
                        out.extend([Action::AcceptRematch, Action::DeclineRematch])
                    }
                    Some(_) => {}
                    None => out.push(Action::Rematch),
                },
                _ => out.push(Action::Rematch),
            }
        }
        GameStatus::Finished | GameStatus::Aborted => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The targets agree with a search of the moves' colours, for either side to start.
    #[test]
    fn takeback_targets_follow_the_alternating_sides() {
        for first in [Color::White, Color::Black] {
            for ply in 0..6_i64 {
                let colours: Vec<Color> = (0..ply)
                    .map(|i| if i % 2 == 0 { first } else { !first })
                    .collect();
                let turn = if ply % 2 == 0 { first } else { !first };
                for side in [Color::White, Color::Black] {
                    let searched = colours.iter().rposition(|&c| c == side).map(|i| i as i64);
                    assert_eq!(
                        last_mover_target(ply, turn, side),
                        searched,
                        "first {first:?}, ply {ply}, side {side:?}"
                    );
                }
            }
        }
    }
}
