//! `Position::pass`, the engine's null move: not a rule of the game (A5-A11), but it must
//! give the same board with the other side to move.

use antarctos::Antarctos;
use game::{Color, Variant};

#[test]
fn pass_gives_the_same_board_to_the_other_side() {
    let p = Antarctos::parse_position("W:Wb4,e3,f2:Bc7,d6:Ic3").expect("valid");
    let q = p.pass();
    assert_eq!(Antarctos::position_text(&q), "B:Wf2,e3,b4:Bd6,c7:Ic3");
    assert_eq!(Antarctos::side_to_move(&q), Color::Black);
    assert_eq!(
        Antarctos::zobrist(&q),
        Antarctos::zobrist(&Antarctos::parse_position("B:Wb4,e3,f2:Bc7,d6:Ic3").expect("valid"))
    );
    // Black's pass completes a full move.
    assert_eq!(Antarctos::fullmove_number(&q.pass()), 2);
    assert_eq!(q.pass(), p.with_fullmove_number(2));
}
