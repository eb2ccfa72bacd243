//! TRF-16: reading bbpPairings' files, writing, the round trip (proptest), and typed errors
//! with line and column.

use proptest::prelude::*;
use tournament::record::Points;
use tournament::trf::{self, TrfError, TrfErrorKind};
use tournament::{Colour, GameResult, PlayerRecord, RoundEntry, Tournament};

/// Two lines as bbpPairings writes them (its generator ends lines with a lone `\r`).
const BBP: &str = "012 AutoTest Tournament 3\r\
001    1      Test0001 Player0001               2347                             1.5    2     5 b 1     4 w =  0000 - U\r\
001    4      Test0004 Player0004               2218                             1.5    4     8 w 1     1 b =\r\
001    5      Test0005 Player0005               2156                             0.0    6     1 w 0\r\
001    2      Two                               2000                             0.0    6\r\
001    3      Three                                                              0.0    6\r\
001    6      Six                                                                0.0    6\r\
001    7      Seven                                                              0.0    6\r\
001    8      Eight                                                              0.0    6     4 b 0\r\
XXR 5\r";

#[test]
fn reads_bbppairings_lines() {
    let t = trf::read(BBP).unwrap();
    assert_eq!(t.name, "AutoTest Tournament 3");
    assert_eq!(t.rounds_planned, 5);
    assert_eq!(t.players.len(), 8);
    let p1 = &t.players[0];
    assert_eq!(
        (p1.tpn, p1.name.as_str(), p1.rating),
        (1, "Test0001 Player0001", 2347)
    );
    assert_eq!(p1.stated_points, Some(Points(3)));
    assert_eq!(p1.rank, 2);
    assert_eq!(
        p1.rounds,
        [
            RoundEntry::game(5, Colour::Black, GameResult::Win),
            RoundEntry::game(4, Colour::White, GameResult::Draw),
            RoundEntry::bye(GameResult::PairingBye),
        ]
    );
    assert_eq!(p1.points(), Points(5));
    // Sorted by TPN whatever the file's order.
    assert_eq!(
        t.players.iter().map(|p| p.tpn).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6, 7, 8]
    );
    assert_eq!(t.players[2].rating, 0);
}

#[test]
fn reads_its_own_output_and_crlf() {
    let t = trf::read(BBP).unwrap();
    let text = trf::write(&t);
    assert!(text.lines().all(|l| !l.ends_with(' ')));
    let again = trf::read(&text.replace('\n', "\r\n")).unwrap();
    let mut expected = t.clone();
    for p in &mut expected.players {
        p.stated_points = Some(p.points());
    }
    assert_eq!(again, expected);
}

#[test]
fn writes_the_columns_of_trf16() {
    let mut t = Tournament {
        name: "Club Swiss".into(),
        rounds_planned: 3,
        initial_colour: Some(Colour::White),
        players: vec![
            PlayerRecord::new(1, "Alice", 2100),
            PlayerRecord::new(2, "Bob", 0),
        ],
    };
    t.players[0].rounds = vec![RoundEntry::game(2, Colour::White, GameResult::Win)];
    t.players[1].rounds = vec![RoundEntry::game(1, Colour::Black, GameResult::Loss)];
    let text = trf::write(&t);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "012 Club Swiss");
    let alice = lines[1];
    assert_eq!(&alice[0..3], "001");
    assert_eq!(&alice[4..8], "   1");
    assert_eq!(&alice[14..19], "Alice");
    assert_eq!(&alice[48..52], "2100");
    assert_eq!(&alice[80..84], " 1.0");
    assert_eq!(&alice[91..99], "   2 w 1");
    assert_eq!(&lines[2][91..99], "   1 b 0");
    assert_eq!(lines[3], "XXR 3");
    assert_eq!(lines[4], "XXC white1");
}

fn fault(text: &str) -> TrfError {
    trf::read(text).unwrap_err()
}

