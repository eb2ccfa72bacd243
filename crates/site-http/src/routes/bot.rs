//! The Bot API's routes (issue 44, docs/bot-api.md), in lichess's shapes: the event stream,
//! a game's stream, moves, resignations, and challenges by name (`/api/challenge/...`, beside
//! the site's own `/api/challenges`). The streams are NDJSON (`application/x-ndjson`).

use std::convert::Infallible;

use axum::Extension;
use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::{AppState, PathText};
use crate::bearer::{BotPlayer, ChallengeReader, Challenger};
use crate::error::HttpError;
use crate::player::LoggedIn;
use crate::security::SecurityState;
use crate::session_watch::{SessionWatch, until_ended};
use site::bot::events::EventFeed;
use site::bot::game_feed::GameFeed;
use site::chat::Content;
use site::lobby::NewChallenge;
use site_model::chat::GameRoom;
use site_model::clock::TimeControl;
use site_model::error::{ErrorCode, SiteError};
use site_model::state::{ChallengeStatus, Claim, GameKind, SeekColor};

/// An error of a bot's move or resignation: lichess answers 400 to a move it refuses, so a
/// 409 (`not_your_turn`, `game_over`) or 422 (`illegal_move`) is sent as 400, with the same
/// code and message.
pub struct BotError(SiteError);

impl From<SiteError> for BotError {
    fn from(e: SiteError) -> Self {
        BotError(e)
    }
}

impl IntoResponse for BotError {
    fn into_response(self) -> Response {
        let bad = matches!(self.0.code.status(), 409 | 422);
        let mut res = HttpError(self.0).into_response();
        if bad {
            *res.status_mut() = StatusCode::BAD_REQUEST;
        }
        res
    }
}

fn ok() -> Json<Value> {
    Json(json!({"ok": true}))
}

/// An NDJSON answer of `lines` (`application/x-ndjson`, never cached).
fn ndjson(lines: impl futures_util::Stream<Item = Bytes> + Send + 'static) -> Response {
    use futures_util::StreamExt;
    let body = Body::from_stream(lines.map(Ok::<_, Infallible>));
    let mut res = Response::new(body);
    let h = res.headers_mut();
    h.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// The site's origin for absolute links (`https://host`): `--public-url`'s, else the
/// request's `Host` (letters, digits, `.-:[]` only; anything else gives paths alone).
fn site_origin(sec: &SecurityState, headers: &HeaderMap) -> String {
    if let Some(u) = &sec.public_url {
        return u.origin().trim_end_matches('/').to_string();
    }
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let clean = !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b));
    if !clean {
        return String::new();
    }
    let scheme = if sec.https(headers) { "https" } else { "http" };
    format!("{scheme}://{host}")
}

/// `lines` until the bot's token is revoked or its account closed (in any process; bot
/// client finding 2: a revoked token's streams went on carrying challenges and moves).
fn while_token_lives(
    lines: impl futures_util::Stream<Item = Bytes> + Send + 'static,
    bot: &BotPlayer,
    sec: &SecurityState,
) -> impl futures_util::Stream<Item = Bytes> + Send + 'static {
    use futures_util::StreamExt;
    let mut watch = sec
        .sessions
        .clone()
        .map(|s| SessionWatch::of_api_token(bot.account.clone(), s));
    lines.take_until(async move { until_ended(watch.as_mut()).await })
}

/// `GET /api/stream/event`: the bot's `challenge`, `gameStart` and `gameFinish` events.
pub async fn event_stream(
    State(svc): State<AppState>,
    Extension(sec): Extension<SecurityState>,
    headers: HeaderMap,
    bot: BotPlayer,
) -> Result<Response, HttpError> {
    let origin = site_origin(&sec, &headers);
    let feed = EventFeed::open(&svc.lobby, bot.token.clone(), origin)?;
    let lines = futures_util::stream::unfold(feed, |mut f| async move {
        let line = f.next().await?;
        Some((line, f))
    });
    Ok(ndjson(while_token_lives(lines, &bot, &sec)))
}

/// `GET /api/bot/game/stream/{id}`: `gameFull`, then `gameState` lines.
pub async fn game_stream(
    State(svc): State<AppState>,
    Extension(sec): Extension<SecurityState>,
    bot: BotPlayer,
    PathText(id): PathText,
) -> Result<Response, HttpError> {
    let feed = GameFeed::open(&svc.play, &id, &bot.token).await?;
    let lines = futures_util::stream::unfold(feed, |mut f| async move {
        let line = f.next().await?;
        Some((line, f))
    });
    Ok(ndjson(while_token_lives(lines, &bot, &sec)))
}

