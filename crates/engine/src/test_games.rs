//! The search and solver on the toy game of `game::toy` (a pile of stones, take 1 to 3),
//! whose exact values are known, and on its broken-key form (every position collides in
//! the table).

use game::toy::{Pile, PilePos};
use game::{Color, Variant};

use crate::score::{loss_in, win_in};
use crate::search::{Limits, Searcher, StopFlag};
use crate::solve::{Proof, solve};
use crate::{EngineConfig, EngineVariant, choose_move};

impl<const BAD_KEY: bool> crate::baseline::BaselineVariant for Pile<BAD_KEY> {
    fn baseline_evaluate(pos: &PilePos) -> i32 {
        pos.stones as i32
    }
}

impl<const BAD_KEY: bool> crate::previous::PreviousVariant for Pile<BAD_KEY> {
    fn previous_evaluate(pos: &PilePos) -> i32 {
        pos.stones as i32
    }
}

impl<const BAD_KEY: bool> EngineVariant for Pile<BAD_KEY> {
    /// A deliberately misleading evaluation: the search must find the exact values anyway.
    fn evaluate(pos: &PilePos) -> i32 {
        pos.stones as i32
    }
}

type GoodNim = Pile<false>;
type BadNim = Pile<true>;

fn pile(stones: u32) -> PilePos {
    PilePos::new(stones, Color::White)
}

/// Exact value of a Nim pile with distance: a multiple of 4 loses in `2 * n / 4` plies, any
/// other pile wins in `2 * (n / 4) + 1`.
fn exact(stones: u32) -> i32 {
    if stones.is_multiple_of(4) {
        loss_in(2 * (stones / 4))
    } else {
        win_in(2 * (stones / 4) + 1)
    }
}

#[test]
fn search_finds_exact_nim_values_with_distance() {
    for n in 1..=14 {
        let mut s = Searcher::<GoodNim>::new(1);
        let limits = Limits {
            depth: Some(n + 2),
            ..Limits::default()
        };
        let r = s.search(&pile(n), &limits, |_| {});
        assert_eq!(r.score, exact(n), "pile {n}");
        let best = r.best.expect("a move");
        if n % 4 != 0 {
            assert_eq!(best, n % 4, "pile {n}: the only winning move");
        }
        // The PV is a legal line that ends the game in exactly the announced plies.
        let mut pos = pile(n);
        for mv in &r.pv {
            pos = GoodNim::play(&pos, mv).expect("pv move legal");
        }
        assert_eq!(pos.stones, 0, "pile {n}: pv {:?} reaches the end", r.pv);
        assert_eq!(r.pv.len() as i32, crate::score::WIN - r.score.abs());
    }
}

#[test]
fn solver_proves_nim_wins_and_losses() {
    for n in 1..=12 {
        let sol = solve::<GoodNim>(&pile(n), 12);
        let expected_plies = if n % 4 == 0 {
            2 * (n / 4)
        } else {
            2 * (n / 4) + 1
        };
        match sol.proof {
            Proof::Win { plies, line } => {
                assert!(n % 4 != 0);
                assert_eq!(plies, expected_plies);
                assert_eq!(line.len() as u32, plies);
                assert_eq!(line.iter().sum::<u32>(), n);
            }
            Proof::Loss { plies, line } => {
                assert!(n % 4 == 0);
                assert_eq!(plies, expected_plies);
                assert_eq!(line.iter().sum::<u32>(), n);
            }
            Proof::Unknown { .. } => panic!("pile {n} not solved"),
        }
    }
    // A pile too big for the limit is not claimed.
    assert_eq!(
        solve::<GoodNim>(&pile(13), 4).proof,
        Proof::Unknown { max_plies: 4 }
    );
}

#[test]
fn table_never_returns_illegal_move_on_key_collisions() {
    // Every position has key 0: table moves come from other positions, often with more
    // stones; the move returned must still be legal in the position asked.
    let mut s = Searcher::<BadNim>::new(1);
    for n in [9, 1, 7, 2, 3, 1, 6, 2, 1] {
        for depth in 1..6 {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let r = s.search(&pile(n), &limits, |_| {});
            let best = r.best.expect("a move");
            assert!(best >= 1 && best <= n.min(3), "pile {n}: move {best}");
            for mv in &r.pv[..1] {
                assert!(*mv <= n);
            }
        }
    }
}

#[test]
fn same_limits_same_move() {
    for n in 5..12 {
        let c = EngineConfig {
            nodes: Some(500),
            seed: 7,
            ..EngineConfig::default()
        };
        assert_eq!(
            choose_move::<GoodNim>(&pile(n), &c),
            choose_move::<GoodNim>(&pile(n), &c)
        );
        for level in 1..=8 {
            let c = EngineConfig {
                seed: 3,
                ..EngineConfig::level(level)
            };
            let a = choose_move::<GoodNim>(&pile(n), &c);
            assert_eq!(a, choose_move::<GoodNim>(&pile(n), &c));
        }
    }
}

#[test]
fn every_level_takes_a_one_move_win() {
    for n in 1..=3 {
        for level in 1..=8 {
            for seed in 0..5 {
                let c = EngineConfig {
                    seed,
                    ..EngineConfig::level(level)
                };
                assert_eq!(choose_move::<GoodNim>(&pile(n), &c), Some(n));
            }
        }
    }
}

#[test]
fn stopped_search_still_returns_a_legal_move() {
    let flag = StopFlag::new();
    flag.stop();
    let c = EngineConfig {
        stop: Some(flag.clone()),
        ..EngineConfig::default()
    };
    let mv = choose_move::<GoodNim>(&pile(30), &c).expect("a move");
    assert!((1..=3).contains(&mv));
    assert!(flag.is_stopped());
}

#[test]
fn finished_game_has_no_move() {
    assert_eq!(
        choose_move::<GoodNim>(&pile(0), &EngineConfig::level(8)),
        None
    );
}

#[test]
fn iterations_are_reported_in_order() {
    let mut s = Searcher::<GoodNim>::new(1);
    let mut depths = Vec::new();
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    s.search(&pile(40), &limits, |it| depths.push(it.depth));
    assert_eq!(depths, vec![1, 2, 3, 4, 5, 6]);
}

#[test]
fn every_search_option_keeps_the_exact_values() {
    // Pruning, reductions and aspiration windows must not change a proven result.
    for n in 1..=14 {
        let mut s = Searcher::<GoodNim>::new(1);
        s.set_options(crate::SearchOptions::ALL);
        let limits = Limits {
            depth: Some(n + 2),
            ..Limits::default()
        };
        let r = s.search(&pile(n), &limits, |_| {});
        assert_eq!(r.score, exact(n), "pile {n}");
    }
}

#[test]
fn several_threads_find_the_exact_values_and_share_the_node_limit() {
    for n in [5, 9, 12, 14] {
        let mut s =
            Searcher::<GoodNim>::with_table(std::sync::Arc::new(crate::tt::Table::new(1)), 3);
        assert_eq!(s.threads(), 3);
        let limits = Limits {
            depth: Some(n + 2),
            ..Limits::default()
        };
        let r = s.search(&pile(n), &limits, |_| {});
        assert_eq!(r.score, exact(n), "pile {n}");
    }
    // A node limit counts every thread's nodes: the search stops near it, not at three
    // times it.
    let mut s = Searcher::<GoodNim>::with_table(std::sync::Arc::new(crate::tt::Table::new(1)), 3);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let r = s.search(&pile(400), &limits, |_| {});
    assert!(r.nodes >= 20_000 && r.nodes < 30_000, "{}", r.nodes);
}
