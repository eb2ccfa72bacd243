//! The domain's error as an HTTP answer: [`HttpError`] sends a [`SiteError`] as its status and
//! the body `{"error": {"code": "...", "message": "..."}}` (docs/api.md, "Errors").

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use site_model::error::SiteError;

/// A [`SiteError`] on its way to a client. Handlers return it; `?` converts a [`SiteError`]
/// into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpError(pub SiteError);

impl From<SiteError> for HttpError {
    fn from(e: SiteError) -> Self {
        HttpError(e)
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.0.code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut res = (status, Json(self.0.body())).into_response();
        if let Some(s) = self.0.retry_after_s {
            res.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, s.into());
        }
        // For an edge that words errors otherwise (crate::lichess_errors).
        res.extensions_mut().insert(self.0);
        res
    }
}
