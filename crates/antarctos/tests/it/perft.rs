//! Perft figures of the spec ("Reference figures"), from the start position A3.

use antarctos::{Antarctos, Position};
use game::Variant;

const FIGURES: [u64; 10] = [
    7, 49, 302, 1460, 7614, 39835, 204456, 1025642, 5173616, 25896268,
];

#[test]
fn perft_start_depths_1_to_8() {
    let pos = Position::start();
    for depth in 1..=8u32 {
        assert_eq!(
            antarctos::perft(&pos, depth),
            FIGURES[depth as usize - 1],
            "depth {depth}"
        );
    }
}

#[test]
fn perft_fast_equals_generic_to_depth_5() {
    let pos = Position::start();
    for depth in 0..=5 {
        assert_eq!(
            Antarctos::perft(&pos, depth),
            game::perft::<Antarctos>(&pos, depth),
            "depth {depth}"
        );
    }
}

/// Depths 9 and 10 (a few seconds in release): `cargo test -p antarctos --release -- --ignored`.
#[test]
#[ignore]
fn perft_start_depths_9_and_10() {
    let pos = Position::start();
    for depth in 9..=10u32 {
        assert_eq!(
            antarctos::perft(&pos, depth),
            FIGURES[depth as usize - 1],
            "depth {depth}"
        );
    }
}
