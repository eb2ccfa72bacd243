//! Faults of issue 11 in position and move text: `#` after a freezing Ice Age (fault 1),
//! full-move numbers the writer writes must read (fault 8), one en-passant rule (fault 9),
//! and refusals that name their decision (fault 10, for Ice Age Chess too). Cases come from
//! `testdata/positions`.

use crate::common;

use common::{mv, pos};
use iceage::{fen, notation};

/// The `|`-separated cases of a file of `testdata/positions`.
fn cases(name: &str) -> Vec<Vec<String>> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/positions")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("cases file");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('|').map(|f| f.trim().to_string()).collect())
        .collect()
}

/// Fault 1 (C7, C8): the Ice Age of Black's 20th move freezes Black's own king: Black has
/// lost, and the knight's check is only `+`. `#` needs both kings on the board.
#[test]
fn c8_mate_sign_only_for_checkmate_after_the_ice_age() {
    let p = pos("7k/8/8/8/1n6/8/4P3/4K3 b - - 0 20");
    let moves = game::sorted_move_texts::<iceage::IceAge>(&p);
    assert!(moves.contains(&"Nd3+".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.ends_with('#')), "{moves:?}");
    let after = p.play(&mv(&p, "Nd3")).expect("legal");
    assert!(after.is_check() && !after.is_checkmate());
    // A checkmate with both kings on the board still gets `#`.
    let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 5");
    assert_eq!(notation::move_text(&p, &mv(&p, "Ra8")), "Ra8#");
}

/// Fault 8 (C12): `apply` from full-move 1,000,000 writes 1,000,001, and every number the
/// count can reach reads back; past `u32::MAX` is refused.
#[test]
fn c12_every_fullmove_number_written_reads_back() {
    let p = pos("4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1000000");
    let after = p.play(&mv(&p, "Kd8")).expect("legal");
    let text = fen::write(&after);
    assert!(text.ends_with(" 1000001"), "{text}");
    assert_eq!(fen::write(&pos(&text)), text);
    assert!(
        fen::parse("4k3/8/8/8/8/8/8/4K3 w - - 0 4294967296")
            .unwrap_err()
            .to_string()
            .contains("too large")
    );
}

/// Fault 9 (C1): the en-passant square is written only when an en-passant capture onto it
/// is legal, after a move and when read from FEN.
#[test]
fn c1_en_passant_square_only_when_the_capture_is_legal() {
    let all = cases("iceage-en-passant.txt");
    assert_eq!(all.len(), 5);
    for case in all {
        let [before, text, after] = &case[..] else {
            panic!("bad case {case:?}");
        };
        let p = pos(before);
        let next = p.play(&mv(&p, text)).expect("legal");
        assert_eq!(&fen::write(&next), after, "{before} {text}");
        // The same rule when the square is given in a FEN: an illegal one is dropped.
        let fields: Vec<&str> = after.split(' ').collect();
        if fields[3] == "-" {
            let square =
                (text.as_bytes()[0] as char).to_string() + if fields[1] == "b" { "3" } else { "6" };
            let given = [
                fields[0], fields[1], fields[2], &square, fields[4], fields[5],
            ]
            .join(" ");
            assert_eq!(&fen::write(&pos(&given)), after, "{given}");
        }
    }
}

/// Fault 10 for Ice Age Chess: a refused move says which decision forbids the likely
/// reading.
#[test]
fn c1_c2_c3_rejections_name_the_decision() {
    let all = cases("iceage-rejections.txt");
    assert_eq!(all.len(), 6);
    for case in all {
        let [position, text, says] = &case[..] else {
            panic!("bad case {case:?}");
        };
        let e = notation::parse_move(&pos(position), text)
            .expect_err(text)
            .to_string();
        assert!(
            e.contains(says.as_str()),
            "{position} {text}:\n  got:  {e}\n  want: {says}"
        );
    }
}
