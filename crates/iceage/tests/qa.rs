//! QA: positions checked by hand against `spec/iceage.md`, and the bugs found by trying the
//! crate as a user would. Each test names the decision it checks.

mod common;

use common::{mv, play, pos, san_moves};
use game::{EndReason, Outcome, Variant};
use iceage::{FenError, IceAge, MoveTextError, Position, fen, san};

#[test]
fn c13_pawn_san_without_file_is_a_push_not_an_ice_capture() {
    let start = Position::start();
    // a2-a3 is blocked by ice (C2): `a3` names no legal move; it must not play bxa3.
    assert!(
        matches!(san::parse(&start, "a3"), Err(MoveTextError::NoMatch { .. })),
        "{:?}",
        san::parse(&start, "a3")
    );
    // `e3` is no push either, so it is no match, not "ambiguous: dxe3, fxe3".
    assert!(
        matches!(san::parse(&start, "e3"), Err(MoveTextError::NoMatch { .. })),
        "{:?}",
        san::parse(&start, "e3")
    );
    assert_eq!(mv(&start, "bxa3").uci(), "b2a3");
    // A real push is still read without its file, and a capture with it.
    let p = pos("4k3/8/8/8/8/3*4/4P3/4K3 w - - 0 1");
    assert_eq!(mv(&p, "e4").uci(), "e2e4");
    assert_eq!(mv(&p, "e3").uci(), "e2e3");
    assert_eq!(mv(&p, "exd3").uci(), "e2d3");
    assert!(matches!(
        san::parse(&p, "d3"),
        Err(MoveTextError::NoMatch { .. })
    ));
}

