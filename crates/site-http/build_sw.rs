//! The installable app's service worker (issue 42): `dist/sw.js` is `web/src/sw.js` after two
//! lines that build.rs writes, the deploy's version and the list of files to keep offline.

use std::path::{Path, PathBuf};

/// Writes `dist/sw.js`: `const VERSION = "<hex>";` (16 hex digits of FNV-1a 64 over every file
/// of `dist/` but `sw.js`, its path and bytes, so that any change of the page or the engine's
/// module is a new worker), `const PRECACHE = [...]` (`"/"`, the page shell, then every other
/// file of `dist/` as a site path, sorted; `index.html` is served as `/`), then the template.
/// Without `dist/index.html` or the template nothing is written. Never fails the build: a
/// write that fails is a warning, and the site then runs without the worker.
pub fn write(template: &Path, dist: &Path) {
    println!("cargo:rerun-if-changed={}", template.display());
    let out = dist.join("sw.js");
    let _ = std::fs::remove_file(&out);
    if !dist.join("index.html").exists() {
        return;
    }
    let Ok(body) = std::fs::read_to_string(template) else {
        return;
    };
    let mut files = Vec::new();
    list(dist, dist, &mut files);
    files.sort();
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut urls = vec!["\"/\"".to_string()];
    for (path, file) in &files {
        let Ok(bytes) = std::fs::read(file) else {
            continue;
        };
        for b in path.bytes().chain([0]).chain(bytes) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        if path != "index.html" {
            urls.push(format!("\"/{path}\""));
        }
    }
    let text = format!(
        "const VERSION = \"{hash:016x}\";\nconst PRECACHE = [{}];\n{body}",
        urls.join(", ")
    );
    if let Err(e) = std::fs::write(&out, text) {
        println!("cargo:warning=the service worker was not written: {e}");
    }
}

/// Every file under `dir` as (its path relative to `root` with `/`, its full path), but
/// `sw.js` itself and the compressed copies (`.br`, `.gz`).
fn list(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            list(root, &path, out);
            continue;
        }
        let Ok(rel) = path.strip_prefix(root) else {
            continue;
        };
        let rel: Vec<_> = rel
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let rel = rel.join("/");
        // The compressed copies (build_compress.rs) are the same files on the wire.
        if rel != "sw.js" && !rel.ends_with(".br") && !rel.ends_with(".gz") {
            out.push((rel, path));
        }
    }
}
