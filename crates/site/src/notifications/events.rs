//! Which changes make which notifications (issue 38): pure functions from the rows of a change
//! to the notifications it makes, each with the key of its event (`store::notifications`).
//! Stored in the change's own transaction, so a change that is stored made its notifications,
//! and one that is not made none, whatever process dies when.

use game::Color;
use site_model::clock::{Speed, TimeControl};
use site_model::notifications::{LowTime, NotificationKind};
use site_model::secrets::TokenHash;
use site_model::state::{GameStatus, SeatKind};
use site_store::{ChallengeRow, GameRow, NewNotification};

/// A seat's holder as the other player sees it: the account's name, or "Anonymous".
fn shown(row: &GameRow, side: Color) -> String {
    row.seat(side)
        .name
        .clone()
        .unwrap_or_else(|| "Anonymous".to_string())
}

/// The token hash of the human holding `side`, if a human does.
fn human(row: &GameRow, side: Color) -> Option<&TokenHash> {
    let seat = row.seat(side);
    (seat.kind == SeatKind::Human)
        .then_some(seat.token.as_ref())
        .flatten()
}

/// Whether `row` is a correspondence game between two different players: the games whose
/// turns and ends are notified (a real-time game's players are at the board).
fn correspondence_between_two(row: &GameRow) -> bool {
    let correspondence = row
        .clock
        .is_some_and(|c| c.control().speed() == Some(Speed::Correspondence));
    match (human(row, Color::White), human(row, Color::Black)) {
        (Some(w), Some(b)) => correspondence && w != b,
        _ => false,
    }
}

/// The notifications of a stored change of a game from `before` to `after`:
/// - "your move" to the player to move after a move of a correspondence game
///   (`move:<game>:<ply>`);
/// - "game over" to both players when a correspondence game ends (`over:<game>`).
pub fn game_change(before: &GameRow, after: &GameRow) -> Vec<NewNotification> {
    if !correspondence_between_two(after) {
        return Vec::new();
    }
    let mut notes = Vec::new();
    let title = after.variant.title();
    if after.status == GameStatus::Ongoing && after.ply > before.ply {
        let to_move = after.turn;
        if let Some(owner) = human(after, to_move) {
            let by = shown(after, !to_move);
            notes.push(NewNotification {
                owner: owner.clone(),
                tournament: None,
                kind: NotificationKind::YourMove,
                game: Some(after.id.clone()),
                text: format!("{by} moved: your move in {title}"),
                by: Some(by),
                event_key: your_move_key(&after.id, after.ply),
            });
        }
    }
    if before.status == GameStatus::Ongoing && after.status == GameStatus::Finished {
        for side in [Color::White, Color::Black] {
            let Some(owner) = human(after, side) else {
                continue;
            };
            let by = shown(after, !side);
            let outcome = match after.winner {
                Some(w) if w == side => "you won",
                Some(_) => "you lost",
                None => "a draw",
            };
            let reason = after.reason.map(|r| r.as_str()).unwrap_or("over");
            notes.push(NewNotification {
                owner: owner.clone(),
                tournament: None,
                kind: NotificationKind::GameOver,
                game: Some(after.id.clone()),
                text: format!("{title} against {by} is over: {outcome} ({reason})"),
                by: Some(by),
                event_key: format!("over:{}", after.id),
            });
        }
    }
    notes
}

/// The event key of "your move" in game `game` after ply `ply`.
pub fn your_move_key(game: &str, ply: i64) -> String {
    format!("move:{game}:{ply}")
}

/// The event key of challenge `id` received.
pub fn challenge_key(id: &str) -> String {
    format!("challenge:{id}")
}

/// "Challenge received", to the challenged player (`challenge:<id>`).
pub fn challenge_received(c: &ChallengeRow) -> NewNotification {
    NewNotification {
        owner: c.challenged.clone(),
        tournament: None,
        kind: NotificationKind::Challenge,
        game: None,
        text: format!(
            "{} challenges you to {}",
            c.challenger_name,
            c.terms.variant.title()
        ),
        by: Some(c.challenger_name.clone()),
        event_key: challenge_key(&c.id),
    }
}

/// "Your seek was accepted" (`seek:<id>`) or "your challenge was accepted"
/// (`accepted:<id>`), to the offer's owner `owner`, whose game `game` just started.
pub fn offer_accepted(
    kind: NotificationKind,
    offer: &str,
    owner: &TokenHash,
    game: &GameRow,
) -> NewNotification {
    let side = if game.white.token.as_ref() == Some(owner) {
        Color::White
    } else {
        Color::Black
    };
    let by = shown(game, !side);
    let (what, key) = match kind {
        NotificationKind::SeekAccepted => ("seek", "seek"),
        _ => ("challenge", "accepted"),
    };
    let turn = if game.turn == side { ": your move" } else { "" };
    NewNotification {
        owner: owner.clone(),
        tournament: None,
        kind,
        game: Some(game.id.clone()),
        text: format!(
            "{by} accepted your {what}: {} started{turn}",
            game.variant.title()
        ),
        by: Some(by),
        event_key: format!("{key}:{offer}"),
    }
}

/// The low-time reminder due in `row` at `now` (Unix ms, the game clocks' time), to the
/// player to move of a correspondence game (`low:<game>:<ply>:<24h|1h>`): once per move and
/// threshold.
pub fn low_time(row: &GameRow, now: i64) -> Option<NewNotification> {
    if row.status != GameStatus::Ongoing || !correspondence_between_two(row) {
        return None;
    }
    let clock = row.clock?;
    let side = clock.running()?;
    let owner = human(row, side)?;
    let per_move_ms = match clock.control() {
        TimeControl::Correspondence { days } => days * 86_400_000,
        _ => return None,
    };
    let due = LowTime::due(clock.left_ms(side, now), per_move_ms)?;
    let by = shown(row, !side);
    let left = match due {
        LowTime::Day => "less than 24 hours",
        LowTime::Hour => "less than an hour",
    };
    Some(NewNotification {
        owner: owner.clone(),
        tournament: None,
        kind: NotificationKind::LowTime,
        game: Some(row.id.clone()),
        text: format!(
            "{left} left for your move against {by} in {}",
            row.variant.title()
        ),
        by: Some(by),
        event_key: format!("low:{}:{}:{}", row.id, row.ply, due.key()),
    })
}
