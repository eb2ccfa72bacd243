//! QA: positions checked by hand against `docs/rules/iceage.md`, and the bugs found by trying the
//! crate as a user would. Each test names the decision it checks.

use crate::common;

use common::{mv, play, pos, san_moves};
use game::{EndReason, Outcome, Variant};
use iceage::{IceAge, MoveTextError, Position, PositionError, fen, notation};

#[test]
fn c13_pawn_san_without_file_is_a_push_not_an_ice_capture() {
    let start = Position::start();
    // a2-a3 is blocked by ice (C2): `a3` names no legal move; it must not play bxa3.
    assert!(
        matches!(
            notation::parse_move(&start, "a3"),
            Err(MoveTextError::NoMatch { .. })
        ),
        "{:?}",
        notation::parse_move(&start, "a3")
    );
    // `e3` is no push either, so it is no match, not "ambiguous: dxe3, fxe3".
    assert!(
        matches!(
            notation::parse_move(&start, "e3"),
            Err(MoveTextError::NoMatch { .. })
        ),
        "{:?}",
        notation::parse_move(&start, "e3")
    );
    assert_eq!(mv(&start, "bxa3").uci(), "b2a3");
    // A real push is still read without its file, and a capture with it.
    let p = pos("4k3/8/8/8/8/3*4/4P3/4K3 w - - 0 1");
    assert_eq!(mv(&p, "e4").uci(), "e2e4");
    assert_eq!(mv(&p, "e3").uci(), "e2e3");
    assert_eq!(mv(&p, "exd3").uci(), "e2d3");
    assert!(matches!(
        notation::parse_move(&p, "d3"),
        Err(MoveTextError::NoMatch { .. })
    ));
}

