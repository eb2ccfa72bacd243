//! Differential test: the bitboard generator against the simple array generator of
//! `tests/simple` (written from the rule text, with its own Ice Age) over more than 10,000
//! random reachable positions, some of the walks straddling Ice Ages (C5-C9).

use crate::simple;

use iceage::{Position, fen};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use simple::Simple;

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR b KQkq - 0 19",
    "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR b KQkq - 0 39",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 19",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 19",
    "r3k2r/p1pp*pb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 90 39",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 19",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 19",
    "4k3/pppppppp/********/8/8/********/PPPPPPPP/4K3 w - - 0 18",
];

/// Compares one position; returns the number of legal moves.
fn compare(pos: &Position) -> usize {
    let text = fen::write(pos);
    let simple = Simple::from_fen(&text);
    assert_eq!(simple.to_fen(), text, "simple FEN round trip");
    let mut ours: Vec<(String, String)> = pos
        .legal_moves()
        .iter()
        .map(|m| (m.uci(), fen::write(&pos.play_unchecked(m))))
        .collect();
    let mut theirs: Vec<(String, String)> = simple
        .legal()
        .into_iter()
        .map(|(m, s)| (m.uci(), s.to_fen()))
        .collect();
    assert_eq!(pos.count_legal_moves(), ours.len(), "bulk count in {text}");
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs, "moves differ in {text}");
    assert_eq!(
        pos.outcome().map(|o| o.to_string()),
        simple.outcome(),
        "outcome differs in {text}"
    );
    assert_eq!(pos.is_check(), simple.in_check(), "check differs in {text}");
    // The incremental zobrist key equals the key of the same position read from text.
    assert_eq!(
        pos.zobrist(),
        fen::parse(&text).expect("own FEN reads").zobrist(),
        "key in {text}"
    );
    ours.len()
}

#[test]
fn differential_against_simple_generator() {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    let mut positions = 0usize;
    let mut ice_ages = 0usize;
    let mut freezes = 0usize;
    let mut finished = 0usize;
    let mut walk = 0usize;
    while positions < 10_500 {
        let start = STARTS[walk % STARTS.len()];
        walk += 1;
        let mut pos = fen::parse(start).expect("start FEN");
        for _ in 0..60 {
            let n = compare(&pos);
            positions += 1;
            if n == 0 {
                finished += 1;
                break;
            }
            let moves = pos.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            if pos.ice_age_due() {
                ice_ages += 1;
                let (next, report) = pos.play_with_report(&mv);
                if report.is_some_and(|r| !r.frozen.is_empty()) {
                    freezes += 1;
                }
                pos = next;
            } else {
                pos = pos.play_unchecked(&mv);
            }
        }
    }
    assert!(positions >= 10_000);
    assert!(ice_ages >= 100, "only {ice_ages} Ice Ages");
    assert!(freezes >= 10, "only {freezes} Ice Ages froze something");
    println!("{positions} positions, {ice_ages} Ice Ages ({freezes} froze), {finished} finished");
}
