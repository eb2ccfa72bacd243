//! Perft: the chessprogramming.org suite on ice-free positions (C1: standard chess where there
//! is no ice), the Sedlak edge cases, and the Ice Age start position (the spec's reference
//! figures). The deepest runs are `#[ignore]`d: `cargo test -p iceage -- --ignored`.

use game::Variant;
use iceage::{IceAge, fen, perft};

fn check(fen_text: &str, expected: &[u64]) {
    let pos = fen::parse(fen_text).expect("valid FEN");
    for (i, &want) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(perft(&pos, depth), want, "{fen_text} depth {depth}");
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS4_MIRROR: &str = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

#[test]
fn perft_start_position_depth_5() {
    check(START, &[20, 400, 8902, 197_281, 4_865_609]);
}

#[test]
fn perft_kiwipete_depth_4() {
    check(KIWIPETE, &[48, 2039, 97_862, 4_085_603]);
}

#[test]
fn perft_position_3_depth_5() {
    check(POS3, &[14, 191, 2812, 43_238, 674_624]);
}

#[test]
fn perft_position_4_depth_4() {
    check(POS4, &[6, 264, 9467, 422_333]);
    check(POS4_MIRROR, &[6, 264, 9467, 422_333]);
}

#[test]
fn perft_position_5_depth_4() {
    check(POS5, &[44, 1486, 62_379, 2_103_487]);
}

#[test]
fn perft_position_6_depth_4() {
    check(POS6, &[46, 2079, 89_890, 3_894_594]);
}

#[test]
#[ignore = "deep: about 5 s in the dev profile on 2 shared cores"]
fn perft_deep_suite() {
    check(START, &[20, 400, 8902, 197_281, 4_865_609, 119_060_324]);
    check(KIWIPETE, &[48, 2039, 97_862, 4_085_603, 193_690_690]);
    check(POS3, &[14, 191, 2812, 43_238, 674_624, 11_030_083]);
    check(POS4, &[6, 264, 9467, 422_333, 15_833_292]);
    check(POS5, &[44, 1486, 62_379, 2_103_487, 89_941_194]);
    check(POS6, &[46, 2079, 89_890, 3_894_594, 164_075_551]);
}

/// Martin Sedlak's edge cases (talkchess), each with its published depth and count.
const SEDLAK: &[(&str, u32, u64)] = &[
    ("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1_134_888),
    ("8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1_015_133),
    ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1_440_467),
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661_072),
    ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 6, 803_711),
    ("r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4, 1_274_206),
    ("r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4, 1_720_476),
    ("2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, 3_821_001),
    ("8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, 1_004_658),
    ("4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, 217_342),
    ("8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92_683),
    ("K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, 2217),
    ("8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, 567_584),
    ("8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4, 23_527),
];

#[test]
fn perft_sedlak_edge_cases() {
    for &(fen_text, depth, want) in SEDLAK {
        let pos = fen::parse(fen_text).expect("valid FEN");
        assert_eq!(perft(&pos, depth), want, "{fen_text} depth {depth}");
    }
}

/// The spec's reference figures from the C4 start position (ice on ranks 3-6).
#[test]
fn perft_ice_age_start_depth_4() {
    let pos = IceAge::start_position();
    for (depth, want) in [(1, 18), (2, 324), (3, 6264), (4, 121_094)] {
        assert_eq!(IceAge::perft(&pos, depth), want, "depth {depth}");
        assert_eq!(
            game::perft::<IceAge>(&pos, depth),
            want,
            "generic, depth {depth}"
        );
    }
}

#[test]
#[ignore = "deep"]
fn perft_ice_age_start_depth_5() {
    assert_eq!(IceAge::perft(&IceAge::start_position(), 5), 2_514_718);
}
