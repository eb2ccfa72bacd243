//! Personal API tokens at the edge (issue 44): `Authorization: Bearer <token>` makes a request
//! its token's account's, as a log-in session does (the player middleware calls [`read`]), on
//! the endpoints a token may use ([`allowed`]). [`BotPlayer`] is the extractor of the Bot
//! API's endpoints: the request's account and player token, with the scope `bot:play`.

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method};

use crate::error::HttpError;
use crate::player::Player;
use site::accounts::Sessions;
use site::accounts::api_tokens::TokenLogin;
use site_model::api_tokens::{ApiToken, Scope};
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::PlayerToken;

/// The request's API-token log-in (`None`: none was sent; the request may have a session).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bearer(pub Option<TokenLogin>);

/// Whether `headers` carry `Authorization: Bearer ...` (whatever the token).
pub fn sent(headers: &HeaderMap) -> bool {
    // On bytes: a value that is not UTF-8 (or has nothing after the scheme) is still a bearer
    // token sent, refused as `bad_token` rather than read as no log-in (hostile round 5, F5).
    headers.get(AUTHORIZATION).is_some_and(|v| {
        let b = v.as_bytes().trim_ascii_start();
        b.len() >= 6
            && b[..6].eq_ignore_ascii_case(b"bearer")
            && b.get(6).is_none_or(|c| c.is_ascii_whitespace())
    })
}

fn bad_token() -> HttpError {
    HttpError::from(SiteError::new(
        ErrorCode::BadToken,
        "this API token is unknown or revoked: make one with POST /api/tokens (docs/bot-api.md)",
    ))
}

/// The log-in of the bearer token in `headers`: 401 `bad_token` for a token that is not one
/// (malformed, unknown, revoked, or a closed account's); 500 when the store cannot tell.
pub async fn read(headers: &HeaderMap, sessions: &Sessions) -> Result<TokenLogin, HttpError> {
    let text = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .and_then(|v| v.get(7..))
        .map(str::trim)
        .unwrap_or("");
    let token = ApiToken::parse(text).ok_or_else(bad_token)?;
    match sessions.account_of_api_token(&token).await {
        Ok(Some(login)) => Ok(login),
        Ok(None) => Err(bad_token()),
        Err(e) => {
            tracing::warn!(error = %e, "cannot read an API token");
            Err(HttpError::from(SiteError::new(
                ErrorCode::Internal,
                "storage failure: your API token cannot be checked now; try again in a moment",
            )))
        }
    }
}

/// Whether an API token may be used on `method path`: the Bot API (`/api/bot/...`,
/// `/api/stream/event`, `/api/challenge/...`, `/api/account`) and any other `GET` of the API
/// but the token list. Anything else (a password, a token, a seek) needs a log-in session.
pub fn allowed(method: &Method, path: &str) -> bool {
    bot_api_path(path) || (method == Method::GET && !path.starts_with("/api/tokens"))
}

/// Whether `path` is one of the Bot API's (lichess's paths, docs/bot-api.md): `/api/bot/...`,
/// `/api/stream/event`, `/api/challenge` and `/api/challenge/...`, `/api/account`.
pub fn bot_api_path(path: &str) -> bool {
    path.starts_with("/api/bot/")
        || path == "/api/stream/event"
        || path == "/api/challenge"
        || path.starts_with("/api/challenge/")
        || path == "/api/account"
}

/// The 403 of a request with a token on an endpoint tokens may not use.
pub fn not_for_tokens() -> HttpError {
    HttpError::from(SiteError::new(
        ErrorCode::MissingScope,
        "an API token acts only on the Bot API's endpoints and the API's reads \
         (docs/bot-api.md): log in for the rest",
    ))
}

/// A request of the Bot API: its player token (the account's) and the account's name. 401
/// `not_logged_in` without a bearer token, 403 `missing_scope` without `bot:play`.
#[derive(Debug, Clone)]
pub struct BotPlayer {
    /// The account's player token (what its seats hold).
    pub token: PlayerToken,
    /// The account's name.
    pub username: String,
    /// The token's log-in (its `session_hash` is the token's hash), to watch for a revoke.
    pub account: site::accounts::Account,
}

