//! `POST /api/accounts` (register), `POST /api/session` (log in), `DELETE /api/session` (log
//! out), `GET /api/me`, `POST /api/me/password` (site::accounts).

use crate::error::HttpError;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};

use super::ApiJson;
use crate::player::{Anonymous, LoggedIn};
use crate::rate_limit::{ClientAddr, keyed as address};
use crate::security::SecurityState;
use site::accounts::{
    self, Credentials, MeView, PasswordChange, SECURE_SESSION_COOKIE, SESSION_COOKIE,
    SESSION_MAX_AGE_S,
};
use site_model::error::{ErrorCode, SiteError};

pub(super) fn sessions(sec: &SecurityState) -> Result<&accounts::Sessions, HttpError> {
    sec.sessions.as_deref().ok_or_else(|| {
        HttpError::from(SiteError::new(
            ErrorCode::Internal,
            "accounts are not set up",
        ))
    })
}

/// The `Set-Cookie` of the session cookie: `token`, or `None` to remove it.
fn session_cookie(sec: &SecurityState, headers: &HeaderMap, token: Option<&str>) -> HeaderValue {
    let https = sec.https(headers);
    let name = if https {
        SECURE_SESSION_COOKIE
    } else {
        SESSION_COOKIE
    };
    let secure = if https { "; Secure" } else { "" };
    let (value, age) = match token {
        Some(t) => (t, SESSION_MAX_AGE_S),
        None => ("", 0),
    };
    HeaderValue::from_str(&format!(
        "{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={age}{secure}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static(""))
}

fn with_cookie(status: StatusCode, cookie: HeaderValue, body: MeView) -> Response {
    let mut res = (status, Json(body)).into_response();
    res.headers_mut().append(SET_COOKIE, cookie);
    res
}

/// `POST /api/accounts` -> 201 `{"username"}` with the session cookie set.
pub async fn register(
    Extension(sec): Extension<SecurityState>,
    headers: HeaderMap,
    client: Option<Extension<ClientAddr>>,
    Anonymous(player): Anonymous,
    LoggedIn(account): LoggedIn,
    ApiJson(body): ApiJson<Credentials>,
) -> Result<Response, HttpError> {
    let (token, me) = accounts::register(
        sessions(&sec)?,
        &sec.keys,
        account.as_ref(),
        &player,
        &body,
        address(client),
    )
    .await?;
    Ok(with_cookie(
        StatusCode::CREATED,
        session_cookie(&sec, &headers, Some(&token)),
        me,
    ))
}

/// `POST /api/session` -> 200 `{"username"}` with the session cookie set; 401 or 429
/// otherwise.
pub async fn log_in(
    Extension(sec): Extension<SecurityState>,
    headers: HeaderMap,
    client: Option<Extension<ClientAddr>>,
    ApiJson(body): ApiJson<Credentials>,
) -> Result<Response, HttpError> {
    let (token, me) = accounts::log_in(sessions(&sec)?, &body, address(client)).await?;
    Ok(with_cookie(
        StatusCode::OK,
        session_cookie(&sec, &headers, Some(&token)),
        me,
    ))
}

/// `DELETE /api/session` -> 200 `{"username": null}`, the session cookie removed.
pub async fn log_out(
    Extension(sec): Extension<SecurityState>,
    headers: HeaderMap,
    LoggedIn(account): LoggedIn,
) -> Result<Response, HttpError> {
    // The cookie goes whatever the database says: on a shared computer, logging out must
    // work on this browser even when the server cannot end the session now.
    if let Err(e) = accounts::log_out(sessions(&sec)?, account.as_ref()).await {
        let mut res = HttpError::from(SiteError::new(
            e.code,
            format!(
                "logged out on this browser, but the server could not end the session ({}): \
                 change the password to end it everywhere",
                e.message
            ),
        ))
        .into_response();
        res.headers_mut()
            .append(SET_COOKIE, session_cookie(&sec, &headers, None));
        return Ok(res);
    }
    Ok(with_cookie(
        StatusCode::OK,
        session_cookie(&sec, &headers, None),
        MeView { username: None },
    ))
}

/// `GET /api/me` -> 200 `{"username": "..." | null}`.
pub async fn me(LoggedIn(account): LoggedIn) -> Json<MeView> {
    Json(MeView {
        username: account.map(|a| a.username),
    })
}

/// `POST /api/me/password` -> 200 `{"username"}`.
pub async fn change_password(
    Extension(sec): Extension<SecurityState>,
    LoggedIn(account): LoggedIn,
    ApiJson(body): ApiJson<PasswordChange>,
) -> Result<Json<MeView>, HttpError> {
    accounts::change_password(sessions(&sec)?, account.as_ref(), &body).await?;
    Ok(Json(MeView {
        username: account.map(|a| a.username),
    }))
}
