//! One test (or more) per decision A1-A19 of `docs/rules/antarctos.md`, named after it.

use antarctos::{
    Antarctos, MoveTextError, Piece, Position, PositionError, Square, SquareError, fen,
};
use game::{Color, EndReason, Outcome, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn pos(text: &str) -> Position {
    Antarctos::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).expect("test square")
}

/// The legal turns in canonical text, sorted.
fn turns(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn play(p: &Position, text: &str) -> Position {
    let mv = Antarctos::parse_move(p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.play(&mv).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn win(winner: Color, reason: EndReason) -> Option<Outcome> {
    Some(Outcome::Win { winner, reason })
}

#[test]
fn a1_board_is_the_32_dark_squares_a1_dark() {
    assert_eq!(Square::ALL.len(), 32);
    for s in Square::ALL {
        // A1: file index + rank even with a = 1, rank 1 = 1 <=> 0-based indices sum even.
        assert_eq!((s.file() + s.rank()) % 2, 0, "{s}");
    }
    assert_eq!(sq("a1").to_string(), "a1");
    assert_eq!(sq("h8").index64(), 63);
    assert_eq!(Square::parse("b1"), Err(SquareError::Light("b1".into())));
    assert_eq!(Square::parse("h1"), Err(SquareError::Light("h1".into())));
    // Rank 1 is at White's side: White's men start there (A3).
    assert_eq!(
        Position::start().piece_at(sq("a1")),
        Some(Piece::Man(Color::White))
    );
}

#[test]
fn a2_three_occupants_and_no_kings() {
    let p = pos("W:Wc3:Bf6:Ie5");
    assert_eq!(p.piece_at(sq("c3")), Some(Piece::Man(Color::White)));
    assert_eq!(p.piece_at(sq("f6")), Some(Piece::Man(Color::Black)));
    assert_eq!(p.piece_at(sq("e5")), Some(Piece::Ice));
    assert_eq!(p.piece_at(sq("d4")), None);
    assert!(matches!(
        Antarctos::parse_position("W:WKc3:Bf6"),
        Err(PositionError::King { field: 'W', .. })
    ));
    // A man reaching the far row does not become a king: the game ends (A12).
    let done = play(&pos("W:Wc7:Bh6"), "c7-d8");
    assert!(done.legal_moves().is_empty());
}

#[test]
fn a3_start_position() {
    let p = Antarctos::start_position();
    assert_eq!(
        Antarctos::position_text(&p),
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    );
    assert_eq!(p.side_to_move(), Color::White);
    assert!(p.ice().is_empty());
    assert_eq!(p.men(Color::White).len(), 12);
    assert_eq!(p.men(Color::Black).len(), 12);
    assert_eq!(
        turns(&p),
        [
            "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"
        ]
    );
}

#[test]
fn a4_forward_and_goal_rows() {
    assert_eq!(turns(&pos("W:Wd4:Bh8")), ["d4-c5", "d4-e5"]);
    assert_eq!(turns(&pos("B:Wa1:Bd4")), ["d4-c3", "d4-e3"]);
    assert_eq!(
        play(&pos("W:Wc7:Bh6"), "c7-b8").outcome(),
        win(Color::White, EndReason::Breakthrough)
    );
    assert_eq!(
        play(&pos("B:Wa7:Bd2"), "d2-e1").outcome(),
        win(Color::Black, EndReason::Breakthrough)
    );
    // Reaching one's own home row is not a goal: a Black man on rank 8 is just a man.
    assert_eq!(pos("W:Wc3:Bb8").outcome(), None);
}

#[test]
fn a5_simple_move_one_step_forward_onto_empty() {
    // d4 is blocked on c5 by its own man and on e5 by ice; no step backwards.
    assert_eq!(turns(&pos("W:Wd4,c5:Bf6,h8:Ie5")), ["c5-b6", "c5-d6"]);
    // Blocked by an enemy man with no square behind it: no move at all for a1.
    assert_eq!(turns(&pos("W:Wa1:Bb2,c3")), Vec::<String>::new());
}

#[test]
fn a6_capture_forward_and_backward_short_jumps_only() {
    // Backward capture of e3 from d4.
    assert_eq!(turns(&pos("W:Wd4:Be3,h8")), ["d4xf2"]);
    // Forward capture.
    assert_eq!(turns(&pos("W:Wd4:Bc5,h8")), ["d4xb6"]);
    // An enemy two squares away is not captured (no flying captures).
    assert_eq!(turns(&pos("W:Wa1:Bc3")), ["a1-b2"]);
    // Own men are not jumped.
    assert_eq!(turns(&pos("W:Wd4,e5:Bh8")), ["d4-c5", "e5-d6", "e5-f6"]);
}

#[test]
fn a7_ice_jump_both_ways_and_ice_removed_at_once() {
    let p = pos("W:Wd4:Bh8:Ie5,c3");
    assert_eq!(turns(&p), ["d4-c5", "d4xb2", "d4xf6"]);
    let after = play(&p, "d4xf6");
    assert_eq!(after.piece_at(sq("e5")), None);
    assert_eq!(after.piece_at(sq("c3")), Some(Piece::Ice));
    // Removed at once: a chain of ice jumps continues over newly reachable ice, and the
    // first ice cannot be jumped again on the way back.
    let chain = pos("W:Wa1:Bh8:Ib2,d4");
    assert_eq!(turns(&chain), ["a1xc3xe5"]);
    let after = play(&chain, "a1xc3xe5");
    assert!(after.ice().is_empty());
}

#[test]
fn a8_captured_men_stay_until_the_end_then_freeze() {
    // Four Black men round e3: the man from e1 takes all four and comes back to e1. Each
    // is jumped once: d2 is still on its square (captured) when the man is back on e1,
    // and is not taken again.
    let p = pos("W:We1:Bd2,f2,d4,f4,a7");
    assert_eq!(turns(&p), ["e1xc3xe5xg3xe1", "e1xg3xe5xc3xe1"]);
    let mv = Antarctos::parse_move(&p, "e1xc3xe5xg3xe1").unwrap();
    assert_eq!(mv.captured().len(), 4);
    let after = p.play(&mv).unwrap();
    for s in ["d2", "f2", "d4", "f4"] {
        assert_eq!(
            after.piece_at(sq(s)),
            Some(Piece::Ice),
            "{s} froze at the end"
        );
    }
    assert_eq!(after.piece_at(sq("e1")), Some(Piece::Man(Color::White)));
    assert_eq!(after.men(Color::Black).len(), 1);
}

#[test]
fn a9_priority_of_the_living_at_the_start() {
    // c3 can take d4: the ice jump e1xg3 and every simple move are illegal.
    assert_eq!(turns(&pos("W:Wc3,e1:Bd4,h8:If2")), ["c3xe5"]);
    let e = Antarctos::parse_move(&pos("W:Wc3,e1:Bd4,h8:If2"), "e1xg3").unwrap_err();
    assert!(e.to_string().contains("capture is compulsory"), "{e}");
    // Without a capture, starting on ice is allowed but not compulsory.
    assert_eq!(turns(&pos("W:We1:Bh8:If2")), ["e1-d2", "e1xg3"]);
}

#[test]
fn a9_must_capture_says_when_every_turn_starts_with_a_capture() {
    assert!(pos("W:Wc3,e1:Bd4,h8:If2").must_capture());
    // An ice jump that leads to a capture is a choice, not a compulsion.
    let p = pos("W:We1:Bh8:If2");
    assert!(!p.must_capture());
    assert!(!pos("W:We1:Bf4,h8:If2").must_capture());
    assert!(turns(&pos("W:We1:Bf4,h8:If2")).contains(&"e1xg3xe5".to_string()));
    // A decided game has nothing to capture.
    assert!(!pos("B:Wd8:Bf4:Ic7").must_capture());
    // It says exactly what the legal list shows: every turn a capture, or not.
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for _ in 0..200 {
        let mut p = Position::start();
        for _ in 0..rng.random_range(0..40) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p = p
                .play(&moves[rng.random_range(0..moves.len())])
                .expect("legal");
        }
        let moves = p.legal_moves();
        let first_captures = moves.iter().filter(|m| {
            let mut path = m.path();
            let (Some(a), Some(b)) = (path.next(), path.next()) else {
                return false;
            };
            let over = Square::ALL.iter().find(|s| {
                2 * s.file() == a.file() + b.file() && 2 * s.rank() == a.rank() + b.rank()
            });
            m.is_jump() && over.is_some_and(|s| m.captured().contains(*s))
        });
        assert_eq!(
            p.must_capture(),
            !moves.is_empty() && first_captures.count() == moves.len(),
            "{}",
            fen::write(&p)
        );
    }
}

#[test]
fn a10_capture_beats_ice_jump_at_every_step() {
    // After the ice jump to c3, d4 (capture) must be taken rather than the ice on b4.
    assert_eq!(turns(&pos("W:Wa1:Bd4,h8:Ib2,b4")), ["a1xc3xe5"]);
    // Stopping is not allowed while a jump exists: the ice on f6 must be jumped too.
    assert_eq!(turns(&pos("W:Wc3:Bd4,h8:If6")), ["c3xe5xg7"]);
    // No majority rule: the short capture is as legal as the long one.
    assert_eq!(turns(&pos("W:Wc3:Bb4,d4,d6,h8")), ["c3xa5", "c3xe5xc7"]);
}

#[test]
fn a11_start_square_is_empty_once_left() {
    // The man lands on its own start square e1 at the end of the sequence.
    let p = pos("W:We1:Bd2,f2,d4,f4,a7");
    let mv = Antarctos::parse_move(&p, "e1xg3xe5xc3xe1").unwrap();
    assert_eq!(mv.from(), mv.to());
    assert_eq!(mv.path().count(), 5);
    // A sequence may also pass over the start square and go on.
    let p = pos("W:Wc3:Bb2,b4,d4,d6,b6");
    let t = turns(&p);
    assert!(t.iter().any(|m| m.matches("c3").count() == 2), "{t:?}");
}

#[test]
fn a12_breakthrough_only_where_the_sequence_ends() {
    // The capture of e7 reaches d8 but must go on over c7: no win.
    let p = pos("W:Wf6:Bc7,e7,h6");
    assert_eq!(turns(&p), ["f6xd8xb6"]);
    let after = play(&p, "f6xd8xb6");
    assert_eq!(after.outcome(), None);
    // Ending on the goal row wins at once, even if the opponent could still move.
    let p = play(&pos("W:Wf6:Be7,h6"), "f6xd8");
    assert_eq!(p.outcome(), win(Color::White, EndReason::Breakthrough));
    assert!(p.legal_moves().is_empty());
}

#[test]
fn a13_total_freeze_after_breakthrough_check() {
    let p = play(&pos("W:Wc3:Bd4"), "c3xe5");
    assert_eq!(p.outcome(), win(Color::White, EndReason::TotalFreeze));
    assert!(p.legal_moves().is_empty());
    // Capturing the last man while ending on the goal row: breakthrough comes first.
    let p = play(&pos("W:Wd6:Bc7"), "d6xb8");
    assert_eq!(p.outcome(), win(Color::White, EndReason::Breakthrough));
}

#[test]
fn a14_no_moves_loses() {
    let p = pos("B:Wb2,c1:Ba3");
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome(), win(Color::White, EndReason::NoMoves));
    // Blocked by ice alone.
    let p = pos("W:Wa1:Bh8:Ib2,c3");
    assert_eq!(p.outcome(), win(Color::Black, EndReason::NoMoves));
}

#[test]
fn a15_no_draws_every_turn_makes_progress() {
    // Every turn lowers (living men, ice, -advance) lexicographically, so no position
    // repeats and every game ends with a win.
    fn measure(p: &Position) -> (u32, u32, i32) {
        let living = (p.men(Color::White).len() + p.men(Color::Black).len()) as u32;
        let advance: i32 = p
            .men(Color::White)
            .iter()
            .map(|s| s.rank() as i32)
            .sum::<i32>()
            + p.men(Color::Black)
                .iter()
                .map(|s| 7 - s.rank() as i32)
                .sum::<i32>();
        (living, p.ice().len() as u32, -advance)
    }
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    for _ in 0..300 {
        let mut p = Position::start();
        let mut plies = 0;
        loop {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let next = p.play(&moves[rng.random_range(0..moves.len())]).unwrap();
            assert!(
                measure(&next) < measure(&p),
                "no progress: {:?} -> {:?}",
                p,
                next
            );
            p = next;
            plies += 1;
        }
        let outcome = p.outcome().expect("a game with no legal turn is over");
        assert!(outcome.winner().is_some(), "draw after {plies} plies");
    }
}

#[test]
fn a16_canonical_move_text() {
    let p = Position::start();
    let mv = Antarctos::parse_move(&p, "c3d4").unwrap();
    assert_eq!(Antarctos::move_text(&p, &mv), "c3-d4");
    let p = pos("W:Wb4,e3,f2:Bc7,d6:Ic3");
    let p = play(&p, "b4-c5");
    let mv = p.legal_moves()[0];
    assert_eq!(Antarctos::move_text(&p, &mv), "d6xb4xd2xf4");
    // Every landing square, as 0..64 indices for the board.
    let path: Vec<u8> = Antarctos::move_path(&mv);
    let names = ["d6", "b4", "d2", "f4"].map(|s| sq(s).index64());
    assert_eq!(path, names);
    assert_eq!(Antarctos::move_squares(&mv), (names[0], names[3]));
}

#[test]
fn a17_accepted_input_forms() {
    let start = Position::start();
    let c3d4 = Antarctos::parse_move(&start, "c3-d4").unwrap();
    for text in [
        "c3d4", "C3-D4", "c3-d4!", "c3-d4?!", "c3-d4+", " c3-d4 ", "c3 - d4", "cd4", "CD4",
    ] {
        assert_eq!(Antarctos::parse_move(&start, text), Ok(c3d4), "{text}");
    }
    let p = play(&pos("W:Wb4,e3,f2:Bc7,d6:Ic3"), "b4-c5");
    let full = Antarctos::parse_move(&p, "d6xb4xd2xf4").unwrap();
    for text in [
        "d6:b4:d2:f4",
        "D6XB4XD2XF4",
        "d6xb4xd2xf4#",
        "d6xf4",
        "d6:f4",
        "d6f4",
    ] {
        assert_eq!(Antarctos::parse_move(&p, text), Ok(full), "{text}");
    }
    // The short form names a jump sequence too, by its start's file and its end (as
    // Russian records write captures): `df4` is d6xb4xd2xf4.
    assert_eq!(Antarctos::parse_move(&p, "df4"), Ok(full));
    // An ice jump likewise (`ce5` is c3xe5); a short form that matches no turn says why
    // when one man fits it (`cd4` would step onto ice).
    let ice = pos("W:Wc3:Bh8:Id4");
    let jump = Antarctos::parse_move(&ice, "c3xe5").unwrap();
    assert_eq!(Antarctos::parse_move(&ice, "ce5"), Ok(jump));
    let e = Antarctos::parse_move(&ice, "cd4").unwrap_err();
    assert!(matches!(e, MoveTextError::NoMatch { .. }), "{e}");
    assert!(e.to_string().contains("d4 is not empty (A5)"), "{e}");
    // Leaving out landing squares of a longer list is rejected.
    assert!(matches!(
        Antarctos::parse_move(&p, "d6xb4xf4"),
        Err(MoveTextError::Incomplete { ref candidates, .. }) if candidates == &["d6xb4xd2xf4"]
    ));
    assert!(matches!(
        Antarctos::parse_move(&p, "d6xb4"),
        Err(MoveTextError::Incomplete { .. })
    ));
    // No match.
    let e = Antarctos::parse_move(&start, "c3-c5").unwrap_err();
    assert!(matches!(e, MoveTextError::NoMatch { .. }), "{e}");
    assert!(e.to_string().contains("c3-c5"), "{e}");
    // Ambiguous start and end: both loops round e3 start and end on e1.
    let loops = pos("W:We1:Bd2,f2,d4,f4,a7");
    let e = Antarctos::parse_move(&loops, "e1xe1").unwrap_err();
    match &e {
        MoveTextError::Ambiguous { candidates, .. } => {
            assert_eq!(candidates.len(), 2);
            assert!(e.to_string().contains("e1xc3xe5xg3xe1"), "{e}");
            assert!(e.to_string().contains("e1xg3xe5xc3xe1"), "{e}");
        }
        other => panic!("expected ambiguity, got {other}"),
    }
    // Bad squares and syntax.
    assert!(matches!(
        Antarctos::parse_move(&start, "c3-d9"),
        Err(MoveTextError::BadSquare { .. })
    ));
    assert!(matches!(
        Antarctos::parse_move(&start, "c3-"),
        Err(MoveTextError::Syntax { .. })
    ));
    assert!(matches!(
        Antarctos::parse_move(&start, ""),
        Err(MoveTextError::Syntax { .. })
    ));
}

#[test]
fn a17_one_jump_turn_given_by_its_two_squares_wins_over_longer() {
    // e3xg5 is a one-jump turn; two longer ones go round e3 (taking d2, b2, b4, d4, back
    // on the empty start square, A11) and also end with e3xg5.
    let p = pos("W:We3:Bb2,d2,b4,d4,f4");
    assert_eq!(
        turns(&p),
        ["e3xc1xa3xc5xe3xg5", "e3xc5xa3xc1xe3xg5", "e3xg5"]
    );
    let mv = Antarctos::parse_move(&p, "e3xg5").unwrap();
    assert_eq!(mv.to_string(), "e3xg5");
    assert_eq!(Antarctos::parse_move(&p, "e3:g5").unwrap(), mv);
    assert_eq!(Antarctos::parse_move(&p, "e3g5").unwrap(), mv);
    // A prefix of a longer list is incomplete, not a match.
    assert!(matches!(
        Antarctos::parse_move(&p, "e3xc1xa3"),
        Err(MoveTextError::Incomplete { .. })
    ));
}

#[test]
fn a18_position_text_in_and_out() {
    let p = pos("w:wE3,b4,F2:bd6,C7:ic3");
    assert_eq!(fen::write(&p), "W:Wf2,e3,b4:Bd6,c7:Ic3");
    assert_eq!(fen::write(&pos("W:Wb4:Bc7")), "W:Wb4:Bc7");
    assert_eq!(fen::write(&pos("W:Bc7:Wb4")), "W:Wb4:Bc7");
    assert_eq!(fen::write(&pos("B:W:Bc7")), "B:W:Bc7");
    assert_eq!(fen::write(&pos("W:W:Bc7:I")), "W:W:Bc7");
    let err = |t: &str| Antarctos::parse_position(t).unwrap_err();
    assert!(matches!(
        err("W:Wb1:Bc7"),
        PositionError::BadSquare {
            field: 'W',
            error: SquareError::Light(_)
        }
    ));
    assert!(matches!(
        err("W:Wc3:Bc3"),
        PositionError::DuplicateSquare {
            first: 'W',
            second: 'B',
            ..
        }
    ));
    assert!(matches!(
        err("W:Wc3,c3:Bd6"),
        PositionError::DuplicateSquare {
            first: 'W',
            second: 'W',
            ..
        }
    ));
    assert!(matches!(
        err("W:Wc3:Bd6:Ic3"),
        PositionError::DuplicateSquare { second: 'I', .. }
    ));
    assert!(matches!(
        err("W:Wi3:Bd6"),
        PositionError::BadSquare {
            error: SquareError::OffBoard(_),
            ..
        }
    ));
    assert!(matches!(
        err("W:Wa9:Bd6"),
        PositionError::BadSquare {
            error: SquareError::OffBoard(_),
            ..
        }
    ));
    let thirteen = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,b4:Bd6";
    assert!(matches!(
        err(thirteen),
        PositionError::TooManyMen {
            color: Color::White,
            count: 13
        }
    ));
    assert!(matches!(
        err("W:Wb8:Bd6"),
        PositionError::ManOnGoalRow {
            color: Color::White,
            ..
        }
    ));
    assert!(matches!(err("X:Wb4:Bd6"), PositionError::BadSide(_)));
    assert!(matches!(err("W:Wb4"), PositionError::MissingField('B')));
    assert!(matches!(
        err("W:Wb4:Bd6:Qa1"),
        PositionError::UnknownField(_)
    ));
    assert!(matches!(
        err("W:Wb4:Bd6:Wc3"),
        PositionError::DuplicateField('W')
    ));
    assert!(matches!(err("  "), PositionError::Empty));
    // Error texts say which square and field.
    assert!(err("W:Wb1:Bc7").to_string().contains("b1"));
    assert!(err("W:Wc3:Bc3").to_string().contains("c3"));
    // A man of the side not to move on its goal row: that side has just won.
    assert_eq!(
        pos("B:Wb8:Bd6").outcome(),
        win(Color::White, EndReason::Breakthrough)
    );
    // Judged as if the side not to move had just moved.
    assert_eq!(
        pos("W:W:B").outcome(),
        win(Color::Black, EndReason::TotalFreeze)
    );
    // Fewer than 12 men is fine; so is no ice field.
    assert_eq!(pos("W:Wc3:Bf6").men(Color::White).len(), 1);
}

#[test]
fn a19_fullmove_numbers_for_records() {
    let p = pos("B:Wa5,d2,d4:Ba7,c7");
    assert_eq!(Antarctos::fullmove_number(&p), 1);
    assert_eq!(Antarctos::side_to_move(&p), Color::Black);
    // Number the moves as the records do: "1... c7-b6 2. a5xc7 a7xc5xe3xc1".
    let mut text = String::new();
    let mut cur = p;
    for (i, m) in ["c7-b6", "a5xc7", "a7xc5xe3xc1"].into_iter().enumerate() {
        let n = Antarctos::fullmove_number(&cur);
        match Antarctos::side_to_move(&cur) {
            Color::White => text.push_str(&format!("{n}. ")),
            Color::Black if i == 0 => text.push_str(&format!("{n}... ")),
            Color::Black => {}
        }
        let mv = Antarctos::parse_move(&cur, m).unwrap();
        text.push_str(&Antarctos::move_text(&cur, &mv));
        text.push(' ');
        cur = Antarctos::play(&cur, &mv).unwrap();
    }
    assert_eq!(text.trim_end(), "1... c7-b6 2. a5xc7 a7xc5xe3xc1");
    assert_eq!(Antarctos::fullmove_number(&cur), 3);
    // From the start: White's and Black's first turns are both move 1.
    let s = Position::start();
    let s1 = play(&s, "c3-d4");
    assert_eq!(s1.fullmove_number(), 1);
    assert_eq!(play(&s1, "f6-e5").fullmove_number(), 2);
    // The fullmove number is not part of the position text (A18) nor the zobrist key.
    let later = play(&play(&s1, "f6-e5"), "d4xf6");
    let reread = pos(&fen::write(&later));
    assert_eq!(reread.fullmove_number(), 1);
    assert_eq!(reread.zobrist(), later.zobrist());
    assert_eq!(reread, later.with_fullmove_number(1));
}