#[test]
fn bad_input_names_its_line_and_column() {
    let line = |rest: &str| format!("012 x\n{:<48}{rest}\n", "001    1      A");
    // A rating that is not a number (columns 49-52).
    let e = fault(&line("2x00"));
    assert_eq!((e.line, e.column), (2, 49));
    assert!(
        matches!(
            e.kind,
            TrfErrorKind::Number {
                field: "rating",
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "TRF line 2, column 49: rating must be a number, not \"2x00\""
    );
    // An unknown result code (column 99 in round 1).
    let text = format!("{:<91}{}", "001    1      A", "   2 w X\n001    2      B");
    let e = fault(&text);
    assert_eq!(
        (e.line, e.column, e.kind),
        (1, 99, TrfErrorKind::Result('X'))
    );
    // A bad colour (column 97).
    let text = format!("{:<91}{}", "001    1      A", "   2 x 1\n001    2      B");
    assert_eq!(fault(&text).kind, TrfErrorKind::Colour('x'));
    assert_eq!(fault(&text).column, 97);
    // A game without colour.
    let text = format!("{:<91}{}", "001    1      A", "   2 - 1\n001    2      B");
    assert_eq!(fault(&text).kind, TrfErrorKind::GameWithoutColour(2));
    // An opponent who is not a player (line 1, round 2 starts at column 102).
    let text = format!(
        "{:<91}{}",
        "001    1      A", "   2 w 1     9 b 0\n001    2      B"
    );
    let e = fault(&text);
    assert_eq!(
        (e.line, e.column, e.kind),
        (1, 102, TrfErrorKind::UnknownOpponent(9))
    );
    // Twice the same TPN, then a missing one.
    let e = fault("001    1      A\n001    1      B\n");
    assert_eq!((e.line, e.kind), (2, TrfErrorKind::DuplicateTpn(1)));
    let e = fault("001    1      A\n001    3      C\n");
    assert_eq!((e.line, e.kind), (2, TrfErrorKind::MissingTpn(2)));
    // XXR and XXC.
    assert!(matches!(
        fault("XXR nine\n").kind,
        TrfErrorKind::Number {
            field: "rounds",
            ..
        }
    ));
    assert_eq!(
        fault("XXC green\n").kind,
        TrfErrorKind::InitialColour("green".into())
    );
    // Points with a wrong fraction.
    let e = fault(&format!("{:<80}{}", "001    1      A", " 1.3"));
    assert_eq!(
        (e.column, e.kind.to_string().contains("points")),
        (81, true)
    );
}

/// A random but consistent tournament: `n` players, `rounds` rounds, each round a random
/// pairing of the players (with a bye when odd), random results.
fn arb_tournament() -> impl Strategy<Value = Tournament> {
    (1usize..12, 0usize..7)
        .prop_flat_map(|(n, rounds)| {
            (
                Just(n),
                Just(rounds),
                proptest::collection::vec("[A-Za-z][A-Za-z .'-]{0,30}[A-Za-z]", n),
                proptest::collection::vec(0u16..=3000, n),
                proptest::collection::vec(
                    (
                        Just(()).prop_perturb(move |_, mut rng| {
                            let mut order: Vec<u32> = (1..=n as u32).collect();
                            for i in (1..order.len()).rev() {
                                let j = (rng.next_u32() as usize) % (i + 1);
                                order.swap(i, j);
                            }
                            order
                        }),
                        proptest::collection::vec(0u8..3, n / 2 + 1),
                    ),
                    rounds,
                ),
                proptest::option::of(any::<bool>()),
            )
        })
        .prop_map(|(n, _rounds, names, ratings, rounds, initial)| {
            let mut players: Vec<PlayerRecord> = (0..n)
                .map(|i| {
                    let mut p = PlayerRecord::new(i as u32 + 1, names[i].clone(), ratings[i]);
                    p.rank = i as u32 + 1;
                    p
                })
                .collect();
            for (order, results) in rounds {
                for (k, pair) in order.chunks(2).enumerate() {
                    match *pair {
                        [w, b] => {
                            let r = [GameResult::Win, GameResult::Draw, GameResult::ForfeitWin]
                                [results[k] as usize];
                            players[w as usize - 1].rounds.push(RoundEntry::game(
                                b,
                                Colour::White,
                                r,
                            ));
                            players[b as usize - 1].rounds.push(RoundEntry::game(
                                w,
                                Colour::Black,
                                r.reversed(),
                            ));
                        }
                        [alone] => players[alone as usize - 1]
                            .rounds
                            .push(RoundEntry::bye(GameResult::PairingBye)),
                        _ => unreachable!(),
                    }
                }
            }
            for p in &mut players {
                p.stated_points = Some(p.points());
            }
            Tournament {
                name: "Random".into(),
                rounds_planned: 9,
                initial_colour: initial.map(|w| if w { Colour::White } else { Colour::Black }),
                players,
            }
        })
}

proptest! {
    #[test]
    fn write_then_read_gives_the_same_tournament(t in arb_tournament()) {
        let text = trf::write(&t);
        let back = trf::read(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back, t);
    }
}
