//! Property tests: FEN (C12) and SAN/UCI (C13) round trips over random reachable positions.

use iceage::{Position, fen, notation};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR b KQkq - 0 19",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 39",
];

/// A position reached by `plies` random legal moves from one of the starts.
fn walk(start: usize, seed: u64, plies: usize) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = fen::parse(STARTS[start % STARTS.len()]).expect("start FEN");
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play_unchecked(&moves[rng.random_range(0..moves.len())]);
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fen_round_trip(start in 0usize..4, seed in any::<u64>(), plies in 0usize..80) {
        let pos = walk(start, seed, plies);
        let text = fen::write(&pos);
        let back = fen::parse(&text).expect("own FEN reads back");
        prop_assert_eq!(fen::write(&back), text);
        prop_assert_eq!(&back, &pos);
    }

    #[test]
    fn san_and_uci_round_trip(start in 0usize..4, seed in any::<u64>(), plies in 0usize..80) {
        let pos = walk(start, seed, plies);
        for mv in pos.legal_moves() {
            let text = notation::move_text(&pos, &mv);
            prop_assert_eq!(notation::parse_move(&pos, &text).expect("own SAN reads back"), mv);
            prop_assert_eq!(notation::parse_move(&pos, &mv.uci()).expect("UCI reads back"), mv);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Any text: an error or a position, never a panic (C12).
    #[test]
    fn fen_never_panics(text in "[rnbqkpRNBQKP1-9*/ wbKQkq-]{0,80}") {
        let _ = fen::parse(&text);
    }

    /// Any text: an error or a legal move, never a panic (C13).
    #[test]
    fn move_text_never_panics(text in "[a-hx1-9NBRQKO=+#0-]{0,8}", start in 0usize..4, seed in any::<u64>()) {
        let pos = walk(start, seed, 20);
        if let Ok(mv) = notation::parse_move(&pos, &text) {
            prop_assert!(pos.legal_moves().contains(&mv));
        }
    }
}
