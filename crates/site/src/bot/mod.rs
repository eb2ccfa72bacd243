//! The Bot API (issue 44), in the shape of lichess's (docs/bot-api.md): the event stream of a
//! bot's challenges and games ([`events`]), a game's stream ([`game_feed`]), its moves and
//! resignations ([`actions`]), and the lichess-shaped JSON they share (here). Lines are NDJSON:
//! one JSON object and `\n`, or a lone `\n` to keep an idle connection alive.

pub mod actions;
pub mod events;
pub mod game_feed;

use std::time::Duration;

use serde_json::{Value, json};

use crate::view::{GameView, SeatView};
use site_model::clock::{ClockView, TimeControl};
use site_model::ratings::PlayerRating;
use site_model::state::{GameKind, GameStatus, SeatKind};
use site_store::Store;

/// A lone newline after this long without a line (lichess's streams send one every few
/// seconds; the issue asks for at least one every 7 s).
pub const KEEP_ALIVE: Duration = Duration::from_secs(5);

/// lichess's "infinite" time left, for a game without a running real-time clock (ms).
const NO_CLOCK_MS: i64 = 2_147_483_647;

/// `{"key", "name", "short"}` of a game (the keys are `antarctos` and `iceage`).
pub fn variant_json(kind: GameKind) -> Value {
    let short = match kind {
        GameKind::Antarctos => "Ant",
        GameKind::IceAge => "Ice",
    };
    json!({"key": kind.as_str(), "name": kind.title(), "short": short})
}

/// lichess's speed of a control: real-time by `initial + 40 × increment` seconds
/// (`ultraBullet` under 30, `bullet` under 180, `blitz` under 480, `rapid` under 1500,
/// `classical` from there), `correspondence` for days per move and for no clock.
pub fn speed_of(control: TimeControl) -> &'static str {
    match control.expected_s() {
        Some(s) if s < 30 => "ultraBullet",
        Some(s) if s < 180 => "bullet",
        Some(s) if s < 480 => "blitz",
        Some(s) if s < 1500 => "rapid",
        Some(_) => "classical",
        None => "correspondence",
    }
}

/// A challenge's `timeControl`: `{"type": "clock", "limit", "increment", "show"}` (seconds),
/// `{"type": "correspondence", "daysPerTurn"}` or `{"type": "unlimited"}`.
pub fn time_control_json(control: TimeControl) -> Value {
    match control {
        TimeControl::Realtime {
            initial_s,
            increment_s,
        } => json!({"type": "clock", "limit": initial_s, "increment": increment_s,
                    "show": control.label()}),
        TimeControl::Correspondence { days } => {
            json!({"type": "correspondence", "daysPerTurn": days})
        }
        TimeControl::Unlimited {} => json!({"type": "unlimited"}),
    }
}

/// lichess's status name of a game: `started`, `aborted`, `mate`, `resign`, `stalemate`,
/// `draw`, `outoftime`, `timeout` (abandoned), or `variantEnd` for the games' own ends
/// (breakthrough, total freeze, no moves, a frozen king).
pub fn status_name(view: &GameView) -> &'static str {
    use game::EndReason as R;
    match (view.status, view.result.as_ref().map(|r| r.reason)) {
        (GameStatus::Ongoing, _) => "started",
        (GameStatus::Aborted, _) => "aborted",
        (GameStatus::Finished, Some(R::Checkmate)) => "mate",
        (GameStatus::Finished, Some(R::Resignation)) => "resign",
        (GameStatus::Finished, Some(R::Stalemate)) => "stalemate",
        (GameStatus::Finished, Some(R::Agreement | R::FiftyMoveRule)) => "draw",
        (GameStatus::Finished, Some(R::TimeForfeit)) => "outoftime",
        (GameStatus::Finished, Some(R::Abandoned)) => "timeout",
        (GameStatus::Finished, _) => "variantEnd",
    }
}

/// lichess's number of a status name (`started` 20, `aborted` 25, `mate` 30, `resign` 31,
/// `stalemate` 32, `timeout` 33, `draw` 34, `outoftime` 35, `variantEnd` 60).
pub fn status_id(name: &str) -> u32 {
    match name {
        "created" => 10,
        "started" => 20,
        "aborted" => 25,
        "mate" => 30,
        "resign" => 31,
        "stalemate" => 32,
        "timeout" => 33,
        "draw" => 34,
        "outoftime" => 35,
        _ => 60,
    }
}

/// The winner's side (`white`/`black`), once the game is won.
pub fn winner(view: &GameView) -> Option<&'static str> {
    view.result
        .as_ref()
        .and_then(|r| r.winner)
        .map(|c| c.name())
}

/// A player of a game: `{"id", "name", "title", "rating", "provisional"}` for an account
/// (`title` `"BOT"` for a BOT account, else null), `{"aiLevel": n}` for the site's engine,
/// `{"id": null, "name": "Anonymous"}` otherwise.
pub fn seat_json(seat: &SeatView) -> Value {
    match (seat.kind, &seat.username) {
        (SeatKind::Engine, _) => json!({"aiLevel": seat.level}),
        (_, Some(name)) => {
            let title = seat.bot.then_some("BOT");
            json!({
                "id": name.to_lowercase(),
                "name": name,
                "title": title,
                "rating": seat.rating.map(|r| r.rating),
                "provisional": seat.rating.is_some_and(|r| r.provisional),
            })
        }
        _ => json!({"id": null, "name": "Anonymous"}),
    }
}

