//! The player token: a secret signed by the server (`site_model::secrets`), carried in the cookie
//! `icebound_player` (`__Host-icebound_player`, `Secure`, over HTTPS) or, for bots, in the header
//! `X-Icebound-Player`. A request without a token the server issued gets a new one; holding a
//! seat means sending the token whose hash is stored for it. A live log-in session (cookie
//! `icebound_session`, site::accounts) makes the request's player its account's token instead.

use crate::error::HttpError;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::security::SecurityState;
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::{PlayerToken, TokenKeys};

/// The cookie that carries the token over plain HTTP.
pub const COOKIE_NAME: &str = "icebound_player";
/// The cookie over HTTPS: the `__Host-` prefix makes the browser refuse it unless it is
/// `Secure`, has `Path=/` and no `Domain`, so no other host of the domain can plant it.
pub const SECURE_COOKIE_NAME: &str = "__Host-icebound_player";
/// The header bots use instead.
pub const HEADER_NAME: &str = "x-icebound-player";

/// The caller's player token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player(pub PlayerToken);

pub use site_model::secrets::valid_token;

/// The token a request presents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Presented {
    /// An issued token, from the header or the cookie.
    Token(PlayerToken),
    /// None that the server issued (any other cookie value is ignored, and replaced).
    Nothing,
    /// A header token the server did not issue: refused, so a bot learns at once.
    BadHeader,
    /// Two different issued tokens in cookies of this name: another host of the domain planted
    /// one (cookie tossing), and which is the browser's own cannot be told.
    Conflict,
}

/// What `headers` present, reading the cookie named `cookie_name`.
pub fn presented(headers: &HeaderMap, keys: &TokenKeys, cookie_name: &str) -> Presented {
    if let Some(h) = headers.get(HEADER_NAME) {
        let t = h.to_str().unwrap_or("").trim();
        return match PlayerToken::try_from(t) {
            Ok(token) if keys.issued(t) => Presented::Token(token),
            _ => Presented::BadHeader,
        };
    }
    match single_cookie(headers, cookie_name, |v| keys.issued(v)) {
        Ok(found) => match found.map(PlayerToken::try_from) {
            Some(Ok(token)) => Presented::Token(token),
            _ => Presented::Nothing,
        },
        Err(()) => Presented::Conflict,
    }
}

/// The one value of the cookies named `name` that `keep` accepts: `Ok(None)` without one,
/// `Err(())` for two different ones (a planted cookie beside the browser's own).
fn single_cookie(
    headers: &HeaderMap,
    name: &str,
    keep: impl Fn(&str) -> bool,
) -> Result<Option<String>, ()> {
    let mut found: Option<&str> = None;
    for v in headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .filter(|(k, _)| *k == name)
        .map(|(_, v)| v.trim())
        .filter(|v| keep(v))
    {
        match found {
            Some(f) if f != v => return Err(()),
            _ => found = Some(v),
        }
    }
    Ok(found.map(str::to_string))
}

