//! The browser test: starts the real `icebound serve` on a free port with a temporary SQLite
//! file (holding a tiny self-play run and match stored by `icebound selfplay|match --database`),
//! then runs `node web/e2e/play.mjs`, which plays Antarctos and Ice Age Chess through the
//! page in Debian's headless chromium (playwright-core; no browser is downloaded).
//!
//! Without node or `/usr/bin/chromium` (or the browser named by `CHROMIUM`) the test is skipped
//! with a message, except under CI (`CI=true`), where it fails. `ICEBOUND_PUBLISH_SCREENSHOTS=1` copies a few screenshots into
//! `docs/screenshots/`.

use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn have(cmd: &str, arg: &str) -> bool {
    Command::new(cmd)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free local port");
    listener.local_addr().expect("local address").port()
}

/// A fresh temporary directory under the system's temp dir.
fn temp_dir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("icebound-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create a temporary directory");
    dir
}

/// Debian's chromium and the page's npm packages, or `None` (a skip, which fails under CI)
/// when node or the browser is missing.
fn browser_tools() -> Option<PathBuf> {
    let ci = std::env::var("CI").map(|v| v == "true").unwrap_or(false);
    let chromium =
        PathBuf::from(std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()));
    let chromium_name = chromium.display().to_string();
    let missing: Vec<&str> = [
        (!have("node", "--version")).then_some("node"),
        (!chromium.exists()).then_some(chromium_name.as_str()),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !missing.is_empty() {
        let msg = format!(
            "browser test needs {} (install Node.js and Debian's chromium; .ci/setup-web.sh does)",
            missing.join(" and ")
        );
        assert!(!ci, "{msg}");
        eprintln!("SKIPPED: {msg}");
        return None;
    }
    let web = repo_root().join("web");
    if !web.join("node_modules/playwright-core").exists() {
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&web)
            .status()
            .expect("run npm ci in web/");
        assert!(status.success(), "npm ci in web/ failed");
    }
    Some(chromium)
}

/// Waits for the `node` script (300 s at most) and panics with the server log's tail unless it
/// succeeded; `what` says where to look besides.
fn finish(mut node: Child, log_path: &Path, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(300);
    let status = loop {
        if let Some(status) = node.try_wait().expect("wait for node") {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = node.kill();
            let _ = node.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    if status.is_some_and(|s| s.success()) {
        return;
    }
    let mut text = String::new();
    if let Ok(mut f) = std::fs::File::open(log_path) {
        let _ = f.read_to_string(&mut text);
    }
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(60)..].join("\n");
    panic!(
        "the browser test failed ({}); {what}; server log tail:\n{tail}",
        status.map_or("timed out after 300 s".to_string(), |s| s.to_string()),
    );
}

#[test]
fn browser_plays_both_games() {
    let Some(chromium) = browser_tools() else {
        return;
    };
    let root = repo_root();
    let web = root.join("web");

    // The page's TypeScript must type-check (esbuild, which bundles it, does not).
    let tsc = Command::new("node")
        .arg(web.join("node_modules/typescript/bin/tsc"))
        .args(["--noEmit", "-p"])
        .arg(&web)
        .output()
        .expect("run tsc");
    assert!(
        tsc.status.success(),
        "tsc --noEmit -p web failed:\n{}",
        String::from_utf8_lossy(&tsc.stdout)
    );

    let dir = temp_dir("browser");
    let db = dir.join("test.db");
    let shots = dir.join("screenshots");
    let log_path = dir.join("server.log");
    let log = std::fs::File::create(&log_path).expect("server log file");
    let db_url = format!("sqlite://{}?mode=rwc", db.display());
    // Engine runs stored by the lab commands, for the statistics page's self-play and match
    // tables (Antarctos only: the Ice Age block shows the "none yet" text and command).
    for lab in [
        &[
            "selfplay",
            "--variant",
            "antarctos",
            "--games",
            "4",
            "--level",
            "1",
        ][..],
        &[
            "match",
            "--variant",
            "antarctos",
            "--games",
            "2",
            "--engine-a",
            "level=1",
            "--engine-b",
            "level=2",
            "--sprt",
            "elo0=0,elo1=10",
        ][..],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_icebound"))
            .args(lab)
            .args(["--database", &db_url])
            .output()
            .expect("run icebound selfplay/match");
        assert!(
            out.status.success(),
            "{lab:?} --database failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let server = Command::new(env!("CARGO_BIN_EXE_icebound"))
        .args(["serve", "--addr", &addr, "--database", &db_url])
        .stdout(log.try_clone().expect("log handle"))
        .stderr(log)
        .spawn()
        .expect("start icebound serve");
    let _server = Server(server);

    let mut node = Command::new("node")
        .arg(web.join("e2e/play.mjs"))
        .args(["--url", &format!("http://{addr}"), "--out"])
        .arg(&shots)
        .env("CHROMIUM", &chromium)
        .current_dir(&root)
        .spawn()
        .expect("start node web/e2e/play.mjs");
    finish(node, &log_path, &format!("screenshots in {}", shots.display()));
    let _ = std::fs::remove_file(&db);
}

/// Issue 9, section 2, in the browser: another origin of the same site (a form, a no-cors
/// fetch, a WebSocket, planted cookies) acts on the victim's game through the victim's cookie.
/// `web/e2e/attacks.mjs` prints each attack and fails if any succeeds.
#[test]
fn browser_refuses_cross_site_attacks() {
    let Some(chromium) = browser_tools() else {
        return;
    };
    let root = repo_root();
    let dir = temp_dir("attacks");
    let log_path = dir.join("server.log");
    let log = std::fs::File::create(&log_path).expect("server log file");
    let addr = format!("127.0.0.1:{}", free_port());
    let server = Command::new(env!("CARGO_BIN_EXE_icebound"))
        .args(["serve", "--addr", &addr, "--database"])
        .arg(format!("sqlite://{}?mode=rwc", dir.join("test.db").display()))
        .stdout(log.try_clone().expect("log handle"))
        .stderr(log)
        .spawn()
        .expect("start icebound serve");
    let _server = Server(server);
    let node = Command::new("node")
        .arg(root.join("web/e2e/attacks.mjs"))
        .args(["--url", &format!("http://{addr}")])
        .env("CHROMIUM", &chromium)
        .current_dir(&root)
        .spawn()
        .expect("start node web/e2e/attacks.mjs");
    finish(node, &log_path, "the attacks' lines above say which succeeded");
}
