//! Tie-breaks (FIDE handbook C.07) on hand-computed tables: Buchholz cut 1 and
//! Sonneborn-Berger with virtual opponents for byes, direct encounter, and the standings.

use tournament::record::Points;
use tournament::tiebreak::{self, TieBreaks};
use tournament::{Colour, GameResult, PlayerRecord, RoundEntry, Tournament};

use Colour::{Black as B, White as Wh};
use GameResult::{Draw, Loss, PairingBye, Win};

fn tournament(rounds: Vec<Vec<RoundEntry>>) -> Tournament {
    Tournament {
        name: "test".into(),
        rounds_planned: rounds[0].len() as u32,
        initial_colour: Some(Colour::White),
        players: rounds
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                let mut p = PlayerRecord::new(i as u32 + 1, format!("P{}", i + 1), 2000);
                p.rounds = r;
                p
            })
            .collect(),
    }
}

fn g(opponent: u32, colour: Colour, result: GameResult) -> RoundEntry {
    RoundEntry::game(opponent, colour, result)
}

/// Five players, three rounds, a pairing-allocated bye each round:
///
/// ```text
/// round 1: 1-4 1-0, 2-5 ½-½, 3 bye        final: 1 2.5, 3 2.5, 5 2.5, 2 1.5, 4 0
/// round 2: 3-1 ½-½, 5-4 1-0, 2 bye
/// round 3: 1-2 1-0, 4-3 0-1, 5 bye
/// ```
///
/// Adjusted scores (an opponent's unplayed rounds count ½): 1 2.5; 2 ½+½+0 = 1; 3 ½+½+1 = 2;
/// 4 0; 5 ½+1+½ = 2. A bye in round R of n = 3 is a virtual opponent with
/// Svon = SPR + (1 - SfPR) + ½(n - R), the bye scoring SfPR = 1:
///
/// ```text
/// player  (opponent, adjusted score, result) by round                  BH     cut 1  SB
/// 1       (4, 0, 1)      (3, 2, ½)         (2, 1, 1)                     3      3      0 + 1 + 1 = 2
/// 3       (v, 0+0+1 = 1, 1) (1, 2.5, ½)    (4, 0, 1)                     3.5    3.5    1 + 1.25 + 0 = 2.25
/// 5       (2, 1, ½)      (4, 0, 1)         (v, 1.5+0+0 = 1.5, 1)         2.5    2.5    0.5 + 0 + 1.5 = 2
/// 2       (5, 2, ½)      (v, ½+0+½ = 1, 1) (1, 2.5, 0)                   5.5    4.5    1 + 1 + 0 = 2
/// 4       (1, 2.5, 0)    (5, 2, 0)         (3, 2, 0)                     6.5    4.5    0
/// ```
fn with_byes() -> Tournament {
    tournament(vec![
        vec![g(4, Wh, Win), g(3, B, Draw), g(2, Wh, Win)],
        vec![g(5, Wh, Draw), RoundEntry::bye(PairingBye), g(1, B, Loss)],
        vec![RoundEntry::bye(PairingBye), g(1, Wh, Draw), g(4, B, Win)],
        vec![g(1, B, Loss), g(5, B, Loss), g(3, Wh, Loss)],
        vec![g(2, B, Draw), g(4, Wh, Win), RoundEntry::bye(PairingBye)],
    ])
}

#[test]
fn buchholz_cut1_and_sonneborn_berger_with_virtual_opponents() {
    let t = with_byes();
    let expected = [
        // tpn, adjusted score (half points), cut 1, SB
        (1, 5, 3.0, 2.0),
        (2, 2, 4.5, 2.0),
        (3, 4, 3.5, 2.25),
        (4, 0, 4.5, 0.0),
        (5, 4, 2.5, 2.0),
    ];
    for (tpn, adjusted, cut1, sb) in expected {
        assert_eq!(
            tiebreak::adjusted_score(&t, tpn),
            adjusted,
            "adjusted {tpn}"
        );
        assert_eq!(
            tiebreak::buchholz_cut1(&t, tpn),
            cut1,
            "Buchholz cut 1 of {tpn}"
        );
        assert_eq!(
            tiebreak::sonneborn_berger(&t, tpn),
            sb,
            "Sonneborn-Berger of {tpn}"
        );
    }
}