impl<S: Send + Sync> FromRequestParts<S> for BotPlayer {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Some(Bearer(login)) = parts.extensions.get::<Bearer>().cloned() else {
            return Err(HttpError::from(SiteError::new(
                ErrorCode::Internal,
                "player middleware missing on this route",
            )));
        };
        let Some(login) = login else {
            return Err(HttpError::from(SiteError::new(
                ErrorCode::NotLoggedIn,
                "the Bot API needs Authorization: Bearer <token>, a token with the scope \
                 bot:play (POST /api/tokens)",
            )));
        };
        if !login.scopes.has(Scope::BotPlay) {
            return Err(HttpError::from(SiteError::new(
                ErrorCode::MissingScope,
                "this API token lacks the scope bot:play, which the Bot API needs",
            )));
        }
        let Player(token) = Player::from_request_parts(parts, state).await?;
        Ok(BotPlayer {
            token,
            username: login.account.username.clone(),
            account: login.account,
        })
    }
}

/// A request that may read challenges (`GET /api/challenge`): a log-in session, or a token
/// with `bot:play`, `challenge:read` or `challenge:write` (lichess lets `challenge:read` read
/// them; hostile round 5, F3). 403 `missing_scope` for a token with none of them.
#[derive(Debug, Clone)]
pub struct ChallengeReader(pub PlayerToken);

impl<S: Send + Sync> FromRequestParts<S> for ChallengeReader {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let bearer = parts.extensions.get::<Bearer>().cloned().and_then(|b| b.0);
        if let Some(login) = bearer
            && ![Scope::BotPlay, Scope::ChallengeRead, Scope::ChallengeWrite]
                .into_iter()
                .any(|s| login.scopes.has(s))
        {
            return Err(HttpError::from(SiteError::new(
                ErrorCode::MissingScope,
                "this API token lacks the scope challenge:read (or challenge:write, bot:play)",
            )));
        }
        let Player(token) = Player::from_request_parts(parts, state).await?;
        Ok(ChallengeReader(token))
    }
}

/// A request that may make or answer challenges: a log-in session, or a token with
/// `bot:play` or `challenge:write`. 401 `not_logged_in` without either, 403 `missing_scope`
/// for a token without those scopes.
#[derive(Debug, Clone)]
pub struct Challenger(pub PlayerToken);

impl<S: Send + Sync> FromRequestParts<S> for Challenger {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let bearer = parts.extensions.get::<Bearer>().cloned().and_then(|b| b.0);
        if let Some(login) = bearer
            && !login.scopes.has(Scope::BotPlay)
            && !login.scopes.has(Scope::ChallengeWrite)
        {
            return Err(HttpError::from(SiteError::new(
                ErrorCode::MissingScope,
                "this API token lacks the scope challenge:write (or bot:play)",
            )));
        }
        let Player(token) = Player::from_request_parts(parts, state).await?;
        Ok(Challenger(token))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn tokens_act_on_the_bot_api_and_reads_only() {
        assert!(allowed(&Method::POST, "/api/bot/game/abc/move/e2e4"));
        assert!(allowed(&Method::GET, "/api/stream/event"));
        assert!(allowed(&Method::POST, "/api/challenge/alice"));
        assert!(allowed(&Method::GET, "/api/games/abc"));
        assert!(!allowed(&Method::GET, "/api/tokens"));
        assert!(!allowed(&Method::POST, "/api/tokens"));
        assert!(!allowed(&Method::POST, "/api/me/password"));
        assert!(!allowed(&Method::POST, "/api/seeks"));
        let mut h = HeaderMap::new();
        assert!(!sent(&h));
        h.insert(AUTHORIZATION, HeaderValue::from_static("Bearer ibt_x"));
        assert!(sent(&h));
    }
}
