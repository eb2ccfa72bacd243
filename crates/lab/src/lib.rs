//! The engine lab, kept apart from the search as Stockfish keeps fishtest apart from the
//! engine: what measures the engine rather than what plays.
//!
//! - [`setting`]: engine settings as text (`level=5`, `nodes=20000,off=nmp`,
//!   `engine=baseline,movetime=200`, `engine=previous,movetime=150,table=game`).
//! - [`games`]: one lab game (seeded random opening, then two settings in turn).
//! - [`selfplay`]: one setting against itself, many games.
//! - [`matches`]: two settings in paired games, with Elo and an SPRT.
//! - [`openings`]: random openings, and balanced ones (a frozen judge scores them near 0).
//! - [`sprt`], [`stats`]: the statistics (SPRT, Elo, pentanomial and Wilson intervals).
//! - [`pool`], [`seeds`]: the thread pool and the per-game seeds that make runs
//!   reproducible whatever the thread count.
//! - [`datagen`], [`tune`]: tuning data from self-play and the Texel fit of the
//!   evaluations' weights (`icebound tune`).
//! - [`suite`], [`uci`]: test suites of chess positions (EPD) and a UCI client to run
//!   another engine on them (`icebound suite`).

pub mod datagen;
pub mod games;
pub mod matches;
pub mod nnue;
pub mod openings;
pub mod pool;
pub mod seeds;
pub mod selfplay;
pub mod setting;
pub mod sprt;
pub mod stats;
pub mod suite;
pub mod tune;
pub mod uci;
