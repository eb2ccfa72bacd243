//! A player's preferences and profile text (site::profile, issue 41 "Also"; docs/api.md,
//! "Preferences and profile"): `GET`/`PUT /api/me/prefs`, `PUT /api/me/profile`. All need an
//! account (401 otherwise); an anonymous browser keeps its preferences in localStorage.

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::{Map, Value};
use site::accounts::Account;
use site::profile::{ProfileEdit, ProfileText};
use site_model::error::{ErrorCode, SiteError};
use site_model::prefs::{Prefs, PrefsPatch};

use super::strict::NoQuery;
use super::{ApiJson, AppState};
use crate::error::HttpError;
use crate::player::LoggedIn;

/// The body of `PUT /api/me/profile`: each field optional; the empty text removes it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileBody {
    /// At most 400 characters and 8 lines, no control or direction characters.
    #[serde(default)]
    pub bio: Option<String>,
    /// An ISO 3166-1 alpha-2 code (any case).
    #[serde(default)]
    pub country: Option<String>,
}

impl TryFrom<ProfileBody> for ProfileEdit {
    type Error = SiteError;

    fn try_from(b: ProfileBody) -> Result<ProfileEdit, SiteError> {
        ProfileEdit::parse(b.bio.as_deref(), b.country.as_deref())
    }
}

fn account(a: Option<Account>, what: &str) -> Result<Account, HttpError> {
    a.ok_or_else(|| {
        HttpError(SiteError::new(
            ErrorCode::NotLoggedIn,
            format!("log in first: {what} are an account's (a browser without one keeps its own)"),
        ))
    })
}

/// `GET /api/me/prefs` -> 200 [`Prefs`] (defaults where unset); 401 anonymous.
pub async fn get(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    _: NoQuery,
) -> Result<Json<Prefs>, HttpError> {
    let a = account(a, "preferences")?;
    Ok(Json(svc.profiles.prefs(&a.id).await?))
}

/// `PUT /api/me/prefs` with some or all of [`Prefs`]' fields -> 200 the whole [`Prefs`];
/// 400 naming an unknown field or a bad value; 401 anonymous.
pub async fn put(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    ApiJson(body): ApiJson<Map<String, Value>>,
) -> Result<Json<Prefs>, HttpError> {
    let a = account(a, "preferences")?;
    let patch = PrefsPatch::parse(&body).map_err(SiteError::bad_request)?;
    Ok(Json(svc.profiles.set_prefs(&a.id, &patch).await?))
}

/// `PUT /api/me/profile` `{"bio"?, "country"?}` -> 200 [`ProfileText`]; 400 naming `bio` or
/// `country`; 401 anonymous.
pub async fn put_profile(
    State(svc): State<AppState>,
    LoggedIn(a): LoggedIn,
    ApiJson(body): ApiJson<ProfileBody>,
) -> Result<Json<ProfileText>, HttpError> {
    let a = account(a, "profiles")?;
    let edit = ProfileEdit::try_from(body)?;
    Ok(Json(
        svc.profiles.set_profile(&a.id, &a.username, edit).await?,
    ))
}
