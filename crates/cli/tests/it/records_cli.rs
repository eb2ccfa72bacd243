//! `icebound pdn` / `icebound pgn`: one line per game (tags, moves, result written and
//! reached), or the game's first error with its game and move number; exit status 1 when
//! any game fails.

use crate::common;
use std::path::PathBuf;

fn icebound(args: &[&str]) -> (i32, String, String) {
    let out = common::bin().run(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A file in the temp directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn path(&self) -> &str {
        self.0.to_str().expect("utf-8 temp path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Writes `text` to a file of its own (named after the process and `name`).
fn temp_file(name: &str, text: &str) -> TempFile {
    let path = std::env::temp_dir().join(format!(
        "icebound-records-cli-{}-{name}",
        std::process::id()
    ));
    std::fs::write(&path, text).expect("write temp file");
    TempFile(path)
}

fn data_dir() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/pdn")
}

fn records_file(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/records")
        .join(name);
    path.to_str().expect("utf-8 path").to_string()
}

const SEEDS_PDN: &str = "[Event \"Seed 1\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n\
    [FEN \"B:Wa5,d2,d4:Ba7,c7\"]\n\n1... c7-b6 2. a5xc7 a7xc5xe3xc1 0-1\n\n\
    [Event \"Seed 2\"]\n[White \"Cy\"]\n[Black \"Di\"]\n[FEN \"W:Wb4,e3,f2:Bc7,d6:Ic3\"]\n\n\
    1. b4-c5 d6xb4xd2xf4 2. f2xd4xb6xd8# 1-0\n";

#[test]
fn a19_pdn_good_file_one_line_per_game() {
    let path = temp_file("seeds.pdn", SEEDS_PDN);
    let (code, out, err) = icebound(&["pdn", "--variant", "antarctos", path.path()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out,
        "game 1: Ann - Bob | Seed 1 | 3 plies | result 0-1 | board 0-1 black wins (breakthrough)\n\
         game 2: Cy - Di | Seed 2 | 3 plies | result 1-0 | board 1-0 white wins (breakthrough)\n"
    );
}

#[test]
fn a19_pdn_bad_game_gives_game_and_move_and_exit_1() {
    let text = format!("{SEEDS_PDN}\n[Event \"Bad\"]\n\n1. c3-d4 f6-e5 2. d4-c5 *\n");
    let path = temp_file("mixed.pdn", &text);
    let (code, out, err) = icebound(&["pdn", path.path()]);
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("game 1: Ann - Bob"), "{out}");
    assert!(lines[2].starts_with("game 3, move 2 (line 17): "), "{out}");
    assert!(lines[2].contains("d4-c5"), "{out}");
    assert!(err.contains("1 of 3 games could not be replayed"), "{err}");
}

#[test]
fn a19_pdn_real_russian_file() {
    let path = data_dir().join("ussr1950-x-ussr-ch-first5.pdn");
    let (code, out, err) = icebound(&[
        "pdn",
        "--variant",
        "antarctos",
        path.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[0].starts_with("game 1, move 8 (line 10): "), "{out}");
    assert!(lines[1].starts_with("game 2, move 5 (line 25): "), "{out}");
    for (i, line) in lines.iter().enumerate() {
        assert!(
            line.starts_with(&format!("game {}, move ", i + 1)),
            "{line}"
        );
    }
}

#[test]
fn a19_pdn_nested_comment_file() {
    let path = data_dir().join("fmjd-pdn3-edge/fail/nested_comment.pdn");
    let (code, out, _) = icebound(&["pdn", path.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("game 1, move 2... (line 1): nested comment"),
        "{out}"
    );
}

#[test]
fn records_missing_or_empty_file_is_an_error() {
    let (code, _, err) = icebound(&["pdn", "/nonexistent/icebound/none.pdn"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read"), "{err}");
    let path = temp_file("empty.pgn", "\n% nothing here\n");
    let (code, _, err) = icebound(&["pgn", path.path()]);
    assert_eq!(code, 1);
    assert!(err.contains("no games found"), "{err}");
}

#[test]
fn c14_pgn_good_and_bad_games() {
    let text = "[Event \"Open\"]\n[White \"W\"]\n[Black \"B\"]\n\n1. Nxf3 Nxf6 2. exd3 {ice} exd6 *\n\n\
                [Event \"Blocked\"]\n[White \"X\"]\n[Black \"Y\"]\n\n1. Nxf3 Nxf6 2. e4 *\n";
    let path = temp_file("games.pgn", text);
    let (code, out, err) = icebound(&["pgn", "--variant", "iceage", path.path()]);
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(
        lines[0],
        "game 1: W - B | Open | 4 plies | result * | board ongoing"
    );
    assert!(lines[1].starts_with("game 2, move 2 (line 11): "), "{out}");
    assert!(lines[1].contains("e4"), "{out}");
    assert!(err.contains("1 of 2 games could not be replayed"), "{err}");
}

#[test]
fn c14_pgn_frozen_king_game() {
    // Black's king alone on a7 freezes in the Ice Age of move 20 (C7).
    // No ice on the board: the Variant tag makes it an Ice Age game (C14a).
    let text = "[Event \"Freeze\"]\n[White \"W\"]\n[Black \"B\"]\n[Variant \"Ice Age\"]\n\
                [SetUp \"1\"]\n[FEN \"k7/8/8/8/8/8/8/KR6 b - - 0 20\"]\n\n20... Ka7 {Ice Age: Ka7 frozen} 1-0\n";
    let path = temp_file("freeze.pgn", text);
    let (code, out, err) = icebound(&["pgn", path.path()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out,
        "game 1: W - B | Freeze | 1 ply | result 1-0 | board 1-0 white wins (frozen king)\n"
    );
}

/// C14 / A19: a record of the other game, read with the wrong command, fails game by game
/// and the final error says which command reads it (the tags name the game).
#[test]
fn c14_pgn_read_as_pdn_names_the_right_command() {
    let pgn = temp_file(
        "iceage-as-pdn.pgn",
        "[Event \"e\"]\n[Variant \"Ice Age\"]\n[Result \"*\"]\n\n1. Nxc3 *\n",
    );
    let (code, out, err) = icebound(&["pdn", "--variant", "antarctos", pgn.path()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.starts_with("game 1 (line 2): this is an Ice Age Chess game ([Variant \"Ice Age\"])"),
        "{out}"
    );
    assert!(
        err.contains(
            "the file's tags say Ice Age Chess: read it with `icebound pgn --variant iceage`"
        ),
        "{err}"
    );
    // The same file read with the right command replays.
    let (code, out, err) = icebound(&["pgn", "--variant", "iceage", pgn.path()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!err.contains("tags say"), "{err}");

    let pdn = temp_file(
        "antarctos-as-pgn.pdn",
        "[Event \"e\"]\n[GameType \"Antarctos\"]\n[Result \"*\"]\n\n1. c3-d4 *\n",
    );
    let (code, out, err) = icebound(&["pgn", "--variant", "iceage", pdn.path()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains(
            "the file's tags say Antarctos: read it with `icebound pdn --variant antarctos`"
        ),
        "{err}"
    );
    // An untagged file that fails gets no hint.
    let (_, _, err) = icebound(&[
        "pdn",
        data_dir()
            .join("ussr1950-x-ussr-ch-first5.pdn")
            .to_str()
            .expect("utf-8"),
    ]);
    assert!(!err.contains("tags say"), "{err}");
}

/// `convert` writes every game again in canonical form (comments and variations kept),
/// and what it writes reads back the same.
#[test]
fn c14_convert_writes_canonical_pgn_that_reads_back() {
    let (code, out, err) = icebound(&[
        "convert",
        "--variant",
        "iceage",
        &records_file("annotated.pgn"),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.is_empty(), "{err}");
    assert!(
        out.contains("[Variant \"Ice Age\"]\n[SetUp \"1\"]\n"),
        "{out}"
    );
    assert!(
        out.contains("1. Nxf3! {the knight takes ice}\n(1. hxg3"),
        "{out}"
    );
    let path = temp_file("converted.pgn", &out);
    let (code, again, err) = icebound(&["convert", "--variant", "iceage", path.path()]);
    assert_eq!((code, again.as_str()), (0, out.as_str()), "{err}");
}

/// `convert` of a legacy-encoded PDN: the letters survive, the guess is a warning on
/// stderr; a game that cannot be read is left out with its error and exit status 1.
#[test]
fn a19_convert_warns_and_leaves_out_unreadable_games() {
    let (code, out, err) = icebound(&[
        "convert",
        "--variant",
        "antarctos",
        &records_file("windows-1251.pdn"),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("[White \"Белые\"]") && out.contains("{хороший ход}"),
        "{out}"
    );
    assert!(
        err.starts_with("warning: file: the file is not UTF-8: read as windows-1251"),
        "{err}"
    );
    let (code, out, err) = icebound(&[
        "convert",
        "--variant",
        "antarctos",
        &records_file("other-game-types.pdn"),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(out.matches("[GameType \"Antarctos\"]").count(), 2, "{out}");
    assert!(
        err.contains("error: game 1 (line 2): this is an international draughts (10x10) game"),
        "{err}"
    );
    assert!(
        err.contains("3 of 5 games could not be read and were left out"),
        "{err}"
    );
}

/// `pdn` and `pgn` print the reader's warnings on stderr; stdout keeps one line per game.
#[test]
fn c14_records_commands_print_warnings() {
    let (code, out, err) = icebound(&["pgn", &records_file("no-result-marker.pgn")]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().count(), 4, "{out}");
    assert!(err.contains("warning: game 1: no result marker"), "{err}");
    assert!(
        err.contains(
            "warning: game 2 (line 8): the [Result \"1-0\"] tag and the result marker 0-1 disagree"
        ),
        "{err}"
    );
}

/// Fault 8: what `apply` writes from full-move 1,000,000 is read by `apply` again.
#[test]
fn c12_apply_output_reads_back() {
    let (code, out, err) = icebound(&[
        "apply",
        "--variant",
        "iceage",
        "--fen",
        "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1000000",
        "Kd8",
    ]);
    assert_eq!(code, 0, "{err}");
    let fen = out.lines().next().expect("position line");
    assert!(fen.ends_with(" 1000001"), "{fen}");
    let (code, again, err) = icebound(&["apply", "--variant", "iceage", "--fen", fen]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again.lines().next(), Some(fen));
}
