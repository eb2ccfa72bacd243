//! The integration tests of the Ice Age Chess rules, in one binary (one link, one run): perft,
//! PGN, decisions C1-C14, differential checks, faults, round trips and QA.
//!
//! Proptest keeps its regressions in `tests/proptest-regressions/<module>.txt` (its default beside
//! a `main.rs`).

mod common;
mod decisions;
mod differential;
mod faults;
mod ice_cases;
mod pass;
mod perft_suite;
mod pgn;
mod qa;
mod round_trips;
mod simple;
mod zobrist_keys;
