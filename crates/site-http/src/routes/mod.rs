//! The HTTP routes (docs/api.md), one file per area: `games` (create, read, join, my games,
//! record), `play` (moves, resignation, draws, rematch), `ws` (live updates), `analysis` (the
//! engine on any position), `stats` (results and worked examples), `pages` (the single page and
//! its assets).

mod accounts;
mod analysis;
mod api_tokens;
mod bot;
mod chat;
mod conditional;
mod email;
mod games;
mod input;
mod lobby;
mod moderation;
mod notifications;
mod pages;
mod play;
mod players;
mod prefs;
mod push;
mod puzzles;
mod records;
mod search;
mod social;
mod stats;
mod strict;
mod tournaments;
mod tv;
mod upload;
mod vacation;
mod ws;
mod ws_frame_rate;

use crate::error::HttpError;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, FromRequest, Request};
use axum::http::StatusCode;
use axum::routing::{MethodRouter, get, post};
use axum::{Extension, Router};
use serde::de::DeserializeOwned;
use tower_http::trace::TraceLayer;

use crate::options::{Rate, SiteOptions};
use crate::rate_limit;
use crate::security::{self, SecurityState};
use site::Services;
use site_model::error::{ErrorCode, SiteError};

/// A path's one parameter (a game, invitation, seek or challenge id) as text. A path that is
/// no text (bad percent-encoding, `/api/games/%ff`) names nothing: 404 `not_found` in the API's
/// JSON, as any unknown id (axum's own answer was a plain-text 400).
pub struct PathText(pub String);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for PathText {
    type Rejection = HttpError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<String>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(text)) => Ok(PathText(text)),
            Err(_) => Err(HttpError::from(SiteError::new(
                ErrorCode::NotFound,
                "nothing here: the path is not valid text (bad percent-encoding)",
            ))),
        }
    }
}

/// Largest request body accepted (bytes).
pub const BODY_LIMIT: usize = 16 * 1024;
/// The largest body of `PUT /api/me/prefs` and `PUT /api/me/profile` (bytes): a bio of 400
/// characters, each escaped as a surrogate pair (12 bytes), fits.
pub const PREFS_BODY_LIMIT: usize = 8192;
/// Largest body of `POST /api/records/read` and `POST /api/import` (a record file and its
/// JSON escapes).
/// JSON may escape every character as `\uXXXX` (six bytes), so the body may be six times the
/// text.
pub const RECORDS_BODY_LIMIT: usize = site::records_read::MAX_RECORD_TEXT * 6 + 64 * 1024;

/// The shared state of every handler: the site's services (issue 37: each module's own).
pub type AppState = Arc<Services>;

/// How long a request body may take to arrive (`Timeouts::body`), for [`ApiJson`].
#[derive(Debug, Clone, Copy)]
pub struct BodyTimeout(pub Duration);

/// The largest body a route takes (bytes), set next to axum's `DefaultBodyLimit` (see
/// [`body_limit`]), so that a declared `Content-Length` over it is refused before the body is
/// read.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

/// `route` with a body limit of `max` bytes: axum's limit on what is read, and [`BodyLimit`]
/// for the declared length.
fn body_limit(route: MethodRouter<AppState>, max: usize) -> MethodRouter<AppState> {
    route
        .layer::<_, std::convert::Infallible>(DefaultBodyLimit::max(max))
        .layer::<_, std::convert::Infallible>(Extension(BodyLimit(max)))
}

/// 413 `too_large` at once when the request's `Content-Length` is over the route's
/// [`BodyLimit`] (no limit set: [`BODY_LIMIT`]), before any of the body is read (else a
/// client that declares 100 GB and sends nothing waits for the body timeout).
pub(crate) fn refuse_declared_length(parts: &axum::http::request::Parts) -> Result<(), SiteError> {
    let limit = parts
        .extensions
        .get::<BodyLimit>()
        .map_or(BODY_LIMIT, |l| l.0);
    let declared = parts
        .headers
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    match declared {
        Some(n) if n > limit as u64 => Err(too_large_at(parts.uri.path())),
        _ => Ok(()),
    }
}

/// An extractor that only refuses a declared length over the route's limit
/// ([`refuse_declared_length`]), for a handler that reads its body as bytes.
pub struct DeclaredLength;

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for DeclaredLength {
    type Rejection = HttpError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Self, Self::Rejection> {
        refuse_declared_length(parts)?;
        Ok(DeclaredLength)
    }
}