/// An account as a challenge shows it, with its rating in the game and speed (`{"id", "name",
/// "title", "rating", "provisional"}`); `null` rating when it cannot be read.
pub async fn user_json(store: &Store, name: &str, kind: GameKind, control: TimeControl) -> Value {
    let bot = store
        .bot_names(&[name.to_string()])
        .await
        .unwrap_or_default();
    let mut rating = None;
    if let Some(speed) = control.speed()
        && let Ok(Some((id, _, _))) = store.account_player(name).await
        && let Ok(rows) = store.ratings_of(&id).await
    {
        let found = rows
            .iter()
            .find(|r| r.variant == kind && r.speed == speed)
            .map(|r| r.rating);
        rating = Some(PlayerRating::of(found));
    }
    json!({
        "id": name.to_lowercase(),
        "name": name,
        "title": (!bot.is_empty()).then_some("BOT"),
        "rating": rating.map(|r| r.rating),
        "provisional": rating.is_some_and(|r| r.provisional),
    })
}

/// lichess's challenge object for `c`: `{"id", "url", "status", "challenger", "destUser",
/// "variant", "rated", "speed", "timeControl", "color", "finalColor", "direction", "perf"}`
/// (`color`: the challenger's side, `white`, `black` or `random`; `finalColor` the side it
/// plays, `null` while random, which is drawn when the game starts; `direction`: `in` to the
/// asking player, `out` from it). `origin` is the site's (`https://host`), for the absolute
/// `url`; empty, the `url` is a path.
pub async fn challenge_json(store: &Store, c: &crate::lobby::ChallengeView, origin: &str) -> Value {
    let status = match c.status {
        site_model::state::ChallengeStatus::Open => "created",
        other => other.as_str(),
    };
    let final_color = match c.color {
        crate::lobby::SeekColor::Random => None,
        other => Some(other.as_str()),
    };
    let direction = if c.direction == "incoming" {
        "in"
    } else {
        "out"
    };
    json!({
        "id": c.id,
        "url": format!("{origin}/lobby#{}", c.id),
        "status": status,
        "finalColor": final_color,
        "direction": direction,
        "challenger": user_json(store, &c.challenger, c.variant, c.time_control).await,
        "destUser": user_json(store, &c.challenged, c.variant, c.time_control).await,
        "variant": variant_json(c.variant),
        "rated": c.rated,
        "speed": speed_of(c.time_control),
        "timeControl": time_control_json(c.time_control),
        "color": c.color.as_str(),
        "perf": {"name": c.variant.title()},
    })
}

/// The moves of `view` as lichess sends them: their machine form (Ice Age Chess: UCI;
/// Antarctos: `c3-d4`, `c3xe5`), joined by spaces.
pub fn moves_text(view: &GameView) -> String {
    view.moves
        .items()
        .iter()
        .map(|m| m.id.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `(wtime, btime, winc, binc)` in ms: a real-time clock's times left as the view was made; a
/// correspondence clock's time to its deadline for the side to move (a full period for the
/// other); lichess's "infinite" 2147483647 without a clock.
pub fn times(view: &GameView, now_ms: i64) -> (i64, i64, i64, i64) {
    match view.clock {
        Some(ClockView::Realtime {
            increment_ms,
            white_ms,
            black_ms,
            ..
        }) => (white_ms, black_ms, increment_ms, increment_ms),
        Some(ClockView::Correspondence {
            days, deadline_ms, ..
        }) => {
            let period = days * 86_400_000;
            let left = deadline_ms.map_or(period, |d| (d - now_ms).max(0));
            match view.turn {
                game::Color::White => (left, period, 0, 0),
                game::Color::Black => (period, left, 0, 0),
            }
        }
        None => (NO_CLOCK_MS, NO_CLOCK_MS, 0, 0),
    }
}

/// A `gameState` object of `view` (`{"type": "gameState", "moves", "wtime", "btime", "winc",
/// "binc", "wdraw", "bdraw", "status"}`, with `winner` once won).
pub fn game_state(view: &GameView, now_ms: i64) -> Value {
    let (wtime, btime, winc, binc) = times(view, now_ms);
    let mut state = json!({
        "type": "gameState",
        "moves": moves_text(view),
        "wtime": wtime,
        "btime": btime,
        "winc": winc,
        "binc": binc,
        "wdraw": view.draw_offer == Some(game::Color::White),
        "bdraw": view.draw_offer == Some(game::Color::Black),
        "status": status_name(view),
    });
    if let (Some(w), Some(obj)) = (winner(view), state.as_object_mut()) {
        obj.insert("winner".into(), json!(w));
    }
    state
}

/// One NDJSON line of `value`.
pub(crate) fn line(value: &Value) -> bytes::Bytes {
    let mut text = value.to_string();
    text.push('\n');
    bytes::Bytes::from(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_follow_lichess() {
        let rt = |i, inc| TimeControl::Realtime {
            initial_s: i,
            increment_s: inc,
        };
        assert_eq!(speed_of(rt(15, 0)), "ultraBullet");
        assert_eq!(speed_of(rt(60, 0)), "bullet");
        assert_eq!(speed_of(rt(180, 2)), "blitz");
        assert_eq!(speed_of(rt(600, 0)), "rapid");
        assert_eq!(speed_of(rt(1800, 0)), "classical");
        assert_eq!(
            speed_of(TimeControl::Correspondence { days: 2 }),
            "correspondence"
        );
        assert_eq!(speed_of(TimeControl::Unlimited {}), "correspondence");
    }
}
