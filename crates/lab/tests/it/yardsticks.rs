//! The frozen engine of 2026-12-07 (`engine=previous`) plays whole lab games against today's
//! engine, in both games, with the records naming it.

use std::ops::ControlFlow;

use antarctos::Antarctos;
use iceage::IceAge;
use lab::matches::{MatchOptions, run_match};
use lab::setting::parse_setting;

fn options(a: &str, b: &str) -> MatchOptions {
    MatchOptions {
        a: parse_setting(a).unwrap(),
        b: parse_setting(b).unwrap(),
        games: 4,
        threads: 2,
        seed: 7,
        random_plies: 8,
        balanced: None,
        max_plies: 400,
        sprt: None,
        sprt_prior: Default::default(),
    }
}

#[test]
fn a_match_against_the_previous_engine_runs_in_both_games() {
    let opts = options("nodes=500", "engine=previous,nodes=500,table=game");
    let (pairs, report) =
        run_match::<Antarctos>(&opts, |_, _, _| ControlFlow::Continue(())).unwrap();
    assert_eq!(report.games.games(), 4);
    assert_eq!(pairs.len(), 2);
    assert_eq!(
        pairs[0].games[1].record.tag("White"),
        Some("B engine=previous,nodes=500,table=game")
    );
    let opts = options("on=nnue,nodes=500", "engine=previous,nodes=500");
    let (pairs, report) = run_match::<IceAge>(&opts, |_, _, _| ControlFlow::Continue(())).unwrap();
    assert_eq!(report.games.games(), 4);
    for pair in &pairs {
        for game in &pair.games {
            assert!(!game.record.moves.is_empty());
        }
    }
}