/// `Json` whose rejections are API errors (`bad_request`, `too_large`), read within the body
/// timeout (`timeout`, 408, past it). The body is a JSON object: any other JSON value (an
/// array, which serde would read into a struct by position) is a `bad_request`, as on the
/// WebSocket. A declared length over the route's limit is 413 before the body is read.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = HttpError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let (parts, body) = req.into_parts();
        refuse_declared_length(&parts)?;
        let req = Request::from_parts(parts, body);
        let limit = req
            .extensions()
            .get::<BodyTimeout>()
            .map_or(Duration::from_secs(10), |t| t.0);
        let path = req.uri().path().to_string();
        match tokio::time::timeout(limit, axum::body::Bytes::from_request(req, state)).await {
            Ok(Ok(bytes)) => json_body(&bytes).map(ApiJson).map_err(HttpError::from),
            Ok(Err(rejection)) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(too_large_at(&path).into())
            }
            Ok(Err(rejection)) => Err(body_error(rejection).into()),
            Err(_) => Err(HttpError::from(SiteError::new(
                ErrorCode::Timeout,
                format!(
                    "the request body did not arrive within {} s",
                    limit.as_secs_f64()
                ),
            ))),
        }
    }
}

/// A request body read as `T`, every body being a JSON object: an array, a string, a number
/// or `null` is refused as such (serde would read an array into a struct by position, and its
/// message names the Rust type), and serde's words for JSON values are the JSON's.
///
/// A UTF-8 byte order mark before the object is skipped (RFC 8259 section 8.1 lets a parser
/// ignore it; Windows tools write one).
fn json_body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, SiteError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|b| *b != b'{') {
        return Err(SiteError::bad_request(
            "the request body is a JSON object of named fields ({\"name\": value, ...}), not \
             an array, a string, a number or null",
        ));
    }
    axum::Json::<T>::from_bytes(bytes)
        .map(|axum::Json(v)| v)
        .map_err(|rejection| SiteError::bad_request(json_words(&rejection.body_text())))
}

/// serde's message with JSON's names for what it expected: `an array`, `an object`, `a whole
/// number` for Rust's sequence, map and integer types.
fn json_words(message: &str) -> String {
    let mut out = message
        .replace("a sequence", "an array")
        .replace("type: sequence", "type: array")
        .replace("a map", "an object")
        .replace("type: map", "type: object");
    for int in [
        "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "usize", "isize",
    ] {
        out = out.replace(&format!("expected {int} "), "expected a whole number ");
        if out.ends_with(&format!("expected {int}")) {
            out.truncate(out.len() - int.len());
            out.push_str("a whole number");
        }
    }
    for float in ["f32", "f64"] {
        out = out.replace(&format!("expected {float} "), "expected a number ");
    }
    // A nested object read by position: `expected struct Name with 2 elements`.
    while let Some(at) = out.find("expected struct ") {
        let rest = &out[at + "expected struct ".len()..];
        let mut end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if let Some(with) = rest[end..].strip_prefix(" with ")
            && let Some(n) = with.find(" element")
            && with[..n].bytes().all(|b| b.is_ascii_digit())
        {
            end += " with ".len() + n + " element".len();
            if rest[end..].starts_with('s') {
                end += 1;
            }
        }
        let tail = rest[end..].to_string();
        out.truncate(at);
        out.push_str("expected an object");
        out.push_str(&tail);
    }
    out
}

/// The API error of a body read as bytes that could not be read (over the limit: 413).
pub(crate) fn body_error(rejection: axum::extract::rejection::BytesRejection) -> SiteError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return too_large_at("");
    }
    SiteError::bad_request(rejection.body_text())
}

/// 413 `too_large` for a body sent to `path`, worded for what that route reads.
fn too_large_at(path: &str) -> SiteError {
    let message = if path.ends_with("/import") || path.ends_with("/records/read") {
        format!(
            "request body over {RECORDS_BODY_LIMIT} bytes: a record file holds at most {} bytes \
             of text",
            site::records_read::MAX_RECORD_TEXT
        )
    } else if path.ends_with("/games/upload") {
        format!(
            "request body over {BODY_LIMIT} bytes: an upload's moves must fit in it (at most \
             {} moves, in their shortest text)",
            site::upload::MAX_UPLOAD_PLIES
        )
    } else {
        format!("request body over {BODY_LIMIT} bytes")
    };
    SiteError::new(ErrorCode::TooLarge, message)
}

/// `router` with a per-client limit of `rate` (none: unlimited); `what` names it in the 429.
fn limited(router: Router<AppState>, rate: Option<Rate>, what: &'static str) -> Router<AppState> {
    match rate.and_then(|r| rate_limit::layer(r, what)) {
        Some(layer) => router.route_layer(layer),
        None => router,
    }
}

