//! PLACEHOLDER (owned by the web work): the page's built assets, embedded with rust-embed
//! from `web/dist`. Keeps this signature.

use std::borrow::Cow;

/// One embedded file: its bytes and its MIME type.
pub struct Asset {
    /// File contents.
    pub bytes: Cow<'static, [u8]>,
    /// `text/html; charset=utf-8`, `text/javascript`, `text/css`, `image/svg+xml`, ...
    pub mime: &'static str,
}

/// The embedded file at `path` (no leading slash, e.g. `index.html`, `assets/main.js`).
pub fn get(path: &str) -> Option<Asset> {
    match path {
        "index.html" => Some(Asset {
            bytes: Cow::Borrowed(
                b"<!doctype html><title>icebound</title><p>The page is not built yet.",
            ),
            mime: "text/html; charset=utf-8",
        }),
        _ => None,
    }
}