/// Middleware: puts the [`Player`] in the request, and sets the cookie when it issued the token
/// now (never on a static file or a `public` answer). Under `/api/`, a header token the server did not issue is 401 `bad_token` and two
/// planted cookies are 403 `cookie_conflict`.
pub async fn middleware(
    State(sec): State<SecurityState>,
    mut req: Request,
    next: Next,
) -> Response {
    let https = sec.https(req.headers());
    let name = if https {
        SECURE_COOKIE_NAME
    } else {
        COOKIE_NAME
    };
    let api = req.uri().path().starts_with("/api/");
    let (token, fresh) = match presented(req.headers(), &sec.keys, name) {
        Presented::Token(t) => (t, false),
        Presented::Nothing => (sec.keys.issue(), true),
        Presented::BadHeader if api => {
            return HttpError::from(SiteError::new(
                ErrorCode::BadToken,
                "this X-Icebound-Player token was not issued by this server: send a request \
                 without it, and use the token of the icebound_player cookie it sets",
            ))
            .into_response();
        }
        Presented::Conflict if api => {
            return HttpError::from(SiteError::new(
                ErrorCode::CookieConflict,
                "this browser sent two different icebound_player cookies: a page on another \
                 host of this domain planted one. Remove the domain's icebound_player cookies \
                 (or serve the site over HTTPS, where the cookie cannot be planted)",
            ))
            .into_response();
        }
        // Pages do not use the token: serve them with one that holds nothing, set nothing.
        Presented::BadHeader | Presented::Conflict => (sec.keys.issue(), false),
    };
    // An API token (issue 44) makes the request its account's, on the endpoints it may use.
    let bearer = if api && crate::bearer::sent(req.headers()) {
        if !crate::bearer::allowed(req.method(), req.uri().path()) {
            return crate::bearer::not_for_tokens().into_response();
        }
        let Some(sessions) = &sec.sessions else {
            return crate::bearer::not_for_tokens().into_response();
        };
        match crate::bearer::read(req.headers(), sessions).await {
            Ok(login) => Some(login),
            Err(e) => return e.into_response(),
        }
    } else {
        None
    };
    // A live log-in session makes the request its account's player (site::accounts).
    let account = match (&sec.sessions, session_cookie(req.headers(), https)) {
        _ if bearer.is_some() => bearer.as_ref().map(|b| b.account.clone()),
        (_, SessionCookie::Conflict) if api => {
            return HttpError::from(SiteError::new(
                ErrorCode::CookieConflict,
                "this browser sent two different icebound_session cookies: a page on another \
                 host of this domain planted one. Remove the domain's icebound_session cookies \
                 and log in again (or serve the site over HTTPS, where it cannot be planted)",
            ))
            .into_response();
        }
        (Some(sessions), SessionCookie::One(t)) => match sessions.account_of(&t).await {
            Ok(found) => found,
            // Never on as the anonymous player: what it started would not be the account's.
            Err(e) if api => {
                tracing::warn!(error = %e, "cannot read a session");
                return HttpError::from(SiteError::new(
                    ErrorCode::Internal,
                    "storage failure: your log-in cannot be checked now; try again in a moment",
                ))
                .into_response();
            }
            Err(_) => None,
        },
        _ => None,
    };
    let player = match &account {
        Some(a) => sec.keys.account_token(&a.id),
        None => token.clone(),
    };
    req.extensions_mut().insert(Player(player));
    req.extensions_mut().insert(Anonymous(token.clone()));
    req.extensions_mut().insert(LoggedIn(account));
    let by_token = bearer.is_some();
    req.extensions_mut().insert(crate::bearer::Bearer(bearer));
    let mut res = next.run(req).await;
    // Never on a static file: a shared cache that keeps it would hand the token to others.
    let public = res
        .extensions()
        .get::<crate::assets::StaticFile>()
        .is_some()
        || res
            .headers()
            .get(axum::http::header::CACHE_CONTROL)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("public"));
    if fresh && !public && !by_token {
        let secure = if https { "; Secure" } else { "" };
        let cookie = format!(
            "{name}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000{secure}",
            token.expose()
        );
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            res.headers_mut().append(SET_COOKIE, v);
        }
    }
    res
}

/// The browser's own anonymous player token (its `icebound_player` cookie), whether or not a
/// session makes the request an account's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anonymous(pub PlayerToken);

/// The account the request is logged in as, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedIn(pub Option<site::accounts::Account>);

/// The session cookie a request sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionCookie {
    /// None.
    Nothing,
    /// One token (the same value sent twice counts once).
    One(String),
    /// Two different values: one was planted by another host of the domain.
    Conflict,
}

