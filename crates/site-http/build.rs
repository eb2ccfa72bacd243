//! Builds the web page (`web/dist`) with npm and esbuild when it is missing or older than its
//! sources, so that `cargo run --release -- serve` from a fresh clone serves a built page.
//! `assets.rs` embeds `web/dist` with rust-embed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// Inputs of the page build, relative to `web/`.
const SOURCES: [&str; 7] = [
    "src",
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
    if let Err(message) = build(&web) {
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
