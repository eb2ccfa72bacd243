//! Builds the web page (`web/dist`) with npm and esbuild when it is missing or older than its
//! sources, so that `cargo run --release -- serve` from a fresh clone serves a built page.
//! `assets.rs` embeds `web/dist` with rust-embed. Then the engine's wasm module (when built)
//! and the service worker (`build_sw.rs`) join it, and the text and wasm files are compressed
//! (`build_compress.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

#[path = "build_sw.rs"]
mod service_worker;

#[path = "build_compress.rs"]
mod compress;

/// Inputs of the page build, relative to `web/`.
const SOURCES: [&str; 9] = [
    "src",
    // The engine's loader and worker, bundled as assets/engine-worker-<hash>.js (issue 42).
    "wasm/icebound-engine.mjs",
    "wasm/engine-worker.mjs",
    "package.json",
    "package-lock.json",
    "build.mjs",
    "decisions.mjs",
    "tsconfig.json",
    // The rules pages' exact rulings and their translations (decisions.mjs reads them).
    "../docs/rules",
];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let web = manifest.join("../../web");
    page(&web);
    bundle_wasm(&web.join("wasm"), &web.join("dist"));
    // Last: the worker lists every file of dist/, the engine's module too.
    service_worker::write(&web.join("src/sw.js"), &web.join("dist"));
    // Then every file, the worker too, compressed once (`build_compress.rs`).
    compress::write(&web.join("dist"));
}

/// Builds `web/dist` when it is stale (unless `ICEBOUND_SKIP_WEB_BUILD` is set).
fn page(web: &Path) {
    for source in SOURCES {
        println!("cargo:rerun-if-changed={}", web.join(source).display());
    }
    println!("cargo:rerun-if-env-changed=ICEBOUND_SKIP_WEB_BUILD");
    if std::env::var_os("ICEBOUND_SKIP_WEB_BUILD").is_some() {
        return;
    }
    let built = web.join("dist/index.html");
    let built_at = modified(&built);
    let newest_source = SOURCES.iter().filter_map(|s| newest(&web.join(s))).max();
    let stale = match (built_at, newest_source) {
        (None, _) => true,
        (Some(b), Some(s)) => s > b,
        (Some(_), None) => false,
    };
    if !stale {
        return;
    }
    if let Err(message) = build(web) {
        eprintln!(
            "\nicebound: building the web page (web/) failed: {message}.\n\
             The page is built with Node.js and npm: install them (https://nodejs.org, or \
             `apt-get install nodejs npm`), then build again.\n"
        );
        std::process::exit(1);
    }
}

/// `npm ci` (or `npm install` without a lock file) when node_modules is missing or older than
/// the lock, then `npm run build`.
fn build(web: &Path) -> Result<(), String> {
    let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
    match Command::new(npm).arg("--version").output() {
        Ok(out) if out.status.success() => {}
        Ok(_) | Err(_) => return Err("`npm` was not found on PATH".to_string()),
    }
    let lock = web.join("package-lock.json");
    let modules = web.join("node_modules/.package-lock.json");
    let need_install = match (modified(&modules), modified(&lock)) {
        (None, _) => true,
        (Some(m), Some(l)) => l > m,
        (Some(_), None) => false,
    };
    if need_install {
        let install = if lock.exists() { "ci" } else { "install" };
        run(Command::new(npm)
            .arg(install)
            .arg("--no-audit")
            .arg("--no-fund")
            .current_dir(web))?;
    }
    run(Command::new(npm).args(["run", "build"]).current_dir(web))
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let shown = format!("{cmd:?}");
    let status = cmd
        .status()
        .map_err(|e| format!("could not start {shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} exited with {status}"))
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The newest modification time of a file, or of any file under a directory.
fn newest(path: &Path) -> Option<SystemTime> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_dir() {
        return meta.modified().ok();
    }
    std::fs::read_dir(path)
        .ok()?
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| newest(&entry.path()))
        .max()
}

// --- Issue 42: the engine's WebAssembly module (crates/engine-wasm) -------------------------

/// Copies the engine's module, when `scripts/build-wasm.sh` has built it (into
/// `web/wasm/icebound_engine.wasm`, not in git; the folder is watched, so that the module's
/// first build is seen too), into the page as
/// `dist/engine/icebound_engine-<hash>.wasm` (`<hash>`: 16 hex digits of FNV-1a 64 of its
/// bytes, so that the name changes with the contents and may be cached for long), and writes
/// `dist/engine/manifest.json`, `{"wasm": "/engine/icebound_engine-<hash>.wasm"}` (a path from
/// the site's root), for the page
/// to find it. Without the module (no wasm toolchain) `dist/engine` is left out and the page
/// uses the server's engine. Never fails the build: a copy that fails is a warning.
fn bundle_wasm(folder: &Path, dist: &Path) {
    println!("cargo:rerun-if-changed={}", folder.display());
    let module = folder.join("icebound_engine.wasm");
    let out = dist.join("engine");
    if !dist.join("index.html").exists() {
        return;
    }
    let Ok(bytes) = std::fs::read(&module) else {
        let _ = std::fs::remove_dir_all(&out);
        return;
    };
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    });
    let name = format!("icebound_engine-{hash:016x}.wasm");
    // The same module already in place: left as it is, with its compressed copies
    // (build_compress.rs), which would otherwise be made again (seconds of brotli).
    let manifest = format!("{{\"wasm\": \"/engine/{name}\"}}\n");
    if std::fs::read_to_string(out.join("manifest.json")).is_ok_and(|old| old == manifest)
        && std::fs::read(out.join(&name)).is_ok_and(|old| old == bytes)
    {
        return;
    }
    let _ = std::fs::remove_dir_all(&out);
    let written = std::fs::create_dir_all(&out)
        .and_then(|()| std::fs::write(out.join(&name), &bytes))
        .and_then(|()| std::fs::write(out.join("manifest.json"), &manifest));
    if let Err(e) = written {
        println!("cargo:warning=the engine's wasm module was not bundled: {e}");
    }
}
