//! The pure core of icebound's tournaments (issue 40): plain types and pure functions, no I/O.
//!
//! - [`berger`]: round-robin schedules from the FIDE Berger tables (handbook C.05, Annex 1).
//! - [`arena`]: lichess arena scoring (streaks, berserk) and its pairing of waiting players.
//! - [`swiss`]: the FIDE Dutch system (handbook C.04.3, the 2017 rules) for one round.
//! - [`tiebreak`]: Buchholz cut 1, Sonneborn-Berger, direct encounter (handbook C.07) and the
//!   standings ordered by them.
//! - [`trf`]: the FIDE Tournament Report File, TRF-16: reading and writing.
//! - [`record`]: the played rounds of a Swiss or round-robin event, which the others share.
//!
//! Players are named by their tournament pairing number ([`Tpn`], 1-based, as in a TRF file)
//! in the Swiss modules, by a 0-based index in the round-robin module and by the caller's key
//! in the arena module.

#![warn(missing_docs)]

pub mod arena;
pub mod berger;
pub mod record;
pub mod swiss;
pub mod tiebreak;
pub mod trf;

pub use record::{Colour, GameResult, PlayerRecord, RoundEntry, Tournament, Tpn};
