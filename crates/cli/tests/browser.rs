//! The browser tests: every script of `web/e2e/` that runs its scenarios through the helper
//! module `lib.mjs` (the module itself and scripts with a harness of their own aside) runs in
//! Debian's headless chromium (playwright-core; no browser is downloaded) against its own real
//! `icebound serve`, started on a free port with a fresh copy of a temporary SQLite file that
//! holds a tiny self-play run and match stored by `icebound selfplay|match --database`.
//! `play.mjs` plays Antarctos and Ice Age Chess through the page; the other scripts cover the
//! game page's behaviours, the languages and the other pages. Each script gets the server's
//! process id in `ICEBOUND_SERVER_PID`: `offline.mjs` stops the server with it mid-script, to
//! show the engine in the browser and the service worker working with the server gone, and
//! later starts it again, on the same address and database, with the command line in
//! `ICEBOUND_SERVER_CMD` (a JSON array: program, then arguments) and its output appended to
//! `ICEBOUND_SERVER_LOG`; that second server is the script's to stop.
//!
//! Without node or `/usr/bin/chromium` (or the browser named by `CHROMIUM`) the test is skipped
//! with a message, except under CI (`CI=true`), where it fails. `ICEBOUND_E2E=a,b` runs only the
//! scripts `a.mjs` and `b.mjs`; `ICEBOUND_PUBLISH_SCREENSHOTS=1` copies the screenshots the
//! scripts mark for the docs into `docs/screenshots/`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use test_support::{free_port, temp_dir};

/// One browser test at a time: two Chromiums at once on a small machine make timing checks flaky.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

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

#[test]
fn browser_tests_of_web_e2e() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|p| p.into_inner());
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
        return;
    }

    let root = repo_root();
    let web = root.join("web");
    if !web.join("node_modules/playwright-core").exists() {
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&web)
            .status()
            .expect("run npm ci in web/");
        assert!(status.success(), "npm ci in web/ failed");
    }

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

    let tmp = temp_dir("browser");
    let dir = tmp.path();
    let template = dir.join("template.db");
    seed_lab_runs(&template);

    let wanted: Option<Vec<String>> = std::env::var("ICEBOUND_E2E")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(web.join("e2e"))
        .expect("read web/e2e")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mjs"))
        .filter(|p| p.file_stem().is_some_and(|n| n != "lib"))
        // A script with a harness of its own does not use lib.mjs's suite.
        .filter(|p| std::fs::read_to_string(p).is_ok_and(|text| text.contains("from './lib.mjs'")))
        .filter(|p| {
            let stem = p.file_stem().map(|n| n.to_string_lossy().into_owned());
            wanted
                .as_ref()
                .is_none_or(|w| stem.is_some_and(|s| w.contains(&s)))
        })
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty(), "no browser test script in web/e2e");
    let failures: Vec<String> = scripts
        .iter()
        .filter_map(|script| run_script(&root, &chromium, dir, Some(&template), script).err())
        .collect();
    if !failures.is_empty() {
        // The screenshots and server logs stay for a post-mortem.
        let _ = tmp.keep();
    }
    assert!(
        failures.is_empty(),
        "{} of {} browser test scripts failed:\n\n{}",
        failures.len(),
        scripts.len(),
        failures.join("\n\n")
    );
}

/// Issue 9, section 2, in the browser: another origin of the same site (a form, a no-cors
/// fetch, a WebSocket, planted cookies) acts on the victim's game through the victim's cookie.
/// `web/e2e/attacks.mjs` (a harness of its own: it serves the attacker's pages and maps host
/// names in Chromium) prints each attack and fails if any succeeds.
#[test]
fn browser_refuses_cross_site_attacks() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|p| p.into_inner());
    let ci = std::env::var("CI").map(|v| v == "true").unwrap_or(false);
    let chromium =
        PathBuf::from(std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()));
    let root = repo_root();
    if !have("node", "--version")
        || !chromium.exists()
        || !root.join("web/node_modules/playwright-core").exists()
    {
        assert!(
            !ci,
            "the attack test needs node, chromium and web/node_modules"
        );
        eprintln!("SKIPPED: node, chromium or web/node_modules missing");
        return;
    }
    let tmp = temp_dir("attacks");
    let dir = tmp.path();
    let result = run_script(
        &root,
        &chromium,
        dir,
        None,
        &root.join("web/e2e/attacks.mjs"),
    );
    if result.is_err() {
        // The screenshots and server log stay for a post-mortem.
        let _ = tmp.keep();
    }
    assert!(result.is_ok(), "{}", result.err().unwrap_or_default());
}

/// A database holding the engine runs stored by the lab commands, for the statistics page's
/// self-play and match tables (Antarctos only: the Ice Age block shows the "none yet" text and
/// command).
fn seed_lab_runs(db: &Path) {
    let db_url = format!("sqlite://{}?mode=rwc", db.display());
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
}

