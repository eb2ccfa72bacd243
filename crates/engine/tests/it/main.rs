//! The integration tests of the engine, in one binary (one link, one run): search, solver and the
//! frozen baseline.
//!
//! Proptest keeps its regressions in `tests/proptest-regressions/<module>.txt` (its default beside
//! a `main.rs`).

mod baseline;
mod search;
mod solver;