/// The query of a bot's move: lichess's `offeringDraw=true` offers a draw with it.
#[derive(Debug, Default, serde::Deserialize)]
pub struct MoveQuery {
    /// `true`: a draw offer goes with the move (Ice Age Chess; Antarctos has none, A15).
    #[serde(rename = "offeringDraw", default)]
    pub offering_draw: Option<String>,
}

/// `POST /api/bot/game/{id}/move/{move}[?offeringDraw=true]` -> `{"ok": true}`; 400 naming
/// what is wrong.
pub async fn play_move(
    State(svc): State<AppState>,
    bot: BotPlayer,
    path: Result<Path<(String, String)>, axum::extract::rejection::PathRejection>,
    query: Result<Query<MoveQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, BotError> {
    let Ok(Path((id, mv))) = path else {
        return Err(SiteError::new(ErrorCode::NotFound, "no such game or move text").into());
    };
    let offer = match query.map(|q| q.0.offering_draw) {
        Ok(None) => false,
        Ok(Some(v)) => match v.trim() {
            "true" => true,
            "false" | "" => false,
            other => {
                return Err(SiteError::bad_request(format!(
                    "offeringDraw: '{}' is neither true nor false",
                    game::excerpt(other)
                ))
                .into());
            }
        },
        Err(e) => return Err(SiteError::bad_request(format!("the query: {e}")).into()),
    };
    site::bot::actions::play_move(&svc.play, &id, &bot.token, &mv, offer).await?;
    Ok(ok())
}

/// `POST /api/bot/game/{id}/abort` -> `{"ok": true}`: before both sides have moved.
pub async fn abort(
    State(svc): State<AppState>,
    bot: BotPlayer,
    PathText(id): PathText,
) -> Result<Json<Value>, BotError> {
    svc.play.abort(&id, &bot.token).await?;
    Ok(ok())
}

/// `POST /api/bot/game/{id}/claim-victory` -> `{"ok": true}`: the win over an opponent gone
/// past its wait (the game stream's `opponentGone` says when); 400 `conflict` before, or when the
/// opponent is there.
pub async fn claim_victory(
    State(svc): State<AppState>,
    bot: BotPlayer,
    PathText(id): PathText,
) -> Result<Json<Value>, BotError> {
    svc.play.claim(&id, &bot.token, Claim::Win).await?;
    Ok(ok())
}

/// `POST /api/bot/game/{id}/claim-draw` -> `{"ok": true}`: a draw instead, on the same terms.
pub async fn claim_draw(
    State(svc): State<AppState>,
    bot: BotPlayer,
    PathText(id): PathText,
) -> Result<Json<Value>, BotError> {
    svc.play.claim(&id, &bot.token, Claim::Draw).await?;
    Ok(ok())
}

/// `POST /api/bot/game/{id}/draw/{accept}` -> `{"ok": true}`: `yes` offers or accepts a
/// draw, `no` declines the opponent's offer (Ice Age Chess; Antarctos has none, A15).
pub async fn draw(
    State(svc): State<AppState>,
    bot: BotPlayer,
    path: Result<Path<(String, String)>, axum::extract::rejection::PathRejection>,
) -> Result<Json<Value>, BotError> {
    let Ok(Path((id, answer))) = path else {
        return Err(SiteError::new(ErrorCode::NotFound, "no such game").into());
    };
    site::bot::actions::draw(&svc.play, &id, &bot.token, &answer).await?;
    Ok(ok())
}

/// `POST /api/bot/game/{id}/chat` (a form or JSON: `room` `player` or `spectator`, `text`)
/// -> `{"ok": true}`: a line in the game's players' or watchers' room, under the site's chat
/// rules (its limits, mutes, and the watchers' room closed to players during the game).
pub async fn chat(
    State(svc): State<AppState>,
    bot: BotPlayer,
    PathText(id): PathText,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<Value>, BotError> {
    let fields = fields(&headers, &body_or_error(body)?)?;
    let get = |k: &str| fields.iter().find(|(f, _)| f == k).map(|(_, v)| v.as_str());
    let room = match get("room").map(str::trim) {
        Some("player") => GameRoom::Players,
        Some("spectator") => GameRoom::Watchers,
        Some(other) => {
            return Err(SiteError::bad_request(format!(
                "room: '{}' is neither player nor spectator",
                game::excerpt(other)
            ))
            .into());
        }
        None => return Err(SiteError::bad_request("room: player or spectator is needed").into()),
    };
    let Some(text) = get("text") else {
        return Err(SiteError::bad_request("text: the line to send is needed").into());
    };
    svc.chat
        .send_game(&id, room, &bot.token, Content::Text(text.to_string()))
        .await?;
    Ok(ok())
}

/// `GET /api/challenge` -> `{"in": [...], "out": [...]}`: the open challenges to and from
/// the request's account, as lichess's challenge objects.
pub async fn list_challenges(
    State(svc): State<AppState>,
    Extension(sec): Extension<SecurityState>,
    headers: HeaderMap,
    ChallengeReader(token): ChallengeReader,
) -> Result<Json<Value>, HttpError> {
    let origin = site_origin(&sec, &headers);
    let lists = svc.lobby.list_challenges(&token).await?;
    let store = svc.play.store();
    let mut out = [Vec::new(), Vec::new()];
    for (list, json) in [&lists.incoming, &lists.outgoing].into_iter().zip(&mut out) {
        for c in list.iter().filter(|c| c.status == ChallengeStatus::Open) {
            json.push(site::bot::challenge_json(store, c, &origin).await);
        }
    }
    let [incoming, outgoing] = out;
    Ok(Json(json!({"in": incoming, "out": outgoing})))
}

/// `POST /api/bot/game/{id}/resign` -> `{"ok": true}`.
pub async fn resign(
    State(svc): State<AppState>,
    bot: BotPlayer,
    PathText(id): PathText,
) -> Result<Json<Value>, BotError> {
    site::bot::actions::resign(&svc.play, &id, &bot.token).await?;
    Ok(ok())
}

/// `POST /api/bot/account/upgrade` -> `{"ok": true}`: the account already became a BOT
/// account with its `bot:play` token (lichess's clients ask for it).
pub async fn upgrade(_bot: BotPlayer) -> Json<Value> {
    ok()
}

/// `GET /api/account`: `{"id", "username", "title"}` of the request's account (a token's or
/// a session's); 401 without one.
pub async fn account(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
    crate::player::Player(token): crate::player::Player,
) -> Result<Json<Value>, HttpError> {
    let Some(account) = account else {
        return Err(SiteError::new(
            ErrorCode::NotLoggedIn,
            "no account: log in, or send a token",
        )
        .into());
    };
    let bot = svc
        .play
        .store()
        .is_bot_player(&token.hash())
        .await
        .map_err(SiteError::from)?;
    Ok(Json(json!({
        "id": account.username.to_lowercase(),
        "username": account.username,
        "title": bot.then_some("BOT"),
    })))
}

/// A form or JSON body as read, or the 413 `too_large` (400 for a body cut short) that says
/// so in the API's shape (hostile round 5, F4: axum's own answer was plain text).
fn body_or_error(
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Bytes, SiteError> {
    body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            SiteError::new(
                ErrorCode::TooLarge,
                format!("the body is over {} bytes", super::BODY_LIMIT),
            )
        } else {
            SiteError::bad_request(format!("the body could not be read: {e}"))
        }
    })
}

