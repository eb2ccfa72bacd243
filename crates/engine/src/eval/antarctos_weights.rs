//! The weights of the Antarctos evaluation's terms, in the order of
//! `eval::antarctos::TERM_NAMES`. Written by `icebound tune` (docs/strength.md, "Tuned
//! evaluation"); rerun it rather than edit by hand:
//! `icebound tune --variant antarctos --data antarctos_data.txt --fit --hold 'advance,home guard' --epochs 1000 --rate 1`
//! (the fit started from the weights this file replaced: the first tuning's,
//! `eval::antarctos::FIRST_TUNED_WEIGHTS`; the data are those of docs/strength.md).

/// One weight per term, by name:
/// - man: 100
/// - advance 1: -10
/// - advance 2: -28
/// - advance 3: 6
/// - advance 4: -2
/// - advance 5: 72
/// - advance 6: 36
/// - home guard: -3
/// - step: 13
/// - blocked: -7
/// - springboard: 37
/// - runner: 116
/// - race won: 177
/// - race alone: -96
/// - tempo: 6
pub const WEIGHTS: [i32; 15] = [
    100, -10, -28, 6, -2, 72, 36, -3, 13, -7, 37, 116, 177, -96, 6,
];
