//! The puzzles crate's tests, in one binary: the rejection rules on hand-made positions in
//! both games, themes, duplicates and mirrors, and `check` against an independent brute
//! force on random positions.

mod attempt;
mod brute;
mod differential;
mod random;
mod rejections;
