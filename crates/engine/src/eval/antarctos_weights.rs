//! The weights of the Antarctos evaluation's terms, in the order of
//! `eval::antarctos::TERM_NAMES`. Written by `icebound tune --variant antarctos` (see
//! docs/strength.md, "Tuned evaluation"); edit by rerunning it, not by hand.

/// One weight per term, centi-units per occurrence.
pub const WEIGHTS: [i32; 15] = [100, 3, 7, 13, 22, 36, 58, 10, 3, -8, 9, 120, 250, 125, 8];
