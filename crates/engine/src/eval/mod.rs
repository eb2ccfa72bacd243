//! One evaluation per game, each in its own file with the [`crate::EngineVariant`] impl
//! that connects it to the search, its weights in a file of their own (written by the
//! tuner), and the [`terms`] both share.

pub mod antarctos;
mod antarctos_weights;
pub mod iceage;
mod iceage_weights;
pub mod terms;
