//! QA of the rules commands as a newcomer uses them (README's contract): bad arguments and
//! bad input exit with status 1 and a short message on stderr, never a panic.

use crate::common;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    common::bin().run(args)
}

/// Runs a command that must fail as README says: status 1, nothing on stdout, a message on
/// stderr that is no panic. Returns stderr.
fn fails(args: &[&str]) -> String {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    err
}

#[test]
fn readme_cli_usage_errors_exit_1() {
    // clap's default status for usage errors is 2; README promises 1 for every error.
    let err = fails(&["perft", "--variant", "antarctos", "--depth", "-1"]);
    assert!(err.contains("-1"), "{err}");
    let err = fails(&["perft", "--variant", "chess", "--depth", "1"]);
    assert!(err.contains("antarctos") && err.contains("iceage"), "{err}");
    let err = fails(&["perft", "--variant", "iceage", "--depth", "99999999999"]);
    assert!(err.contains("--depth"), "{err}");
    let err = fails(&["moves", "--fen", "W:W:B"]);
    assert!(err.contains("--variant"), "{err}");
    fails(&["no-such-command"]);
    // Help and version still succeed.
    assert_eq!(run(&["--help"]).status.code(), Some(0));
    assert_eq!(run(&["--version"]).status.code(), Some(0));
    assert_eq!(run(&["perft", "--help"]).status.code(), Some(0));
}

