//! The integration tests of the lab, in one binary (one link, one run): self-play, matches and
//! openings.

mod common;
mod matches;
mod openings;
mod selfplay;
