//! The puzzles crate's tests, in one binary: the rejection rules on hand-made positions in
//! both games, themes, duplicates and mirrors, `check` against an independent brute force
//! on random positions, mined self-play puzzles checked again (solver and brute force), the
//! shipped puzzle files, and the judging of attempts.

mod attempt;
mod brute;
mod differential;
mod mined;
mod random;
mod rejections;
mod shipped;
