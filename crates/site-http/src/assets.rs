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

/// A response extension that marks a static file's answer (the bundle, the engine's module,
/// the app's worker and manifest): the player middleware sets no cookie on it, since shared
/// caches may keep it (crate::player).
#[derive(Debug, Clone, Copy)]
pub struct StaticFile;

/// A compressed copy's encoding (build_compress.rs writes `<file>.br` and `<file>.gz`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Brotli, `<file>.br`.
    Brotli,
    /// Gzip, `<file>.gz`.
    Gzip,
}

impl Encoding {
    /// The `Content-Encoding` value: `br` or `gzip`.
    pub fn header(self) -> &'static str {
        match self {
            Encoding::Brotli => "br",
            Encoding::Gzip => "gzip",
        }
    }

    fn suffix(self) -> &'static str {
        match self {
            Encoding::Brotli => ".br",
            Encoding::Gzip => ".gz",
        }
    }
}

/// The encodings an `Accept-Encoding` value allows, best first (brotli before gzip): a name
/// (or `*`) with no `q` or a `q` above 0 counts; `identity` and others are ignored.
pub fn accepted(accept_encoding: &str) -> Vec<Encoding> {
    let allowed = |wanted: &str| {
        accept_encoding.split(',').any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let name = parts.next().unwrap_or("");
            let q = parts
                .filter_map(|p| p.strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            (name.eq_ignore_ascii_case(wanted) || name == "*") && q > 0.0
        })
    };
    let mut out = Vec::new();
    if allowed("br") {
        out.push(Encoding::Brotli);
    }
    if allowed("gzip") {
        out.push(Encoding::Gzip);
    }
    out
}

/// The embedded file at `path`, compressed in the first of `encodings` that it has a copy in,
/// else as it is (the encoding `None`). The MIME type is the original's.
pub fn get_encoded(path: &str, encodings: &[Encoding]) -> Option<(Asset, Option<Encoding>)> {
    for e in encodings {
        if let Some(file) = Dist::get(&format!("{path}{}", e.suffix())) {
            let asset = Asset {
                bytes: file.data,
                mime: mime_of(path),
            };
            return Some((asset, Some(*e)));
        }
    }
    get(path).map(|a| (a, None))
}

/// Whether a file name carries esbuild's content hash (`assets/main-JTWFEO7P.js`: a dash,
/// then 8 capital letters or digits before the extension), so its contents never change.
pub fn is_hashed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some((stem, _ext)) = name.rsplit_once('.') else {
        return false;
    };
    let Some((_, hash)) = stem.rsplit_once('-') else {
        return false;
    };
    hash.len() == 8
        && hash
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
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
        "webmanifest" => "application/manifest+json",
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
        // The names index.html gives the bundle and the style sheet: `"/assets/main-<hash>.js"`.
        let named = |ext: &str| {
            html.split('"')
                .find(|part| part.starts_with("/assets/main-") && part.ends_with(ext))
                .map(|part| part[1..].to_string())
                .unwrap_or_else(|| panic!("index.html names /assets/main-<hash>{ext}"))
        };
        let js_name = named(".js");
        assert!(is_hashed(&js_name), "{js_name} carries a hash");
        let js = get(&js_name).expect("the bundle is embedded");
        assert_eq!(js.mime, "text/javascript; charset=utf-8");
        assert!(js.bytes.len() > 1000, "bundle is not empty");
        assert_eq!(
            get(&named(".css")).map(|a| a.mime),
            Some("text/css; charset=utf-8")
        );
        assert!(html.contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\">"));
        // The game sounds (web/sounds.mjs), small enough to fetch at once.
        for name in ["move", "capture", "check", "iceage", "end"] {
            let sound = get(&format!("assets/sounds/{name}.wav")).expect("the sound is embedded");
            assert_eq!(sound.mime, "audio/wav");
            assert!(sound.bytes.starts_with(b"RIFF") && sound.bytes.len() < 40_000);
        }
    }

    /// The engine's worker carries a content hash, as the bundle that starts it names it: a
    /// page after a deploy never starts the worker of an older one (issue 42).
    #[test]
    fn the_engine_worker_is_named_by_its_hash() {
        let html = String::from_utf8_lossy(&get("index.html").expect("index").bytes).into_owned();
        let js = html
            .split('"')
            .find(|p| p.starts_with("/assets/main-") && p.ends_with(".js"))
            .expect("index.html names the bundle");
        let bundle = String::from_utf8_lossy(&get(&js[1..]).expect("bundle").bytes).into_owned();
        let worker = bundle
            .split('"')
            .find(|p| p.starts_with("/assets/engine-worker-") && p.ends_with(".js"))
            .expect("the bundle names the worker");
        assert!(is_hashed(worker), "{worker} carries a hash");
        let file = get(&worker[1..]).expect("the worker is embedded");
        assert_eq!(file.mime, "text/javascript; charset=utf-8");
        assert!(get("assets/engine-worker.js").is_none(), "no unhashed copy");
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
    fn the_app_files_are_built() {
        assert!(is_hashed("assets/main-JTWFEO7P.js"));
        assert!(!is_hashed("assets/main.js"));
        assert!(!is_hashed("assets/sounds/move.wav"));
        let manifest = get("manifest.webmanifest").expect("build.mjs copies the manifest");
        assert_eq!(manifest.mime, "application/manifest+json");
        let manifest: serde_json::Value =
            serde_json::from_slice(&manifest.bytes).expect("the manifest is JSON");
        assert_eq!(manifest["display"], "standalone");
        assert_eq!(manifest["start_url"], "/");
        for icon in manifest["icons"].as_array().expect("icons") {
            let src = icon["src"].as_str().expect("src");
            assert!(get(&src[1..]).is_some(), "{src} is embedded");
        }
        let sw = get("sw.js").expect("build.rs writes the service worker");
        let sw = String::from_utf8_lossy(&sw.bytes);
        assert!(sw.starts_with("const VERSION = \""), "{}", &sw[..80]);
        let html = String::from_utf8_lossy(&get("index.html").expect("index").bytes).into_owned();
        let js = html
            .split('"')
            .find(|p| p.starts_with("/assets/main-") && p.ends_with(".js"))
            .expect("the bundle's name");
        assert!(sw.contains(&format!("\"{js}\"")), "the worker keeps {js}");
        assert!(!sw.contains("\"/index.html\""), "the shell is kept as /");
    }

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        use Encoding::{Brotli, Gzip};
        assert_eq!(accepted("gzip, deflate, br, zstd"), [Brotli, Gzip]);
        assert_eq!(accepted("gzip"), [Gzip]);
        assert_eq!(accepted("br;q=0, gzip;q=0.5"), [Gzip]);
        assert_eq!(accepted("*"), [Brotli, Gzip]);
        assert_eq!(accepted("identity"), []);
        assert_eq!(accepted(""), []);
    }

    #[test]
    fn unknown_paths_are_none() {
        assert!(get("no/such/file.js").is_none());
        assert!(get("../Cargo.toml").is_none());
    }
}
