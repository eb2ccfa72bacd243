//! Vacation of the logged-in account (site::play::vacation, issue 38): read, set, ended.

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use site::play::vacation::VacationsView;
use site_model::error::{ErrorCode, SiteError};

use super::{ApiJson, AppState};
use crate::error::HttpError;
use crate::player::LoggedIn;

/// The body of `POST /api/me/vacation`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VacationBody {
    /// Unix ms it starts (now or ahead).
    pub start_ms: i64,
    /// Whole days.
    pub days: i64,
}

/// The account's name: 401 `not_logged_in` for an anonymous player (a vacation is an
/// account's: an anonymous player's games have nobody to stop the clocks for).
fn username(account: Option<site::accounts::Account>) -> Result<String, HttpError> {
    account.map(|a| a.username).ok_or_else(|| {
        HttpError(SiteError::new(
            ErrorCode::NotLoggedIn,
            "log in first: a vacation is an account's",
        ))
    })
}

/// `GET /api/me/vacation` -> 200 [`VacationsView`].
pub async fn get(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
) -> Result<Json<VacationsView>, HttpError> {
    Ok(Json(svc.play.vacations(&username(account)?).await?))
}

/// `POST /api/me/vacation` -> 200 [`VacationsView`] with it.
pub async fn set(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
    ApiJson(body): ApiJson<VacationBody>,
) -> Result<Json<VacationsView>, HttpError> {
    let name = username(account)?;
    Ok(Json(
        svc.play
            .set_vacation(&name, body.start_ms, body.days)
            .await?,
    ))
}

/// `DELETE /api/me/vacation/{start_ms}` -> 200 [`VacationsView`] after it.
pub async fn end(
    State(svc): State<AppState>,
    LoggedIn(account): LoggedIn,
    Path(start): Path<String>,
) -> Result<Json<VacationsView>, HttpError> {
    let name = username(account)?;
    let start_ms: i64 = start.parse().map_err(|_| {
        HttpError(SiteError::bad_request(format!(
            "{start:?}: a vacation is named by its start_ms, a whole number"
        )))
    })?;
    Ok(Json(svc.play.end_vacation(&name, start_ms).await?))
}