/// `--variant`'s help is words, not the rustdoc links of `GameKind`'s doc comments (issue 37).
#[test]
fn variant_help_has_no_rustdoc_links() {
    let out = run(&["convert", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("antarctos: Antarctos: Russian checkers")
            && help.contains("iceage:    Ice Age Chess:"),
        "{help}"
    );
    assert!(!help.contains("[`"), "{help}");
}

#[test]
fn a18_c12_huge_position_text_gives_a_short_error() {
    let huge = format!("W:W{}:B", vec!["a1"; 20_000].join(","));
    let err = fails(&["moves", "--variant", "antarctos", "--fen", &huge]);
    assert!(err.contains("listed twice"), "{err}");
    assert!(err.len() < 400, "{} bytes: {}", err.len(), &err[..200]);
    let junk = format!("W:Wa1:B:I{}", "x".repeat(50_000));
    let err = fails(&["moves", "--variant", "antarctos", "--fen", &junk]);
    assert!(err.contains("not a square name"), "{err}");
    assert!(err.len() < 400, "{} bytes", err.len());
    let fen = format!("4k3/8/8/8/8/8/8/4K3 {} - - 0 1", "w".repeat(50_000));
    let err = fails(&["moves", "--variant", "iceage", "--fen", &fen]);
    assert!(err.contains("side to move"), "{err}");
    assert!(err.len() < 400, "{} bytes", err.len());
}

#[test]
fn a17_c13_huge_move_text_gives_a_short_error() {
    let long = format!("c3-d4{}", "-e5".repeat(20_000));
    let err = fails(&["apply", "--variant", "antarctos", &long]);
    assert!(err.contains("move 1"), "{err}");
    assert!(err.len() < 400, "{} bytes", err.len());
    let long = format!("N{}f3", "g".repeat(50_000));
    let err = fails(&["apply", "--variant", "iceage", &long]);
    assert!(err.contains("move 1"), "{err}");
    assert!(err.len() < 400, "{} bytes", err.len());
}

#[test]
fn a18_c12_malformed_positions_say_what_is_wrong() {
    for (fen, says) in [
        ("", "empty"),
        ("W:", "field 2 is empty"),
        ("W:Wb1:B", "light square"),
        ("W:Wj10:B", "off the board"),
        ("W:Wä1:B", "not a square name"),
        ("W:Wa1:Ba1", "listed twice"),
        ("Ω:W:B", "side to move"),
        ("W:Wb8:Bc7", "goal row"),
    ] {
        let err = fails(&["moves", "--variant", "antarctos", "--fen", fen]);
        assert!(err.contains(says), "{fen:?}: {err}");
    }
    for (fen, says) in [
        ("", "empty"),
        ("8/8/8/8/8/8/8/8", "fields"),
        ("4k3/8/8/8/8/8/8/4K3/8 w", "9 ranks"),
        ("**********/8/8/8/8/8/8/4K3 w", "rank 8 covers 10"),
        ("4k3/8/8/8/8/8/8/4Kä3 w", "unknown letter 'ä'"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "full-move number is 0"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999", "full-move"),
    ] {
        let err = fails(&["moves", "--variant", "iceage", "--fen", fen]);
        assert!(err.contains(says), "{fen:?}: {err}");
    }
}

#[test]
fn perft_depth_0_counts_the_root_and_a_finished_game_has_no_children() {
    let out = run(&[
        "perft",
        "--variant",
        "antarctos",
        "--depth",
        "0",
        "--divide",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("nodes 1\ntime_ms "), "{text}");
    // A18: `W:W:B` is already won by Black; even an absurd depth returns at once.
    let out = run(&[
        "perft",
        "--variant",
        "antarctos",
        "--fen",
        "W:W:B",
        "--depth",
        "4294967295",
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("nodes 0\n"));
}

#[test]
fn closed_stdout_is_no_panic() {
    // `icebound perft ... | head -1`: println! panicked with "failed printing to stdout:
    // Broken pipe" once the reader had gone.
    use std::io::Read;
    use std::process::Stdio;
    for args in [
        &["perft", "--variant", "iceage", "--depth", "3", "--divide"][..],
        &["moves", "--variant", "iceage"][..],
        &["analyze", "--variant", "antarctos", "--depth", "12"][..],
        &[
            "solve",
            "--variant",
            "antarctos",
            "--fen",
            "W:Wb4,e3,f2:Bc7,d6:Ic3",
        ][..],
    ] {
        let mut child = common::bin()
            .command()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the icebound binary runs");
        drop(child.stdout.take());
        let mut err = String::new();
        child
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut err)
            .expect("stderr is text");
        let status = child.wait().expect("it ends");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(status.code().is_some_and(|c| c <= 1), "{args:?}: {status}");
    }
}

/// A quick Antarctos match (the game count follows).
const SMALL_MATCH: &[&str] = &[
    "match",
    "--variant",
    "antarctos",
    "--engine-a",
    "nodes=200",
    "--engine-b",
    "nodes=200",
];

/// A full disk for stdout (`> /dev/full`): one error line and status 1, not a panic with a
/// backtrace (the hostile tester of 2026-12-02: `analyze` and `match` exited 101).
#[test]
fn full_stdout_is_an_error_line() {
    use std::process::Stdio;
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("no /dev/full here: nothing to check");
        return;
    };
    let two_games = [SMALL_MATCH, &["--games", "2"]].concat();
    for args in [
        &["analyze", "--variant", "antarctos", "--depth", "6"][..],
        &two_games[..],
    ] {
        let out = common::bin()
            .command()
            .args(args)
            .stdout(Stdio::from(full.try_clone().expect("a second handle")))
            .output()
            .expect("the icebound binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            err.contains("error: cannot write the output: No space left on device"),
            "{args:?}: {err}"
        );
    }
}

/// `match --out` on a file that cannot be written stops at once instead of playing every
/// game, and says how many whole games the file holds.
#[test]
fn match_stops_when_its_records_cannot_be_written() {
    if std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .is_err()
    {
        eprintln!("no /dev/full here: nothing to check");
        return;
    }
    let out = common::bin()
        .command()
        .args(SMALL_MATCH)
        .args(["--games", "200", "--out", "/dev/full"])
        .output()
        .expect("the icebound binary runs");
    let err = String::from_utf8_lossy(&out.stderr);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("the match stops after 1 pairs"), "{err}");
    assert!(
        err.contains("writing /dev/full: No space left on device"),
        "{err}"
    );
    assert!(err.contains("(after 0 whole games)"), "{err}");
    assert!(text.contains("games 2 (1 pairs)"), "{text}");
}

/// `selfplay --out` on a file that cannot be written stops after the first game (it
/// played on to the end before), and `--from-game` out of range is refused.
#[test]
fn selfplay_stops_when_its_records_cannot_be_written() {
    if std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .is_err()
    {
        eprintln!("no /dev/full here: nothing to check");
        return;
    }
    let selfplay = [
        "selfplay",
        "--variant",
        "antarctos",
        "--nodes",
        "200",
        "--random-plies",
        "4",
    ];
    let out = common::bin()
        .command()
        .args(selfplay)
        .args(["--games", "500", "--out", "/dev/full"])
        .output()
        .expect("the icebound binary runs");
    let err = String::from_utf8_lossy(&out.stderr);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("selfplay stops after game 1"), "{err}");
    assert!(err.contains("No space left on device"), "{err}");
    assert!(text.contains("games 1\n"), "{text}");
    for (from, games) in [("0", "5"), ("6", "5")] {
        let out = common::bin()
            .command()
            .args(selfplay)
            .args(["--games", games, "--from-game", from])
            .output()
            .expect("the icebound binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains(&format!("--from-game {from}: must be 1 to --games (5)")),
            "{err}"
        );
    }
}

/// `--hash` above what the process may allocate (a memory limit, `ulimit -v`): an error
/// that names `--hash` and status 1, not an abort (the hostile tester of 2026-12-02).
#[test]
fn hash_beyond_the_memory_limit_is_an_error() {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1500000 && exec '{}' analyze --variant antarctos --hash 4096 --nodes 2000",
            common::bin().path().display()
        ))
        .output()
        .expect("sh runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot allocate a transposition table of 4096 MiB"),
        "{err}"
    );
}
