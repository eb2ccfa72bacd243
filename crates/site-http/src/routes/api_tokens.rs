//! `POST /api/tokens`, `GET /api/tokens`, `DELETE /api/tokens/{id}` (issue 44): an account's
//! personal API tokens, managed from a log-in session only (a token cannot make tokens:
//! `crate::bearer::allowed`).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiJson, AppState, PathText};
use crate::error::HttpError;
use crate::player::LoggedIn;
use site::accounts::Account;
use site::accounts::api_tokens::{self, TokenInfo};
use site_model::api_tokens::Scopes;
use site_model::error::{ErrorCode, SiteError};

/// Body of `POST /api/tokens`: `{"scopes": ["bot:play"]}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    /// Scope names (`bot:play`, `challenge:read`, `challenge:write`).
    pub scopes: Vec<String>,
}

fn logged_in(account: Option<Account>) -> Result<Account, HttpError> {
    account.ok_or_else(|| {
        HttpError::from(SiteError::new(
            ErrorCode::NotLoggedIn,
            "API tokens belong to accounts: log in first",
        ))
    })
}

/// `POST /api/tokens` -> 201 `{"token", "id", "scopes", "created_at"}`; the token's text is
/// shown this once. 400 naming an unknown scope.
pub async fn create(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
    ApiJson(body): ApiJson<NewToken>,
) -> Result<(StatusCode, Json<Value>), HttpError> {
    let account = logged_in(account)?;
    let scopes =
        Scopes::parse(body.scopes.iter().map(String::as_str)).map_err(SiteError::bad_request)?;
    let (token, info) = api_tokens::create(svc.play.store(), &account, scopes).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "token": token.expose(),
            "id": info.id,
            "scopes": info.scopes,
            "created_at": info.created_at,
        })),
    ))
}

/// `GET /api/tokens` -> `[TokenInfo]`, newest first (never their text).
pub async fn list(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
) -> Result<Json<Vec<TokenInfo>>, HttpError> {
    let account = logged_in(account)?;
    Ok(Json(api_tokens::list(svc.play.store(), &account).await?))
}

/// `DELETE /api/tokens/{id}` -> 204; 404 unless it is one of the account's tokens.
pub async fn revoke(
    LoggedIn(account): LoggedIn,
    PathText(id): PathText,
    axum::Extension(sec): axum::Extension<crate::security::SecurityState>,
) -> Result<StatusCode, HttpError> {
    let account = logged_in(account)?;
    let Some(sessions) = &sec.sessions else {
        return Err(SiteError::new(ErrorCode::NotFound, "this site has no accounts").into());
    };
    api_tokens::revoke(sessions, &account, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
