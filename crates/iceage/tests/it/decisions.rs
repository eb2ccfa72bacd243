//! One test (at least) per decision C1-C14 of `docs/rules/iceage.md`, named after it.

use crate::common;

use common::{mv, play, pos, san_moves, uci_moves};
use game::{EndReason, Outcome, Variant};
use iceage::{
    Capture, IceAge, MoveTextError, Position, PositionError, fen, ice_age_comment, notation,
};

fn white_wins(reason: EndReason) -> Option<Outcome> {
    Some(Outcome::Win {
        winner: game::Color::White,
        reason,
    })
}

fn black_wins(reason: EndReason) -> Option<Outcome> {
    Some(Outcome::Win {
        winner: game::Color::Black,
        reason,
    })
}

fn draw(reason: EndReason) -> Option<Outcome> {
    Some(Outcome::Draw { reason })
}

#[test]
fn c1_standard_chess_without_ice() {
    // Fool's mate: ordinary chess moves, check and checkmate.
    let start = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(start.legal_moves().len(), 20);
    let p = play(&start, &["f3", "e5", "g4"]);
    let m = mv(&p, "Qh4");
    assert_eq!(notation::move_text(&p, &m), "Qh4#");
    let end = p.play(&m).expect("legal");
    assert_eq!(end.outcome(), black_wins(EndReason::Checkmate));
    // Castling, en passant and promotion exist.
    let c = pos("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
    let moves = san_moves(&c);
    for want in ["O-O", "O-O-O", "exd6"] {
        assert!(moves.contains(&want.to_string()), "{want} in {moves:?}");
    }
    let b = pos("4k3/8/8/8/8/8/1p6/4K3 b - - 0 1");
    assert_eq!(
        san_moves(&b)
            .iter()
            .filter(|m| m.starts_with("b1="))
            .count(),
        4
    );
}

#[test]
fn c2_ice_blocks_sliders_pawns_and_castling_not_knights() {
    // Rook a1 with ice on a4: a2, a3, xa4, never a5.
    let p = pos("4k3/8/8/8/*7/8/8/R3K3 w - - 0 1");
    let rook: Vec<String> = uci_moves(&p)
        .into_iter()
        .filter(|m| m.starts_with("a1a"))
        .collect();
    assert_eq!(rook, ["a1a2", "a1a3", "a1a4"]);
    // Pawn pushes: ice on e3 stops both steps; ice on e4 stops the double step only.
    let p = pos("4k3/8/8/8/8/4*3/4P3/K7 w - - 0 1");
    assert!(!uci_moves(&p).iter().any(|m| m.starts_with("e2")));
    let p = pos("4k3/8/8/8/4*3/8/4P3/K7 w - - 0 1");
    let pawn: Vec<String> = uci_moves(&p)
        .into_iter()
        .filter(|m| m.starts_with("e2"))
        .collect();
    assert_eq!(pawn, ["e2e3"]);
    // Castling impossible with ice between king and rook (f1, and b1 on the long side).
    let p = pos("4k3/8/8/8/8/8/8/R*2K*1R w KQ - 0 1");
    assert!(!san_moves(&p).iter().any(|m| m.starts_with("O-O")));
    let p = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(
        san_moves(&p)
            .iter()
            .filter(|m| m.starts_with("O-O"))
            .count(),
        2
    );
    // Knights jump over ice.
    let p = pos("4k3/8/8/8/8/***5/***5/*N**K3 w - - 0 1");
    let n: Vec<String> = uci_moves(&p)
        .into_iter()
        .filter(|m| m.starts_with("b1"))
        .collect();
    assert_eq!(n, ["b1a3", "b1c3", "b1d2"]);
}

#[test]
fn c3_ice_captured_like_a_piece_never_attacks() {
    // Every piece type captures ice.
    let p = pos("4k3/8/8/8/2*5/****1***/1P1NB*2/*1*1K1RQ w - - 0 1");
    let caps: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.capture == Capture::Ice)
        .map(|m| notation::move_text(&p, m))
        .collect();
    for want in [
        "bxc3", "bxa3", "Nxb3", "Nxf3", "Bxf3", "Bxd3", "Kxf2", "Rxg3", "Qxh3",
    ] {
        assert!(caps.contains(&want.to_string()), "{want} in {caps:?}");
    }
    // A pawn takes ice only diagonally, never straight ahead.
    let p = pos("4k3/8/8/8/8/4*3/4P3/K7 w - - 0 1");
    assert!(!uci_moves(&p).contains(&"e2e3".to_string()));
    // A king takes ice only onto a square the enemy does not attack.
    // (The rook d7 attacks the ice on d2; d1 behind the ice is safe.)
    let p = pos("4k3/3r4/8/8/8/8/3**3/4K3 w - - 0 1");
    let k: Vec<String> = uci_moves(&p);
    assert!(!k.contains(&"e1d2".to_string()));
    assert!(k.contains(&"e1e2".to_string()) && k.contains(&"e1d1".to_string()));
    // Capturing ice on the last rank promotes.
    let p = pos("1*2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let promos: Vec<String> = san_moves(&p)
        .into_iter()
        .filter(|m| m.starts_with("axb8"))
        .collect();
    assert_eq!(promos, ["axb8=B", "axb8=N", "axb8=Q+", "axb8=R+"]);
    // Ice never attacks: a king beside ice is not in check and may step next to ice.
    let p = pos("4k3/8/8/8/8/8/3***2/4K3 w - - 0 1");
    assert!(!p.is_check());
    // Ice is never the target of en passant: an en-passant square holding ice is rejected.
    assert!(matches!(
        fen::parse("4k3/8/3*4/3pP3/8/8/8/4K3 w - d6 0 1"),
        Err(PositionError::ImpossibleEnPassant { .. })
    ));
}

#[test]
fn c4_start_position_and_first_moves_capture_ice() {
    let start = IceAge::start_position();
    assert_eq!(
        IceAge::position_text(&start),
        "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(start.board().ice().count(), 32);
    let moves = start.legal_moves();
    assert_eq!(moves.len(), 18);
    assert!(moves.iter().all(|m| m.capture == Capture::Ice));
    let after = start.play(&mv(&start, "hxg3")).expect("legal");
    let replies = after.legal_moves();
    assert_eq!(replies.len(), 18);
    assert!(replies.iter().all(|m| m.capture == Capture::Ice));
}

const SEED_EXAMPLE: &str = "4k2r/3ppp2/8/8/8/8/4PPP1/4K1N1 b - - 0 20";

#[test]
fn c5_ice_age_after_black_moves_multiple_of_20() {
    // Black's 20th move brings it; the same position at move 19 does not.
    let at20 = play(&pos(SEED_EXAMPLE), &["d6"]);
    assert!(at20.board().is_ice(shakmaty::Square::A1));
    let at19 = play(&pos(&SEED_EXAMPLE.replace(" 20", " 19")), &["d6"]);
    assert!(at19.board().ice().is_empty());
    // White's move at full-move 20 brings none; counting follows the FEN's number (40).
    let w20 = play(&pos("4k2r/3ppp2/8/8/8/8/4PPP1/4K1N1 w - - 0 20"), &["Nh3"]);
    assert!(w20.board().ice().is_empty());
    let at40 = play(&pos(&SEED_EXAMPLE.replace(" 20", " 40")), &["d6"]);
    assert_eq!(at40.board().ice().count(), 64 - 9 - 1);
    let at30 = play(&pos(&SEED_EXAMPLE.replace(" 20", " 30")), &["d6"]);
    assert!(at30.board().ice().is_empty());
}

#[test]
fn c6_isolated_rook_frozen_f1_stays_empty() {
    // The seed's example: the isolated rook h8 freezes; f1 (three pieces and the edge
    // around it) stays empty; every other empty square gets ice.
    let after = play(&pos(SEED_EXAMPLE), &["d6"]);
    assert_eq!(
        fen::write(&after),
        "****k***/****pp**/***p****/********/********/********/****PPP*/****K1N* w - - 0 21"
    );
}

#[test]
fn c6_report_names_the_closed_squares_and_the_position_it_judged() {
    // What the site shows of an Ice Age: the squares it left empty (closed on all four sides)
    // and the position right after Black's move, before the Ice Age.
    use shakmaty::{Bitboard, Square::*};
    let p = pos(SEED_EXAMPLE);
    let m = mv(&p, "d6");
    let (after, report) = p.play_with_report(&m);
    let report = report.expect("Black's 20th move brings the Ice Age");
    assert_eq!(report.closed, Bitboard::from(F1));
    assert_eq!(report.frozen.len(), 1);
    assert!(
        report.new_ice.contains(H8) && report.new_ice.contains(A1) && !report.new_ice.contains(F1)
    );
    let before = p.before_ice_age(&m).expect("the Ice Age is due");
    assert_eq!(before.side_to_move(), shakmaty::Color::White);
    assert_eq!(before.fullmove_number(), after.fullmove_number());
    assert!(
        before.board().ice().is_empty(),
        "no ice yet: {}",
        fen::write(&before)
    );
    assert_eq!(before.board().piece_at(H8), p.board().piece_at(H8));
    // Every square the Ice Age filled was empty in the position it judged, and the closed
    // ones are the rest of the empty squares.
    assert!((report.new_ice & before.board().occupied() & !before.board().pieces()).is_empty());
    assert_eq!(
        (!before.board().occupied()).count(),
        (report.new_ice & !before.board().occupied()).count() + report.closed.count()
    );
    // A move without an Ice Age has no such position.
    let early = pos(&SEED_EXAMPLE.replace(" 20", " 19"));
    assert!(early.before_ice_age(&mv(&early, "d6")).is_none());
}

#[test]
fn c6_pawn_touching_only_ice_frozen_and_ice_never_closes() {
    // The pawn a4 has only ice around it: frozen. d4 is closed by four pieces: stays empty.
    // h4 has ice on its open sides: ice never counts as closed, so it fills.
    let p = pos("4k3/3pp3/8/3P1P1*/P1P1P1**/3P1P1*/8/4K2R b K - 0 20");
    let after = play(&p, &["d6"]);
    let b = after.board();
    use shakmaty::Square::*;
    assert!(b.is_ice(A4) && b.piece_at(A4).is_none());
    assert!(!b.is_ice(D4) && b.piece_at(D4).is_none());
    // f4: pieces on e4, f5, f3 and ice on g4: ice does not close it.
    assert!(b.is_ice(F4));
    // The isolated rook h1 froze with its castling right (C8); the king e1 is isolated too.
    assert_eq!(after.outcome(), black_wins(EndReason::FrozenKing));
}

#[test]
fn c6a_legality_judged_before_the_ice_age() {
    // The knight e7 is pinned by the rook e1, which the Ice Age would freeze: it still may
    // not move on Black's 20th move.
    let p = pos("4k3/4n3/8/8/8/8/6P1/4R1K1 b - - 0 20");
    assert!(!uci_moves(&p).iter().any(|m| m.starts_with("e7")));
    // Nor may the king step onto the rook's file... onto an attacked square.
    let p = pos("3k4/8/8/8/8/8/6P1/4R1K1 b - - 0 20");
    assert!(!uci_moves(&p).contains(&"d8e8".to_string()));
    // A Black double step before an Ice Age: the passed square receives ice, en passant
    // is gone.
    let p = pos("4k3/3pp3/8/4P3/8/8/8/4K3 b - - 0 20");
    let after = play(&p, &["d5"]);
    assert_eq!(after.ep_square(), None);
    assert!(after.board().is_ice(shakmaty::Square::D6));
    let p19 = pos("4k3/3pp3/8/4P3/8/8/8/4K3 b - - 0 19");
    let after19 = play(&p19, &["d5"]);
    assert_eq!(after19.ep_square(), Some(shakmaty::Square::D6));
    assert!(uci_moves(&after19).contains(&"e5d6".to_string()));
}

#[test]
fn c7_one_frozen_king_loses() {
    let p = play(&pos("7k/7p/8/8/8/8/8/K7 b - - 0 20"), &["Kg8"]);
    assert_eq!(p.outcome(), black_wins(EndReason::FrozenKing));
    assert!(p.legal_moves().is_empty());
    let p = play(&pos("k7/8/p7/8/8/8/6PP/7K b - - 0 20"), &["Kb8"]);
    assert_eq!(p.outcome(), white_wins(EndReason::FrozenKing));
}

#[test]
fn c7_both_kings_frozen_draw() {
    let p = play(&pos("7k/8/8/8/8/8/8/K7 b - - 0 20"), &["Kg8"]);
    assert_eq!(p.outcome(), draw(EndReason::BothKingsFrozen));
    assert_eq!(
        fen::write(&p),
        "8/8/8/8/8/8/8/8 w - - 0 21".replace('8', "********")
    );
    // The final position reads back (C12) and stays finished.
    let back = fen::parse(&fen::write(&p)).expect("final position reads back");
    assert_eq!(back.outcome(), draw(EndReason::BothKingsFrozen));
}

#[test]
fn c8_check_by_black_20th_move_blocked_by_new_ice() {
    let at19 = pos("6rk/7p/8/8/8/8/P6p/K7 b - - 0 19");
    assert_eq!(notation::move_text(&at19, &mv(&at19, "Rg1")), "Rg1+");
    let at20 = pos("6rk/7p/8/8/8/8/P6p/K7 b - - 0 20");
    let m = mv(&at20, "Rg1");
    assert_eq!(notation::move_text(&at20, &m), "Rg1");
    let after = at20.play(&m).expect("legal");
    assert!(!after.is_check());
    assert!(after.board().is_ice(shakmaty::Square::B1));
}

#[test]
fn c8_mate_by_black_20th_move_undone() {
    // At move 19, Rg1 mates; at move 20 the Ice Age fills b1-f1 and the mate is gone.
    let at19 = pos("6rk/7p/8/8/8/8/PP5p/K7 b - - 0 19");
    let m = mv(&at19, "Rg1");
    assert_eq!(notation::move_text(&at19, &m), "Rg1#");
    assert_eq!(
        at19.play(&m).expect("legal").outcome(),
        black_wins(EndReason::Checkmate)
    );
    let at20 = pos("6rk/7p/8/8/8/8/PP5p/K7 b - - 0 20");
    let m = mv(&at20, "Rg1");
    assert_eq!(notation::move_text(&at20, &m), "Rg1");
    let after = at20.play(&m).expect("legal");
    assert_eq!(after.outcome(), None);
    assert!(!after.is_check());
    // A frozen checking piece no longer checks: here the rook g1 is isolated and freezes.
    let lone = pos("6rk/7p/8/8/8/8/PP6/K7 b - - 0 20");
    let m = mv(&lone, "Rg1");
    assert_eq!(notation::move_text(&lone, &m), "Rg1");
    assert_eq!(
        ice_age_comment(&lone, &m).as_deref(),
        Some("Ice Age: Rg1 frozen")
    );
}

#[test]
fn c8_castling_rights_of_frozen_rook_lost() {
    // The rook a1 is isolated and freezes: Q goes; the rook h1 beside its pawns keeps K.
    let p = pos("r3k3/p7/8/8/8/8/4PPPP/R3K2R b KQq - 0 20");
    let after = play(&p, &["a6"]);
    assert_eq!(
        after.castling_rights(),
        shakmaty::Bitboard::from(shakmaty::Square::H1)
    );
    assert!(fen::write(&after).contains(" w K - "));
}

#[test]
fn c9_ice_age_keeps_fullmove_and_resets_clock_only_on_freeze() {
    // Nothing froze: the clock goes on (a knight taking ice is no reset, C10).
    let p = pos(
        "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR b KQkq - 10 20",
    );
    let m = mv(&p, "Nxf6");
    assert_eq!(ice_age_comment(&p, &m).as_deref(), Some("Ice Age"));
    let after = p.play(&m).expect("legal");
    assert_eq!((after.halfmove_clock(), after.fullmove_number()), (11, 21));
    // A piece froze: the clock is reset.
    let p = pos("4k2r/3ppp2/8/8/8/8/4PPP1/4K1N1 b - - 7 20");
    let after = play(&p, &["Kd8"]);
    assert_eq!((after.halfmove_clock(), after.fullmove_number()), (0, 21));
}

#[test]
fn c10_fifty_move_rule_ice_captures_do_not_reset() {
    // A quiet move reaching 100 half-moves ends the game.
    let p = play(&pos("4k3/8/8/8/8/8/3*P3/4K3 w - - 99 30"), &["Kf1"]);
    assert_eq!(p.outcome(), draw(EndReason::FiftyMoveRule));
    assert!(p.legal_moves().is_empty());
    // Capturing ice does not reset the count.
    let p = play(&pos("4k3/8/8/8/8/8/3*P3/4K3 w - - 99 30"), &["Kxd2"]);
    assert_eq!(p.halfmove_clock(), 100);
    assert_eq!(p.outcome(), draw(EndReason::FiftyMoveRule));
    // A pawn move and a piece capture do.
    let p = play(&pos("4k3/8/8/8/8/8/3*P3/4K3 w - - 99 30"), &["e3"]);
    assert_eq!((p.halfmove_clock(), p.outcome()), (0, None));
    let p = play(&pos("4k3/8/8/8/8/8/3nP3/4K3 w - - 99 30"), &["Kxd2"]);
    assert_eq!((p.halfmove_clock(), p.outcome()), (0, None));
    // Checkmate on the 100th half-move is checkmate.
    let p = play(&pos("k7/8/1K6/8/8/8/8/7R w - - 99 30"), &["Rh8"]);
    assert_eq!(p.outcome(), white_wins(EndReason::Checkmate));
    // Stalemate.
    let p = play(&pos("k7/8/8/1Q6/8/8/8/4K3 w - - 0 30"), &["Qb6"]);
    assert_eq!(p.outcome(), draw(EndReason::Stalemate));
}

#[test]
fn c11_no_repetition_or_insufficient_material_draw() {
    let start = pos("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
    let mut p = start.clone();
    for _ in 0..4 {
        p = play(&p, &["Nf3", "Kd8", "Ng1", "Ke8"]);
    }
    assert_eq!(
        fen::write(&p).split(' ').next(),
        fen::write(&start).split(' ').next()
    );
    assert_eq!(p.outcome(), None);
    assert!(!p.legal_moves().is_empty());
    // K vs K is no draw by material: it ends at the Ice Age (both kings frozen, C7).
    let kk = pos("4k3/8/8/8/8/8/8/4K3 b - - 0 18");
    assert_eq!(kk.outcome(), None);
    let end = play(&kk, &["Kd8", "Kd1", "Ke8", "Ke1", "Kd8"]);
    assert_eq!(end.outcome(), draw(EndReason::BothKingsFrozen));
}

#[test]
fn c12_fen_round_trip_and_defaults() {
    let text =
        "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(fen::write(&fen::parse(text).expect("valid")), text);
    assert_eq!(fen::parse(text).expect("valid"), Position::start());
    // Missing counters default to `0 1`; `*` is never merged into a digit.
    let p = fen::parse("4k3/8/8/2*1*3/8/8/8/4K3 b -").expect("valid");
    assert_eq!(fen::write(&p), "4k3/8/8/2*1*3/8/8/8/4K3 b - - 0 1");
    // A kingless final position is accepted as finished.
    let p = fen::parse("4k3/8/8/8/8/8/8/******** w - - 0 21").expect("finished game");
    assert_eq!(p.outcome(), black_wins(EndReason::FrozenKing));
    assert!(p.legal_moves().is_empty());
}

#[test]
fn c12_fen_rejections_say_which() {
    type Check = fn(&PositionError) -> bool;
    let cases: [(&str, Check); 14] = [
        ("4k3/8/8/8/8/8/8/4K3/8 w - - 0 1", |e| {
            matches!(e, PositionError::RankCount(9))
        }),
        ("4k3/8/8/8/*******/8/8/4K3 w - - 0 1", |e| {
            matches!(
                e,
                PositionError::RankLength {
                    rank: 4,
                    squares: 7
                }
            )
        }),
        ("4k3/8/8/8/9/8/8/4K3 w - - 0 1", |e| {
            matches!(e, PositionError::UnknownLetter { letter: '9', .. })
        }),
        ("4k3/8/8/8/3x4/8/8/4K3 w - - 0 1", |e| {
            matches!(
                e,
                PositionError::UnknownLetter {
                    letter: 'x',
                    rank: 4
                }
            )
        }),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", |e| {
            matches!(
                e,
                PositionError::TooManyKings {
                    color: "white",
                    count: 2
                }
            )
        }),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", |e| {
            matches!(e, PositionError::PawnOnBackRank { .. })
        }),
        ("p3k3/8/8/8/8/8/8/4K3 w - - 0 1", |e| {
            matches!(e, PositionError::PawnOnBackRank { .. })
        }),
        ("4k3/8/8/8/8/8/8/4R2K w - - 0 1", |e| {
            matches!(e, PositionError::OppositeCheck("black"))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", |e| {
            matches!(
                e,
                PositionError::CastlingWithoutKingAndRook { right: 'K', .. }
            )
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", |e| {
            matches!(e, PositionError::ImpossibleEnPassant { .. })
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", |e| {
            matches!(e, PositionError::ImpossibleEnPassant { .. })
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", |e| {
            matches!(e, PositionError::FullmoveZero)
        }),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", |e| {
            matches!(e, PositionError::BadTurn(_))
        }),
        ("4k3/8/8/8/8/8/8/4K3 w - - zero 1", |e| {
            matches!(e, PositionError::BadHalfmoves(_))
        }),
    ];
    for (text, ok) in cases {
        match fen::parse(text) {
            Ok(_) => panic!("{text} accepted"),
            Err(e) => {
                assert!(ok(&e), "{text}: unexpected error {e:?}");
                assert!(!e.to_string().is_empty());
            }
        }
    }
    let e = fen::parse("4k3/8/8/8/*******/8/8/4K3 w - - 0 1").expect_err("bad");
    assert_eq!(e.to_string(), "rank 4 covers 7 squares, expected 8");
}

