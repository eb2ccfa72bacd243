//! Each rule of the crate doc on hand-made positions, in both games.

use antarctos::Antarctos;
use engine::solve::{Prover, line_text};
use game::Variant;
use iceage::IceAge;
use puzzles::{Clash, Limits, Proven, Reject, Seen, Theme, Themed, check};

fn limits(max_plies: u32) -> Limits {
    Limits {
        max_plies,
        deadline: None,
    }
}

fn antarctos(text: &str) -> (antarctos::Position, Result<Proven<Antarctos>, Reject>) {
    let pos = Antarctos::parse_position(text).expect("valid");
    let got = check(&mut Prover::<Antarctos>::new(4), &pos, &limits(15));
    (pos, got)
}

fn iceage(text: &str) -> (iceage::Position, Result<Proven<IceAge>, Reject>) {
    let pos = IceAge::parse_position(text).expect("valid");
    let got = check(&mut Prover::<IceAge>::new(4), &pos, &limits(5));
    (pos, got)
}

fn line<V: Variant>(pos: &V::Position, got: &Result<Proven<V>, Reject>) -> String {
    let proven = got.as_ref().expect("a puzzle");
    line_text::<V>(pos, &proven.line)
}

/// The seed's three worked examples (antarctos.md) are puzzles, with the seed's lines.
#[test]
fn the_seeds_worked_examples_are_puzzles() {
    let (pos, got) = antarctos("B:Wa5,d2,d4:Ba7,c7");
    assert_eq!(line(&pos, &got), "1... c7-b6 2. a5xc7 a7xc5xe3xc1#");
    assert_eq!(got.as_ref().map(Proven::moves), Ok(2));
    let (pos, got) = antarctos("W:Wb4,e3,f2:Bc7,d6:Ic3");
    assert!(line(&pos, &got).starts_with("1. "), "{got:?}");
    let (pos, got) = antarctos("W:Wb2,c1,h2:Ba3,c5:Ie5,e7,g3");
    assert!(line(&pos, &got).ends_with('#'), "{got:?}");
}

#[test]
fn a_first_move_that_is_the_only_legal_move_is_no_puzzle() {
    // Black must capture (A9) and has one capture.
    let (_, got) = antarctos("B:Wg5,d4:Be7,h6,g3");
    assert_eq!(got.map(|p| p.plies()), Err(Reject::OnlyLegalMove));
}

#[test]
fn a_second_winning_move_rejects_the_position() {
    // Two first moves win.
    let (_, got) = antarctos("B:We3,g3:Bc3,e7,f4,d6");
    assert_eq!(
        got.map(|p| p.plies()),
        Err(Reject::SecondWinningMove { ply: 0 })
    );
    // The first move is the only one, the winner's second is not.
    let (_, got) = antarctos("W:We5,d4:Bc7,a5:If4,b2,f6");
    assert_eq!(
        got.map(|p| p.plies()),
        Err(Reject::SecondWinningMove { ply: 2 })
    );
    // Ice Age Chess: two rooks mate on the back rank.
    let (_, got) = iceage("6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1");
    assert_eq!(
        got.map(|p| p.plies()),
        Err(Reject::SecondWinningMove { ply: 0 })
    );
}

#[test]
fn no_win_within_the_limit_is_no_puzzle() {
    let (_, got) = antarctos("B:Wa3,d4:Bb4,c3");
    assert_eq!(got.map(|p| p.plies()), Err(Reject::NoForcedWin));
    // A win too long for the limit.
    let pos = Antarctos::parse_position("B:Wf4,a3,g5,c3:Be5,b4,e7").expect("valid");
    let mut prover = Prover::<Antarctos>::new(4);
    assert_eq!(
        check(&mut prover, &pos, &limits(9)).map(|p| p.plies()),
        Ok(9)
    );
    assert_eq!(
        check(&mut prover, &pos, &limits(7)).map(|p| p.plies()),
        Err(Reject::NoForcedWin)
    );
}

