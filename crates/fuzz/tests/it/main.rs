//! The integration tests of the fuzzer, in one binary (one link, one run): the short fuzzing mode,
//! the replay of `testdata/fuzz/` and the round trips.

mod fuzz;
mod round_trip;
