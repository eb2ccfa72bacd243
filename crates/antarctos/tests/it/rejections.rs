//! Every refused move names the decision that forbids it (issue 11, fault 10): the cases
//! of `testdata/positions/antarctos-rejections.txt`, one per kind of rejection.

use antarctos::{fen, notation};

#[test]
fn a5_to_a17_rejections_name_the_right_decision() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/positions/antarctos-rejections.txt");
    let text = std::fs::read_to_string(&path).expect("cases file");
    let mut cases = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [position, text, says] = fields[..] else {
            panic!("bad case line: {line}");
        };
        let pos = fen::parse(position).unwrap_or_else(|e| panic!("{position}: {e}"));
        let e = notation::parse_move(&pos, text)
            .expect_err(line)
            .to_string();
        assert!(
            e.contains(says),
            "{position} {text}:\n  got:  {e}\n  want: {says}"
        );
        cases += 1;
    }
    assert_eq!(cases, 19);
}

/// The example of the issue: `c3xe5xc3` jumps d4 twice. The message names A8, and not A9
/// (the turn is a capture, as A9 asks).
#[test]
fn a8_jumping_a_man_twice_is_blamed_on_a8() {
    let pos = fen::parse("W:Wc3:Bd4,a7").expect("position");
    let e = notation::parse_move(&pos, "c3xe5xc3").expect_err("d4 twice");
    let text = e.to_string();
    assert!(text.contains("(A8)") && !text.contains("A9"), "{text}");
}
