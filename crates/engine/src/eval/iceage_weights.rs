//! The weights of the Ice Age Chess evaluation's terms, in the order of
//! `eval::iceage::TERM_NAMES`. Written by `icebound tune --variant iceage` (see
//! docs/strength.md, "Tuned evaluation"); edit by rerunning it, not by hand.

/// One weight per term (centi-units per occurrence; the freeze terms in per cent).
pub const WEIGHTS: [i32; 35] = [
    100, 310, 325, 500, 900, 0, 4, 8, 14, 24, 40, 5, 10, 18, 30, 50, 80, 2, 1, 4, 4, 2, 1, 12, 9,
    100, 50, 30, 20, 15, 12, 10, 8, 100, 10,
];
