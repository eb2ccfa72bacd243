//! Zobrist keys: the Ice Age phase (C5) is part of the key.

use game::Variant;
use iceage::{IceAge, fen};

fn key(text: &str) -> u64 {
    IceAge::zobrist(&fen::parse(text).expect("valid FEN"))
}

#[test]
fn c5_key_tells_plies_to_next_ice_age_apart() {
    let board = "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR";
    // Same board and side, different distance to the Ice Age: different keys.
    assert_ne!(
        key(&format!("{board} b KQkq - 0 19")),
        key(&format!("{board} b KQkq - 0 20"))
    );
    assert_ne!(
        key(&format!("{board} w KQkq - 0 1")),
        key(&format!("{board} w KQkq - 0 2"))
    );
    // Same distance (full-move numbers 20 apart): the same key.
    assert_eq!(
        key(&format!("{board} w KQkq - 0 1")),
        key(&format!("{board} w KQkq - 0 21"))
    );
    // Side to move, castling and ice are in the key.
    assert_ne!(
        key(&format!("{board} w KQkq - 0 1")),
        key(&format!("{board} b KQkq - 0 1"))
    );
    assert_ne!(
        key(&format!("{board} w KQkq - 0 1")),
        key(&format!("{board} w Kkq - 0 1"))
    );
    assert_ne!(
        key("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        key("4k3/8/8/8/8/8/*7/4K3 w - - 0 1")
    );
    // The half-move clock is not (see `crates/iceage/src/zobrist.rs`).
    assert_eq!(
        key(&format!("{board} w KQkq - 0 1")),
        key(&format!("{board} w KQkq - 7 1"))
    );
}
