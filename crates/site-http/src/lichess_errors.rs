//! The Bot API's errors in lichess's shape (issue 44; bot client finding 4): lichess answers
//! `{"error": "message"}`, and its clients read the error as text (lichess-bot's move errors,
//! berserk's `ResponseError`), where the site's API sends `{"error": {"code", "message"}}`
//! (docs/api.md, "Errors"). On the Bot API's paths ([`crate::bearer::bot_api_path`]) the
//! message becomes `error`, and the code and any details stay beside it:
//! `{"error": "not your turn: white is to move", "code": "not_your_turn"}`.

use axum::body::Body;
use axum::extract::Request;
use axum::http::header::CONTENT_LENGTH;
use axum::middleware::Next;
use axum::response::Response;
use serde_json::Value;
use site_model::error::SiteError;

/// Middleware over the whole site: rewrites the body of an error answer (one that carries its
/// [`SiteError`], as [`crate::error::HttpError`] and the rate limiter's answers do) on the Bot
/// API's paths; anything else passes as it is.
pub async fn middleware(req: Request, next: Next) -> Response {
    let bot = crate::bearer::bot_api_path(req.uri().path());
    let mut res = next.run(req).await;
    if !bot {
        return res;
    }
    let Some(err) = res.extensions_mut().remove::<SiteError>() else {
        return res;
    };
    let (mut parts, _) = res.into_parts();
    parts.headers.remove(CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(lichess_body(&err).to_string()))
}

/// `err` as lichess's error body: `{"error": message, "code": code, ...details}`.
pub fn lichess_body(err: &SiteError) -> Value {
    let mut v = serde_json::to_value(err).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        let message = o.remove("message").unwrap_or(Value::Null);
        o.insert("error".into(), message);
        return v;
    }
    serde_json::json!({"error": err.message, "code": err.code})
}

#[cfg(test)]
mod tests {
    use super::*;
    use site_model::error::ErrorCode;

    #[test]
    fn the_message_becomes_the_error_and_the_code_stays() {
        let e = SiteError::new(ErrorCode::NotYourTurn, "not your turn: white is to move");
        let v = lichess_body(&e);
        assert_eq!(v["error"], "not your turn: white is to move");
        assert_eq!(v["code"], "not_your_turn");
        assert!(v.get("message").is_none(), "{v}");
    }
}
