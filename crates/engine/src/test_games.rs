//! Tiny test-only games with known exact values, to test the generic search and solver
//! without the real rules: Nim (take 1-3 from a pile, whoever takes the last one wins) and
//! the same game with a broken zobrist key (every position collides in the table).

use game::{Color, EndReason, Outcome, Record, RecordError, Variant};

use crate::score::{loss_in, win_in};
use crate::search::{Limits, Searcher, StopFlag};
use crate::solve::{Proof, solve};
use crate::{EngineConfig, EngineVariant, choose_move};

/// Nim with one pile; `BAD_KEY` makes every zobrist key 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nim<const BAD_KEY: bool>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pile {
    pub stones: u32,
    pub side: Color,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal")]
pub struct Illegal;

impl game::MoveTextFault for Illegal {
    fn kind(&self) -> game::MoveTextKind {
        game::MoveTextKind::NoMatch
    }
}

impl<const BAD_KEY: bool> Variant for Nim<BAD_KEY> {
    const NAME: &'static str = "nim";
    const TITLE: &'static str = "Nim";
    const RECORD_EXTENSION: &'static str = "txt";
    type Position = Pile;
    type Move = u32;
    type IllegalMove = Illegal;
    type PositionError = Illegal;
    type MoveTextError = Illegal;

    fn start_position() -> Pile {
        Pile {
            stones: 10,
            side: Color::White,
        }
    }
    fn side_to_move(pos: &Pile) -> Color {
        pos.side
    }
    fn legal_moves_into(pos: &Pile, out: &mut Vec<u32>) {
        out.clear();
        out.extend((1..=3).filter(|&k| k <= pos.stones));
    }
    fn play(pos: &Pile, mv: &u32) -> Result<Pile, Illegal> {
        if (1..=3).contains(mv) && *mv <= pos.stones {
            Ok(Self::play_unchecked(pos, mv))
        } else {
            Err(Illegal)
        }
    }
    fn play_unchecked(pos: &Pile, mv: &u32) -> Pile {
        Pile {
            stones: pos.stones - mv,
            side: !pos.side,
        }
    }
    fn outcome(pos: &Pile) -> Option<Outcome> {
        (pos.stones == 0).then_some(Outcome::Win {
            winner: !pos.side,
            reason: EndReason::NoMoves,
        })
    }
    fn zobrist(pos: &Pile) -> u64 {
        if BAD_KEY {
            0
        } else {
            (u64::from(pos.stones) * 2 + pos.side.index() as u64)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        }
    }
    fn fullmove_number(_pos: &Pile) -> u32 {
        1
    }
    fn is_tactical(_pos: &Pile, mv: &u32) -> bool {
        *mv == 3
    }
    fn move_squares(mv: &u32) -> (u8, u8) {
        (*mv as u8, 0)
    }
    fn parse_move(_pos: &Pile, text: &str) -> Result<u32, Illegal> {
        text.parse().map_err(|_| Illegal)
    }
    fn move_text(_pos: &Pile, mv: &u32) -> String {
        mv.to_string()
    }
    fn parse_position(text: &str) -> Result<Pile, Illegal> {
        Ok(Pile {
            stones: text.parse().map_err(|_| Illegal)?,
            side: Color::White,
        })
    }
    fn position_text(pos: &Pile) -> String {
        pos.stones.to_string()
    }
    fn write_record(_record: &Record<Self>) -> String {
        String::new()
    }
    fn read_records(_text: &str) -> Vec<Result<Record<Self>, RecordError>> {
        Vec::new()
    }
}

impl<const BAD_KEY: bool> EngineVariant for Nim<BAD_KEY> {
    /// A deliberately misleading evaluation: the search must find the exact values anyway.
    fn evaluate(pos: &Pile) -> i32 {
        pos.stones as i32
    }
}

type GoodNim = Nim<false>;
type BadNim = Nim<true>;

fn pile(stones: u32) -> Pile {
    Pile {
        stones,
        side: Color::White,
    }
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
