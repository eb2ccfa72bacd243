//! `json_shape.rs` says `mod common;`, as it did as a binary of its own; it stays byte for
//! byte as it was (issue 37), so its `common` is this re-export of the binary's.

pub use crate::common::*;
