//! QA: positions checked by hand against `docs/rules/antarctos.md`, and the bugs found by trying
//! the crate as a user would. Each test names the decision it checks.

use antarctos::{Antarctos, MoveTextError, Position, fen, notation};
use game::{Color, EndReason, Outcome, Variant};

fn pos(text: &str) -> Position {
    fen::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn texts(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn play(p: &Position, moves: &[&str]) -> Position {
    moves.iter().fold(p.clone(), |p, t| {
        let m = notation::parse_move(&p, t).unwrap_or_else(|e| panic!("{t}: {e}"));
        p.play(&m).unwrap_or_else(|e| panic!("{t}: {e}"))
    })
}

#[test]
fn a9_short_form_while_a_capture_is_compulsory_says_so() {
    let p = pos("W:Wa3,c3,e3:Bd4,h8");
    let e = notation::parse_move(&p, "ab4").expect_err("a capture is compulsory");
    assert!(matches!(e, MoveTextError::NoMatch { .. }), "{e}");
    assert!(e.to_string().contains("compulsory (A9)"), "{e}");
}

#[test]
fn a8_a11_a17_loop_back_to_the_start_square_each_man_jumped_once() {
    // c3 takes d4, f4, f2, d2 in either order and lands on its own start square (A11);
    // neither route may jump a man twice (A8), so there are exactly two turns.
    let p = pos("W:Wc3:Bd2,f2,d4,f4,h8");
    assert_eq!(texts(&p), ["c3xe1xg3xe5xc3", "c3xe5xg3xe1xc3"]);
    match notation::parse_move(&p, "c3xc3") {
        Err(MoveTextError::Ambiguous { candidates, .. }) => assert_eq!(candidates.len(), 2),
        other => panic!("expected ambiguity, got {other:?}"),
    }
    assert!(matches!(
        notation::parse_move(&p, "c3xe1xc3"),
        Err(MoveTextError::Incomplete { .. })
    ));
    let after = play(&p, &["C3:E5:G3:E1:C3"]);
    assert_eq!(fen::write(&after), "B:Wc3:Bh8:Id2,f2,d4,f4");
}

#[test]
fn a10_capture_beats_ice_after_an_ice_jump_start() {
    // a1 may start on the ice b2 (A9: no capture at the start); on c3 the capture of d4
    // beats the ice on b4 (A10).
    let p = pos("W:Wa1:Bd4,h8:Ib2,b4");
    assert_eq!(texts(&p), ["a1xc3xe5"]);
}

#[test]
fn a12_touching_the_goal_row_mid_sequence_does_not_win() {
    // b6 takes c7 and lands on d8 (White's goal row), then must jump the ice on e7 to f6.
    let p = pos("W:Wb6:Bc7,h4:Ie7");
    assert_eq!(texts(&p), ["b6xd8xf6"]);
    assert!(matches!(
        notation::parse_move(&p, "b6xd8"),
        Err(MoveTextError::Incomplete { .. })
    ));
    let after = play(&p, &["b6xf6"]);
    assert_eq!(Antarctos::outcome(&after), None);
    // Without the ice the sequence ends on d8: breakthrough, even though it also took
    // Black's last man (A12 is judged before A13).
    let won = play(&pos("W:Wb6:Bc7"), &["b6xd8"]);
    assert_eq!(
        Antarctos::outcome(&won),
        Some(Outcome::Win {
            winner: Color::White,
            reason: EndReason::Breakthrough
        })
    );
}

#[test]
fn a13_a14_total_freeze_and_no_moves_blocked_by_ice() {
    let frozen = play(&pos("W:Wc3:Bd4"), &["c3xe5"]);
    assert_eq!(
        Antarctos::outcome(&frozen),
        Some(Outcome::Win {
            winner: Color::White,
            reason: EndReason::TotalFreeze
        })
    );
    // h4's only step (g3) holds ice and its ice jump lands on f2, now White's.
    let stuck = play(&pos("W:Wg1,h2:Bh4:Ig3"), &["g1-f2"]);
    assert_eq!(
        Antarctos::outcome(&stuck),
        Some(Outcome::Win {
            winner: Color::White,
            reason: EndReason::NoMoves
        })
    );
}

#[test]
fn a18_rejections_name_field_and_square() {
    for (text, says) in [
        ("W:", "field 2 is empty"),
        ("W:W:B:", "field 4 is empty"),
        ("W::W:B", "field 2 is empty"),
        ("W:Wa1", "missing field B"),
        ("W:Wb1:B", "b1 is a light square"),
        ("W:Wa1,a1:B", "a1 is listed twice (fields W and W, A18)"),
        ("W:Wa1:B:Ia1", "a1 is listed twice (fields W and I, A18)"),
        ("W:WKa1:B", "no kings"),
        ("W:Wa1:Bc3:Ie5:Ig7", "field I appears twice"),
        ("W:Wb8:Bc7", "b8, its goal row"),
    ] {
        let e = fen::parse(text).expect_err(text).to_string();
        assert!(e.contains(says), "{text}: {e}");
    }
}

#[test]
fn a17_move_text_errors_carry_their_kind() {
    use game::{MoveTextFault, MoveTextKind};
    let p = pos("W:Wc3:Bd2,f2,d4,f4,h8");
    let kind = |text: &str| Antarctos::parse_move(&p, text).expect_err(text).kind();
    assert_eq!(kind("c3xc3"), MoveTextKind::Ambiguous);
    assert_eq!(kind("c3xe1xc3"), MoveTextKind::NoMatch);
    assert_eq!(kind("c3-d4"), MoveTextKind::NoMatch);
    assert_eq!(kind("c3-z9"), MoveTextKind::Unreadable);
    assert_eq!(kind("hello"), MoveTextKind::Unreadable);
    let err = |text: &str| Antarctos::parse_move(&p, text).expect_err(text);
    assert_eq!(
        err("c3xc3").candidates().len(),
        2,
        "both ways round are named"
    );
    assert!(err("c3-d4").candidates().is_empty());
}

/// A6-A11, A5: the reason a readable turn is not legal comes as a code and its squares too,
/// so that the site words it in each language.
#[test]
fn a6_a11_no_match_reasons_carry_a_code_and_squares() {
    use game::MoveTextFault;
    let start = Antarctos::start_position();
    let reason = |p: &Position, text: &str| {
        let e = Antarctos::parse_move(p, text).expect_err(text);
        e.hint().map(|h| (h.code, h.squares.clone()))
    };
    let sq = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        reason(&start, "c3-e5"),
        Some(("nothing_to_jump", sq(&["d4"])))
    );
    assert_eq!(reason(&start, "d4-e5"), Some(("no_man", sq(&["d4"]))));
    assert_eq!(reason(&start, "f6-e5"), Some(("not_own_man", sq(&["f6"]))));
    assert_eq!(reason(&start, "c3-b2"), Some(("forward_only", sq(&[]))));
    // A9: a man beside an enemy must take.
    let p = pos("W:Wc3,g3:Bd4");
    assert_eq!(reason(&p, "g3-h4"), Some(("capture_compulsory", sq(&[]))));
}
