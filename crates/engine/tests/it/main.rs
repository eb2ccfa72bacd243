//! The integration tests of the engine, in one binary (one link, one run): search, solver, the
//! frozen engines (baseline and previous), the NNUE evaluation and the stop flag polled through a function (the
//! browser's).
//!
//! Proptest keeps its regressions in `tests/proptest-regressions/<module>.txt` (its default beside
//! a `main.rs`).

mod baseline;
mod nnue;
mod previous;
mod search;
mod solver;
mod stop_poll;
