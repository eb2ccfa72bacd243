//! The integration tests of the Antarctos rules, in one binary (one link, one run): perft, PDN,
//! decisions A1-A19, differential checks, round trips and QA.
//!
//! Proptest keeps its regressions in `tests/proptest-regressions/<module>.txt` (its default beside
//! a `main.rs`).

mod decisions;
mod differential;
mod mirror;
mod pass;
mod pdn;
mod perft;
mod qa;
mod rejections;
mod roundtrip;
mod worked_examples;
