//! Berger tables (FIDE handbook C.05, Annex 1): every player meets every other once per
//! cycle for 3 to 20 players, colours balanced, and the published tables for 4, 6, 8, 10
//! and 12 players row by row.

use std::collections::BTreeMap;

use tournament::berger::{self, BergerError, Cycles, Schedule};

/// The published rows (C.05 Annex 1, as printed in the handbook): "white-black" by Berger
/// number, one line per round, boards in the printed order.
const PUBLISHED: &[(usize, &[&str])] = &[
    (4, &["1-4 2-3", "4-3 1-2", "2-4 3-1"]),
    (
        6,
        &[
            "1-6 2-5 3-4",
            "6-4 5-3 1-2",
            "2-6 3-1 4-5",
            "6-5 1-4 2-3",
            "3-6 4-2 5-1",
        ],
    ),
    (
        8,
        &[
            "1-8 2-7 3-6 4-5",
            "8-5 6-4 7-3 1-2",
            "2-8 3-1 4-7 5-6",
            "8-6 7-5 1-4 2-3",
            "3-8 4-2 5-1 6-7",
            "8-7 1-6 2-5 3-4",
            "4-8 5-3 6-2 7-1",
        ],
    ),
    (
        10,
        &[
            "1-10 2-9 3-8 4-7 5-6",
            "10-6 7-5 8-4 9-3 1-2",
            "2-10 3-1 4-9 5-8 6-7",
            "10-7 8-6 9-5 1-4 2-3",
            "3-10 4-2 5-1 6-9 7-8",
            "10-8 9-7 1-6 2-5 3-4",
            "4-10 5-3 6-2 7-1 8-9",
            "10-9 1-8 2-7 3-6 4-5",
            "5-10 6-4 7-3 8-2 9-1",
        ],
    ),
    (
        12,
        &[
            "1-12 2-11 3-10 4-9 5-8 6-7",
            "12-7 8-6 9-5 10-4 11-3 1-2",
            "2-12 3-1 4-11 5-10 6-9 7-8",
            "12-8 9-7 10-6 11-5 1-4 2-3",
            "3-12 4-2 5-1 6-11 7-10 8-9",
            "12-9 10-8 11-7 1-6 2-5 3-4",
            "4-12 5-3 6-2 7-1 8-11 9-10",
            "12-10 11-9 1-8 2-7 3-6 4-5",
            "5-12 6-4 7-3 8-2 9-1 10-11",
            "12-11 1-10 2-9 3-8 4-7 5-6",
            "6-12 7-5 8-4 9-3 10-2 11-1",
        ],
    ),
];

