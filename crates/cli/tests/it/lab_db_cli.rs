//! `icebound selfplay --database` and `icebound match --database`: a tiny run stores one
//! summary row that reads back through the store; a bad URL fails before any game; a run that
//! cannot be stored prints its report, then a clear error, and fails.

use server::Store;
use site_store::{LabKind, LabRun};

use crate::common;
use test_support::temp_dir;

use common::icebound;

/// The runs of `variant` and `kind` stored at `url`.
fn stored(url: &str, variant: &str, kind: LabKind) -> Vec<LabRun> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let store = Store::open(url).await.expect("open the database");
        let runs = store
            .lab_runs(variant.parse().expect("a game"), kind, 20)
            .await
            .expect("read runs");
        store.close().await;
        runs
    })
}

/// The count printed on the report line starting with `label`.
fn reported(stdout: &str, label: &str) -> i64 {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(label))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no '{label}' line in {stdout}"))
}

#[test]
fn selfplay_and_match_store_their_runs() {
    let dir_tmp = temp_dir("lab-db");
    let dir = dir_tmp.path();
    let url = format!("sqlite://{}?mode=rwc", dir.join("lab.db").display());
    let (ok, out, err) = icebound(&[
        "selfplay",
        "--variant",
        "antarctos",
        "--games",
        "4",
        "--level",
        "1",
        "--seed",
        "5",
        "--database",
        &url,
    ]);
    assert!(ok, "selfplay failed: {err}");
    assert!(out.contains("stored run "), "{out}");

    let runs = stored(&url, "antarctos", LabKind::Selfplay);
    assert_eq!(runs.len(), 1, "{runs:?}");
    let r = &runs[0];
    assert_eq!((r.setting.as_str(), r.seed, r.games), ("level=1", 5, 4));
    // The row holds what the report printed.
    assert_eq!(r.white_wins, reported(&out, "white wins"));
    assert_eq!(r.black_wins, reported(&out, "black wins"));
    assert_eq!(r.draws, reported(&out, "draws"));
    assert_eq!(r.capped, reported(&out, "capped"));
    assert_eq!(r.end_reasons.values().sum::<i64>(), 4);
    assert!(
        r.mean_plies
            .is_some_and(|m| m > 0.0 && m <= r.longest_plies as f64)
    );
    assert!(r.version.starts_with("icebound "), "{}", r.version);
    assert!(r.match_figures.is_none());
    assert!(stored(&url, "antarctos", LabKind::Match).is_empty());

    let (ok, out, err) = icebound(&[
        "match",
        "--variant",
        "iceage",
        "--engine-a",
        "level=1",
        "--engine-b",
        "nodes=50",
        "--games",
        "2",
        "--sprt",
        "elo0=0,elo1=10",
        "--database",
        &url,
    ]);
    assert!(ok, "match failed: {err}");
    assert!(out.contains("stored run "), "{out}");
    let runs = stored(&url, "iceage", LabKind::Match);
    assert_eq!(runs.len(), 1, "{runs:?}");
    let r = &runs[0];
    let m = r.match_figures.as_ref().expect("match figures");
    assert_eq!(
        (r.setting.as_str(), m.setting_b.as_str()),
        ("level=1", "nodes=50")
    );
    assert_eq!(r.games, 2);
    assert_eq!(m.a_wins + m.a_draws + m.a_losses, 2);
    assert_eq!(r.white_wins + r.black_wins + r.draws + r.capped, 2);
    let sprt = m.sprt.as_ref().expect("the SPRT asked for");
    assert!(sprt.params.starts_with("elo0=0,elo1=10"), "{}", sprt.params);
    assert!(out.contains(&format!("verdict {}", sprt.verdict)), "{out}");
    // The self-play run is still the only one of its kind.
    assert_eq!(stored(&url, "antarctos", LabKind::Selfplay).len(), 1);
}