#[test]
fn a_passed_deadline_says_so() {
    let pos = Antarctos::parse_position("B:Wf4,a3,g5,c3:Be5,b4,e7").expect("valid");
    let passed = Limits {
        max_plies: 15,
        deadline: Some(engine::clock::Instant::now()),
    };
    // The solver looks at the clock every 4,096 positions: a long proof stops.
    let got = check(
        &mut Prover::<Antarctos>::new(4),
        &Antarctos::start_position(),
        &passed,
    );
    assert_eq!(got.map(|p| p.plies()), Err(Reject::OutOfTime));
    // A short one may finish first: either way no other answer.
    let got = check(&mut Prover::<Antarctos>::new(4), &pos, &passed);
    assert!(matches!(got, Ok(_) | Err(Reject::OutOfTime)), "{got:?}");
}

/// Where several defences resist as long, each is followed (and any may be played when
/// the puzzle is solved); the line goes on with the first.
#[test]
fn defences_that_resist_as_long_are_all_followed() {
    let (pos, got) = antarctos("W:Wc5,b4:Bg7,f4:Ib2,b6");
    assert_eq!(line(&pos, &got), "1. c5xa7 f4-g3 2. a7-b8#");
    let proven = got.expect("a puzzle");
    assert_eq!(proven.defence_choices, 1);
    // Every Black answer loses at once.
    let after = Antarctos::play(&pos, &proven.line[0]).expect("legal");
    let answers = Antarctos::legal_moves(&after);
    assert!(answers.len() > 1);
    for mv in answers {
        let next = Antarctos::play(&after, &mv).expect("legal");
        let sol = engine::solve::solve::<Antarctos>(&next, 1);
        assert!(matches!(
            sol.proof,
            engine::solve::Proof::Win { plies: 1, .. }
        ));
    }
    // A longer one: the defence chosen is the first in move order; every other is checked.
    let (pos, got) = antarctos("W:Wc5,d2:Bb6,d6,b4,d4:If6,c3");
    assert_eq!(
        line(&pos, &got),
        "1. c5xa7 d4-e3 2. d2xf4 d6-e5 3. f4xd6 b4-a3 4. a7-b8#"
    );
    assert!(got.expect("a puzzle").defence_choices >= 1);
}

