//! The tournament crate's tests, in one binary: Berger tables against the handbook's, arena
//! scoring and pairing on hand-computed sheets, the Dutch system against bbpPairings' pairings
//! of random tournaments (tests/data), tie-breaks on hand-computed tables, and TRF-16 reading,
//! writing and its round trip.

mod arena;
mod berger;
mod dutch;
mod swiss;
mod tiebreak;
mod trf;