#[test]
fn c13_en_passant_mark_accepted_and_trailing_letter_explained() {
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(mv(&p, "exd6 e.p.").uci(), "e5d6");
    assert_eq!(mv(&p, "exd6ep").uci(), "e5d6");
    match notation::parse_move(&Position::start(), "Nx") {
        Err(MoveTextError::Syntax { why, .. }) => assert!(!why.contains("promotion"), "{why}"),
        other => panic!("expected a syntax error, got {other:?}"),
    }
    let pr = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    match notation::parse_move(&pr, "a8=K") {
        Err(MoveTextError::Syntax { why, .. }) => assert!(why.contains("promotion"), "{why}"),
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

#[test]
fn c5_fen_starting_at_37_has_its_ice_age_at_black_40th_move() {
    let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 37");
    let before = play(&p, &["Kd1", "Kd8", "Ke1", "Ke8", "Kd1", "Kd8", "Ke1"]);
    assert_eq!(before.fullmove_number(), 40);
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
    assert_eq!(mate20.halfmove_clock(), 0, "a freeze resets the clock (C9)");
}

#[test]
fn c2_c3_promotion_by_capturing_ice_and_castling_blocked_by_ice() {
    let p = pos("**4k1/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let sans = san_moves(&p);
    assert!(sans.contains(&"bxa8=Q".to_string()) && !sans.iter().any(|s| s.starts_with("b8")));
    assert!(matches!(
        notation::parse_move(&p, "b8=Q"),
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
        PositionError::RankLength { rank: 1, .. }
    ));
    assert!(matches!(
        err("**********/8/8/8/8/8/8/4K3 w - - 0 1"),
        PositionError::RankLength { rank: 8, .. }
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4Kä3 w - - 0 1"),
        PositionError::UnknownLetter { letter: 'ä', .. }
    ));
    assert!(matches!(
        err("4k3/8/4*3/3Pp3/8/8/8/4K3 w - e6 0 1"),
        PositionError::ImpossibleEnPassant { .. }
    ));
    assert!(matches!(
        err("r3k2r/8/8/8/8/8/8/*3K2R w KQkq - 0 1"),
        PositionError::CastlingWithoutKingAndRook { right: 'Q', .. }
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3 w - - 0 0"),
        PositionError::FullmoveZero
    ));
}

#[test]
fn c2_no_match_says_when_ice_blocks_a_pawn_push_or_a_check_is_on() {
    let start = Position::start();
    let e3 = notation::parse_move(&start, "e3")
        .expect_err("e3 is ice")
        .to_string();
    assert!(e3.contains("e3 holds ice"), "{e3}");
    let p = pos("4k3/8/8/8/8/4*3/4P3/4K3 w - - 0 1");
    let e4 = notation::parse_move(&p, "e4")
        .expect_err("e3 blocks")
        .to_string();
    assert!(e4.contains("ice on e3 blocks"), "{e4}");
    let b = pos("4k3/4p3/4*3/8/8/8/8/4K3 b - - 0 1");
    let e5 = notation::parse_move(&b, "e5")
        .expect_err("e6 blocks")
        .to_string();
    assert!(e5.contains("ice on e6 blocks"), "{e5}");
    let chk = pos("4k3/8/8/8/8/8/3P4/r3K3 w - - 0 1");
    let d3 = notation::parse_move(&chk, "d3")
        .expect_err("in check")
        .to_string();
    assert!(d3.contains("white is in check"), "{d3}");
}

#[test]
fn c13_promotion_without_its_piece_asks_for_one() {
    let p = pos("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1");
    let e8 = notation::parse_move(&p, "e8")
        .expect_err("needs a piece")
        .to_string();
    assert!(e8.contains("must promote") && e8.contains("e8=Q"), "{e8}");
    let uci = notation::parse_move(&p, "e7e8")
        .expect_err("needs a piece")
        .to_string();
    assert!(uci.contains("e8=Q"), "{uci}");
    assert!(notation::parse_move(&p, "e8=N").is_ok());
}

/// The 64 squares of a FEN board field, rank 8 first: `.` empty, `*` ice, else the piece.
fn squares(board: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(64);
    for c in board.chars().filter(|&c| c != '/') {
        match c.to_digit(10) {
            Some(n) => out.extend(std::iter::repeat_n('.', n as usize)),
            None => out.push(c),
        }
    }
    assert_eq!(out.len(), 64, "{board}");
    out
}

/// The Ice Age written again from the words of C6, on the 8x8 array of `squares`: the
/// isolated pieces freeze, and every empty square fills unless all its orthogonal
/// neighbours on the board hold pieces (ice never counts, the edge counts as closed).
fn ice_age_by_the_text(before: &[char]) -> Vec<char> {
    let piece = |r: i32, f: i32| -> bool {
        (0..8).contains(&r)
            && (0..8).contains(&f)
            && !matches!(before[(r * 8 + f) as usize], '.' | '*')
    };
    let mut after = before.to_vec();
    for r in 0..8 {
        for f in 0..8 {
            let i = (r * 8 + f) as usize;
            if piece(r, f) {
                let alone = (-1..=1)
                    .flat_map(|dr| (-1..=1).map(move |df| (dr, df)))
                    .filter(|&d| d != (0, 0))
                    .all(|(dr, df)| !piece(r + dr, f + df));
                if alone {
                    after[i] = '*';
                }
            } else if before[i] == '.' {
                let closed = [(-1, 0), (1, 0), (0, -1), (0, 1)].iter().all(|&(dr, df)| {
                    let (nr, nf) = (r + dr, f + df);
                    !(0..8).contains(&nr) || !(0..8).contains(&nf) || piece(nr, nf)
                });
                if !closed {
                    after[i] = '*';
                }
            }
        }
    }
    after
}

#[test]
fn c5_c6_c9_ice_age_matches_an_independent_reading_of_c6() {
    use rand::{Rng, SeedableRng};
    let mut checked = 0;
    let mut froze = 0;
    for seed in 0..300u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut p = Position::start();
        // Random legal moves up to Black's 20th move (39 plies).
        while !(p.side_to_move() == shakmaty::Color::Black && p.fullmove_number() == 20) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p = p
                .play(&moves[rng.random_range(0..moves.len())])
                .expect("legal");
        }
        let moves = p.legal_moves();
        if moves.is_empty() {
            continue;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        let after = p.play(&mv).expect("legal");
        // The same move at full-move 19 brings no Ice Age: the board right after the move.
        let text = fen::write(&p);
        let fields: Vec<&str> = text.split(' ').collect();
        let at19 = format!(
            "{} {} {} {} {} 19",
            fields[0], fields[1], fields[2], fields[3], fields[4]
        );
        let plain = pos(&at19).play(&mv).expect("the same move is legal at 19");
        let plain_text = fen::write(&plain);
        let before = squares(plain_text.split(' ').next().expect("board"));
        let want = ice_age_by_the_text(&before);
        let after_text = fen::write(&after);
        let got = squares(after_text.split(' ').next().expect("board"));
        assert_eq!(got, want, "seed {seed}: {text} then {mv}");
        let frozen = before
            .iter()
            .zip(&want)
            .filter(|(b, w)| !matches!(b, '.' | '*') && **w == '*')
            .count();
        // C9: the clock resets when something froze, else goes on as after the move.
        if frozen > 0 {
            froze += 1;
            assert_eq!(after.halfmove_clock(), 0, "seed {seed}");
        } else {
            assert_eq!(
                after.halfmove_clock(),
                plain.halfmove_clock(),
                "seed {seed}"
            );
        }
        // C9: the full-move number is not changed by the Ice Age.
        assert_eq!(after.fullmove_number(), 21);
        // C8: no en-passant square survives; castling rights only with king and rook.
        assert_eq!(after.ep_square(), None, "seed {seed}");
        for (rook, king) in [("h1", "e1"), ("a1", "e1"), ("h8", "e8"), ("a8", "e8")] {
            let sq: shakmaty::Square = rook.parse().expect("square");
            if after.castling_rights().contains(sq) {
                let k: shakmaty::Square = king.parse().expect("square");
                let idx = |s: shakmaty::Square| (7 - s.rank() as usize) * 8 + s.file() as usize;
                assert!(
                    matches!(got[idx(sq)], 'R' | 'r') && matches!(got[idx(k)], 'K' | 'k'),
                    "seed {seed}: right {rook} kept in {after_text}"
                );
            }
        }
        checked += 1;
    }
    assert!(
        checked > 250 && froze > 50,
        "{checked} Ice Ages, {froze} with a freeze"
    );
}

/// C12 (issue 11, fault 8): every full-move number the count can reach reads, up to
/// `u32::MAX`, where the count stops; a larger one is rejected.
#[test]
fn c12_fullmove_numbers_up_to_u32_max_read() {
    assert!(IceAge::parse_position("4k3/8/8/8/8/8/8/R3K3 b - - 0 4294967295").is_ok());
    assert!(IceAge::parse_position("4k3/8/8/8/8/8/8/R3K3 b - - 0 1000001").is_ok());
    let err = IceAge::parse_position("4k3/8/8/8/8/8/8/R3K3 b - - 0 4294967296")
        .expect_err("past u32::MAX");
    assert!(err.to_string().contains("too large"), "{err}");
}

#[test]
fn c13_move_text_errors_carry_their_kind() {
    use game::{MoveTextFault, MoveTextKind};
    let start = IceAge::start_position();
    let kind = |p: &Position, text: &str| IceAge::parse_move(p, text).expect_err(text).kind();
    // Three knights can reach d2 (the ambiguity of c13_san_and_uci).
    let p = pos("4k3/8/8/8/8/1N6/8/1N2KN2 w - - 0 1");
    assert_eq!(kind(&p, "Nd2"), MoveTextKind::Ambiguous);
    assert_eq!(kind(&start, "e4"), MoveTextKind::NoMatch);
    assert_eq!(kind(&start, "Zz9"), MoveTextKind::Unreadable);
    assert_eq!(kind(&start, " "), MoveTextKind::Unreadable);
    let err = IceAge::parse_move(&p, "Nd2").expect_err("Nd2");
    let named = err.candidates();
    assert_eq!(named.len(), 3, "every knight that reaches d2: {named:?}");
    assert!(
        named
            .iter()
            .all(|m| m.starts_with('N') && m.ends_with("d2")),
        "{named:?}"
    );
}

/// C2: a pawn push onto or through ice, and castling through ice, say why as a code and its
/// squares too, so that the site words it in each language.
#[test]
fn c2_ice_reasons_carry_a_code_and_squares() {
    use game::MoveTextFault;
    let reason = |p: &Position, text: &str| {
        let e = IceAge::parse_move(p, text).expect_err(text);
        e.hint().map(|h| (h.code, h.squares.clone()))
    };
    let start = IceAge::start_position();
    assert_eq!(
        reason(&start, "e3"),
        Some(("pawn_onto_ice", vec!["e3".to_string()]))
    );
    // Ice on e3, e4 empty: the double step is blocked on its way.
    let blocked = pos("4k3/8/8/8/8/4*3/4P3/4K3 w - - 0 1");
    assert_eq!(
        reason(&blocked, "e4"),
        Some(("ice_blocks_pawn", vec!["e3".to_string(), "e4".to_string()]))
    );
}
