//! QA of the engine commands (`analyze`, `solve`, `play`, `selfplay`, `match`) as a newcomer
//! uses them (README's contract): bad option values and bad input at the `play` prompt get
//! a clear message, usage errors exit with status 1, nothing panics or runs without end.

use crate::common;
use std::process::Output;

/// Runs the binary with `stdin` piped in.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    // A command that fails at once closes its end; the write may then fail, which is fine.
    common::bin().run_with_input(args, stdin)
}

/// Runs a command that must fail as a usage error: status 1, nothing on stdout, an
/// `error: ` message on stderr that is no panic and names `what`. Returns stderr.
fn fails(args: &[&str], what: &str) -> String {
    let out = run(args, b"");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(err.contains(what), "{args:?} should name {what}: {err}");
    err
}

#[test]
fn analyze_rejects_a_zero_node_or_time_limit() {
    fails(
        &["analyze", "--variant", "antarctos", "--movetime", "0"],
        "--movetime",
    );
    fails(
        &["analyze", "--variant", "iceage", "--nodes", "0"],
        "--nodes",
    );
}

#[test]
fn analyze_rejects_a_depth_beyond_the_search_limit() {
    // It used to stop at depth 127 without a word.
    let err = fails(
        &["analyze", "--variant", "iceage", "--depth", "1000"],
        "--depth",
    );
    assert!(err.contains("127"), "{err}");
}

#[test]
fn analyze_rejects_a_hash_size_out_of_range() {
    // It used to clamp silently: 0 became 1 MiB and a huge size a 4 GiB table.
    let args = [
        "analyze",
        "--variant",
        "antarctos",
        "--depth",
        "1",
        "--hash",
    ];
    let err = fails(&[&args[..], &["0"]].concat(), "--hash");
    assert!(err.contains("4096"), "{err}");
    fails(&[&args[..], &["99999999999"]].concat(), "--hash");
}

#[test]
fn selfplay_and_match_reject_a_huge_thread_count() {
    let err = fails(
        &[
            "selfplay",
            "--variant",
            "antarctos",
            "--games",
            "2",
            "--nodes",
            "10",
            "--threads",
            "100000",
        ],
        "--threads",
    );
    assert!(err.contains("100000"), "{err}");
    fails(
        &[
            "match",
            "--variant",
            "antarctos",
            "--engine-a",
            "nodes=10",
            "--engine-b",
            "nodes=10",
            "--games",
            "2",
            "--threads",
            "100000",
        ],
        "--threads",
    );
}

#[test]
fn play_rejects_a_position_where_the_game_is_over() {
    // A18: a white man on its goal row with Black to move: White has already won.
    fails(
        &["play", "--variant", "antarctos", "--fen", "B:Wb8:Bc7"],
        "the game is over",
    );
    fails(
        &[
            "play",
            "--variant",
            "iceage",
            "--fen",
            "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
        ],
        "the game is over",
    );
}

#[test]
fn play_takes_invalid_utf8_at_the_prompt_as_a_bad_move() {
    // A line of bytes that are no text must not end the game: the prompt says so and asks again.
    let out = run(
        &[
            "play",
            "--variant",
            "antarctos",
            "--level",
            "1",
            "--seed",
            "1",
        ],
        b"\xff\xfe\ne3-f4\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{text}{err}");
    assert!(text.contains("not a legal move"), "{text}");
    assert!(text.contains("you play 1. e3-f4"), "{text}");
    assert!(text.contains("you resigned"), "{text}");
}