/// The fields of a challenge as lichess's clients send them: a form
/// (`application/x-www-form-urlencoded`) or a JSON object (`clock` may be an object).
fn fields(headers: &HeaderMap, body: &[u8]) -> Result<Vec<(String, String)>, SiteError> {
    let json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| {
            c.trim_start()
                .to_ascii_lowercase()
                .starts_with("application/json")
        });
    if !json {
        return Ok(url::form_urlencoded::parse(body).into_owned().collect());
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Vec::new());
    }
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| SiteError::bad_request(format!("the body is not JSON: {e}")))?;
    let Value::Object(map) = value else {
        return Err(SiteError::bad_request("the body is a JSON object"));
    };
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut out = Vec::new();
    for (k, v) in &map {
        match v {
            // berserk (lichess's Python client) sends every field, the unused ones as null:
            // a null is a field not given (berserk round, finding 1).
            Value::Null => {}
            Value::Object(inner) => {
                out.extend(inner.iter().map(|(ik, iv)| (format!("{k}.{ik}"), text(iv))));
            }
            _ => out.push((k.clone(), text(v))),
        }
    }
    Ok(out)
}

fn number(field: &str, text: &str) -> Result<i64, SiteError> {
    text.trim().parse().map_err(|_| {
        SiteError::bad_request(format!(
            "{field}: '{}' is not a whole number",
            game::excerpt(text)
        ))
    })
}

