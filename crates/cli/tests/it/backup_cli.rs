//! Backups (issue 9, section 8): `icebound backup` taken while games are being played, then
//! restored (a server started on the copy) holds every move acknowledged before the backup
//! began; `serve --backup-every` writes and prunes them on a schedule. PostgreSQL (`pg_dump`,
//! `pg_restore`) when ICEBOUND_TEST_POSTGRES_URL is set, as `.ci/run` does.

use crate::common;
use test_support::services::postgres_url;

use std::collections::HashMap;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::icebound;
use common::serve::*;
use server::client::ApiClient;

/// Plays 4 games on the server at `addr`, runs `backup` (which must succeed) while they are
/// being played, and returns the moves acknowledged before it began.
async fn backup_during_play(
    addr: std::net::SocketAddr,
    backup: impl FnOnce() -> String + Send + 'static,
) -> (HashMap<String, Vec<String>>, String) {
    let mut me = ApiClient::new(addr);
    let acked: Acked = Arc::default();
    let count = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for id in local_games(&mut me, 4).await {
        acked.lock().expect("lock").insert(id.clone(), Vec::new());
        tasks.push(tokio::spawn(keep_playing(
            me.clone(),
            id,
            acked.clone(),
            count.clone(),
            stop.clone(),
        )));
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while count.load(Ordering::SeqCst) < 30 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let before = acked.lock().expect("lock").clone();
    let printed = tokio::task::spawn_blocking(backup)
        .await
        .expect("backup ran");
    // Play goes on a little after the backup, then stops.
    let at = count.load(Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_secs(10);
    while count.load(Ordering::SeqCst) < at + 10 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    stop.store(true, Ordering::SeqCst);
    for t in tasks {
        let _ = t.await;
    }
    let total: usize = before.values().map(Vec::len).sum();
    assert!(total >= 30, "only {total} moves before the backup");
    (before, printed)
}

/// The restored server at `addr` holds every move of `before`, in order.
async fn holds_every_move(addr: std::net::SocketAddr, before: &HashMap<String, Vec<String>>) {
    let mut c = ApiClient::new(addr);
    for (id, moves) in before {
        let stored = stored_moves(&mut c, id).await;
        assert!(
            stored.len() >= moves.len() && stored[..moves.len()] == moves[..],
            "game {id}: acknowledged before the backup {moves:?}, restored {stored:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_backup_during_play_restores_every_acknowledged_move() {
    let tmp = temp_dir("backup");
    let dir = tmp.path();
    let url = format!("sqlite://{}?mode=rwc", dir.join("live.db").display());
    let scheduled = dir.join("scheduled");
    let addr = free_addr();
    let mut child = start(
        &url,
        addr,
        &[
            "--backup-every",
            "1s",
            "--backup-dir",
            scheduled.to_str().expect("utf-8"),
            "--backup-keep",
            "2",
        ],
    );
    wait_ready(&mut child, addr).await;
    let out = dir.join("copy.db");
    let (out_arg, url_arg) = (out.display().to_string(), url.clone());
    let (before, printed) = backup_during_play(addr, move || {
        let (ok, stdout, stderr) = icebound(&["backup", "--database", &url_arg, "--out", &out_arg]);
        assert!(ok, "backup failed: {stderr}");
        stdout
    })
    .await;
    assert!(
        printed.starts_with("backup of sqlite://") && printed.contains(" games, "),
        "{printed}"
    );
    // A mistyped database is an error, not a new empty database "backed up".
    let typo = dir.join("typo.db");
    let (ok, _, err) = icebound(&[
        "backup",
        "--database",
        &format!("sqlite://{}?mode=rwc", typo.display()),
        "--out",
        &dir.join("typo-copy.db").display().to_string(),
    ]);
    assert!(!ok && err.contains("no database file at"), "{err}");
    assert!(!typo.exists(), "the mistyped database was created");
    // A backup holds the token-signing secret: private to its owner whatever the umask.
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| {
        std::fs::metadata(p)
            .map(|m| m.permissions().mode() & 0o777)
            .unwrap_or(0)
    };
    assert_eq!(mode(&out), 0o600, "the backup file's mode");
    assert_eq!(mode(&scheduled), 0o700, "the backup folder's mode");
    // A second backup to the same name is refused: a backup never overwrites.
    let (ok, _, err) = icebound(&[
        "backup",
        "--database",
        &url,
        "--out",
        &out.display().to_string(),
    ]);
    assert!(!ok && err.contains("exists already"), "{err}");

    // Scheduled backups: one at start and one a second, at most 2 kept.
    tokio::time::sleep(Duration::from_millis(3500)).await;
    child.kill().expect("stop");
    let _ = child.wait();
    let mut names: Vec<String> = std::fs::read_dir(&scheduled)
        .expect("backup dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    // The kill may cut a backup short: it is left as `.partial` (removed by the next start),
    // never under a complete backup's name.
    names.retain(|n| !n.contains(".partial"));
    assert!(
        !names.is_empty() && names.len() <= 2,
        "scheduled backups kept: {names:?}"
    );
    for name in &names {
        assert!(
            name.starts_with("icebound-") && name.ends_with(".db"),
            "{name}"
        );
        assert_eq!(mode(&scheduled.join(name)), 0o600, "{name}'s mode");
        let head = std::fs::read(scheduled.join(name)).expect("backup file");
        assert!(
            head.starts_with(b"SQLite format 3\0"),
            "{name} is a database"
        );
    }

    // Restore: a server on the copy (as docs/operations.md says).
    let restored = dir.join("restored.db");
    std::fs::copy(&out, &restored).expect("copy");
    let addr = free_addr();
    let mut child = start(
        &format!("sqlite://{}?mode=rwc", restored.display()),
        addr,
        &[],
    );
    wait_ready(&mut child, addr).await;
    holds_every_move(addr, &before).await;
    child.kill().expect("stop");
    let _ = child.wait();
}

/// Runs `psql URL -c SQL`, asserting success.
fn psql(url: &str, sql: &str) {
    let out = Command::new("psql")
        .args([url, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql])
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "psql {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_pg_dump_during_play_restores_every_acknowledged_move() {
    let Some(url) = postgres_url() else { return };
    let tmp = temp_dir("pgbackup");
    let dir = tmp.path();
    let addr = free_addr();
    let mut child = start(&url, addr, &[]);
    wait_ready(&mut child, addr).await;
    let out = dir.join("live.pgdump");
    let (out_arg, url_arg) = (out.display().to_string(), url.clone());
    let (before, printed) = backup_during_play(addr, move || {
        let (ok, stdout, stderr) = icebound(&["backup", "--database", &url_arg, "--out", &out_arg]);
        assert!(ok, "backup failed: {stderr}");
        stdout
    })
    .await;
    assert!(
        printed.contains(":***@"),
        "the password is not printed: {printed}"
    );
    child.kill().expect("stop");
    let _ = child.wait();

    // Restore into a new database with pg_restore, then serve it.
    let name = format!("icebound_restore_{}_{}", std::process::id(), rand_suffix());
    let (base, _) = url.rsplit_once('/').expect("a database in the URL");
    let restored_url = format!("{base}/{name}");
    psql(&url, &format!("CREATE DATABASE {name}"));
    let restore = Command::new("pg_restore")
        .args(["--no-owner", "--dbname", &restored_url])
        .arg(&out)
        .output()
        .expect("pg_restore runs");
    assert!(
        restore.status.success(),
        "pg_restore: {}",
        String::from_utf8_lossy(&restore.stderr)
    );
    let addr = free_addr();
    let mut child = start(&restored_url, addr, &[]);
    wait_ready(&mut child, addr).await;
    holds_every_move(addr, &before).await;
    child.kill().expect("stop");
    let _ = child.wait();
    drop_database(&url, &name);
}

/// Drops database `name`, waiting for an autovacuum worker a large restore may have started:
/// `WITH (FORCE)` cannot end it without `pg_signal_backend` (PostgreSQL refuses to end a
/// process of no role), so the drop is tried again for up to 30 s.
fn drop_database(url: &str, name: &str) {
    let sql = format!("DROP DATABASE {name} WITH (FORCE)");
    for _ in 0..30 {
        let out = Command::new("psql")
            .args([url, "-v", "ON_ERROR_STOP=1", "-q", "-c", &sql])
            .output()
            .expect("psql runs");
        if out.status.success() {
            return;
        }
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("must be a member of the role"),
            "psql {sql}: {err}"
        );
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
    panic!("database {name} still in use after 30 s");
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() % 1_000_000_000)
        .unwrap_or(0)
}