#[test]
fn bad_database_url_fails_before_any_game() {
    for cmd in [
        &[
            "selfplay",
            "--variant",
            "antarctos",
            "--games",
            "2",
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
            "level=1",
        ][..],
    ] {
        let mut args = cmd.to_vec();
        args.extend(["--database", "mysql://x/db"]);
        let (ok, out, err) = icebound(&args);
        assert!(!ok, "{args:?} should fail");
        assert!(
            err.contains("--database mysql://x/db: unsupported database URL"),
            "{err}"
        );
        assert!(!out.contains("games "), "no game is played: {out}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// Nothing listens on the port: sqlx's pool retries a refused connection until its 10 s acquire
/// timeout and then says only "pool timed out"; the user must learn at once that the
/// connection was refused.
#[test]
fn postgres_server_not_there_fails_at_once_with_the_cause() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let url = format!("postgres://icebound:secret@127.0.0.1:{port}/icebound");
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
    assert!(!ok, "selfplay should fail");
    // The password is not echoed (logs of long runs are kept and shared).
    let shown = format!("postgres://icebound:***@127.0.0.1:{port}/icebound");
    assert!(err.contains(&format!("--database {shown}")), "{err}");
    assert!(!err.contains("secret"), "{err}");
    assert!(err.to_lowercase().contains("refused"), "the cause: {err}");
    assert!(!err.contains("pool timed out"), "{err}");
    assert!(!out.contains("games "), "no game is played: {out}");
}

/// An in-memory SQLite database (no file) would keep nothing, and sqlx's `Any` pool gives each
/// connection its own: it used to fail after retries with "no such table: icebound_schema".
#[test]
fn in_memory_sqlite_is_refused_with_what_to_give() {
    for url in [
        "sqlite::memory:",
        "sqlite://",
        "sqlite:",
        "sqlite://?mode=rwc",
    ] {
        let (ok, out, err) = icebound(&[
            "selfplay",
            "--variant",
            "antarctos",
            "--games",
            "2",
            "--level",
            "1",
            "--database",
            url,
        ]);
        assert!(!ok, "{url} should fail");
        assert!(
            err.contains(&format!("--database {url}: unsupported database URL")),
            "{url}: {err}"
        );
        assert!(err.contains("sqlite://FILE"), "{url}: {err}");
        assert!(!out.contains("games "), "no game is played: {out}");
    }
}

/// SQLite's own word for all of these is "unable to open database file": the user must learn
/// which file and what is wrong with it.
#[test]
fn sqlite_file_that_cannot_be_opened_says_why() {
    let dir_tmp = temp_dir("lab-db-open");
    let dir = dir_tmp.path();
    let missing = dir.join("missing.db");
    let no_dir = dir.join("no/such/dir/x.db");
    for (url, why) in [
        (
            format!("sqlite://{}", missing.display()),
            "no such file (add ?mode=rwc to create it)".to_string(),
        ),
        (dir.display().to_string(), "it is a directory".to_string()),
        (
            format!("sqlite://{}?mode=rwc", no_dir.display()),
            format!(
                "no such directory {}",
                no_dir.parent().expect("parent").display()
            ),
        ),
    ] {
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
        assert!(!ok, "{url} should fail");
        assert!(err.contains(&why), "{url}: {err}");
        assert!(!out.contains("games "), "no game is played: {out}");
    }
    assert!(!missing.exists(), "nothing is created without mode=rwc");
}

#[test]
fn a_run_that_cannot_be_stored_prints_its_report_then_fails() {
    let dir_tmp = temp_dir("lab-db-ro");
    let dir = dir_tmp.path();
    let file = dir.join("lab.db");
    let base = ["selfplay", "--variant", "antarctos", "--games", "2"];
    let rwc = format!("sqlite://{}?mode=rwc", file.display());
    let mut args = base.to_vec();
    args.extend(["--level", "1", "--database", &rwc]);
    let (ok, _, err) = icebound(&args);
    assert!(ok, "{err}");
    // Read-only: the database opens, the insert at the end fails.
    let ro = format!("sqlite://{}?mode=ro", file.display());
    let mut args = base.to_vec();
    args.extend(["--level", "1", "--database", &ro]);
    let (ok, out, err) = icebound(&args);
    assert!(!ok, "storing into a read-only database should fail");
    assert!(out.contains("games 2"), "the report comes first: {out}");
    assert!(out.contains("end reasons"), "{out}");
    assert!(
        err.contains(&format!("--database {ro}: the run was not stored")),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(stored(&rwc, "antarctos", LabKind::Selfplay).len(), 1);
}