/// The whole site: API, WebSocket and pages, behind the security middlewares and the rate
/// limits of `options`.
pub fn router(state: AppState, security: SecurityState, options: &SiteOptions) -> Router {
    let limits = options.rate_limits;
    // A rematch creates a game: it counts against both limits.
    let rematch = match limits
        .create
        .and_then(|r| rate_limit::layer(r, "new games"))
    {
        Some(layer) => post(play::rematch).layer(layer),
        None => post(play::rematch),
    };
    let lookups = Router::new()
        .route("/games/search", get(search::search))
        .route("/tv", get(tv::tv))
        .route("/games/{id}", get(games::get_game))
        .route("/games/{id}/moves", post(play::moves))
        .route("/games/{id}/resign", post(play::resign))
        .route("/games/{id}/draw", post(play::draw))
        .route("/games/{id}/rematch", rematch)
        .route("/games/{id}/abort", post(play::abort))
        .route("/games/{id}/takeback", post(play::takeback))
        .route("/games/{id}/claim", post(play::claim))
        .route(
            "/games/{id}/conditional",
            get(conditional::get)
                .put(conditional::set)
                .delete(conditional::cancel),
        )
        .route("/games/{id}/record", get(games::record))
        .route("/games/{id}/ws", get(ws::upgrade))
        .route("/games/{id}/review", get(records::game_review))
        .route("/imports/{id}", get(records::imported))
        .route("/imports/{id}/review", get(records::import_review))
        .route("/players/{name}", get(players::player))
        .route("/players/{name}/history", get(players::history))
        .route("/players/{name}/games", get(players::games))
        .route("/leaderboard/{variant}", get(players::leaderboard))
        .route("/stats/rated", get(players::rated_stats));
    // An upload stores a game: counted like new games.
    let creates = Router::new()
        .route("/games", post(games::create))
        .route("/games/upload", post(upload::upload));
    let joins = Router::new().route("/join/{invite}", post(games::join));
    let analyses = Router::new()
        .route("/analysis", post(analysis::analyse))
        .route("/analysis/stream", post(analysis::stream))
        .route("/solve", post(analysis::solve))
        .route("/games/{id}/review", post(records::request_game_review))
        .route("/imports/{id}/review", post(records::request_import_review));
    // An import writes games: counted like new games, apart from them.
    let imports = Router::new().route(
        "/import",
        body_limit(post(records::import), RECORDS_BODY_LIMIT),
    );
    // As cheap as a game lookup: the same rate, counted apart. Reading records also spends
    // the address's budget of answer bytes.
    let read_route = body_limit(post(analysis::read_records), RECORDS_BODY_LIMIT);
    let read_route = match limits.records_bytes {
        Some(bytes) => read_route.layer::<_, std::convert::Infallible>(Extension(Arc::new(
            crate::output_budget::OutputBudget::new(bytes),
        ))),
        None => read_route,
    };
    let positions = Router::new()
        .route("/positions", post(analysis::position))
        .route("/records/read", read_route);
    // Log-ins, registrations and password changes share one limit against password guessing.
    let logins = Router::new()
        .route("/accounts", post(accounts::register))
        .route("/session", post(accounts::log_in))
        .route("/me/password", post(accounts::change_password))
        .route("/password-reset", post(email::ask_reset))
        .route("/password-reset/confirm", post(email::reset))
        .route("/me/email", post(email::set).delete(email::remove));
    // What makes a game or an offer to strangers counts like new games, apart from them.
    let lobby_writes = Router::new()
        .route("/seeks", post(lobby::create_seek))
        .route("/seeks/quick", post(lobby::quick))
        .route("/seeks/{id}/accept", post(lobby::accept_seek))
        .route("/challenges", post(lobby::create_challenge))
        .route("/challenges/{id}/accept", post(lobby::accept_challenge));
    let lobby_reads = Router::new()
        .route("/seeks", get(lobby::list_seeks))
        .route("/seeks/{id}", axum::routing::delete(lobby::cancel_seek))
        .route("/challenges", get(lobby::list_challenges))
        .route(
            "/challenges/{id}",
            axum::routing::delete(lobby::cancel_challenge),
        )
        .route("/challenges/{id}/decline", post(lobby::decline_challenge))
        .route("/lobby", get(lobby::lobby_stream))
        .route("/notifications", get(notifications::list))
        .route("/notifications/read", post(notifications::read))
        .route("/notifications/stream", get(notifications::stream))
        .route("/push/key", get(push::key))
        .route(
            "/push/subscriptions",
            post(push::subscribe).delete(push::unsubscribe),
        );
    let puzzle_reads = Router::new()
        .route("/puzzles/next", get(puzzles::next))
        .route("/puzzles/daily", get(puzzles::daily))
        .route("/puzzles/streak", get(puzzles::streak))
        .route("/puzzles/themes", get(puzzles::themes))
        .route("/puzzles/dashboard", get(puzzles::dashboard))
        .route("/puzzles/{id}", get(puzzles::get));
    // An attempt off the stored line costs a proof: counted like analyses, apart from them.
    let puzzle_attempts = Router::new().route("/puzzles/{id}/attempt", post(puzzles::attempt));
    let tournament_reads = Router::new()
        .route("/tournaments", get(tournaments::list))
        .route("/tournaments/{id}", get(tournaments::get))
        .route("/tournaments/{id}/stream", get(tournaments::stream))
        .route("/tournaments/{id}/trf", get(tournaments::trf))
        .route("/tournaments/{id}/games", get(tournaments::games))
        .route("/players/{name}/tournaments", get(tournaments::of_player));
    // Entering, leaving and pausing: counted like lobby offers; making an event, like a game.
    let tournament_writes = Router::new()
        .route("/tournaments/{id}/join", post(tournaments::join))
        .route("/tournaments/{id}/withdraw", post(tournaments::withdraw))
        .route("/tournaments/{id}/pause", post(tournaments::pause))
        .route("/tournaments/{id}/resume", post(tournaments::resume))
        .route("/tournaments/{id}/start", post(tournaments::start))
        .route("/tournaments/{id}/berserk", post(tournaments::berserk));
    let tournament_creates = Router::new().route("/tournaments", post(tournaments::create));
    // Issue 41: follows, blocks, reports (site::social) and the moderators' API.
    let social_writes = Router::new()
        .route(
            "/players/{name}/follow",
            post(social::follow).delete(social::unfollow),
        )
        .route(
            "/players/{name}/block",
            post(social::block).delete(social::unblock),
        )
        .route("/reports", post(social::report))
        .route("/me/challenges-from", post(social::set_challenges_from))
        // Issue 41's "Also": preferences and the profile's own text (bodies of PREFS_BODY_LIMIT at most).
        .route(
            "/me/prefs",
            body_limit(axum::routing::put(prefs::put), PREFS_BODY_LIMIT),
        )
        .route(
            "/me/profile",
            body_limit(axum::routing::put(prefs::put_profile), PREFS_BODY_LIMIT),
        )
        .route(
            "/games/{id}/chat/mute",
            axum::routing::put(chat::mute_opponent),
        )
        .route("/mod/reports/{id}/close", post(moderation::close_report))
        .route("/mod/chat/{id}/remove", post(moderation::remove_chat))
        .route(
            "/mod/tournaments/{id}/rename",
            post(moderation::rename_tournament),
        )
        .route("/mod/players/{name}/{action}", post(moderation::act));
    let social_reads = Router::new()
        .route("/players/{name}/following", get(social::following))
        .route("/players/{name}/followers", get(social::followers))
        .route("/players/{name}/social", get(social::social))
        .route("/players/search", get(social::search_players))
        .route("/me/following", get(social::my_following))
        .route("/me/blocked", get(social::my_blocked))
        .route("/me/challenges-from", get(social::challenges_from))
        .route("/me/prefs", get(prefs::get))
        .route("/me/moderation", get(moderation::me))
        .route("/games/{id}/chat", get(chat::game))
        .route("/lobby/chat", get(chat::lobby))
        .route("/tournaments/{id}/chat", get(chat::tournament))
        .route("/mod/reports", get(moderation::reports))
        .route("/mod/log", get(moderation::log));
    // The Bot API (issue 44): its moves count as game lookups do, its challenges as lobby
    // offers.
    let bot_api = Router::new()
        .route("/stream/event", get(bot::event_stream))
        .route("/bot/game/stream/{id}", get(bot::game_stream))
        .route("/bot/game/{id}/move/{move}", post(bot::play_move))
        .route("/bot/game/{id}/resign", post(bot::resign))
        .route("/bot/game/{id}/abort", post(bot::abort))
        .route("/bot/game/{id}/claim-victory", post(bot::claim_victory))
        .route("/bot/game/{id}/claim-draw", post(bot::claim_draw))
        .route("/bot/game/{id}/draw/{accept}", post(bot::draw))
        .route("/bot/game/{id}/chat", post(bot::chat))
        .route("/challenge", get(bot::list_challenges))
        .route("/bot/account/upgrade", post(bot::upgrade))
        .route("/account", get(bot::account))
        .route("/challenge/{id}/accept", post(bot::accept_challenge))
        .route("/challenge/{id}/decline", post(bot::decline_challenge))
        .route("/challenge/{id}/cancel", post(bot::cancel_challenge));
    let bot_challenges = Router::new().route("/challenge/{id}", post(bot::create_challenge));
    let api = Router::new()
        .merge(limited(bot_api, limits.lookup, "Bot API requests"))
        .merge(limited(bot_challenges, limits.create, "lobby offers"))
        .route("/tokens", post(api_tokens::create).get(api_tokens::list))
        .route("/tokens/{id}", axum::routing::delete(api_tokens::revoke))
        .merge(limited(
            tournament_reads,
            limits.lookup,
            "tournament lookups",
        ))
        .merge(limited(
            tournament_writes,
            limits.create,
            "tournament entries",
        ))
        .merge(limited(
            tournament_creates,
            limits.create,
            "new tournaments",
        ))
        .merge(limited(puzzle_reads, limits.lookup, "puzzle lookups"))
        .merge(limited(puzzle_attempts, limits.analysis, "puzzle attempts"))
        .merge(limited(lookups, limits.lookup, "game lookups"))
        .merge(limited(creates, limits.create, "new games"))
        .merge(limited(joins, limits.join, "joins"))
        .merge(limited(analyses, limits.analysis, "analyses"))
        .merge(limited(imports, limits.create, "imports"))
        .merge(limited(positions, limits.lookup, "position lookups"))
        .merge(limited(logins, limits.login, "log-ins"))
        .merge(limited(
            lobby_writes.layer(Extension(lobby::AddressCaps(limits.create.is_some()))),
            limits.create,
            "lobby offers",
        ))
        .merge(limited(lobby_reads, limits.lookup, "lobby lookups"))
        .merge(limited(social_writes, limits.create, "social changes"))
        .merge(limited(social_reads, limits.lookup, "social lookups"))
        .route("/session", axum::routing::delete(accounts::log_out))
        .route("/me", get(accounts::me))
        // Chat has its own limit per author (site::chat).
        .route("/lobby/chat", post(chat::lobby_send))
        .route("/tournaments/{id}/chat", post(chat::tournament_send))
        .route("/me/chat", get(chat::setting).put(chat::set_setting))
        // Reading the address is no log-in: the account page may reload it freely.
        .route("/me/email", get(email::get))
        .route("/me/email/settings", axum::routing::put(email::kinds))
        .route("/email/verify", get(email::verify))
        .route("/me/vacation", get(vacation::get).post(vacation::set))
        .route("/me/vacation/{start}", axum::routing::delete(vacation::end))
        .route("/my-games", get(games::my_games))
        .route("/stats", get(stats::stats))
        .route("/rules/examples", get(stats::examples))
        // On matched routes only: an unknown path or method keeps its 404 or 405.
        .route_layer(axum::middleware::from_fn_with_state(
            security.clone(),
            security::origin::middleware,
        ))
        // After the same-origin layer: a mail provider's one-click POST (RFC 8058) comes from
        // no page and sends a form; the token alone says whose mail, and it only turns it off.
        .route(
            "/email/unsubscribe",
            get(email::unsubscribe_page).post(email::unsubscribe),
        )
        .fallback(pages::api_not_found)
        .method_not_allowed_fallback(pages::api_method_not_allowed);
    let t = options.timeouts;
    Router::new()
        .nest("/api", api)
        .route("/healthz", get(pages::healthz))
        .fallback(pages::page)
        .layer(Extension(BodyTimeout(t.body)))
        .layer(Extension(security.clone()))
        .layer(Extension(ws::WsTimers {
            ping: t.ws_ping,
            dead: t.ws_dead,
        }))
        .layer(axum::middleware::from_fn_with_state(
            security.clone(),
            crate::player::middleware,
        ))
        .layer(axum::middleware::from_fn(crate::lichess_errors::middleware))
        .layer(axum::middleware::from_fn_with_state(
            security,
            security::headers::middleware,
        ))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

#[cfg(test)]
mod body_tests {
    use super::json_body;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Named {
        name: String,
    }

    #[test]
    fn a_byte_order_mark_before_the_object_is_skipped() {
        let with_bom = b"\xEF\xBB\xBF{\"name\": \"bob\"}";
        assert_eq!(
            json_body::<Named>(with_bom).expect("read"),
            Named { name: "bob".into() }
        );
        // Only one, and only at the start.
        assert!(json_body::<Named>(b"\xEF\xBB\xBF\xEF\xBB\xBF{\"name\": \"bob\"}").is_err());
        let array = json_body::<Named>(b"\xEF\xBB\xBF[1]").expect_err("an array");
        assert!(array.message.contains("not an array"), "{}", array.message);
    }
}
