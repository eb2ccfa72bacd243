//! The weights of the Ice Age Chess evaluation's terms, in the order of
//! `eval::iceage::TERM_NAMES`. Written by `icebound tune` (docs/strength.md, "Tuned
//! evaluation"); rerun it rather than edit by hand:
//! `icebound tune --variant iceage --data iceage_data.txt --fit --epochs 2000 --rate 1`

/// One weight per term, by name:
/// - pawn: 100
/// - knight: 474
/// - bishop: 351
/// - rook: 418
/// - queen: 785
/// - pawn rank 1: 75
/// - pawn rank 2: 72
/// - pawn rank 3: 78
/// - pawn rank 4: 82
/// - pawn rank 5: 75
/// - pawn rank 6: 68
/// - passed rank 1: -21
/// - passed rank 2: 9
/// - passed rank 3: 34
/// - passed rank 4: 62
/// - passed rank 5: 74
/// - passed rank 6: 108
/// - knight centre: 5
/// - bishop centre: 2
/// - knight mobility: -8
/// - bishop mobility: 6
/// - rook mobility: 13
/// - queen mobility: 3
/// - king shelter: 25
/// - king attack: 13
/// - freeze % 0 moves: 100
/// - freeze % 1 move: 17
/// - freeze % 2 moves: 11
/// - freeze % 3 moves: 9
/// - freeze % 4 moves: 6
/// - freeze % 5 moves: 5
/// - freeze % 6 moves: 4
/// - freeze % 7 moves: 3
/// - freeze far: 31
/// - tempo: 4
pub const WEIGHTS: [i32; 35] = [
    100, 474, 351, 418, 785, 75, 72, 78, 82, 75, 68, -21, 9, 34, 62, 74, 108, 5, 2, -8, 6, 13, 3,
    25, 13, 100, 17, 11, 9, 6, 5, 4, 3, 31, 4,
];
