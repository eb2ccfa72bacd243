//! A database the process cannot write: `icebound serve` (and `selfplay --database`) exit at
//! once with status 1 and a message naming the file, what is read-only and what to do, not
//! SQLite's bare "unable to open database file" nor a site that refuses every move.
//!
//! The tests run as root, whom mode bits do not stop: a read-only database is made with
//! `?mode=ro`, and with `chattr +i` (an immutable file or directory refuses root too). The
//! `chattr` cases are skipped with a message where it is refused (no CAP_LINUX_IMMUTABLE, or a
//! file system without the attribute).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;

use common::icebound;
use common::serve::{free_addr, temp_dir};

/// Runs `icebound serve` on `url` until it exits (at most 30 s: a server that starts on a
/// read-only database fails the test): (success, stderr).
fn serve(url: &str) -> (bool, String) {
    let mut child = common::bin()
        .command()
        .args([
            "serve",
            "--addr",
            &free_addr().to_string(),
            "--database",
            url,
        ])
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start icebound serve");
    let end = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "icebound serve on {url} still runs after 30 s: it started on a read-only database"
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err)
        .expect("read stderr");
    (status.success(), err)
}

/// A database file at `file`, created and migrated, then closed.
fn migrated(file: &Path) {
    let url = format!("sqlite://{}?mode=rwc", file.display());
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(async {
            let store = server::Store::open(&url).await.expect("open");
            store.close().await;
        });
}

/// `chattr +i` on `path` until dropped; `None` where `chattr` is refused.
struct Immutable(PathBuf);

impl Immutable {
    fn set(path: &Path) -> Option<Immutable> {
        let ok = Command::new("chattr")
            .arg("+i")
            .arg(path)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("chattr +i {} refused: this case is skipped", path.display());
        }
        ok.then(|| Immutable(path.to_path_buf()))
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").arg(&self.0).status();
    }
}

fn assert_clear(err: &str, path: &Path, what: &str) {
    assert!(
        err.contains(&format!(
            "cannot write to the SQLite file '{}'",
            path.display()
        )),
        "names the file: {err}"
    );
    assert!(err.contains(what), "says what is read-only ({what}): {err}");
    assert!(err.contains("SQLite: "), "keeps SQLite's own word: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(
        err.lines().filter(|l| l.starts_with("error: ")).count(),
        1,
        "one error line: {err}"
    );
}

#[test]
fn serve_on_a_database_opened_read_only_exits_with_a_clear_error() {
    let dir_tmp = temp_dir("ro-mode");
    let dir = dir_tmp.path();
    let file = dir.join("icebound.db");
    migrated(&file);
    // It opens: migrations and the WAL mode are there already, nothing is written at start.
    let (ok, err) = serve(&format!("sqlite://{}?mode=ro", file.display()));
    assert!(!ok, "serve on a read-only database must fail: {err}");
    assert_clear(&err, &file, "the URL opens it read-only (mode=ro)");
    assert!(
        err.contains("attempt to write a readonly database"),
        "{err}"
    );
    assert!(err.contains("?mode=rwc"), "says what to do: {err}");
}

#[test]
fn serve_on_an_immutable_file_or_directory_exits_with_a_clear_error() {
    let dir_tmp = temp_dir("ro-file");
    let dir = dir_tmp.path();
    let file = dir.join("icebound.db");
    migrated(&file);
    // An immutable file: SQLite falls back to reading it, and would fail at the first move.
    if let Some(_guard) = Immutable::set(&file) {
        let (ok, err) = serve(&format!("sqlite://{}?mode=rwc", file.display()));
        assert!(!ok, "serve on an immutable file must fail: {err}");
        assert_clear(&err, &file, "the file is read-only");
        assert!(err.contains("give this user write access"), "{err}");
    }
    // A new file in an immutable directory: SQLite says "unable to open database file".
    let locked_tmp = temp_dir("ro-dir");
    let locked = locked_tmp.path();
    let new = locked.join("icebound.db");
    if let Some(_guard) = Immutable::set(locked) {
        let url = format!("sqlite://{}?mode=rwc", new.display());
        let (ok, err) = serve(&url);
        assert!(!ok, "serve in an immutable directory must fail: {err}");
        let what = format!("its directory {} is read-only", locked.display());
        assert_clear(&err, &new, &what);
        assert!(err.contains("unable to open database file"), "{err}");
        assert!(err.contains("--database"), "{err}");
        // Every command that opens the store says the same.
        let (ok, out, err) = icebound(&[
            "selfplay",
            "--variant",
            "antarctos",
            "--games",
            "2",
            "--level",
            "1",
            "--database",
            &url,
        ]);
        assert!(!ok, "selfplay into an immutable directory must fail: {err}");
        assert_clear(&err, &new, &what);
        assert!(!out.contains("games "), "no game is played: {out}");
    }
}
