//! The Dutch system against bbpPairings: every round of the random tournaments of
//! `tests/data/dutch` (made by bbpPairings v5.0.1's generator, see `tests/data/README.md`)
//! is paired again from the rounds before it and compared with bbpPairings' pairing.

use std::collections::BTreeSet;
use std::path::PathBuf;

use tournament::swiss::{self, RoundPairing};
use tournament::{GameResult, Tournament, Tpn, trf};

fn data(set: &str) -> Vec<(String, Tournament)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(set);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let t = trf::read(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, t)
        })
        .collect()
}

/// bbpPairings' pairing of round `round` (1-based) as recorded in the file.
fn recorded(t: &Tournament, round: usize) -> RoundPairing {
    let mut games = Vec::new();
    let mut bye = None;
    for p in &t.players {
        let Some(e) = p.rounds.get(round - 1) else {
            continue;
        };
        match (e.opponent, e.colour) {
            (Some(o), Some(tournament::Colour::White)) => games.push((p.tpn, o)),
            (None, _) if e.result == GameResult::PairingBye => bye = Some(p.tpn),
            _ => {}
        }
    }
    games.sort_unstable();
    RoundPairing { games, bye }
}

/// The absolute criteria on a pairing made from `before`: no rematch, at most one bye, no
/// player twice, everyone paired, no two non-topscorers with the same absolute colour
/// preference given the same colour... (checked as: nobody ends with a colour difference
/// beyond ±2 or three same colours in a row, unless a topscorer in the last round).
fn check_absolute(name: &str, before: &Tournament, absent: &[Tpn], pairing: &RoundPairing) {
    let players = swiss::players(before);
    let mut seen = BTreeSet::new();
    for &(w, b) in &pairing.games {
        assert!(seen.insert(w) && seen.insert(b), "{name}: a player twice");
        let pw = &players[w as usize - 1];
        assert!(!pw.opponents.contains(&b), "{name}: rematch {w}-{b}");
    }
    if let Some(b) = pairing.bye {
        assert!(seen.insert(b), "{name}: the bye is also paired");
        assert!(
            !players[b as usize - 1].had_bye,
            "{name}: a second bye for {b}"
        );
    }
    assert_eq!(
        seen.len() + absent.len(),
        players.len(),
        "{name}: someone is unpaired"
    );
    assert!(
        absent.iter().all(|a| !seen.contains(a)),
        "{name}: an absent player is paired"
    );
    let round = before.rounds_played() as u32 + 1;
    let last = round == before.rounds_planned;
    for &(w, b) in &pairing.games {
        for (tpn, white) in [(w, true), (b, false)] {
            let p = &players[tpn as usize - 1];
            let topscorer = last && p.score > round - 1;
            if topscorer {
                continue;
            }
            let mut colours = p.played_colours();
            colours.push(if white {
                tournament::Colour::White
            } else {
                tournament::Colour::Black
            });
            let cd = swiss::colour::colour_difference(&colours);
            let n = colours.len();
            let three = n >= 3 && colours[n - 3..].iter().all(|c| *c == colours[n - 1]);
            let opponent = if white { b } else { w };
            let other_top = last && players[opponent as usize - 1].score > round - 1;
            if !other_top {
                assert!(
                    cd.abs() <= 2 && !three,
                    "{name}: absolute colour criterion for {tpn}"
                );
            }
        }
    }
}

/// The players of `t` not paired in round `round`: a bye other than the pairing-allocated
/// one (asked for, or a withdrawal).
fn absent(t: &Tournament, round: usize) -> Vec<Tpn> {
    t.players
        .iter()
        .filter(|p| match p.rounds.get(round - 1) {
            Some(e) => e.opponent.is_none() && e.result != GameResult::PairingBye,
            None => true,
        })
        .map(|p| p.tpn)
        .collect()
}

/// Pairs every round of every tournament of `set` again; (rounds compared, rounds equal).
fn compare(set: &str) -> (usize, usize) {
    let mut compared = 0;
    let mut equal = 0;
    let mut differing = Vec::new();
    for (name, t) in data(set) {
        let initial = swiss::initial_colour(&t).unwrap();
        for round in 1..=t.rounds_played() {
            let before = t.truncated(round - 1);
            let away = absent(&t, round);
            let ours = swiss::pair_round_with(&before, &away, initial)
                .unwrap_or_else(|e| panic!("{name} round {round}: {e}"));
            check_absolute(&format!("{name} round {round}"), &before, &away, &ours);
            let mut sorted = ours.clone();
            sorted.games.sort_unstable();
            let theirs = recorded(&t, round);
            compared += 1;
            if sorted == theirs {
                equal += 1;
            } else {
                differing.push(format!(
                    "{name} round {round}:\n  ours   {:?} bye {:?}\n  theirs {:?} bye {:?}",
                    sorted.games, sorted.bye, theirs.games, theirs.bye
                ));
            }
        }
    }
    eprintln!("Dutch system against bbpPairings, {set}: {equal} of {compared} rounds equal");
    for d in &differing {
        eprintln!("{d}");
    }
    (compared, equal)
}

