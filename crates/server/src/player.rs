//! The player token: a random secret in the cookie `icebound_player` (or the header
//! `X-Icebound-Player` for bots), issued on the first request that lacks a valid one. Holding a
//! seat means sending the token stored for it.

use axum::extract::{FromRequestParts, Request};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

use crate::error::{ApiError, ErrorCode};
use crate::game_service::new_player_token;

/// The cookie that carries the token.
pub const COOKIE_NAME: &str = "icebound_player";
/// The header bots may use instead.
pub const HEADER_NAME: &str = "x-icebound-player";

/// The caller's player token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player(pub String);

/// `[A-Za-z0-9_-]{16,64}`.
pub fn valid_token(t: &str) -> bool {
    (16..=64).contains(&t.len())
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The token a request carries, if valid: the header first, then the cookie.
pub fn token_of(headers: &HeaderMap) -> Option<String> {
    if let Some(t) = headers.get(HEADER_NAME).and_then(|v| v.to_str().ok())
        && valid_token(t.trim())
    {
        return Some(t.trim().to_string());
    }
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, v)| *k == COOKIE_NAME && valid_token(v))
        .map(|(_, v)| v.to_string())
}

/// Middleware: puts the [`Player`] in the request and sets the cookie when it was issued now.
pub async fn middleware(mut req: Request, next: Next) -> Response {
    let (token, fresh) = match token_of(req.headers()) {
        Some(t) => (t, false),
        None => (new_player_token(), true),
    };
    req.extensions_mut().insert(Player(token.clone()));
    let mut res = next.run(req).await;
    if fresh {
        let cookie =
            format!("{COOKIE_NAME}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000");
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            res.headers_mut().append(SET_COOKIE, v);
        }
    }
    res
}

impl<S: Send + Sync> FromRequestParts<S> for Player {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts.extensions.get::<Player>().cloned().ok_or_else(|| {
            ApiError::new(
                ErrorCode::Internal,
                "player middleware missing on this route",
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_from_cookie_or_header() {
        let mut h = HeaderMap::new();
        h.insert(
            COOKIE,
            HeaderValue::from_static("a=b; icebound_player=abcdefghijklmnop1234; c=d"),
        );
        assert_eq!(token_of(&h).as_deref(), Some("abcdefghijklmnop1234"));
        h.insert(
            HEADER_NAME,
            HeaderValue::from_static("ZZZZZZZZZZZZZZZZZZZZ"),
        );
        assert_eq!(token_of(&h).as_deref(), Some("ZZZZZZZZZZZZZZZZZZZZ"));
        let mut bad = HeaderMap::new();
        bad.insert(COOKIE, HeaderValue::from_static("icebound_player=short"));
        assert_eq!(token_of(&bad), None);
        bad.insert(
            COOKIE,
            HeaderValue::from_static("icebound_player=has space in it!!!!"),
        );
        assert_eq!(token_of(&bad), None);
    }
}
