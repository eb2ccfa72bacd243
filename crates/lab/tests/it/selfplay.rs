//! Self-play on a toy game: tallies add up, runs reproduce whatever the thread count,
//! the ply cap is reported as such, records carry the lab's tags.

use crate::common;

use std::ops::ControlFlow;

use common::{Pile, toy_chooser};
use engine::EngineConfig;
use game::{RecordResult, Variant};
use lab::games::random_opening;
use lab::selfplay::{SelfplayOptions, selfplay_with};
use lab::stats::GameEnd;

fn options(games: u32, threads: usize, seed: u64) -> SelfplayOptions {
    SelfplayOptions {
        threads,
        seed,
        random_plies: 2,
        ..SelfplayOptions::new(
            games,
            EngineConfig {
                nodes: Some(10),
                ..Default::default()
            },
        )
    }
}

#[test]
fn tallies_add_up() {
    let mut calls = 0;
    let (games, stats) = selfplay_with::<Pile, _>(&options(200, 2, 5), &toy_chooser, |i, _| {
        assert_eq!(i, calls);
        calls += 1;
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(calls, 200);
    assert_eq!(games.len(), 200);
    assert_eq!(stats.games(), 200);
    assert_eq!(
        stats.white_wins + stats.black_wins + stats.draws + stats.capped,
        200
    );
    assert_eq!(stats.reasons.values().sum::<u64>(), 200);
    assert_eq!(stats.capped, 0);
    // Random play on this pile gives both winners and some draws.
    assert!(
        stats.white_wins > 0 && stats.black_wins > 0 && stats.draws > 0,
        "{stats:?}"
    );
    assert_eq!(stats.reasons.get("stalemate"), Some(&stats.draws));
    let total: u64 = games.iter().map(|g| u64::from(g.plies)).sum();
    assert_eq!(stats.total_plies, total);
    assert_eq!(
        stats.longest,
        games.iter().map(|g| u64::from(g.plies)).max().unwrap()
    );
    for g in &games {
        assert_eq!(g.plies as usize, g.record.moves.len());
        // Every record replays to a finished game with the recorded result.
        let end = g.record.final_position().unwrap();
        assert_eq!(GameEnd::Finished(Pile::outcome(&end).unwrap()), g.end);
        assert_eq!(
            g.record.result,
            RecordResult::from_outcome(Pile::outcome(&end))
        );
    }
}

#[test]
fn same_seed_same_games_any_thread_count() {
    let (a, sa) = selfplay_with::<Pile, _>(&options(60, 1, 9), &toy_chooser, |_, _| {
        ControlFlow::Continue(())
    })
    .unwrap();
    let (b, sb) = selfplay_with::<Pile, _>(&options(60, 3, 9), &toy_chooser, |_, _| {
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(sa, sb);
    let moves = |g: &[lab::games::PlayedGame<Pile>]| -> Vec<Vec<u32>> {
        g.iter().map(|x| x.record.moves.clone()).collect()
    };
    assert_eq!(moves(&a), moves(&b));
    let (c, _) = selfplay_with::<Pile, _>(&options(60, 1, 10), &toy_chooser, |_, _| {
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_ne!(moves(&a), moves(&c), "another seed gives other games");
}

#[test]
fn random_opening_is_seeded_and_legal() {
    let start = Pile::start_position();
    let (m1, p1) = random_opening::<Pile>(&start, 3, 42);
    let (m2, _) = random_opening::<Pile>(&start, 3, 42);
    assert_eq!(m1, m2);
    assert_eq!(m1.len(), 3);
    assert_eq!(p1.stones, 15 - m1.iter().sum::<u32>());
    // A longer opening than the game stops where the game ends.
    let (m3, p3) = random_opening::<Pile>(&start, 100, 1);
    assert!(m3.len() < 100);
    assert!(Pile::outcome(&p3).is_some());
}

#[test]
fn ply_cap_is_reported_as_capped_not_drawn() {
    let opts = SelfplayOptions {
        max_plies: 3,
        random_plies: 0,
        ..options(10, 1, 1)
    };
    // At most 3 stones a ply: 15 stones need at least 5 plies.
    let (games, stats) =
        selfplay_with::<Pile, _>(&opts, &toy_chooser, |_, _| ControlFlow::Continue(())).unwrap();
    assert_eq!(stats.capped, 10);
    assert_eq!(stats.draws, 0);
    assert_eq!(stats.reasons.get("ply cap"), Some(&10));
    for g in &games {
        assert_eq!(g.end, GameEnd::PlyCap);
        assert_eq!(g.plies, 3);
        assert_eq!(g.record.result, RecordResult::Unknown);
        assert_eq!(g.record.tag("Result"), Some("*"));
        assert_eq!(
            g.record.tag("Termination"),
            Some("unterminated: ply cap 3 reached")
        );
    }
}

#[test]
fn records_are_tagged() {
    let (games, _) = selfplay_with::<Pile, _>(&options(3, 1, 1), &toy_chooser, |_, _| {
        ControlFlow::Continue(())
    })
    .unwrap();
    let g = &games[1];
    assert_eq!(g.record.tag("Event"), Some("icebound selfplay"));
    assert_eq!(g.record.tag("Round"), Some("2"));
    assert_eq!(g.record.tag("White"), Some("icebound nodes=10"));
    assert_eq!(g.record.tag("Black"), Some("icebound nodes=10"));
    assert_eq!(g.record.tag("Result"), Some(g.record.result.as_str()));
    assert_eq!(g.record.tag("Opening"), Some("2 random plies"));
    let text = Pile::write_record(&g.record);
    assert!(text.contains("[Event \"icebound selfplay\"]"));
}

#[test]
fn a_run_goes_on_from_its_first_game_with_the_same_games() {
    let whole = options(40, 2, 11);
    let (all, _) =
        selfplay_with::<Pile, _>(&whole, &toy_chooser, |_, _| ControlFlow::Continue(())).unwrap();
    let mut seen = Vec::new();
    let rest = SelfplayOptions {
        first_game: 25,
        ..whole.clone()
    };
    let (tail, stats) = selfplay_with::<Pile, _>(&rest, &toy_chooser, |i, _| {
        seen.push(i);
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(seen, (25..40).collect::<Vec<_>>());
    assert_eq!(stats.games(), 15);
    assert_eq!(tail.len(), 15);
    for (a, b) in all[25..].iter().zip(&tail) {
        assert_eq!(a.record.moves, b.record.moves);
        assert_eq!(a.record.tags, b.record.tags);
    }
}

#[test]
fn a_run_stops_after_the_game_whose_callback_breaks() {
    let (games, stats) = selfplay_with::<Pile, _>(&options(30, 3, 4), &toy_chooser, |i, _| {
        if i == 6 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!(games.len(), 7);
    assert_eq!(stats.games(), 7);
}
