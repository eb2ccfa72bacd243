//! The Dutch system on whole tournaments paired by this crate: round 1 by the handbook's
//! rule (top half against bottom half, colours alternating from the initial colour), and
//! random tournaments played to the end with the absolute criteria checked every round.

use tournament::swiss::{self, SwissError};
use tournament::{Colour, GameResult, PlayerRecord, RoundEntry, Tournament, trf};

fn players(n: u32) -> Tournament {
    Tournament {
        name: "Swiss".into(),
        rounds_planned: 0,
        initial_colour: Some(Colour::White),
        players: (1..=n)
            .map(|i| PlayerRecord::new(i, format!("P{i}"), 2500 - 10 * i as u16))
            .collect(),
    }
}

#[test]
fn round_one_pairs_the_top_half_against_the_bottom_half() {
    // 9 players: S1 = 1-4, S2 = 5-8, 9 gets the bye; odd TPNs of S1 get the initial colour.
    let t = players(9);
    let r = swiss::pair_round(&t, &[]).unwrap();
    assert_eq!(r.games, [(1, 5), (6, 2), (3, 7), (8, 4)]);
    assert_eq!(r.bye, Some(9));
    // With Black as the initial colour the colours turn.
    let mut t = players(8);
    t.initial_colour = Some(Colour::Black);
    let r = swiss::pair_round(&t, &[]).unwrap();
    assert_eq!(r.games, [(5, 1), (2, 6), (7, 3), (4, 8)]);
    assert_eq!(r.bye, None);
    // An absent player is left out.
    let r = swiss::pair_round(&players(9), &[9]).unwrap();
    assert_eq!(r.games.len(), 4);
    assert_eq!(r.bye, None);
}

#[test]
fn round_one_needs_an_initial_colour() {
    let mut t = players(4);
    t.initial_colour = None;
    assert_eq!(swiss::pair_round(&t, &[]), Err(SwissError::NoInitialColour));
}

#[test]
fn two_players_who_met_cannot_be_paired_again() {
    let mut t = players(2);
    t.players[0].rounds = vec![RoundEntry::game(2, Colour::White, GameResult::Win)];
    t.players[1].rounds = vec![RoundEntry::game(1, Colour::Black, GameResult::Loss)];
    assert_eq!(swiss::pair_round(&t, &[]), Err(SwissError::NoPairing(2)));
}

/// A tiny deterministic generator (xorshift) for the results.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Plays `rounds` rounds of a Swiss of `n` players, pairing each round with this crate and
/// drawing results; checks the absolute criteria every round.
fn play(n: u32, rounds: u32, seed: u64) -> Tournament {
    let mut t = players(n);
    t.rounds_planned = rounds;
    let mut rng = Rng(seed);
    for round in 1..=rounds {
        let r = swiss::pair_round(&t, &[]).unwrap_or_else(|e| panic!("n {n} round {round}: {e}"));
        let state = swiss::players(&t);
        let mut seen = std::collections::BTreeSet::new();
        for &(w, b) in &r.games {
            assert!(seen.insert(w) && seen.insert(b), "a player twice");
            assert!(
                !state[w as usize - 1].opponents.contains(&b),
                "rematch {w}-{b}"
            );
            let result = match rng.next() % 10 {
                0..=3 => GameResult::Win,
                4..=6 => GameResult::Draw,
                _ => GameResult::Loss,
            };
            t.players[w as usize - 1]
                .rounds
                .push(RoundEntry::game(b, Colour::White, result));
            t.players[b as usize - 1].rounds.push(RoundEntry::game(
                w,
                Colour::Black,
                result.reversed(),
            ));
        }
        if let Some(b) = r.bye {
            assert!(seen.insert(b));
            assert!(!state[b as usize - 1].had_bye, "second bye for {b}");
            t.players[b as usize - 1]
                .rounds
                .push(RoundEntry::bye(GameResult::PairingBye));
        }
        assert_eq!(seen.len() as u32, n, "round {round}: everyone paired");
    }
    t
}

#[test]
fn whole_tournaments_keep_the_absolute_criteria() {
    for (n, rounds, seed) in [(9, 4, 1), (10, 5, 2), (15, 6, 3), (24, 7, 4), (31, 8, 5)] {
        let t = play(n, rounds, seed);
        for p in &t.players {
            let colours: Vec<Colour> = p.rounds.iter().filter_map(|e| e.colour).collect();
            let cd = swiss::colour::colour_difference(&colours);
            // Colour difference within ±2 (the "within ±2"), at most one bye.
            assert!(
                cd.abs() <= 2,
                "n {n}: player {} colour difference {cd}",
                p.tpn
            );
            let byes = p
                .rounds
                .iter()
                .filter(|e| e.result == GameResult::PairingBye)
                .count();
            assert!(byes <= 1, "n {n}: player {} has {byes} byes", p.tpn);
        }
        // Points add up to the games played plus the byes.
        let total: u32 = t.players.iter().map(|p| p.points().0).sum();
        let games: usize = t
            .players
            .iter()
            .map(|p| p.rounds.iter().filter(|e| e.opponent.is_some()).count())
            .sum();
        let byes = t
            .players
            .iter()
            .flat_map(|p| &p.rounds)
            .filter(|e| e.opponent.is_none())
            .count();
        assert_eq!(total as usize, games + 2 * byes, "n {n}");
        // And the tournament goes through TRF and back.
        let back = trf::read(&trf::write(&t)).unwrap();
        assert_eq!(back.players.len(), t.players.len());
        for (a, b) in back.players.iter().zip(&t.players) {
            assert_eq!(a.rounds, b.rounds);
        }
    }
}
