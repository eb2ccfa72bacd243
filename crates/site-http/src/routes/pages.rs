//! The single page: every non-API `GET` serves `index.html`; `/assets/<file>` serves the
//! embedded bundle; `/sw.js` and `/manifest.webmanifest` the installable app (issue 42);
//! unknown `/api/` paths answer JSON errors. Static files go compressed (brotli or gzip, made
//! at build time) to clients that accept it, and never set the player cookie.

use crate::error::HttpError;
use axum::extract::OriginalUri;
use axum::http::header::{ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, VARY};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use crate::assets::{self, Encoding};
use site_model::error::{ErrorCode, SiteError};

/// Unknown path under `/api/`. The message names the path as the client sent it
/// (`OriginalUri`: inside the nested router `Uri` has lost its `/api` prefix).
pub async fn api_not_found(OriginalUri(uri): OriginalUri) -> HttpError {
    HttpError(SiteError::new(
        ErrorCode::NotFound,
        format!("no API endpoint {}", uri.path()),
    ))
}

/// Known API path, wrong method; the message names the full path, as above.
pub async fn api_method_not_allowed(method: Method, OriginalUri(uri): OriginalUri) -> Response {
    let e = SiteError::bad_request(format!("{method} is not allowed on {}", uri.path()));
    let mut res = (StatusCode::METHOD_NOT_ALLOWED, axum::Json(e.body())).into_response();
    // For an edge that words errors otherwise (crate::lichess_errors).
    res.extensions_mut().insert(e);
    res
}

/// Everything outside `/api/`.
pub async fn page(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, "only GET is served here").into_response();
    }
    let encodings = headers
        .get(ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .map(assets::accepted)
        .unwrap_or_default();
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("engine/") {
        // The module under its content hash is never stale; `manifest.json`, which names the
        // current one, is checked on every load.
        let cache = if path.ends_with(".wasm") {
            IMMUTABLE
        } else {
            "no-cache"
        };
        return file(path, cache, &encodings).unwrap_or_else(|| {
            (
                StatusCode::NOT_FOUND,
                "no such engine file (the site was built without the wasm toolchain: \
                 scripts/build-wasm.sh)",
            )
                .into_response()
        });
    }
    if path == "sw.js" || path == "manifest.webmanifest" {
        // Both are checked on every load, so that a new deploy's worker is found at once.
        return file(path, "no-cache", &encodings)
            .unwrap_or_else(|| (StatusCode::NOT_FOUND, "not built").into_response());
    }
    if path.starts_with("assets/") {
        // A name with esbuild's content hash (`main-JTWFEO7P.js`) never changes contents.
        let cache = if assets::is_hashed(path) {
            IMMUTABLE
        } else {
            "public, max-age=300"
        };
        return file(path, cache, &encodings)
            .unwrap_or_else(|| (StatusCode::NOT_FOUND, "no such asset").into_response());
    }
    match assets::get_encoded("index.html", &encodings) {
        Some((a, encoding)) => {
            let mut res = answer(a, encoding, "no-cache");
            // The shell is the player's page: it may set the player cookie (crate::player).
            res.extensions_mut().remove::<assets::StaticFile>();
            res
        }
        None => (StatusCode::NOT_FOUND, "the page is not built").into_response(),
    }
}

/// How a file under its content hash is cached: by anyone, for a year.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The static file at `path` (the engine's module and manifest, `/sw.js` and the web manifest
/// of the installable app (issue 42), the bundle under `/assets/`), compressed when the client
/// accepts it, or `None` when there is no such file.
fn file(path: &str, cache: &'static str, encodings: &[Encoding]) -> Option<Response> {
    let (a, encoding) = assets::get_encoded(path, encodings)?;
    Some(answer(a, encoding, cache))
}

/// An embedded file's answer: its MIME type (the original's, `application/wasm` too),
/// `cache`, `Content-Encoding` when compressed, and `Vary: Accept-Encoding` always (the same
/// URL has several bodies), marked [`assets::StaticFile`] so that it sets no cookie.
fn answer(a: assets::Asset, encoding: Option<Encoding>, cache: &'static str) -> Response {
    let mut res = (
        [
            (CONTENT_TYPE, a.mime),
            (CACHE_CONTROL, cache),
            (VARY, "Accept-Encoding"),
        ],
        a.bytes.into_owned(),
    )
        .into_response();
    if let Some(e) = encoding {
        res.headers_mut()
            .insert(CONTENT_ENCODING, HeaderValue::from_static(e.header()));
    }
    res.extensions_mut().insert(assets::StaticFile);
    res
}

/// `GET /healthz` -> 200 `{"database": "ok"}` (with `"redis": "ok"` when the site runs with
/// Redis), or 503 with the reason of the part that fails: the database does not answer a read
/// and a small write within 5 s, or Redis does not deliver or take announcements
/// ([`site::health::check`]). What a reverse proxy or a supervisor polls.
pub async fn healthz(
    axum::extract::State(svc): axum::extract::State<super::AppState>,
) -> (axum::http::StatusCode, axum::Json<serde_json::Value>) {
    let health = site::health::check(&svc.play).await;
    let database = match &health.database {
        Ok(()) => "ok".to_string(),
        Err(why) => why.clone(),
    };
    let mut body = serde_json::json!({ "database": database });
    if let Some(up) = health.bus_up {
        body["redis"] = if up { "ok" } else { "unreachable" }.into();
    }
    let status = if health.ok() {
        axum::http::StatusCode::OK
    } else {
        axum::http::StatusCode::SERVICE_UNAVAILABLE
    };
    (status, axum::Json(body))
}
