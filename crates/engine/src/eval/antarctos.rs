//! Antarctos evaluation (placeholder until the rules crate lands).

use crate::EngineVariant;

impl EngineVariant for antarctos::Antarctos {
    fn evaluate(_pos: &Self::Position) -> i32 {
        0
    }
}
