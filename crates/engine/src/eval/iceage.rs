//! Ice Age Chess evaluation (placeholder until the rules crate lands).

use crate::EngineVariant;

impl EngineVariant for iceage::IceAge {
    fn evaluate(_pos: &Self::Position) -> i32 {
        0
    }
}