#[test]
fn play_answers_a_huge_move_text_with_a_short_message() {
    let mut input = vec![b'e'; 200_000];
    input.extend_from_slice(b"\nquit\n");
    for variant in ["antarctos", "iceage"] {
        let out = run(
            &["play", "--variant", variant, "--level", "1", "--seed", "1"],
            &input,
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{variant}");
        let error = text
            .lines()
            .find(|l| l.contains("not a legal move"))
            .unwrap_or_else(|| panic!("{variant}: no error line"));
        assert!(error.len() < 400, "{variant}: {} characters", error.len());
    }
}

#[test]
fn solve_stops_at_its_time_limit_with_an_honest_result() {
    // Twenty plies of Ice Age Chess from the start would take hours: the time limit ends the
    // search and the result covers only the plies searched in full.
    let out = run(
        &[
            "solve",
            "--variant",
            "iceage",
            "--fen",
            "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "--movetime",
            "200",
        ],
        b"",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let plies: u32 = text
        .trim()
        .strip_prefix("no forced result within ")
        .and_then(|rest| rest.strip_suffix(" plies"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(plies < 20, "{text}");
    assert!(err.contains("--movetime"), "{err}");
    fails(
        &[
            "solve",
            "--variant",
            "antarctos",
            "--fen",
            "W:Wa1:Bh8",
            "--movetime",
            "0",
        ],
        "--movetime",
    );
}

#[test]
fn solve_within_its_time_limit_is_a_full_proof() {
    // The worked examples finish long before the limit: no note on stderr.
    let out = run(
        &[
            "solve",
            "--variant",
            "antarctos",
            "--fen",
            "B:Wa5,d2,d4:Ba7,c7",
        ],
        b"",
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "win in 3 plies: 1... c7-b6 2. a5xc7 a7xc5xe3xc1#"
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn match_prints_no_negative_zero() {
    // One pair of capped games: every figure is zero, none of them "-0.0".
    let out = run(
        &[
            "match",
            "--variant",
            "antarctos",
            "--engine-a",
            "nodes=10",
            "--engine-b",
            "nodes=10",
            "--games",
            "2",
            "--random-plies",
            "2",
            "--max-plies",
            "5",
        ],
        b"",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("elo A-B"), "{text}");
    assert!(!text.contains("-0.0"), "{text}");
}

#[test]
fn match_refuses_weights_of_the_wrong_count_or_form() {
    for (weights, says) in [
        (
            "100/5",
            "--engine-b: weights=100/5: 2 weights given, the antarctos evaluation has 18 terms",
        ),
        ("100/x", "--engine-b: weights=100/x: 'x' is not an integer"),
    ] {
        let setting = format!("nodes=10,weights={weights}");
        let out = run(
            &[
                "match",
                "--variant",
                "antarctos",
                "--engine-a",
                "nodes=10",
                "--engine-b",
                &setting,
                "--games",
                "2",
            ],
            b"",
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains(says), "{err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn engine_command_help_describes_every_option() {
    for cmd in ["analyze", "solve", "play", "selfplay", "match"] {
        let out = run(&[cmd, "--help"], b"");
        assert_eq!(out.status.code(), Some(0), "{cmd}");
        let help = String::from_utf8_lossy(&out.stdout);
        // clap's long help puts an option's description on the line after its name; an
        // undocumented option is followed by an empty line or its `[default: ..]` alone.
        let lines: Vec<&str> = help.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let name = line.trim_start();
            if !name.starts_with("--") || name.starts_with("--help") {
                continue;
            }
            let next = lines.get(i + 1).map_or("", |l| l.trim());
            assert!(
                !next.is_empty() && !next.starts_with("[default"),
                "{cmd} --help: {name} has no description"
            );
        }
    }
}

#[test]
fn selfplay_and_match_reject_a_huge_game_count() {
    // It used to abort ("memory allocation of 446676598680 bytes failed", signal 6) while
    // making room for the results of four billion games.
    let err = fails(
        &[
            "selfplay",
            "--variant",
            "antarctos",
            "--games",
            "4294967295",
            "--nodes",
            "1",
        ],
        "--games",
    );
    assert!(err.contains("4294967295"), "{err}");
    fails(
        &[
            "match",
            "--variant",
            "antarctos",
            "--engine-a",
            "nodes=1",
            "--engine-b",
            "nodes=1",
            "--games",
            "4294967294",
        ],
        "--games",
    );
}

#[test]
fn selfplay_and_match_reject_random_plies_that_reach_the_ply_cap() {
    // A "capped" game of 50 random plies under a cap of 10 is no engine game at all.
    let err = fails(
        &[
            "selfplay",
            "--variant",
            "iceage",
            "--games",
            "2",
            "--nodes",
            "10",
            "--random-plies",
            "50",
            "--max-plies",
            "10",
        ],
        "--random-plies",
    );
    assert!(err.contains("--max-plies"), "{err}");
    fails(
        &[
            "match",
            "--variant",
            "antarctos",
            "--engine-a",
            "nodes=10",
            "--engine-b",
            "nodes=10",
            "--games",
            "2",
            "--max-plies",
            "8",
        ],
        "--random-plies",
    );
}

#[test]
fn match_with_a_perfect_score_says_it_has_no_finite_elo() {
    // Level 5 against a one-node search: A wins both games (deterministic for this seed).
    let out = run(
        &[
            "match",
            "--variant",
            "antarctos",
            "--engine-a",
            "level=5",
            "--engine-b",
            "nodes=1",
            "--games",
            "2",
            "--random-plies",
            "2",
            "--seed",
            "1",
        ],
        b"",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("score A 1.0000"), "{text}");
    assert!(
        text.contains("elo A-B +inf (A scored every point: no finite estimate"),
        "{text}"
    );
    assert!(!text.contains("inf to inf"), "{text}");
}

#[test]
fn selfplay_keeps_the_table_over_the_game_when_asked() {
    let args = |table: &'static str| {
        [
            "selfplay",
            "--variant",
            "antarctos",
            "--games",
            "2",
            "--nodes",
            "500",
            "--random-plies",
            "2",
            "--table",
            table,
        ]
    };
    let out = run(&args("game"), b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("engine nodes=500,table=game"), "{text}");
    let out = run(&args("move"), b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("engine nodes=500,"), "{text}");
    assert!(!text.contains("table=game"), "{text}");
    let out = run(&args("hash"), b"");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid value 'hash' for '--table"), "{err}");
}