#[test]
fn dutch_pairings_agree_with_bbppairings() {
    let (compared, equal) = compare("dutch");
    assert_eq!(compared, 160);
    assert!(
        equal >= MEASURED_EQUAL,
        "{equal} of {compared} rounds equal, {MEASURED_EQUAL} before"
    );
}

#[test]
fn dutch_pairings_agree_with_bbppairings_with_unplayed_games() {
    let (compared, equal) = compare("dutch-unplayed");
    assert_eq!(compared, 65);
    assert!(
        equal >= MEASURED_EQUAL_UNPLAYED,
        "{equal} of {compared} rounds equal, {MEASURED_EQUAL_UNPLAYED} before"
    );
}

#[test]
fn dutch_pairings_of_larger_fields_against_bbppairings() {
    let (compared, equal) = compare("dutch-large");
    assert_eq!(compared, 41);
    assert!(
        equal >= MEASURED_EQUAL_LARGE,
        "{equal} of {compared} rounds equal, {MEASURED_EQUAL_LARGE} before"
    );
}

/// Two Swiss events played on the site (issue 40's real-clients test, 2026-12-06): rounds 1-3
/// as the site paired them, round 4 as bbpPairings v5.0.1 (the 2017 rules this crate
/// implements) pairs it from them. bbpPairings v6 (the 2025 revision of C.04.3) pairs both
/// round 4s otherwise (tests/data/README.md).
#[test]
fn dutch_pairings_of_site_events_against_bbppairings() {
    let (compared, equal) = compare("dutch-site");
    assert_eq!(compared, 8);
    assert!(
        equal >= MEASURED_EQUAL_SITE,
        "{equal} of {compared} rounds equal, {MEASURED_EQUAL_SITE} before"
    );
}

/// The rounds of `dutch-site` equal at the last measure.
const MEASURED_EQUAL_SITE: usize = 8;

/// The rounds of `dutch-large` equal at the last measure.
const MEASURED_EQUAL_LARGE: usize = 38;

/// The rounds of `dutch-unplayed` equal at the last measure.
const MEASURED_EQUAL_UNPLAYED: usize = 65;

/// The rounds equal at the last measure (tests/data/README.md); the test fails below it.
const MEASURED_EQUAL: usize = 160;

/// Prints the players' state before a round: `DUMP=random-01-p7-r5.trf:5 cargo test -p
/// tournament --test it dump -- --ignored --nocapture`.
#[test]
#[ignore]
fn dump() {
    let Ok(spec) = std::env::var("DUMP") else {
        return;
    };
    let (file, round) = spec.split_once(':').unwrap();
    let round: usize = round.parse().unwrap();
    let (_, t) = data("dutch")
        .into_iter()
        .chain(data("dutch-unplayed"))
        .find(|(n, _)| n == file)
        .unwrap();
    let before = t.truncated(round - 1);
    let mut players = swiss::players(&before);
    players.sort_by(|a, b| b.score.cmp(&a.score).then(a.tpn.cmp(&b.tpn)));
    for p in players {
        let colours: String = p
            .colours
            .iter()
            .map(|c| match c {
                Some(tournament::Colour::White) => 'w',
                Some(tournament::Colour::Black) => 'b',
                None => '-',
            })
            .collect();
        let floats: String = p
            .floats
            .iter()
            .map(|f| match f {
                Some(swiss::Float::Down) => 'D',
                Some(swiss::Float::Up) => 'U',
                None => '.',
            })
            .collect();
        let pref = swiss::colour::preference(&p.played_colours());
        eprintln!(
            "{:>3} {:>4.1} {colours:>12} {floats:>12} bye:{} pref:{:?} opp:{:?}",
            p.tpn,
            f64::from(p.score) / 2.0,
            p.had_bye as u8,
            pref.map(|p| (p.colour, p.strength)),
            p.opponents
        );
    }
}