#[test]
fn standings_by_points_then_buchholz_cut1() {
    let s = tiebreak::standings(&with_byes());
    let order: Vec<(u32, u32, Points)> = s.iter().map(|r| (r.rank, r.tpn, r.points)).collect();
    // 1, 3 and 5 have 2.5: Buchholz cut 1 3.5 (3), 3 (1), 2.5 (5).
    assert_eq!(
        order,
        [
            (1, 3, Points(5)),
            (2, 1, Points(5)),
            (3, 5, Points(5)),
            (4, 2, Points(3)),
            (5, 4, Points(0)),
        ]
    );
}

/// A round robin of four (Berger table: 1-4 2-3 / 4-3 1-2 / 2-4 3-1), where A (1) and B (2)
/// tie on everything but their game, which A won:
///
/// ```text
///        A    B    C    D    points
/// A      -    1    ½    0    1.5
/// B      0    -    1    ½    1.5
/// C      ½    0    -    ½    1
/// D      1    ½    ½    -    2
/// ```
///
/// Buchholz cut 1: A: 1.5 + 1 + 2 - 1 = 3.5; B: 1.5 + 1 + 2 - 1 = 3.5. Sonneborn-Berger: A:
/// 1.5 (B) + ½·1 (C) = 2; B: 1 (C) + ½·2 (D) = 2. Direct encounter: A 1, B 0.
fn tied_pair() -> Tournament {
    tournament(vec![
        vec![g(4, Wh, Loss), g(2, Wh, Win), g(3, B, Draw)],
        vec![g(3, Wh, Win), g(1, B, Loss), g(4, Wh, Draw)],
        vec![g(2, B, Loss), g(4, B, Draw), g(1, Wh, Draw)],
        vec![g(1, B, Win), g(3, Wh, Draw), g(2, B, Draw)],
    ])
}

#[test]
fn direct_encounter_separates_a_tie_on_the_other_tie_breaks() {
    let t = tied_pair();
    let s = tiebreak::standings(&t);
    let a = s.iter().find(|r| r.tpn == 1).unwrap();
    let b = s.iter().find(|r| r.tpn == 2).unwrap();
    assert_eq!(
        a.tiebreaks,
        TieBreaks {
            buchholz_cut1: 3.5,
            sonneborn_berger: 2.0,
            direct_encounter: 1.0
        }
    );
    assert_eq!(
        b.tiebreaks,
        TieBreaks {
            buchholz_cut1: 3.5,
            sonneborn_berger: 2.0,
            direct_encounter: 0.0
        }
    );
    let order: Vec<u32> = s.iter().map(|r| r.tpn).collect();
    assert_eq!(order, [4, 1, 2, 3]);
    assert_eq!(s.iter().map(|r| r.rank).collect::<Vec<_>>(), [1, 2, 3, 4]);
}

#[test]
fn direct_encounter_needs_every_game_of_the_group() {
    let t = with_byes();
    assert_eq!(
        tiebreak::direct_encounter(&t, &[1, 3]),
        Some(vec![0.5, 0.5])
    );
    assert_eq!(
        tiebreak::direct_encounter(&t, &[1, 2]),
        Some(vec![1.0, 0.0])
    );
    // 1 and 5 never met.
    assert_eq!(tiebreak::direct_encounter(&t, &[1, 5]), None);
    assert_eq!(tiebreak::direct_encounter(&t, &[1, 3, 5]), None);
}

#[test]
fn players_equal_on_everything_share_a_place() {
    // Two players, one draw: equal on every tie-break.
    let t = tournament(vec![vec![g(2, Wh, Draw)], vec![g(1, B, Draw)]]);
    let s = tiebreak::standings(&t);
    assert_eq!(
        s.iter().map(|r| (r.rank, r.tpn)).collect::<Vec<_>>(),
        [(1, 1), (1, 2)]
    );
}