#[test]
fn c13_san_and_uci() {
    let start = Position::start();
    let sans = san_moves(&start);
    assert!(sans.contains(&"hxg3".to_string()) && sans.contains(&"Nxf3".to_string()));
    assert_eq!(mv(&start, "h2g3"), mv(&start, "hxg3"));
    assert_eq!(IceAge::move_id(&start, &mv(&start, "Nxf3")), "g1f3");
    // Disambiguation by file, by rank, by square.
    let p = pos("4k3/8/8/8/8/1N6/8/1N2KN2 w - - 0 1");
    let sans = san_moves(&p);
    for want in ["Nb1d2", "N3d2", "Nfd2"] {
        assert!(sans.contains(&want.to_string()), "{want} in {sans:?}");
    }
    let r = pos("4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1");
    assert!(san_moves(&r).contains(&"N1d2".to_string()));
    let q = pos("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    assert!(san_moves(&q).contains(&"Qa1b2".to_string()));
    // Promotion by UCI and SAN.
    let pr = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(mv(&pr, "a7a8q"), mv(&pr, "a8=Q+"));
    assert_eq!(mv(&pr, "a8N"), mv(&pr, "a7a8n"));
    // Castling both ways.
    let c = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(mv(&c, "O-O"), mv(&c, "e1g1"));
    assert_eq!(mv(&c, "0-0-0"), mv(&c, "e1c1"));
    // Errors: ambiguous (lists candidates), no match, syntax.
    match notation::parse_move(&p, "Nd2") {
        Err(MoveTextError::Ambiguous { candidates, .. }) => assert_eq!(candidates.len(), 3),
        other => panic!("expected ambiguity, got {other:?}"),
    }
    assert!(matches!(
        notation::parse_move(&start, "e4"),
        Err(MoveTextError::NoMatch { .. })
    ));
    assert!(matches!(
        notation::parse_move(&start, "Zz9"),
        Err(MoveTextError::Syntax { .. })
    ));
    assert!(matches!(
        notation::parse_move(&start, " "),
        Err(MoveTextError::Empty)
    ));
}

#[test]
fn c14_ice_age_comment() {
    let p = pos(SEED_EXAMPLE);
    assert_eq!(
        ice_age_comment(&p, &mv(&p, "d6")).as_deref(),
        Some("Ice Age: Rh8 frozen")
    );
    let two = pos("4k2r/3pp3/8/8/8/8/PP6/4K3 b - - 0 20");
    assert_eq!(
        ice_age_comment(&two, &mv(&two, "d6")).as_deref(),
        Some("Ice Age: Rh8, Ke1 frozen")
    );
    let none = pos(
        "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR b KQkq - 0 20",
    );
    assert_eq!(
        ice_age_comment(&none, &mv(&none, "Nxf6")).as_deref(),
        Some("Ice Age")
    );
    let not_due = pos(&SEED_EXAMPLE.replace(" 20", " 19"));
    assert_eq!(ice_age_comment(&not_due, &mv(&not_due, "d6")), None);
    let start = Position::start();
    assert_eq!(ice_age_comment(&start, &mv(&start, "hxg3")), None);
}
