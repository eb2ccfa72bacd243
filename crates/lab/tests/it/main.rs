//! The integration tests of the lab, in one binary (one link, one run): self-play, matches,
//! openings and the frozen engine of 2026-12-07 against today's.

mod common;
mod matches;
mod openings;
mod selfplay;
mod yardsticks;