/// Runs one script against its own server on a copy of `template`; `Err` says how it failed,
/// with the server log's tail.
fn run_script(
    root: &Path,
    chromium: &Path,
    dir: &Path,
    template: Option<&Path>,
    script: &Path,
) -> Result<(), String> {
    let name = script
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let db = dir.join(format!("{name}.db"));
    if let Some(template) = template {
        std::fs::copy(template, &db).expect("copy the template database");
        // A lab command may leave its last writes in SQLite's write-ahead log (not yet
        // checkpointed into the main file): the copy needs it too.
        let wal = |p: &Path| PathBuf::from(format!("{}-wal", p.display()));
        if wal(template).exists() {
            std::fs::copy(wal(template), wal(&db)).expect("copy the template's write-ahead log");
        }
    }
    let shots = dir.join(format!("screenshots-{name}"));
    let log_path = dir.join(format!("server-{name}.log"));
    let log = std::fs::File::create(&log_path).expect("server log file");
    let db_url = format!("sqlite://{}?mode=rwc", db.display());
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    // The scripts create many games from 127.0.0.1: no per-address rate limits (those are
    // tested by the server crate's `limits` test).
    let program = env!("CARGO_BIN_EXE_icebound");
    let mut args = vec![
        "serve",
        "--addr",
        &addr,
        "--database",
        &db_url,
        "--no-rate-limits",
    ];
    // Mail through the test SMTP server when there is one (`.ci/setup-smtp.sh`): the
    // accounts script reads its maildir (ICEBOUND_TEST_MAILDIR) for the links.
    let smtp = std::env::var("ICEBOUND_TEST_SMTP")
        .ok()
        .filter(|s| !s.is_empty())
        .map(|s| format!("smtp://{s}"));
    if let Some(url) = &smtp {
        args.extend(["--smtp", url.as_str()]);
    }
    let command_line: Vec<&str> = std::iter::once(program)
        .chain(args.iter().copied())
        .collect();
    let server = Command::new(program)
        .args(&args)
        .stdout(log.try_clone().expect("log handle"))
        .stderr(log)
        .spawn()
        .expect("start icebound serve");
    let server_pid = server.id();
    let _server = Server(server);

    // The script's output goes to a file, shown whole after it ends and, when it failed, its
    // failing lines put in the error: CI keeps only part of a long run's output.
    let node_log_path = dir.join(format!("node-{name}.log"));
    let node_log = std::fs::File::create(&node_log_path).expect("node log file");
    let started = Instant::now();
    let mut node = Command::new("node")
        .arg(script)
        .args(["--url", &format!("http://{addr}"), "--out"])
        .arg(&shots)
        .env("CHROMIUM", chromium)
        // A script that plays with the server gone (offline.mjs) stops it by this id.
        .env("ICEBOUND_SERVER_PID", server_pid.to_string())
        // ... and starts it again with this command line, its output in the same log.
        .env(
            "ICEBOUND_SERVER_CMD",
            serde_json::to_string(&command_line).expect("a command line as JSON"),
        )
        .env("ICEBOUND_SERVER_LOG", &log_path)
        .current_dir(root)
        .stdout(node_log.try_clone().expect("node log handle"))
        .stderr(node_log)
        .spawn()
        .expect("start node on a web/e2e script");
    let deadline = started + Duration::from_secs(300);
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
    eprintln!(
        "web/e2e/{name}.mjs: {} in {:.1} s",
        status.map_or("timed out".to_string(), |s| s.to_string()),
        started.elapsed().as_secs_f64()
    );
    let said = std::fs::read_to_string(&node_log_path).unwrap_or_default();
    // Straight to the process's stdout, as the script's own output went before: libtest's
    // capture would hold back every passing script's lines.
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(said.as_bytes());
        let _ = out.flush();
    }
    if status.is_some_and(|s| s.success()) {
        return Ok(());
    }
    // The scenario names (`-- ...`) place each failure; `FAIL:` and stacks say what failed.
    let failing: Vec<&str> = said
        .lines()
        .filter(|l| !l.starts_with("screenshot "))
        .collect();
    let failing = failing[failing.len().saturating_sub(60)..].join("\n");
    let mut text = String::new();
    if let Ok(mut f) = std::fs::File::open(&log_path) {
        let _ = f.read_to_string(&mut text);
    }
    let tail: Vec<&str> = text.lines().rev().take(40).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    Err(format!(
        "web/e2e/{name}.mjs failed ({}); screenshots in {}; the script said (last 60 lines):\n{}\n\nserver log tail:\n{}",
        status.map_or("timed out after 300 s".to_string(), |s| s.to_string()),
        shots.display(),
        failing,
        tail.join("\n")
    ))
}
