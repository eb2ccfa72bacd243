//! The `icebound` CLI on Ice Age Chess: `perft`, `moves`, `apply` and their result texts
//! (C7, C10), and the error for an illegal move.

use crate::common;
use std::process::Output;

fn icebound(args: &[&str]) -> Output {
    common::bin().run(args)
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `apply` from `fen` and returns its `result ...` line.
fn apply_result(fen: &str, moves: &[&str]) -> String {
    let mut args = vec!["apply", "--variant", "iceage", "--fen", fen];
    args.extend_from_slice(moves);
    let out = icebound(&args);
    assert!(
        out.status.success(),
        "apply failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout(&out)
        .lines()
        .find_map(|l| l.strip_prefix("result ").map(str::to_string))
        .expect("a result line")
}

#[test]
fn perft_of_the_ice_age_start_position() {
    let out = icebound(&["perft", "--variant", "iceage", "--depth", "3"]);
    assert!(out.status.success());
    assert!(
        stdout(&out).lines().any(|l| l == "nodes 6264"),
        "{}",
        stdout(&out)
    );
    let out = icebound(&["perft", "--variant", "iceage", "--depth", "2", "--divide"]);
    let text = stdout(&out);
    assert!(text.lines().any(|l| l == "hxg3 18"), "{text}");
    assert!(text.lines().any(|l| l == "nodes 324"), "{text}");
}

#[test]
fn moves_of_the_start_position_are_ice_captures() {
    let out = icebound(&["moves", "--variant", "iceage"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let moves: Vec<&str> = text.lines().collect();
    assert_eq!(moves.len(), 18);
    assert!(moves.contains(&"hxg3") && moves.contains(&"Nxf3"));
    assert!(moves.iter().all(|m| m.contains('x')));
}

#[test]
fn apply_prints_position_and_ongoing() {
    let out = icebound(&["apply", "--variant", "iceage", "hxg3", "Nxf6", "g1f3"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(
            "rnbqkb1r/pppppppp/*****n**/********/********/*****NP*/PPPPPPP1/RNBQKB1R b KQkq - 2 2"
        )
    );
    // hxg3 resets the clock; the two ice captures do not (C10).
    assert_eq!(lines.next(), Some("result ongoing"));
}

#[test]
fn apply_result_texts() {
    assert_eq!(
        apply_result("k7/8/1K6/8/8/8/8/7R w - - 0 30", &["Rh8"]),
        "1-0 white wins (checkmate)"
    );
    assert_eq!(
        apply_result("7k/7p/8/8/8/8/8/K7 b - - 0 20", &["Kg8"]),
        "0-1 black wins (frozen king)"
    );
    assert_eq!(
        apply_result("7k/8/8/8/8/8/8/K7 b - - 0 20", &["Kg8"]),
        "1/2-1/2 draw (both kings frozen)"
    );
    assert_eq!(
        apply_result("k7/8/8/1Q6/8/8/8/4K3 w - - 0 30", &["Qb6"]),
        "1/2-1/2 draw (stalemate)"
    );
    assert_eq!(
        apply_result("4k3/8/8/8/8/8/3*P3/4K3 w - - 99 30", &["Kxd2"]),
        "1/2-1/2 draw (fifty-move rule)"
    );
}

#[test]
fn illegal_move_exits_1_naming_move_and_number() {
    // e2 is blocked by the ice on e3 (C2).
    let out = icebound(&["apply", "--variant", "iceage", "hxg3", "Nxf6", "e4"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move 3 'e4'"), "{err}");
    let out = icebound(&["apply", "--variant", "iceage", "e2e4"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move 1 'e2e4'"), "{err}");
    // A bad position is an error too, saying what is wrong.
    let out = icebound(&["moves", "--variant", "iceage", "--fen", "8/8/8 w - - 0 1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ranks"));
}
