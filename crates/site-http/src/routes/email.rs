//! E-mail of the logged-in account and the links mails carry (site::mail, issue 38): the
//! address and its settings, the verification link, one-click unsubscribe (RFC 8058) and
//! account recovery.

use std::collections::HashMap;

use axum::Json;
use axum::extract::{Query, State};
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde::Deserialize;
use site::mail::{EmailAddress, EmailView, MailKind};
use site_model::error::{ErrorCode, SiteError};

use super::{ApiJson, AppState};
use crate::error::HttpError;
use crate::player::LoggedIn;

/// Body of `POST /api/me/email`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddressBody {
    /// The address.
    pub email: String,
}

/// Body of `PUT /api/me/email/settings`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindsBody {
    /// The daily digest of games waiting for a move.
    pub digest: bool,
    /// The low-time reminders.
    pub low_time: bool,
}

/// Body of `POST /api/password-reset`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetAsk {
    /// The account's name.
    pub username: String,
}

/// Body of `POST /api/password-reset/confirm`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetBody {
    /// The link's token.
    pub token: String,
    /// The new password.
    pub password: String,
}

fn logged_in(
    account: Option<site::accounts::Account>,
) -> Result<site::accounts::Account, HttpError> {
    account.ok_or_else(|| {
        HttpError(SiteError::new(
            ErrorCode::NotLoggedIn,
            "log in first: an e-mail address is an account's",
        ))
    })
}

/// `GET /api/me/email` -> 200 [`EmailView`].
pub async fn get(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
) -> Result<Json<EmailView>, HttpError> {
    Ok(Json(svc.mail.email(&logged_in(account)?).await?))
}

/// `POST /api/me/email` -> 200 [`EmailView`] (unverified; a link was sent).
pub async fn set(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
    ApiJson(body): ApiJson<AddressBody>,
) -> Result<Json<EmailView>, HttpError> {
    let account = logged_in(account)?;
    let email = EmailAddress::try_from(body.email.as_str())?;
    Ok(Json(svc.mail.set_address(&account, email).await?))
}

/// `DELETE /api/me/email` -> 200 [`EmailView`] without one.
pub async fn remove(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
) -> Result<Json<EmailView>, HttpError> {
    Ok(Json(svc.mail.remove(&logged_in(account)?).await?))
}

/// `PUT /api/me/email/settings` -> 200 [`EmailView`].
pub async fn kinds(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
    ApiJson(body): ApiJson<KindsBody>,
) -> Result<Json<EmailView>, HttpError> {
    let account = logged_in(account)?;
    Ok(Json(
        svc.mail
            .set_kinds(&account, body.digest, body.low_time)
            .await?,
    ))
}

fn token_of(q: &HashMap<String, String>) -> &str {
    q.get("token").map_or("", String::as_str)
}

/// `GET /api/email/verify?token=` (the link of the mail) -> 303 to `/account?email=verified`,
/// or to `/account?email=bad_link` for an unknown, used or expired link.
pub async fn verify(
    State(svc): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    match svc.mail.verify(token_of(&q)).await {
        Ok(()) => Redirect::to("/account?email=verified").into_response(),
        Err(e) if e.code == ErrorCode::BadRequest => {
            Redirect::to("/account?email=bad_link").into_response()
        }
        Err(e) => HttpError(e).into_response(),
    }
}

fn kind_of(q: &HashMap<String, String>) -> Result<Option<MailKind>, HttpError> {
    match q.get("kind") {
        None => Ok(None),
        Some(k) => MailKind::parse(k).map(Some).ok_or_else(|| {
            HttpError(SiteError::bad_request(format!(
                "kind={k:?}: digest or low_time (or none: every kind)"
            )))
        }),
    }
}

/// `POST /api/email/unsubscribe?token=&kind=` (RFC 8058 one-click, from the mail's
/// `List-Unsubscribe`; any body) -> 200 `{}`. Outside the same-origin and JSON rules: the
/// token alone says whose mail, and it can only turn mail off.
pub async fn unsubscribe(
    State(svc): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<axum::response::Response, HttpError> {
    use axum::response::IntoResponse;
    let kind = kind_of(&q)?;
    svc.mail.unsubscribe(token_of(&q), kind).await?;
    if q.get("page").is_some_and(|p| p == "1") {
        // The button of the page below: a page again, not the mail client's empty answer.
        return Ok(page(
            "Unsubscribed",
            &format!(
                "<p>Done: icebound sends you no more of {}.</p>\
                 <p><a href=\"/account\">Your account</a> turns mail on again.</p>",
                what(kind)
            ),
        )
        .into_response());
    }
    Ok(Json(serde_json::json!({})).into_response())
}

/// What `kind` names, in words.
fn what(kind: Option<MailKind>) -> &'static str {
    match kind {
        Some(MailKind::Digest) => "the daily digest",
        Some(MailKind::LowTime) => "low-time reminders",
        None => "mail",
    }
}

/// A small page of its own (the mail's links open outside the app).
fn page(title: &str, body: &str) -> Html<String> {
    Html(format!(
        "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width\"><title>icebound: {title}</title>\
         <body style=\"font-family:sans-serif;max-width:30em;margin:2em auto\">\
         <h1>{title}</h1>{body}</body></html>"
    ))
}

/// `GET /api/email/unsubscribe?token=&kind=` (the link in a mail's body): a page with one
/// button that sends the POST (a mail scanner that follows links unsubscribes nobody).
pub async fn unsubscribe_page(
    Query(q): Query<HashMap<String, String>>,
) -> Result<Html<String>, HttpError> {
    let kind = kind_of(&q)?;
    let token: String = token_of(&q)
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let kind_param = match kind {
        Some(MailKind::Digest) => "&kind=digest",
        Some(MailKind::LowTime) => "&kind=low_time",
        None => "",
    };
    Ok(page(
        "Unsubscribe",
        &format!(
            "<p>Stop {} from icebound?</p>\
             <form method=\"post\" action=\"/api/email/unsubscribe?token={token}{kind_param}&page=1\">\
             <button id=\"unsubscribe\" type=\"submit\">Unsubscribe</button></form>",
            what(kind)
        ),
    ))
}

/// `POST /api/password-reset` -> 202 `{}` whether or not the account has a verified address
/// (nobody learns who has one).
pub async fn ask_reset(
    State(svc): State<AppState>,
    ApiJson(body): ApiJson<ResetAsk>,
) -> Result<(axum::http::StatusCode, Json<serde_json::Value>), HttpError> {
    svc.mail.request_reset(&body.username).await?;
    Ok((
        axum::http::StatusCode::ACCEPTED,
        Json(serde_json::json!({})),
    ))
}

/// `POST /api/password-reset/confirm` -> 200 `{}`; the account's sessions end.
pub async fn reset(
    State(svc): State<AppState>,
    axum::Extension(sec): axum::Extension<crate::security::SecurityState>,
    ApiJson(body): ApiJson<ResetBody>,
) -> Result<Json<serde_json::Value>, HttpError> {
    let account = svc.mail.reset(&body.token, &body.password).await?;
    // Every process forgets the account's sessions within `SESSION_CACHE`; this one now.
    super::accounts::sessions(&sec)?.forget_account(&account);
    Ok(Json(serde_json::json!({})))
}
