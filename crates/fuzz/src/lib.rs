//! Fuzzing on the stable toolchain (`cargo-fuzz` needs nightly): seeded, structure-aware
//! mutation of real inputs, and generators of valid ones, against every reader of the
//! project. A finding is a panic, a hang, or a round trip that breaks (what the writer
//! writes must read back the same).
//!
//! - [`targets`]: position text and move text of both games, PDN (Antarctos), PGN (Ice Age
//!   Chess), and the JSON bodies of the site's POST endpoints.
//! - [`mutate`]: the mutator: it cuts an input into tokens (words, delimiters, spaces) and
//!   deletes, repeats, swaps, splices and rewrites them with each target's dictionary.
//! - [`generate`]: random legal games with tags, comments, NAGs and variations, written by
//!   the records writer: the structured seeds.
//! - [`runner`]: runs a target for a number of inputs or seconds, catches panics, stops
//!   the process on a hang, and keeps each finding as a file of `testdata/fuzz/<target>/`,
//!   which the regression test replays forever after.
//!
//! `cargo test -p fuzz` runs the short mode (a few thousand inputs per target, a fixed
//! seed); `FUZZ_SECONDS=600 cargo test -p fuzz --release -- --nocapture --test-threads 1`
//! runs each target for that many seconds with a fresh seed and prints what it did.

pub mod generate;
pub mod mutate;
pub mod runner;
pub mod targets;

use std::path::PathBuf;

/// The repository's `testdata` directory.
pub fn testdata() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}
