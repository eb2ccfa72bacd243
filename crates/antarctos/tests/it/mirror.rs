//! `Position::mirrored`, the colour mirror that makes a puzzle and its mirror one puzzle
//! (crate `puzzles`): the board turned half a turn with the colours swapped is the same game
//! from the other side (A1, A4), so it has the same moves, perft and result.

use antarctos::{Antarctos, Position};
use game::{Color, Outcome, Variant};

fn pos(text: &str) -> Position {
    Antarctos::parse_position(text).expect("valid")
}

#[test]
fn the_mirror_turns_the_board_and_swaps_the_colours() {
    let p = pos("W:Wb4,e3,f2:Bc7,d6:Ic3");
    let m = p.mirrored();
    // b4 -> g5, e3 -> d6, f2 -> c7 (Black's now); c7 -> f2, d6 -> e3 (White's); ice c3 -> f6.
    assert_eq!(Antarctos::position_text(&m), "B:Wf2,e3:Bg5,d6,c7:If6");
    assert_eq!(Antarctos::side_to_move(&m), Color::Black);
    assert_eq!(m.mirrored(), p);
    assert_eq!(
        Position::start().mirrored().pass(),
        Position::start().with_fullmove_number(2)
    );
    // Corners and the squares beside the ghost bits.
    let corners = pos("W:Wa1,h2:Ba7,h8");
    assert_eq!(
        Antarctos::position_text(&corners.mirrored()),
        "B:Wa1,h2:Ba7,h8"
    );
}

#[test]
fn the_mirror_has_the_same_perft_and_the_same_result() {
    for text in [
        "W:Wb4,e3,f2:Bc7,d6:Ic3",
        "B:Wa5,d2,d4:Ba7,c7",
        "W:Wb2,c1,h2:Ba3,c5:Ie5,e7,g3",
    ] {
        let p = pos(text);
        let m = p.mirrored();
        for depth in 1..=5 {
            assert_eq!(
                Antarctos::perft(&p, depth),
                Antarctos::perft(&m, depth),
                "{text} depth {depth}"
            );
        }
        let mut a = p.clone();
        let mut b = m.clone();
        // Play the first legal move of each in generation order to the end: the mirror's
        // game ends the same way with the colours swapped.
        loop {
            let (oa, ob) = (Antarctos::outcome(&a), Antarctos::outcome(&b));
            match (oa, ob) {
                (None, None) => {}
                (
                    Some(Outcome::Win { winner, reason }),
                    Some(Outcome::Win {
                        winner: w,
                        reason: r,
                    }),
                ) => {
                    assert_eq!((!winner, reason), (w, r), "{text}");
                    break;
                }
                other => panic!("{text}: results differ: {other:?}"),
            }
            let mut ma = Antarctos::legal_moves(&a);
            let mut mb = Antarctos::legal_moves(&b);
            assert_eq!(ma.len(), mb.len(), "{text}");
            let mv = ma.remove(0);
            // The mirror of the chosen move: the one whose path (squares rank * 8 + file) is
            // turned.
            let turned: Vec<u8> = Antarctos::move_path(&mv).iter().map(|sq| 63 - sq).collect();
            let idx = mb
                .iter()
                .position(|m| Antarctos::move_path(m) == turned)
                .expect("the mirrored move is legal");
            let mm = mb.remove(idx);
            a = Antarctos::play(&a, &mv).expect("legal");
            b = Antarctos::play(&b, &mm).expect("legal");
        }
    }
}