fn row(s: &Schedule, round: u32) -> String {
    s.round(round)
        .map(|p| format!("{}-{}", p.white + 1, p.black + 1))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_published_tables_row_by_row() {
    for (n, rows) in PUBLISHED {
        let s = berger::schedule(*n, Cycles::Single).unwrap();
        assert_eq!(s.rounds as usize, rows.len());
        for (r, expected) in rows.iter().enumerate() {
            assert_eq!(row(&s, r as u32 + 1), *expected, "n = {n}, round {}", r + 1);
        }
    }
}

#[test]
fn an_odd_count_uses_the_next_table_with_byes() {
    // 7 players: the table of 8, number 8 a bye (round 1: 1 sits out).
    let s = berger::schedule(7, Cycles::Single).unwrap();
    assert_eq!(s.rounds, 7);
    assert_eq!(row(&s, 1), "2-7 3-6 4-5");
    assert_eq!(
        s.byes.iter().map(|b| b.player + 1).collect::<Vec<_>>(),
        [1, 5, 2, 6, 3, 7, 4]
    );
}

#[test]
fn every_player_meets_every_other_once_per_cycle() {
    for n in 3..=20 {
        for cycles in [Cycles::Single, Cycles::Double] {
            let s = berger::schedule(n, cycles).unwrap();
            let times = if cycles == Cycles::Double { 2 } else { 1 };
            let per_cycle = (n + n % 2 - 1) as u32;
            assert_eq!(s.rounds, per_cycle * times);
            let mut met: BTreeMap<(usize, usize), Vec<(u32, usize)>> = BTreeMap::new();
            for p in &s.pairings {
                assert!(p.white < n && p.black < n && p.white != p.black);
                met.entry((p.white.min(p.black), p.white.max(p.black)))
                    .or_default()
                    .push((p.round, p.white));
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "n = {n}");
            for ((a, b), games) in &met {
                assert_eq!(games.len(), times as usize, "n = {n}: {a}-{b}");
                if times == 2 {
                    // Once in each cycle, with the colours swapped.
                    assert!(games[0].0 <= per_cycle && games[1].0 > per_cycle);
                    assert_ne!(games[0].1, games[1].1, "n = {n}: {a}-{b} same colours");
                }
            }
            for round in 1..=s.rounds {
                let mut seen = vec![0; n];
                for p in s.round(round) {
                    seen[p.white] += 1;
                    seen[p.black] += 1;
                }
                for b in s.byes.iter().filter(|b| b.round == round) {
                    seen[b.player] += 1;
                }
                assert!(
                    seen.iter().all(|&c| c == 1),
                    "n = {n}, round {round}: {seen:?}"
                );
            }
            assert_eq!(
                s.byes.len(),
                if n % 2 == 1 { n * times as usize } else { 0 }
            );
        }
    }
}

#[test]
fn colours_are_balanced_within_one() {
    // In one cycle a player has as many Whites as Blacks, or one more of either (the table's
    // rule: number n alternates; the others never differ by more than one).
    for n in 3..=20 {
        let s = berger::schedule(n, Cycles::Single).unwrap();
        for player in 0..n {
            let whites = s.pairings.iter().filter(|p| p.white == player).count() as i64;
            let blacks = s.pairings.iter().filter(|p| p.black == player).count() as i64;
            assert!(
                (whites - blacks).abs() <= 1,
                "n = {n}, player {}: {whites}-{blacks}",
                player + 1
            );
        }
    }
}

#[test]
fn no_table_outside_three_to_twenty() {
    assert_eq!(
        berger::schedule(2, Cycles::Single),
        Err(BergerError::PlayerCount(2))
    );
    assert_eq!(
        berger::schedule(21, Cycles::Double),
        Err(BergerError::PlayerCount(21))
    );
}

/// The longest run of one colour of any player in a schedule.
fn longest_run(s: &Schedule) -> usize {
    let mut longest = 0;
    for player in 0..s.players {
        let mut run = (None, 0);
        for round in 1..=s.rounds {
            let colour = s.round(round).find_map(|p| {
                (p.white == player)
                    .then_some(true)
                    .or((p.black == player).then_some(false))
            });
            match colour {
                Some(c) if run.0 == Some(c) => run.1 += 1,
                Some(c) => run = (Some(c), 1),
                None => {}
            }
            longest = longest.max(run.1);
        }
    }
    longest
}

#[test]
fn no_three_same_colours_in_a_row_in_a_double_round_robin() {
    for n in 3..=20 {
        let s = berger::schedule(n, Cycles::Double).unwrap();
        assert!(
            longest_run(&s) <= 2,
            "n = {n}: {} in a row",
            longest_run(&s)
        );
    }
}

#[test]
fn a_double_round_robin_exchanges_the_last_two_rounds_of_the_first_cycle() {
    // Four players: table rounds 1, 3, 2, then 1, 2, 3 with the colours swapped.
    let s = berger::schedule(4, Cycles::Double).unwrap();
    let rows: Vec<String> = (1..=6).map(|r| row(&s, r)).collect();
    assert_eq!(
        rows,
        [
            "1-4 2-3", "2-4 3-1", "4-3 1-2", "4-1 3-2", "3-4 2-1", "4-2 1-3"
        ]
        .map(String::from)
    );
}
