//! Cross-site request refusal (issue 9, section 2). A request that can change a game (every
//! method but `GET`/`HEAD`, and the WebSocket upgrade, whose messages play moves) must:
//! - come from the site's own pages: a browser's `Origin` must be the site's origin, and
//!   without `Origin` a `Sec-Fetch-Site` other than `same-origin` is refused;
//! - if it sends neither (not a browser), carry its token in `X-Icebound-Player` (a bot) rather
//!   than only in the cookie, which a browser would attach to another site's request too;
//! - send its body as `content-type: application/json` (WebSocket upgrades have none), which
//!   no HTML form can send and no cross-origin script can send without a CORS preflight that
//!   this site never answers. A `DELETE` may send none: no form can send that method, and a
//!   cross-origin script needs the same preflight for it (bot client finding 7: a revoke
//!   with no body was refused).

use crate::error::HttpError;
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, COOKIE, ORIGIN, UPGRADE};
use axum::http::{HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::SecurityState;
use crate::player::{COOKIE_NAME, HEADER_NAME};
use site_model::error::{ErrorCode, SiteError};

/// Middleware on the API's routes: refuses what [the module](self) describes with 403
/// `cross_origin` or 415 `unsupported_media_type`.
pub async fn middleware(State(sec): State<SecurityState>, req: Request, next: Next) -> Response {
    let upgrade = is_websocket_upgrade(req.headers());
    let changes = !matches!(*req.method(), Method::GET | Method::HEAD) || upgrade;
    // A request with `Authorization: Bearer` (an API token, issue 44) is no browser's
    // ambient credential: a page of another site cannot send that header without a CORS
    // preflight, which this site never answers. Its body may be a form, as lichess's clients
    // send (the token itself is checked by the player middleware).
    if changes && !crate::bearer::sent(req.headers()) {
        if let Err(e) = check_origin(&sec, req.headers()) {
            return e.into_response();
        }
        if !upgrade
            && req.method() != Method::DELETE
            && let Err(e) = check_json(req.headers())
        {
            return e.into_response();
        }
    }
    next.run(req).await
}

fn is_websocket_upgrade(headers: &HeaderMap) -> bool {
    headers
        .get(UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

fn cross(message: String) -> SiteError {
    SiteError::new(ErrorCode::CrossOrigin, message)
}

/// The same-origin rules of the module.
pub fn check_origin(sec: &super::Security, headers: &HeaderMap) -> Result<(), HttpError> {
    if let Some(origin) = headers.get(ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if sec.same_origin(origin, headers) {
            return Ok(());
        }
        return Err(HttpError::from(cross(format!(
            "requests from the page at origin '{}' are refused: only this site's own pages may \
             change games",
            game::excerpt(origin)
        ))));
    }
    if let Some(site) = headers.get("sec-fetch-site") {
        let site = site.to_str().unwrap_or("");
        if site.eq_ignore_ascii_case("same-origin") {
            return Ok(());
        }
        return Err(HttpError::from(cross(format!(
            "a request sent by a browser from another site (Sec-Fetch-Site: {}) is refused",
            game::excerpt(site)
        ))));
    }
    if headers.contains_key(HEADER_NAME) || !carries_cookie(headers) {
        return Ok(());
    }
    Err(HttpError::from(cross(format!(
        "a request with the {COOKIE_NAME} cookie but no Origin header is refused (a browser \
         sends Origin): bots send their token in the X-Icebound-Player header instead"
    ))))
}

fn carries_cookie(headers: &HeaderMap) -> bool {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .any(|(k, _)| {
            let k = k.trim_start_matches("__Host-");
            k == COOKIE_NAME || k == site::accounts::SESSION_COOKIE
        })
}

/// `content-type: application/json` (parameters such as `charset` allowed).
fn check_json(headers: &HeaderMap) -> Result<(), HttpError> {
    let ct = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let essence = ct.map(|c| c.split(';').next().unwrap_or("").trim());
    if essence.is_some_and(|e| e.eq_ignore_ascii_case("application/json")) {
        return Ok(());
    }
    Err(HttpError::from(SiteError::new(
        ErrorCode::UnsupportedMediaType,
        format!(
            "a request that changes something must send content-type: application/json (with \
             a JSON body, {{}} when there is nothing to say), not {}",
            ct.map_or("none".to_string(), |c| format!("'{}'", game::excerpt(c)))
        ),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{PublicUrl, SiteOptions};
    use axum::http::HeaderValue;
    use site_model::secrets::{TokenKeys, new_secret};

    fn sec(public: Option<&str>) -> super::super::Security {
        let options = SiteOptions {
            public_url: public.map(|p| PublicUrl::parse(p).unwrap()),
            ..SiteOptions::default()
        };
        (*super::super::Security::new(&options, TokenKeys::new(new_secret(), []))).clone()
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn origins() {
        let local = sec(None);
        let own = headers(&[
            ("host", "icebound.test:8080"),
            ("origin", "http://icebound.test:8080"),
        ]);
        assert!(check_origin(&local, &own).is_ok());
        let sibling = headers(&[
            ("host", "icebound.test:8080"),
            ("origin", "http://evil.icebound.test:8080"),
            ("cookie", "icebound_player=x"),
        ]);
        assert_eq!(
            check_origin(&local, &sibling).unwrap_err().0.code,
            ErrorCode::CrossOrigin
        );
        let null = headers(&[("host", "a"), ("origin", "null")]);
        assert!(check_origin(&local, &null).is_err());
        // With a public URL only its origin counts, whatever the Host says.
        let public = sec(Some("https://play.example.org"));
        let proxied = headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "https://play.example.org"),
        ]);
        assert!(check_origin(&public, &proxied).is_ok());
        let plain = headers(&[
            ("host", "play.example.org"),
            ("origin", "http://play.example.org"),
        ]);
        assert!(check_origin(&public, &plain).is_err());
    }

    #[test]
    fn fetch_metadata_bots_and_cookies() {
        let s = sec(None);
        assert!(check_origin(&s, &headers(&[("sec-fetch-site", "same-origin")])).is_ok());
        assert!(check_origin(&s, &headers(&[("sec-fetch-site", "same-site")])).is_err());
        assert!(check_origin(&s, &headers(&[("sec-fetch-site", "cross-site")])).is_err());
        // No browser markers: a bot with its header, or a client with no token at all, passes;
        // the cookie alone does not.
        assert!(check_origin(&s, &headers(&[("x-icebound-player", "t")])).is_ok());
        assert!(check_origin(&s, &headers(&[])).is_ok());
        assert!(check_origin(&s, &headers(&[("cookie", "a=b; icebound_player=t")])).is_err());
        assert!(check_origin(&s, &headers(&[("cookie", "__Host-icebound_player=t")])).is_err());
        assert!(check_origin(&s, &headers(&[("cookie", "other=t")])).is_ok());
    }

    #[test]
    fn json_only() {
        assert!(check_json(&headers(&[("content-type", "application/json")])).is_ok());
        assert!(
            check_json(&headers(&[(
                "content-type",
                "Application/JSON; charset=utf-8"
            )]))
            .is_ok()
        );
        for bad in [
            "application/x-www-form-urlencoded",
            "text/plain",
            "multipart/form-data; boundary=x",
        ] {
            let h = headers(&[("content-type", bad)]);
            assert_eq!(
                check_json(&h).unwrap_err().0.code,
                ErrorCode::UnsupportedMediaType,
                "{bad}"
            );
        }
        assert!(check_json(&headers(&[])).is_err());
    }
}