/// A challenge to `username` from lichess's fields: `variant` (`antarctos` or `iceage`),
/// `rated`, `clock.limit` and `clock.increment` (seconds), `days`, `color`.
fn new_challenge(username: String, fields: &[(String, String)]) -> Result<NewChallenge, SiteError> {
    let get = |k: &str| fields.iter().find(|(f, _)| f == k).map(|(_, v)| v.as_str());
    if get("fen").is_some_and(|f| !f.is_empty()) {
        return Err(SiteError::bad_request(
            "fen: challenges from a position are not offered",
        ));
    }
    let variant = match get("variant") {
        Some(v) => GameKind::parse(v.trim()).ok_or_else(|| {
            SiteError::bad_request(format!(
                "variant: '{}' is not played here (antarctos or iceage)",
                game::excerpt(v)
            ))
        })?,
        None => {
            return Err(SiteError::bad_request(
                "variant: antarctos or iceage is needed",
            ));
        }
    };
    let rated = match get("rated").map(str::trim) {
        None | Some("false") | Some("") => false,
        Some("true") => true,
        Some(other) => {
            return Err(SiteError::bad_request(format!(
                "rated: '{}' is neither true nor false",
                game::excerpt(other)
            )));
        }
    };
    let time_control = match (get("clock.limit"), get("clock.increment"), get("days")) {
        (Some(limit), inc, None) => TimeControl::Realtime {
            initial_s: number("clock.limit", limit)?,
            increment_s: inc.map_or(Ok(0), |i| number("clock.increment", i))?,
        },
        (None, None, Some(days)) => TimeControl::Correspondence {
            days: number("days", days)?,
        },
        (None, Some(_), _) => {
            return Err(SiteError::bad_request(
                "clock.increment: clock.limit is needed too",
            ));
        }
        (Some(_), _, Some(_)) => {
            return Err(SiteError::bad_request("days: a clock or days, not both"));
        }
        (None, None, None) => TimeControl::Unlimited {},
    };
    let color = match get("color").map(str::trim) {
        None | Some("") => SeekColor::Random,
        Some(c) => SeekColor::parse(c).ok_or_else(|| {
            SiteError::bad_request(format!(
                "color: '{}' is not white, black or random",
                game::excerpt(c)
            ))
        })?,
    };
    Ok(NewChallenge {
        username,
        variant,
        time_control: time_control.validate()?,
        rated,
        color,
    })
}

/// `POST /api/challenge/{username}` -> 200 with lichess's challenge object. The site's
/// challenge rules apply (limits, blocks, closed accounts, BOT accounts' rated games).
pub async fn create_challenge(
    State(svc): State<AppState>,
    Extension(sec): Extension<SecurityState>,
    Challenger(token): Challenger,
    PathText(username): PathText,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<Value>, HttpError> {
    let req = new_challenge(username, &fields(&headers, &body_or_error(body)?)?)?;
    let view = svc.lobby.create_challenge(&token, req).await?;
    let origin = site_origin(&sec, &headers);
    Ok(Json(
        site::bot::challenge_json(svc.play.store(), &view, &origin).await,
    ))
}

/// `POST /api/challenge/{id}/accept` -> `{"ok": true}` (the game starts: the event stream
/// sends its `gameStart`).
pub async fn accept_challenge(
    State(svc): State<AppState>,
    Challenger(token): Challenger,
    PathText(id): PathText,
) -> Result<Json<Value>, HttpError> {
    svc.lobby.accept_challenge(&token, &id).await?;
    Ok(ok())
}

/// `POST /api/challenge/{id}/cancel` -> `{"ok": true}`: the challenger withdraws its open
/// challenge (or dismisses an answered one); 404 otherwise.
pub async fn cancel_challenge(
    State(svc): State<AppState>,
    Challenger(token): Challenger,
    PathText(id): PathText,
) -> Result<Json<Value>, HttpError> {
    svc.lobby.cancel_challenge(&token, &id).await?;
    Ok(ok())
}

/// `POST /api/challenge/{id}/decline` -> `{"ok": true}` (a `reason` is accepted and not kept).
pub async fn decline_challenge(
    State(svc): State<AppState>,
    Challenger(token): Challenger,
    PathText(id): PathText,
) -> Result<Json<Value>, HttpError> {
    svc.lobby.decline_challenge(&token, &id).await?;
    Ok(ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn challenges_read_lichess_fields() {
        let c = new_challenge(
            "alice".into(),
            &f(&[
                ("variant", "iceage"),
                ("rated", "true"),
                ("clock.limit", "180"),
                ("clock.increment", "2"),
            ]),
        )
        .unwrap();
        assert_eq!(c.variant, GameKind::IceAge);
        assert!(c.rated);
        assert_eq!(
            c.time_control,
            TimeControl::Realtime {
                initial_s: 180,
                increment_s: 2
            }
        );
        let e = new_challenge("a".into(), &f(&[("variant", "standard")])).unwrap_err();
        assert!(e.message.starts_with("variant:"), "{}", e.message);
        let e =
            new_challenge("a".into(), &f(&[("variant", "antarctos"), ("days", "4")])).unwrap_err();
        assert!(e.message.contains("days"), "{}", e.message);
        let mut h = HeaderMap::new();
        h.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        let got = fields(
            &h,
            br#"{"variant":"antarctos","clock":{"limit":60,"increment":0}}"#,
        )
        .unwrap();
        assert!(got.contains(&("clock.limit".to_string(), "60".to_string())));
    }
}
