//! The weights of the Antarctos evaluation's terms, in the order of
//! `eval::antarctos::TERM_NAMES`. Written by `icebound tune` (docs/strength.md, "Tuned
//! evaluation"); rerun it rather than edit by hand:
//! `icebound tune --variant antarctos --data antarctos_data.txt --fit --hold 'advance,home guard' --epochs 1000 --rate 1 --write crates/engine/src/eval/antarctos_weights.rs`
//! (the fit started from the weights this file replaced).

/// One weight per term, by name:
/// - man: 100
/// - advance 1: -10
/// - advance 2: -28
/// - advance 3: 6
/// - advance 4: -2
/// - advance 5: 72
/// - advance 6: 36
/// - home guard: -3
/// - step: 16
/// - blocked: -6
/// - springboard: 43
/// - runner: -94
/// - race won: 272
/// - race alone: 88
/// - tempo: 5
pub const WEIGHTS: [i32; 15] = [
    100, -10, -28, 6, -2, 72, 36, -3, 16, -6, 43, -94, 272, 88, 5,
];
