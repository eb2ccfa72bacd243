//! Issue 39, "done means": mining self-play games made here, then checking every kept
//! puzzle again: with the solver move by move ([`verify_line`]) and, for Antarctos, against
//! the brute force of `brute.rs` ([`brute::confirm_line`], no `engine::solve`).

use std::time::Duration;

use antarctos::Antarctos;
use engine::EngineConfig;
use engine::solve::Prover;
use game::Variant;
use iceage::IceAge;
use puzzles::{Minable, MineOptions, Mined, Miner, verify_line};

use crate::brute;
use crate::random::Rng;

/// `count` games of the engine at `level` against itself, each after `random` random
/// plies, at most `max_plies` plies long; the same every run.
fn selfplay<V: Minable>(
    seed: u64,
    level: u8,
    count: usize,
    random: u32,
    max_plies: usize,
) -> Vec<Vec<V::Move>> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|g| {
            let mut pos = V::start_position();
            let mut moves = Vec::new();
            while V::outcome(&pos).is_none() && moves.len() < max_plies {
                let legal = V::legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                let mv = if (moves.len() as u32) < random {
                    legal[rng.below(legal.len() as u64) as usize].clone()
                } else {
                    let mut config = EngineConfig::level(level);
                    config.seed = seed ^ (g as u64) << 20 ^ moves.len() as u64;
                    engine::choose_move::<V>(&pos, &config).expect("the game goes on")
                };
                pos = V::play_unchecked(&pos, &mv);
                moves.push(mv);
            }
            moves
        })
        .collect()
}

/// Mines `games` with `options`; every puzzle kept, in order.
fn mine<V: Minable>(games: &[Vec<V::Move>], options: MineOptions) -> (Vec<Mined<V>>, Miner<V>) {
    let mut miner = Miner::<V>::new(options);
    let mut kept = Vec::new();
    for (i, moves) in games.iter().enumerate() {
        kept.extend(miner.mine_game(&format!("test:{i}"), &V::start_position(), moves));
    }
    (kept, miner)
}

/// Every kept puzzle proven again, move by move.
fn verify_all<V: Minable>(kept: &[Mined<V>]) {
    let mut prover = Prover::<V>::new(16);
    for m in kept {
        let text = V::position_text(&m.start);
        assert_eq!(m.proven.line.len() as u32, m.proven.plies());
        assert!((1..=8).contains(&m.proven.moves()), "{text}");
        if let Err(e) = verify_line(&mut prover, &m.start, &m.proven.line, None) {
            panic!("{text}: {e}");
        }
    }
}

#[test]
fn every_mined_antarctos_puzzle_is_proven_again_and_by_the_brute_force() {
    let games = selfplay::<Antarctos>(0x9E37_79B9_7F4A_7C15, 2, 30, 4, 120);
    let mut options = MineOptions::new::<Antarctos>();
    // Up to 9 plies, so that the brute force judges every kept puzzle.
    options.max_plies = 9;
    options.per_position = Duration::from_millis(200);
    let (kept, miner) = mine::<Antarctos>(&games, options);
    let s = &miner.summary;
    assert!(s.positions > 800, "{s:?}");
    assert!(kept.len() >= 15, "{} kept; {s:?}", kept.len());
    verify_all(&kept);
    for m in &kept {
        let text = Antarctos::position_text(&m.start);
        if let Err(e) = brute::confirm_line::<Antarctos>(&m.start, &m.proven.line) {
            panic!("{text}: {e}");
        }
    }
}

#[test]
fn every_mined_ice_age_chess_puzzle_is_proven_again() {
    let games = selfplay::<IceAge>(0x2545_F491_4F6C_DD1D, 1, 4, 6, 200);
    let mut options = MineOptions::new::<IceAge>();
    options.max_plies = 5;
    options.per_position = Duration::from_millis(100);
    let (kept, miner) = mine::<IceAge>(&games, options);
    let s = &miner.summary;
    assert!(s.positions > 100, "{s:?}");
    // The prefilter rejected most positions, without a proof.
    assert!(
        s.rejected.get(puzzles::NO_WIN_SEEN).copied().unwrap_or(0) > s.positions / 2,
        "{s:?}"
    );
    assert!(!kept.is_empty(), "{s:?}");
    verify_all(&kept);
}