#[test]
fn c13_en_passant_mark_accepted_and_trailing_letter_explained() {
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(mv(&p, "exd6 e.p.").uci(), "e5d6");
    assert_eq!(mv(&p, "exd6ep").uci(), "e5d6");
    match san::parse(&Position::start(), "Nx") {
        Err(MoveTextError::Syntax { why, .. }) => assert!(!why.contains("promotion"), "{why}"),
        other => panic!("expected a syntax error, got {other:?}"),
    }
    let pr = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    match san::parse(&pr, "a8=K") {
        Err(MoveTextError::Syntax { why, .. }) => assert!(why.contains("promotion"), "{why}"),
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

#[test]
fn c5_fen_starting_at_37_has_its_ice_age_at_black_40th_move() {
    let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 37");
    let before = play(&p, &["Kd1", "Kd8", "Ke1", "Ke8", "Kd1", "Kd8", "Ke1"]);
    assert_eq!(before.fullmoves(), 40);
    assert_eq!(before.board().ice().count(), 0);
    let after = play(&before, &["Ke8"]);
    // Every piece was isolated: both kings froze (C7), the board is all ice.
    assert_eq!(after.board().ice().count(), 64);
    assert_eq!(
        IceAge::outcome(&after),
        Some(Outcome::Draw {
            reason: EndReason::BothKingsFrozen
        })
    );
    // No Ice Age at Black's 37th, 38th or 39th move.
    assert!(play(&p, &["Kd1", "Kd8"]).board().ice().is_empty());
}

#[test]
fn c6a_c8_en_passant_square_of_a_20th_move_double_step_gets_ice() {
    let p = pos("8/3p4/2k5/4P3/5K2/8/8/8 b - - 0 19");
    let ep = play(&p, &["d5"]);
    assert_eq!(ep.ep_square().map(|s| s.to_string()), Some("d6".into()));
    let p20 = pos("8/3p4/2k5/4P3/5K2/8/8/8 b - - 0 20");
    let after = play(&p20, &["d5"]);
    assert_eq!(after.ep_square(), None);
    assert_eq!(
        fen::write(&after),
        "********/********/**k*****/***pP***/*****K**/********/********/******** w - - 0 21"
    );
    // exd6 is now an ordinary capture of the ice on d6: the d5 pawn stays (C3).
    let taken = play(&after, &["exd6"]);
    assert_eq!(
        fen::write(&taken).split(' ').next(),
        Some("********/********/**kP****/***p1***/*****K**/********/********/********")
    );
}

#[test]
fn c8_san_suffix_judged_after_the_ice_age() {
    // Qa1 is check at Black's 19th move, but at the 20th the queen on a1 is isolated and
    // freezes; Qxf2 stays next to the king and keeps its check.
    let p19 = pos("6k1/5pp1/8/8/8/8/q4PP1/6K1 b - - 0 19");
    let p20 = pos("6k1/5pp1/8/8/8/8/q4PP1/6K1 b - - 0 20");
    assert!(san_moves(&p19).contains(&"Qa1+".to_string()));
    let s20 = san_moves(&p20);
    assert!(s20.contains(&"Qa1".to_string()) && s20.contains(&"Qxf2+".to_string()));
    // A back-rank mate given by the 20th move is undone by the freeze (C8, C11a).
    let mate19 = play(&pos("r5k1/5ppp/8/8/8/8/6PP/7K b - - 0 19"), &["Ra1"]);
    assert!(matches!(
        IceAge::outcome(&mate19),
        Some(Outcome::Win {
            reason: EndReason::Checkmate,
            ..
        })
    ));
    let mate20 = play(&pos("r5k1/5ppp/8/8/8/8/6PP/7K b - - 0 20"), &["Ra1"]);
    assert_eq!(IceAge::outcome(&mate20), None);
    assert_eq!(mate20.halfmoves(), 0, "a freeze resets the clock (C9)");
}

#[test]
fn c2_c3_promotion_by_capturing_ice_and_castling_blocked_by_ice() {
    let p = pos("**4k1/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let sans = san_moves(&p);
    assert!(sans.contains(&"bxa8=Q".to_string()) && !sans.iter().any(|s| s.starts_with("b8")));
    assert!(matches!(
        san::parse(&p, "b8=Q"),
        Err(MoveTextError::NoMatch { .. })
    ));
    let c = pos("r3k2r/8/8/8/8/8/8/R*2K2R w KQkq - 0 1");
    let sans = san_moves(&c);
    assert!(sans.contains(&"O-O".to_string()) && !sans.contains(&"O-O-O".to_string()));
}

#[test]
fn c12_fen_rejections_name_the_problem() {
    let err = |t: &str| fen::parse(t).expect_err(t);
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K4 w - - 0 1"),
        FenError::RankLength { rank: 1, .. }
    ));
    assert!(matches!(
        err("**********/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::RankLength { rank: 8, .. }
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4Kä3 w - - 0 1"),
        FenError::UnknownLetter { letter: 'ä', .. }
    ));
    assert!(matches!(
        err("4k3/8/4*3/3Pp3/8/8/8/4K3 w - e6 0 1"),
        FenError::ImpossibleEnPassant { .. }
    ));
    assert!(matches!(
        err("r3k2r/8/8/8/8/8/8/*3K2R w KQkq - 0 1"),
        FenError::CastlingWithoutKingAndRook { right: 'Q', .. }
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3 w - - 0 0"),
        FenError::FullmoveZero
    ));
}

#[test]
fn c2_no_match_says_when_ice_blocks_a_pawn_push_or_a_check_is_on() {
    let start = Position::start();
    let e3 = san::parse(&start, "e3").expect_err("e3 is ice").to_string();
    assert!(e3.contains("e3 holds ice"), "{e3}");
    let p = pos("4k3/8/8/8/8/4*3/4P3/4K3 w - - 0 1");
    let e4 = san::parse(&p, "e4").expect_err("e3 blocks").to_string();
    assert!(e4.contains("ice on e3 blocks"), "{e4}");
    let b = pos("4k3/4p3/4*3/8/8/8/8/4K3 b - - 0 1");
    let e5 = san::parse(&b, "e5").expect_err("e6 blocks").to_string();
    assert!(e5.contains("ice on e6 blocks"), "{e5}");
    let chk = pos("4k3/8/8/8/8/8/3P4/r3K3 w - - 0 1");
    let d3 = san::parse(&chk, "d3").expect_err("in check").to_string();
    assert!(d3.contains("white is in check"), "{d3}");
}
