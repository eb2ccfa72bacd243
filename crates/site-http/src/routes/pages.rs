//! The single page: every non-API `GET` serves `index.html`; `/assets/<file>` serves the
//! embedded bundle; `/sw.js` and `/manifest.webmanifest` the installable app (issue 42);
//! unknown `/api/` paths answer JSON errors.

use crate::error::HttpError;
use axum::extract::OriginalUri;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use crate::assets;
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
    (StatusCode::METHOD_NOT_ALLOWED, axum::Json(e.body())).into_response()
}

/// Everything outside `/api/`.
pub async fn page(method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, "only GET is served here").into_response();
    }
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("engine/") {
        return engine_file(path);
    }
    if path == "sw.js" || path == "manifest.webmanifest" {
        return app_file(path);
    }
    if path.starts_with("assets/") {
        // A name with esbuild's content hash (`main-JTWFEO7P.js`) never changes contents.
        let cache = if assets::is_hashed(path) {
            "public, max-age=31536000, immutable"
        } else {
            "public, max-age=300"
        };
        return match assets::get(path) {
            Some(a) => (
                [(CONTENT_TYPE, a.mime), (CACHE_CONTROL, cache)],
                a.bytes.into_owned(),
            )
                .into_response(),
            None => (StatusCode::NOT_FOUND, "no such asset").into_response(),
        };
    }
    match assets::get("index.html") {
        Some(a) => (
            [(CONTENT_TYPE, a.mime), (CACHE_CONTROL, "no-cache")],
            a.bytes.into_owned(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "the page is not built").into_response(),
    }
}

/// The service worker (`/sw.js`, written by build.rs; its path gives it the whole site as
/// scope) and the web manifest. Both are checked on every load (`no-cache`), so that a new
/// deploy's worker is found at once. 404 when the page was built without them.
fn app_file(path: &str) -> Response {
    match assets::get(path) {
        Some(a) => (
            [(CONTENT_TYPE, a.mime), (CACHE_CONTROL, "no-cache")],
            a.bytes.into_owned(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not built").into_response(),
    }
}

/// The engine for the browser (`web/dist/engine/`, copied by build.rs when the wasm build
/// ran): the module under its content hash is never stale, so it is cached for a year;
/// `manifest.json`, which names the current one, is checked on every load.
fn engine_file(path: &str) -> Response {
    let cache = if path.ends_with(".wasm") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    match assets::get(path) {
        Some(a) => (
            [(CONTENT_TYPE, a.mime), (CACHE_CONTROL, cache)],
            a.bytes.into_owned(),
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            "no such engine file (the site was built without the wasm toolchain: \
             scripts/build-wasm.sh)",
        )
            .into_response(),
    }
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
