//! The page's built assets (`web/dist`, made by `build.rs` with npm and esbuild), embedded with
//! rust-embed. In debug builds rust-embed reads the folder at run time; in release builds the
//! files are inside the binary.

use std::borrow::Cow;

#[derive(rust_embed::Embed)]
#[folder = "../../web/dist"]
struct Dist;

/// One embedded file: its bytes and its MIME type.
pub struct Asset {
    /// File contents.
    pub bytes: Cow<'static, [u8]>,
    /// `text/html; charset=utf-8`, `text/javascript`, `text/css`, `image/svg+xml`, ...
    pub mime: &'static str,
}

/// The embedded file at `path` (no leading slash, e.g. `index.html`, `assets/main.js`), or `None`
/// when there is no such file.
pub fn get(path: &str) -> Option<Asset> {
    let file = Dist::get(path)?;
    Some(Asset {
        bytes: file.data,
        mime: mime_of(path),
    })
}

/// The MIME type for a file name, by its extension.
fn mime_of(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    match ext.to_ascii_lowercase().as_str() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" => "application/json",
        "wasm" => "application/wasm",
        "woff2" => "font/woff2",
        "wav" => "audio/wav",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_bundle_are_embedded() {
        let index = get("index.html").expect("web/dist/index.html is built by build.rs");
        assert_eq!(index.mime, "text/html; charset=utf-8");
        let html = String::from_utf8_lossy(&index.bytes);
        assert!(
            html.contains("/assets/main.js"),
            "index.html loads the bundle"
        );
        let js = get("assets/main.js").expect("the bundle is embedded");
        assert_eq!(js.mime, "text/javascript; charset=utf-8");
        assert!(js.bytes.len() > 1000, "bundle is not empty");
        assert_eq!(
            get("assets/main.css").map(|a| a.mime),
            Some("text/css; charset=utf-8")
        );
        // The game sounds (web/sounds.mjs), small enough to fetch at once.
        for name in ["move", "capture", "check", "iceage", "end"] {
            let sound = get(&format!("assets/sounds/{name}.wav")).expect("the sound is embedded");
            assert_eq!(sound.mime, "audio/wav");
            assert!(sound.bytes.starts_with(b"RIFF") && sound.bytes.len() < 40_000);
        }
    }

    #[test]
    fn the_engine_module_is_sent_as_wasm() {
        assert_eq!(
            mime_of("engine/icebound_engine-0123456789abcdef.wasm"),
            "application/wasm"
        );
        assert_eq!(mime_of("engine/manifest.json"), "application/json");
    }

    #[test]
    fn unknown_paths_are_none() {
        assert!(get("no/such/file.js").is_none());
        assert!(get("../Cargo.toml").is_none());
    }
}
