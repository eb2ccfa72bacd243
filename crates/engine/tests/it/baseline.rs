//! The frozen engine of before issue 15 (`engine::baseline`) must stay what it was: its
//! node counts, scores and moves at fixed depths are pinned to what `icebound analyze
//! --depth D --hash 16` printed at commit 4974cdc (tag `engine-baseline`).

use antarctos::Antarctos;
use engine::baseline::Searcher;
use engine::{EngineConfig, Limits, Yardstick, choose_move};
use game::Variant;
use iceage::IceAge;

fn pinned<V: engine::EngineVariant>(depth: u32) -> (u64, i32, String) {
    let pos = V::start_position();
    let mut s = Searcher::<V>::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = s.search(&pos, &limits, |_| {});
    let best = r.best.expect("a move");
    (r.nodes, r.score, V::move_text(&pos, &best))
}

#[test]
fn baseline_is_frozen() {
    assert_eq!(pinned::<Antarctos>(9), (68_548, -1, "e3-f4".to_string()));
    assert_eq!(pinned::<IceAge>(6), (149_496, 10, "Nxc3".to_string()));
}

#[test]
fn engine_baseline_setting_plays_the_frozen_engine() {
    let pos = Antarctos::start_position();
    let config = EngineConfig {
        depth: Some(9),
        engine: Yardstick::Baseline,
        ..EngineConfig::default()
    };
    let mv = choose_move::<Antarctos>(&pos, &config).expect("a move");
    assert_eq!(Antarctos::move_text(&pos, &mv), "e3-f4");
}
