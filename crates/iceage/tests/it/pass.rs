//! `Position::pass`, the engine's null move: not a rule of the game, but it must give a
//! consistent position (key, counters) and refuse where a pass would be meaningless.

use game::Variant;
use iceage::{IceAge, fen};

fn pos(text: &str) -> iceage::Position {
    fen::parse(text).expect("valid FEN")
}

#[test]
fn pass_flips_the_side_and_keeps_the_key_consistent() {
    // White passes: Black to move, the en-passant square gone, the half-move clock on.
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 3 7");
    let q = p.pass().expect("a pass");
    assert_eq!(
        IceAge::position_text(&q),
        "4k3/8/8/3pP3/8/8/8/4K3 b - - 4 7"
    );
    assert_eq!(
        IceAge::zobrist(&q),
        IceAge::zobrist(&pos("4k3/8/8/3pP3/8/8/8/4K3 b - - 4 7"))
    );
    // Black passes: the full-move number advances, and so does the Ice Age phase (C5).
    let r = q.pass().expect("a pass");
    assert_eq!(
        IceAge::position_text(&r),
        "4k3/8/8/3pP3/8/8/8/4K3 w - - 5 8"
    );
    assert_eq!(
        IceAge::zobrist(&r),
        IceAge::zobrist(&pos("4k3/8/8/3pP3/8/8/8/4K3 w - - 5 8"))
    );
}

#[test]
fn no_pass_in_check_or_on_the_ice_age_move() {
    // White in check from the rook.
    assert!(pos("4k3/8/8/8/8/8/8/r3K3 w - - 0 5").pass().is_none());
    // Black's 20th move brings the Ice Age (C5): a pass cannot.
    assert!(pos("4k3/8/8/8/8/8/4P3/4K3 b - - 0 20").pass().is_none());
    assert!(pos("4k3/8/8/8/8/8/4P3/4K3 b - - 0 19").pass().is_some());
}
