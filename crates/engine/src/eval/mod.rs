//! One evaluation per game, each in its own file, and the [`crate::EngineVariant`] impls
//! that connect them to the search.

pub mod antarctos;
pub mod iceage;