/// Ice Age Chess: a mate, and a king frozen by the Ice Age that the defender's own move
/// brings (the line ends with the defender's move).
#[test]
fn ice_age_chess_mates_and_frozen_kings() {
    let (pos, got) = iceage("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert_eq!(line(&pos, &got), "1. Ra8#");
    assert_eq!(
        IceAge::themes(&pos, &got.expect("a puzzle").line),
        vec![Theme::Mate]
    );
    // Black's 20th move brings an Ice Age: a lone king freezes. Only Rg1 keeps White's
    // king company (C6); every king move leaves both kings to freeze (a draw, C7).
    let (pos, got) = iceage("7k/8/8/8/8/8/8/R6K w - - 0 20");
    let proven = got.expect("a puzzle");
    // Black's only legal answer (the rook holds the g-file) brings the Ice Age.
    assert_eq!(line_text::<IceAge>(&pos, &proven.line), "20. Rg1 Kh7");
    assert_eq!(proven.plies(), 2);
    assert_eq!(proven.moves(), 1);
    assert_eq!(proven.defence_choices, 0);
    // Here any of three rook moves keeps the king company.
    let (_, got) = iceage("7k/8/8/8/8/8/4R3/6K1 w - - 0 20");
    assert_eq!(
        got.map(|p| p.plies()),
        Err(Reject::SecondWinningMove { ply: 0 })
    );
    assert_eq!(
        IceAge::themes(&pos, &proven.line),
        vec![Theme::FrozenKing, Theme::IceAgeTiming]
    );
}

#[test]
fn themes_of_antarctos_lines() {
    let cases = [
        // An ice jump that also captures, won on the goal row, the defender forced to take.
        (
            "W:Wg5,h2,d6,c3:Be5,e7,f6,e3:Id4,g7",
            vec![
                Theme::IceJump,
                Theme::IceSpringboard,
                Theme::Breakthrough,
                Theme::ForcedCapture,
            ],
        ),
        // White's first turn takes backward (b4xd2).
        (
            "W:Wg5,b4,f4:Bg3,c3",
            vec![Theme::IceJump, Theme::ForcedCapture, Theme::BackwardCapture],
        ),
        // Black gives a man (d6-c5) to take back and break through.
        (
            "B:Wd4,h4:Bd6,a5,f4",
            vec![
                Theme::Sacrifice,
                Theme::ForcedCapture,
                Theme::BackwardCapture,
            ],
        ),
    ];
    for (text, want) in cases {
        let (pos, got) = antarctos(text);
        let proven = got.expect("a puzzle");
        assert_eq!(Antarctos::themes(&pos, &proven.line), want, "{text}");
        for t in &want {
            assert!(Antarctos::THEMES.contains(t));
            assert_eq!(t.name().parse::<Theme>(), Ok(*t));
        }
    }
    assert!("ice".parse::<Theme>().is_err());
}

#[test]
fn a_position_met_again_or_mirrored_is_a_duplicate() {
    let pos = Antarctos::parse_position("W:Wc5,b4:Bg7,f4:Ib2,b6").expect("valid");
    let mirror = pos.mirrored();
    let mut seen = Seen::new();
    assert!(seen.insert::<Antarctos>(&pos));
    assert!(!seen.insert::<Antarctos>(&pos));
    assert!(seen.contains::<Antarctos>(&mirror));
    assert!(!seen.insert::<Antarctos>(&mirror));
    assert_eq!(seen.len(), 1);
    // The mirror is the same puzzle from Black's side: same length, same themes.
    let mut prover = Prover::<Antarctos>::new(4);
    let a = check(&mut prover, &pos, &limits(15)).expect("a puzzle");
    let b = check(&mut prover, &mirror, &limits(15)).expect("a puzzle");
    assert_eq!(a.plies(), b.plies());
    assert_eq!(
        Antarctos::themes(&pos, &a.line),
        Antarctos::themes(&mirror, &b.line)
    );
    // Another position is another puzzle; Ice Age Chess has no mirror.
    assert!(seen.insert::<Antarctos>(&Antarctos::start_position()));
    let ice = IceAge::start_position();
    assert!(seen.insert::<IceAge>(&ice));
    assert!(!seen.insert::<IceAge>(&ice));
}

/// Found by a tester in the shipped file: six puzzles whose line passed through another's
/// position. The seed's second example and the position after its first two plies (the
/// solver to move again), in either order and mirrored, are one puzzle and its tail.
#[test]
fn a_puzzle_inside_another_puzzles_line_overlaps_it() {
    let pos = Antarctos::parse_position("W:Wb4,e3,f2:Bc7,d6:Ic3").expect("valid");
    let mut prover = Prover::<Antarctos>::new(4);
    let whole = check(&mut prover, &pos, &limits(15)).expect("a puzzle");
    assert_eq!(whole.plies(), 3);
    let after2 = Antarctos::play(
        &Antarctos::play(&pos, &whole.line[0]).unwrap(),
        &whole.line[1],
    )
    .unwrap();
    let tail = check(&mut prover, &after2, &limits(15)).expect("a puzzle");
    assert_eq!(tail.line[..], whole.line[2..]);
    // The whole first: the tail and its mirror overlap it.
    let mut seen = Seen::new();
    assert_eq!(seen.admit::<Antarctos>(&pos, &whole.line), Ok(()));
    assert_eq!(seen.clash::<Antarctos>(&after2), Some(Clash::Overlap));
    assert_eq!(
        seen.admit::<Antarctos>(&after2, &tail.line),
        Err(Clash::Overlap)
    );
    let mirror = after2.mirrored();
    let mirrored_tail = check(&mut prover, &mirror, &limits(15)).expect("a puzzle");
    assert_eq!(
        seen.admit::<Antarctos>(&mirror, &mirrored_tail.line),
        Err(Clash::Overlap)
    );
    assert_eq!(
        seen.admit::<Antarctos>(&pos, &whole.line),
        Err(Clash::Duplicate)
    );
    // The tail first: the whole's line meets it.
    let mut seen = Seen::new();
    assert_eq!(seen.admit::<Antarctos>(&after2, &tail.line), Ok(()));
    assert_eq!(seen.clash::<Antarctos>(&pos), None);
    assert_eq!(
        seen.admit::<Antarctos>(&pos, &whole.line),
        Err(Clash::Overlap)
    );
    assert_eq!(Clash::Overlap.name(), "overlaps_a_puzzle");
}
