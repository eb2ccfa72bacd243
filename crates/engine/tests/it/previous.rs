//! The frozen engine of 2026-12-07 (`engine::previous`) must stay what it was: its depth,
//! node count, score and move at a fixed depth on three positions of each game are pinned to
//! what today's engine printed that day (`icebound analyze --variant V [--fen F] --depth D
//! --hash 16` at main commit 653fe3d), so the copy was faithful when it was made and stays
//! frozen whatever becomes of today's engine. The positions: each start position, and the
//! positions after 10 and 24 plies of a depth-3 self-play game.

use antarctos::Antarctos;
use engine::previous::Searcher;
use engine::score::win_in;
use engine::{EngineConfig, Limits, Yardstick, choose_move};
use game::Variant;
use iceage::IceAge;

/// (completed depth, nodes, score, best move) of a fresh frozen search of `fen` (the start
/// position for `None`) to `depth` plies with a 16 MiB table, one thread.
fn pinned<V: engine::EngineVariant>(fen: Option<&str>, depth: u32) -> (u32, u64, i32, String) {
    let pos = fen.map_or_else(V::start_position, |f| {
        V::parse_position(f).unwrap_or_else(|_| panic!("valid position {f}"))
    });
    let mut s = Searcher::<V>::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = s.search(&pos, &limits, |_| {});
    let best = r.best.expect("a move");
    (r.depth, r.nodes, r.score, V::move_text(&pos, &best))
}

#[test]
fn previous_is_frozen_in_antarctos() {
    assert_eq!(
        pinned::<Antarctos>(None, 12),
        (12, 107_928, -6, "g3-f4".to_string())
    );
    assert_eq!(
        pinned::<Antarctos>(
            Some("W:Wa1,c1,e1,g1,b2,f2,h2,c3,e3,b4,f4:Ba5,g5,d6,f6,h6,a7,e7,g7,b8,d8,f8:Ic5,b6"),
            14
        ),
        (13, 22_856, win_in(7), "e3-d4".to_string())
    );
    assert_eq!(
        pinned::<Antarctos>(
            Some("W:Wa1,c1,d2,f2,h2,a3,c3,g3,b4,d4,d6:Bh4,a5,b6,f6,e7,g7,b8,d8,f8:Ic5,e5"),
            12
        ),
        (11, 2_421, win_in(11), "f2-e3".to_string())
    );
}

#[test]
fn previous_is_frozen_in_iceage() {
    assert_eq!(
        pinned::<IceAge>(None, 7),
        (7, 132_146, 19, "hxg3".to_string())
    );
    assert_eq!(
        pinned::<IceAge>(
            Some(
                "1nbqkbnr/1pppppp1/r1****1*/**p**p**/*****P**/RP****1R/1PPPPPP1/1NBQKBN1 w k - 0 6"
            ),
            7
        ),
        (7, 147_087, 17, "exf3".to_string())
    );
    assert_eq!(
        pinned::<IceAge>(
            Some("1nbqkbn1/1ppp2pr/r1***3/*R1**pp*/P1***1R1/2****2/1PPPPPP1/1NBQKBN1 w - - 0 13"),
            9
        ),
        (9, 31_108, 138, "Rg3".to_string())
    );
}

#[test]
fn engine_previous_setting_plays_the_frozen_engine() {
    let pos = IceAge::start_position();
    let config = EngineConfig {
        depth: Some(7),
        engine: Yardstick::Previous,
        ..EngineConfig::default()
    };
    let mv = choose_move::<IceAge>(&pos, &config).expect("a move");
    assert_eq!(IceAge::move_text(&pos, &mv), "hxg3");
}
