//! The engine's commands through the real binary: `analyze`, `solve`, `play` (on a pipe).

use crate::common;
use std::io::Write;
use std::process::{Output, Stdio};

fn icebound(args: &[&str], stdin: &str) -> Output {
    let mut child = common::bin()
        .command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("binary ends")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn analyze_prints_iterations_then_bestmove() {
    let o = icebound(
        &[
            "analyze",
            "--variant",
            "antarctos",
            "--fen",
            "W:Wb4,e3,f2:Bc7,d6:Ic3",
            "--depth",
            "4",
        ],
        "",
    );
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("depth 1 score "), "{out}");
    for l in &lines[..lines.len() - 1] {
        let f: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(f[0], "depth");
        assert!(
            l.contains(" nodes ") && l.contains(" nps ") && l.contains(" pv "),
            "{l}"
        );
    }
    assert!(out.contains("score win 3 "), "{out}");
    assert_eq!(lines.last(), Some(&"bestmove b4-c5"));
}

#[test]
fn analyze_finds_chess_mate_in_two() {
    let o = icebound(
        &[
            "analyze",
            "--variant",
            "iceage",
            "--fen",
            "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1",
            "--nodes",
            "20000",
        ],
        "",
    );
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("score win 3 "), "{out}");
    assert!(out.contains("Ra8#"), "{out}");
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| l.starts_with("bestmove "))
    );
}

#[test]
fn analyze_rejects_bad_position() {
    let o = icebound(
        &[
            "analyze",
            "--variant",
            "antarctos",
            "--fen",
            "W:Wz9",
            "--depth",
            "2",
        ],
        "",
    );
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad position"));
}

#[test]
fn solve_proves_the_worked_examples() {
    let cases = [
        (
            "B:Wa5,d2,d4:Ba7,c7",
            "win in 3 plies: 1... c7-b6 2. a5xc7 a7xc5xe3xc1#",
        ),
        (
            "W:Wb4,e3,f2:Bc7,d6:Ic3",
            "win in 3 plies: 1. b4-c5 d6xb4xd2xf4 2. f2xd4xb6xd8#",
        ),
        (
            "W:Wb2,c1,h2:Ba3,c5:Ie5,e7,g3",
            "win in 1 plies: 1. h2xf4xd6xb4#",
        ),
    ];
    for (fen, line) in cases {
        let o = icebound(&["solve", "--variant", "antarctos", "--fen", fen], "");
        assert!(o.status.success());
        assert_eq!(stdout(&o).trim(), line);
    }
    let o = icebound(
        &[
            "solve",
            "--variant",
            "antarctos",
            "--fen",
            "B:Wa5,d2,d4:Ba7,c7",
            "--max-plies",
            "2",
        ],
        "",
    );
    assert_eq!(stdout(&o).trim(), "no forced result within 2 plies");
}

#[test]
fn play_antarctos_to_the_end_through_a_pipe() {
    // Worked example 2 against the engine: Black's reply is forced.
    let o = icebound(
        &[
            "play",
            "--variant",
            "antarctos",
            "--fen",
            "W:Wb4,e3,f2:Bc7,d6:Ic3",
            "--level",
            "1",
        ],
        "zz9\nmoves\nb4c5\nf2xd8\n",
    );
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("not a legal move: 'zz9'"), "{out}");
    assert!(out.contains("legal moves: "), "{out}");
    assert!(out.contains("engine plays 1... d6xb4xd2xf4"), "{out}");
    assert!(out.contains("White wins by breakthrough"), "{out}");
    // The board is drawn with coordinates and ice.
    assert!(out.contains("    a b c d e f g h"), "{out}");
    assert!(out.contains("3 | "), "{out}");
    assert!(out.contains('*'), "{out}");
}

#[test]
fn play_iceage_ends_cleanly_at_end_of_input() {
    let o = icebound(
        &["play", "--variant", "iceage", "--level", "2", "--seed", "1"],
        "e2e4\nexd3\n",
    );
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("not a legal move: 'e2e4'"), "{out}");
    assert!(out.contains("you play 1. exd3"), "{out}");
    assert!(out.contains("engine plays 1... "), "{out}");
    assert!(out.contains("end of input: game left unfinished"), "{out}");
}

#[test]
fn play_as_black_lets_the_engine_start() {
    let o = icebound(
        &[
            "play",
            "--variant",
            "antarctos",
            "--color",
            "black",
            "--level",
            "3",
        ],
        "",
    );
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("engine plays 1. "), "{out}");
    assert!(out.contains("end of input"), "{out}");
}

#[test]
fn play_rejects_bad_options() {
    let o = icebound(&["play", "--variant", "antarctos", "--color", "red"], "");
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--color"));
    let o = icebound(&["play", "--variant", "antarctos", "--level", "9"], "");
    assert!(!o.status.success());
}
