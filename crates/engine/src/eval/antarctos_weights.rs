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
/// - step: 11
/// - blocked: -15
/// - springboard: 37
/// - runner: -13
/// - race won: 202
/// - race alone: 30
/// - tempo: 7
/// - edge: -7
/// - backed: 9
/// - exposed: -49
pub const WEIGHTS: [i32; 18] = [
    100, -10, -28, 6, -2, 72, 36, -3, 11, -15, 37, -13, 202, 30, 7, -7, 9, -49,
];
