//! What an event tells its players who are away (issue 40, through issue 38's notifications:
//! the bell, push and the page's live stream). Pure: the director stores these in the
//! transaction that starts the event or stores the round, so each is made exactly once
//! (their keys are unique per player) or not at all.
//!
//! An arena's games are not notified one by one (a player gets a new game every few minutes
//! while there, and the page calls them); a Swiss or round-robin round is.

use std::collections::HashMap;

use game::Color;
use site_model::notifications::NotificationKind;
use site_model::secrets::TokenHash;
use site_model::tournament::TournamentKind;
use site_store::{EntryRow, NewNotification, NewPairing, TournamentRow};

use super::pairing::active;

/// "`name` has started" to each active entry of `t` (`tstart:<id>`).
pub fn started(
    t: &TournamentRow,
    entries: &[EntryRow],
    hashes: &HashMap<String, TokenHash>,
) -> Vec<NewNotification> {
    entries
        .iter()
        .filter(|e| active(e))
        .filter_map(|e| hashes.get(&e.account_id))
        .map(|owner| NewNotification {
            owner: owner.clone(),
            kind: NotificationKind::TournamentStarted,
            game: None,
            tournament: Some(t.id.clone()),
            by: Some(t.name.clone()),
            text: format!("{} has started", t.name),
            event_key: format!("tstart:{}", t.id),
        })
        .collect()
}

/// "Your game is ready" to both players of each game in `rows` (`tgame:<game>`), for a Swiss
/// event or a round robin; none for an arena.
pub fn games_ready(t: &TournamentRow, rows: &[NewPairing]) -> Vec<NewNotification> {
    if t.kind == TournamentKind::Arena {
        return Vec::new();
    }
    let mut notes = Vec::new();
    for game in rows.iter().filter_map(|r| r.game.as_ref()) {
        for side in [Color::White, Color::Black] {
            let Some(owner) = game.seat(side).token.clone() else {
                continue;
            };
            let by = game
                .seat(!side)
                .name
                .clone()
                .unwrap_or_else(|| "Anonymous".to_string());
            notes.push(NewNotification {
                owner,
                kind: NotificationKind::TournamentGame,
                game: Some(game.id.clone()),
                tournament: Some(t.id.clone()),
                text: format!("{}: your game against {by} is ready", t.name),
                by: Some(by),
                event_key: format!("tgame:{}", game.id),
            });
        }
    }
    notes
}
