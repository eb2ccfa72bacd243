//! The `icebound` binary's rules commands on Antarctos: perft, moves, apply (README's
//! output contract), run as a separate process.

use crate::common;
use std::process::Output;

fn run(args: &[&str]) -> Output {
    common::bin().run(args)
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "{args:?} failed: {}", stderr(&out));
    stdout(&out)
}

fn fails(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?} should fail: {}",
        stdout(&out)
    );
    stderr(&out)
}

#[test]
fn perft_prints_nodes_time_and_nps() {
    let text = ok(&["perft", "--variant", "antarctos", "--depth", "6"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0], "nodes 39835");
    assert!(
        lines[1]
            .strip_prefix("time_ms ")
            .is_some_and(|v| v.parse::<u64>().is_ok()),
        "{text}"
    );
    assert!(
        lines[2]
            .strip_prefix("nps ")
            .is_some_and(|v| v.parse::<u64>().is_ok()),
        "{text}"
    );
}

#[test]
fn perft_divide_lists_each_first_move() {
    let text = ok(&[
        "perft",
        "--variant",
        "antarctos",
        "--depth",
        "3",
        "--divide",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7 + 3, "{text}");
    let mut sum = 0;
    for line in &lines[..7] {
        let (mv, count) = line.split_once(' ').expect("<move> <count>");
        assert_eq!(mv.len(), 5, "{line}");
        sum += count.parse::<u64>().expect("count");
    }
    assert_eq!(sum, 302);
    assert_eq!(lines[7], "nodes 302");
    // Sorted by move text.
    let moves: Vec<&str> = lines[..7].iter().map(|l| &l[..5]).collect();
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
}

#[test]
fn perft_from_fen() {
    let text = ok(&[
        "perft",
        "--variant",
        "antarctos",
        "--fen",
        "W:Wb4,e3,f2:Bc7,d6:Ic3",
        "--depth",
        "2",
    ]);
    assert!(text.starts_with("nodes "), "{text}");
}

#[test]
fn moves_are_sorted_canonical_text() {
    let text = ok(&["moves", "--variant", "antarctos"]);
    assert_eq!(text, "a3-b4\nc3-b4\nc3-d4\ne3-d4\ne3-f4\ng3-f4\ng3-h4\n");
    let text = ok(&[
        "moves",
        "--variant",
        "antarctos",
        "--fen",
        "W:Wb2,c1,h2:Ba3,c5:Ie5,e7,g3",
    ]);
    assert_eq!(text, "b2-c3\nc1-d2\nh2xf4xd6xb4\n");
}

#[test]
fn apply_worked_example_1_breakthrough() {
    let text = ok(&[
        "apply",
        "--variant",
        "antarctos",
        "--fen",
        "B:Wa5,d2,d4:Ba7,c7",
        "c7-b6",
        "a5xc7",
        "a7xc5xe3xc1#",
    ]);
    assert_eq!(
        text,
        "W:Wc7:Bc1:Id2,d4\nresult 0-1 black wins (breakthrough)\n"
    );
}

#[test]
fn apply_worked_example_2_breakthrough() {
    let text = ok(&[
        "apply",
        "--variant",
        "antarctos",
        "--fen",
        "W:Wb4,e3,f2:Bc7,d6:Ic3",
        "b4-c5",
        "d6:b4:d2:f4",
        "f2xd8",
    ]);
    assert_eq!(
        text,
        "B:Wd8:Bf4:Ic7\nresult 1-0 white wins (breakthrough)\n"
    );
}

#[test]
fn apply_worked_example_3_no_moves() {
    let text = ok(&[
        "apply",
        "--variant",
        "antarctos",
        "--fen",
        "W:Wb2,c1,h2:Ba3,c5:Ie5,e7,g3",
        "h2xf4xd6xb4",
    ]);
    assert_eq!(
        text,
        "B:Wc1,b2,b4:Ba3:Ic5,e7\nresult 1-0 white wins (no moves)\n"
    );
}

#[test]
fn apply_results_black_no_moves_and_total_freeze() {
    // White's only man is blocked by b2 with ice behind it.
    let text = ok(&["apply", "--variant", "antarctos", "--fen", "W:Wa1:Bb2:Ic3"]);
    assert_eq!(text, "W:Wa1:Bb2:Ic3\nresult 0-1 black wins (no moves)\n");
    let text = ok(&[
        "apply",
        "--variant",
        "antarctos",
        "--fen",
        "B:Wc3:Bb4,h8",
        "b4xd2",
    ]);
    assert_eq!(
        text,
        "W:W:Bd2,h8:Ic3\nresult 0-1 black wins (total freeze)\n"
    );
    let text = ok(&["apply", "--variant", "antarctos"]);
    assert!(text.ends_with("result ongoing\n"), "{text}");
}

#[test]
fn apply_illegal_move_names_it_and_its_number() {
    let err = fails(&["apply", "--variant", "antarctos", "c3-d4", "c3-d4"]);
    assert!(err.contains("move 2"), "{err}");
    assert!(err.contains("c3-d4"), "{err}");
    let err = fails(&["apply", "--variant", "antarctos", "a3-b4", "h6-g5", "b4-a6"]);
    assert!(err.contains("move 3") && err.contains("b4-a6"), "{err}");
}

#[test]
fn apply_ambiguous_and_incomplete_moves_fail() {
    let fen = "W:We1:Bd2,f2,d4,f4,a7";
    let err = fails(&["apply", "--variant", "antarctos", "--fen", fen, "e1xe1"]);
    assert!(err.contains("move 1") && err.contains("ambiguous"), "{err}");
    assert!(
        err.contains("e1xc3xe5xg3xe1") && err.contains("e1xg3xe5xc3xe1"),
        "{err}"
    );
    let err = fails(&[
        "apply",
        "--variant",
        "antarctos",
        "--fen",
        "W:Wb4,e3,f2:Bc7,d6:Ic3",
        "b4-c5",
        "d6xb4xf4",
    ]);
    assert!(
        err.contains("move 2") && err.contains("d6xb4xd2xf4"),
        "{err}"
    );
}

#[test]
fn apply_after_the_end_fails() {
    let err = fails(&[
        "apply",
        "--variant",
        "antarctos",
        "--fen",
        "W:Wc7:Bh6",
        "c7-d8",
        "h6-g5",
    ]);
    assert!(err.contains("move 2") && err.contains("over"), "{err}");
}

#[test]
fn bad_fen_fails_with_the_reason() {
    let err = fails(&["moves", "--variant", "antarctos", "--fen", "W:Wb1:Bc7"]);
    assert!(err.contains("b1") && err.contains("light"), "{err}");
    let err = fails(&[
        "perft",
        "--variant",
        "antarctos",
        "--fen",
        "W:Wc3,c3:Bc7",
        "--depth",
        "1",
    ]);
    assert!(err.contains("c3") && err.contains("twice"), "{err}");
    let err = fails(&["apply", "--variant", "antarctos", "--fen", "W:Wb8:Bc7"]);
    assert!(err.contains("b8"), "{err}");
}
