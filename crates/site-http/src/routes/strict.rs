//! Extractors for requests that take nothing: a POST whose action is all in its path, and a
//! GET with no parameters. What a client sends there anyway is refused (400) rather than
//! ignored, so that a client that thinks it set an option learns that it did not.

use axum::extract::{FromRequest, FromRequestParts, Request};
use site_model::error::SiteError;

use super::refuse_declared_length;
use crate::error::HttpError;

/// A request body that must be empty (or the empty JSON object `{}`, which some clients always
/// send).
pub struct NoBody;

impl<S: Send + Sync> FromRequest<S> for NoBody {
    type Rejection = HttpError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let (parts, body) = req.into_parts();
        refuse_declared_length(&parts)?;
        let bytes = axum::body::Bytes::from_request(Request::from_parts(parts, body), state)
            .await
            .map_err(|_| SiteError::bad_request("the request body could not be read"))?;
        let text: Vec<u8> = bytes
            .iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        if text.is_empty() || text == b"{}" {
            Ok(NoBody)
        } else {
            Err(SiteError::bad_request(
                "this request takes no body (its action is in its path); send none or {}",
            )
            .into())
        }
    }
}

/// A query string that must be absent or empty.
pub struct NoQuery;

impl<S: Send + Sync> FromRequestParts<S> for NoQuery {
    type Rejection = HttpError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Self, Self::Rejection> {
        match parts.uri.query() {
            None | Some("") => Ok(NoQuery),
            Some(q) => Err(SiteError::bad_request(format!(
                "this request takes no query parameters (got '{}')",
                game::excerpt(q)
            ))
            .into()),
        }
    }
}

/// The parameters of a query string that takes only `known`, each at most once, by name: 400
/// naming the parameter that is unknown, repeated or not UTF-8 text (a bad `%` escape).
pub fn query_fields(
    query: Option<&str>,
    known: &[&str],
) -> Result<std::collections::HashMap<String, String>, HttpError> {
    let mut out = std::collections::HashMap::new();
    let Some(query) = query else { return Ok(out) };
    for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
        if key.is_empty() && value.is_empty() {
            continue;
        }
        if key.contains('\u{FFFD}') {
            return Err(SiteError::bad_request(
                "the query: a parameter name is not UTF-8 text (a bad % escape)",
            )
            .into());
        }
        if !known.contains(&key.as_ref()) {
            return Err(SiteError::bad_request(format!(
                "{}: unknown parameter (known: {})",
                game::excerpt(&key),
                known.join(", ")
            ))
            .into());
        }
        if value.contains('\u{FFFD}') {
            return Err(SiteError::bad_request(format!(
                "{key}: the value is not UTF-8 text (a bad % escape)"
            ))
            .into());
        }
        if out.insert(key.to_string(), value.into_owned()).is_some() {
            return Err(SiteError::bad_request(format!("{key}: given twice")).into());
        }
    }
    Ok(out)
}
