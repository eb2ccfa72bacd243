//! Security headers on every response (issue 9, section 2): a Content-Security-Policy that lets
//! the page run only its own script and never be framed, `nosniff`, and `no-referrer`, so that
//! an invitation link in the address bar never leaks through `Referer`. Over HTTPS, HSTS too.
//! API answers are `private, no-store` with `Vary: Cookie`: they differ per player.

use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, REFERRER_POLICY, STRICT_TRANSPORT_SECURITY, VARY,
    X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::middleware::Next;
use axum::response::Response;

use super::SecurityState;

/// The page's policy: its own script, styles, pictures (and `data:` ones: the piece set and
/// the icon), and connections (`'self'` covers its WebSocket); no plugins, no `<base>`, forms
/// only to itself, and no framing. `'wasm-unsafe-eval'` lets the page compile the engine's
/// WebAssembly module (issue 42; it allows no JavaScript `eval`).
pub const CONTENT_SECURITY_POLICY_VALUE: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Middleware: adds the headers to every response that lacks them.
pub async fn middleware(State(sec): State<SecurityState>, req: Request, next: Next) -> Response {
    let https = sec.https(req.headers());
    let api = req.uri().path().starts_with("/api/");
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    for (name, value) in [
        (CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_VALUE),
        (X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (REFERRER_POLICY, "no-referrer"),
        (X_FRAME_OPTIONS, "DENY"),
    ] {
        h.entry(name).or_insert(HeaderValue::from_static(value));
    }
    if api {
        // Answers differ per player (a creator's view carries the invitation): no shared
        // cache may keep one and hand it to someone else.
        h.entry(CACHE_CONTROL)
            .or_insert(HeaderValue::from_static("private, no-store"));
        h.entry(VARY).or_insert(HeaderValue::from_static("Cookie"));
    }
    if https {
        h.entry(STRICT_TRANSPORT_SECURITY)
            .or_insert(HeaderValue::from_static("max-age=31536000"));
    }
    res
}
