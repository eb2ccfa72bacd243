//! Arena scoring and pairing (lichess arena rules) on hand-computed sheets.

use tournament::arena::{self, ArenaGame, ArenaPairing, Outcome, ScoringRules, Waiting};

fn game(outcome: Outcome, berserk: bool, moves: u32) -> ArenaGame {
    ArenaGame {
        outcome,
        berserk,
        moves,
    }
}

const W: Outcome = Outcome::Win;
const D: Outcome = Outcome::Draw;
const L: Outcome = Outcome::Loss;

#[test]
fn streaks_double_until_a_game_that_is_not_a_win() {
    // game  result            on fire before?  points
    //  1    win               no               2
    //  2    win               no               2   (2 wins in a row: on fire)
    //  3    win               yes              4
    //  4    draw              yes              2   (streak over)
    //  5    win               no               2
    //  6    loss              no               0
    //  7    win               no               2
    //  8    win               no               2   (on fire)
    //  9    win, berserk, 20  yes              4 + 1 (berserk point not doubled)
    // 10    loss              yes              0   (streak over)
    // total 21
    let games = [
        game(W, false, 30),
        game(W, false, 30),
        game(W, false, 30),
        game(D, false, 30),
        game(W, false, 30),
        game(L, false, 30),
        game(W, false, 30),
        game(W, false, 30),
        game(W, true, 20),
        game(L, false, 30),
    ];
    let sheet = arena::score(&games, &ScoringRules::LICHESS);
    let points: Vec<u32> = sheet.games.iter().map(|g| g.points).collect();
    assert_eq!(points, [2, 2, 4, 2, 2, 0, 2, 2, 5, 0]);
    let fire: Vec<bool> = sheet.games.iter().map(|g| g.on_fire).collect();
    assert_eq!(
        fire,
        [
            false, false, true, true, false, false, false, false, true, true
        ]
    );
    assert_eq!(sheet.total, 21);
    assert!(!sheet.on_fire);
}

#[test]
fn berserk_counts_on_a_win_of_enough_moves_only() {
    // win berserk 7 moves: 2 + 1; win berserk 6 moves: 2 (too short); loss berserk: 0;
    // draw berserk: 1. After the two wins: on fire for the next game.
    let games = [
        game(W, true, 7),
        game(W, true, 6),
        game(L, true, 40),
        game(D, true, 40),
    ];
    let sheet = arena::score(&games, &ScoringRules::LICHESS);
    let points: Vec<u32> = sheet.games.iter().map(|g| g.points).collect();
    assert_eq!(points, [3, 2, 0, 1]);
    assert_eq!(sheet.total, 6);
    let custom = ScoringRules {
        berserk_min_moves: 10,
        early_draw_before: None,
    };
    assert_eq!(arena::score(&games[..1], &custom).total, 2);
}

#[test]
fn an_early_draw_scores_nothing_when_the_rule_is_on() {
    // Ice Age Chess: drawn before move 10 scores 0 and ends a streak.
    let iceage = ScoringRules {
        berserk_min_moves: 7,
        early_draw_before: Some(10),
    };
    let games = [
        game(W, false, 30),
        game(W, false, 30),
        game(D, false, 9),  // on fire, early draw: 0
        game(D, false, 10), // not early: 1
        game(W, false, 5),  // wins count at any length: 2
    ];
    let sheet = arena::score(&games, &iceage);
    let points: Vec<u32> = sheet.games.iter().map(|g| g.points).collect();
    assert_eq!(points, [2, 2, 0, 1, 2]);
    // Without the rule the early draw is a doubled draw.
    let lichess = arena::score(&games, &ScoringRules::LICHESS);
    assert_eq!(lichess.games[2].points, 2);
}

fn waiting(id: u32, score: u32, rating: u16, last: Option<u32>) -> Waiting<u32> {
    Waiting {
        id,
        score,
        rating,
        last_opponent: last,
        paused: false,
        whites: 0,
        blacks: 0,
    }
}

fn pairs(p: &[ArenaPairing<u32>]) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = p
        .iter()
        .map(|x| (x.white.min(x.black), x.white.max(x.black)))
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn the_closest_in_score_then_rating() {
    // Scores 10, 9, 3, 2: the two leaders meet, then the two others.
    let w = [
        waiting(1, 10, 1500, None),
        waiting(2, 9, 1600, None),
        waiting(3, 3, 1500, None),
        waiting(4, 2, 1400, None),
    ];
    assert_eq!(pairs(&arena::pair(&w)), [(1, 2), (3, 4)]);
    // Equal scores: the closest rating (1 is 1500: 3 at 1520 before 2 at 1900).
    let w = [
        waiting(1, 4, 1500, None),
        waiting(2, 4, 1900, None),
        waiting(3, 4, 1520, None),
        waiting(4, 4, 1850, None),
    ];
    assert_eq!(pairs(&arena::pair(&w)), [(1, 3), (2, 4)]);
}

#[test]
fn never_the_same_opponent_twice_in_a_row_when_another_exists() {
    // 1 and 2 just played each other: 1 takes 3 (next closest), 2 takes 4.
    let w = [
        waiting(1, 10, 1500, Some(2)),
        waiting(2, 9, 1600, Some(1)),
        waiting(3, 3, 1500, None),
        waiting(4, 2, 1400, None),
    ];
    assert_eq!(pairs(&arena::pair(&w)), [(1, 3), (2, 4)]);
    // The last two would be a rematch (3-4): the search goes back and pairs 1-4, 2-3.
    let w = [
        waiting(1, 10, 1500, None),
        waiting(2, 9, 1600, None),
        waiting(3, 3, 1500, Some(4)),
        waiting(4, 2, 1400, Some(3)),
    ];
    assert_eq!(pairs(&arena::pair(&w)), [(1, 3), (2, 4)]);
    // Only the two of them are waiting: the rematch is the only choice.
    let w = [waiting(1, 10, 1500, Some(2)), waiting(2, 9, 1600, Some(1))];
    assert_eq!(pairs(&arena::pair(&w)), [(1, 2)]);
}

#[test]
fn paused_players_wait_and_an_odd_one_out_waits() {
    let mut w = vec![
        waiting(1, 10, 1500, None),
        waiting(2, 9, 1600, None),
        waiting(3, 3, 1500, None),
        waiting(4, 2, 1400, None),
    ];
    w[1].paused = true;
    // 1, 3, 4 play: 1 takes 3, 4 waits.
    assert_eq!(pairs(&arena::pair(&w)), [(1, 3)]);
    assert!(arena::pair::<u32>(&[]).is_empty());
    assert!(arena::pair(&w[..1]).is_empty());
}

#[test]
fn white_goes_to_the_player_with_fewer_whites() {
    let mut w = [waiting(1, 10, 1500, None), waiting(2, 9, 1600, None)];
    w[0].whites = 3;
    w[0].blacks = 2;
    w[1].whites = 2;
    w[1].blacks = 3;
    let p = arena::pair(&w);
    assert_eq!((p[0].white, p[0].black), (2, 1));
    w[1].whites = 4;
    let p = arena::pair(&w);
    assert_eq!((p[0].white, p[0].black), (1, 2));
}