/// The request's session cookie (the `__Host-` one over HTTPS).
pub fn session_cookie(headers: &HeaderMap, https: bool) -> SessionCookie {
    let name = if https {
        site::accounts::SECURE_SESSION_COOKIE
    } else {
        site::accounts::SESSION_COOKIE
    };
    match single_cookie(headers, name, |_| true) {
        Ok(found) => found.map_or(SessionCookie::Nothing, SessionCookie::One),
        Err(()) => SessionCookie::Conflict,
    }
}

macro_rules! from_extension {
    ($t:ty) => {
        impl<S: Send + Sync> FromRequestParts<S> for $t {
            type Rejection = HttpError;

            async fn from_request_parts(
                parts: &mut Parts,
                _state: &S,
            ) -> Result<Self, Self::Rejection> {
                parts.extensions.get::<$t>().cloned().ok_or_else(|| {
                    HttpError::from(SiteError::new(
                        ErrorCode::Internal,
                        "player middleware missing on this route",
                    ))
                })
            }
        }
    };
}

from_extension!(Anonymous);
from_extension!(LoggedIn);

impl<S: Send + Sync> FromRequestParts<S> for Player {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts.extensions.get::<Player>().cloned().ok_or_else(|| {
            HttpError::from(SiteError::new(
                ErrorCode::Internal,
                "player middleware missing on this route",
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use site_model::secrets::new_secret;

    #[test]
    fn tokens_from_cookie_or_header() {
        let keys = TokenKeys::new(new_secret(), []);
        let mine = keys.issue();
        let bot = keys.issue();
        let mut h = HeaderMap::new();
        h.insert(
            COOKIE,
            HeaderValue::from_str(&format!("a=b; icebound_player={}; c=d", mine.expose())).unwrap(),
        );
        assert_eq!(
            presented(&h, &keys, COOKIE_NAME),
            Presented::Token(mine.clone())
        );
        // Over HTTPS only the __Host- cookie counts.
        assert_eq!(presented(&h, &keys, SECURE_COOKIE_NAME), Presented::Nothing);
        h.insert(HEADER_NAME, HeaderValue::from_str(bot.expose()).unwrap());
        assert_eq!(presented(&h, &keys, COOKIE_NAME), Presented::Token(bot));
        h.insert(
            HEADER_NAME,
            HeaderValue::from_static("ZZZZZZZZZZZZZZZZZZZZ"),
        );
        assert_eq!(presented(&h, &keys, COOKIE_NAME), Presented::BadHeader);
    }

    fn legacy() -> PlayerToken {
        PlayerToken::try_from("legacyLegacyLegacyLegacy01234567").unwrap()
    }

    #[test]
    fn planted_cookies_are_ignored_or_refused() {
        let keys = TokenKeys::new(new_secret(), [legacy().hash().into_string()]);
        let mine = keys.issue();
        let attacker = keys.issue();
        let cookie = |v: String| {
            let mut h = HeaderMap::new();
            h.insert(COOKIE, HeaderValue::from_str(&v).unwrap());
            h
        };
        // A made-up token is no token: a new one is issued.
        let made_up = cookie("icebound_player=ATTACKERmadeUpToken0123456789abc".into());
        assert_eq!(presented(&made_up, &keys, COOKIE_NAME), Presented::Nothing);
        // Beside the browser's own one, it is ignored.
        let both = cookie(format!(
            "icebound_player=ATTACKERmadeUpToken0123456789abc; icebound_player={}",
            mine.expose()
        ));
        assert_eq!(
            presented(&both, &keys, COOKIE_NAME),
            Presented::Token(mine.clone())
        );
        // Two issued ones: refused.
        let two = cookie(format!(
            "icebound_player={}; icebound_player={}",
            attacker.expose(),
            mine.expose()
        ));
        assert_eq!(presented(&two, &keys, COOKIE_NAME), Presented::Conflict);
        // A token from before signing, listed by the migration, still counts.
        let old = cookie("icebound_player=legacyLegacyLegacyLegacy01234567".into());
        assert_eq!(
            presented(&old, &keys, COOKIE_NAME),
            Presented::Token(legacy())
        );
    }
}
