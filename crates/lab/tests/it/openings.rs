//! Balanced openings: the judge's bound holds, the first draw is the plain random opening,
//! a match with a bound plays judged openings in both games of a pair.

use std::ops::ControlFlow;

use antarctos::Antarctos;
use game::Variant;
use iceage::IceAge;
use lab::games::random_opening;
use lab::matches::{MatchOptions, run_match};
use lab::openings::{MAX_DRAWS, choose_opening, choose_opening_judged, judge};
use lab::seeds::{game_seed, splitmix64};
use lab::setting::parse_setting;

fn replay<V: Variant>(moves: &[V::Move]) -> V::Position {
    moves
        .iter()
        .fold(V::start_position(), |p, m| V::play_unchecked(&p, m))
}

#[test]
fn without_a_bound_the_opening_is_the_random_one_unjudged() {
    let start = Antarctos::start_position();
    for i in 0..20 {
        let seed = game_seed(21, i);
        let chosen = choose_opening::<Antarctos>(&start, 4, seed, None);
        let (plain, _) = random_opening::<Antarctos>(&start, 4, splitmix64(seed));
        assert_eq!(chosen.moves, plain);
        assert_eq!(
            (chosen.score, chosen.draws, chosen.balanced),
            (None, 1, None)
        );
    }
}

#[test]
fn balanced_openings_lie_within_the_bound_and_the_first_draw_is_the_plain_one() {
    let start = Antarctos::start_position();
    let mut redrawn = 0;
    for i in 0..12 {
        let seed = game_seed(21, i);
        let chosen = choose_opening::<Antarctos>(&start, 4, seed, Some(50));
        let score = chosen.score.expect("a bound runs the judge");
        assert!(score.abs() <= 50, "pair {i}: {score}");
        assert!(chosen.draws >= 1 && chosen.draws <= MAX_DRAWS);
        assert_eq!(chosen.moves.len(), 4);
        // The judge's score is of the position after the chosen moves, and repeats.
        assert_eq!(
            judge::<Antarctos>(&replay::<Antarctos>(&chosen.moves)),
            score
        );
        let (plain, _) = random_opening::<Antarctos>(&start, 4, splitmix64(seed));
        if chosen.draws == 1 {
            assert_eq!(chosen.moves, plain);
        } else {
            redrawn += 1;
            // Drawn again because the plain one was judged past the bound.
            let plain_score = judge::<Antarctos>(&replay::<Antarctos>(&plain));
            assert!(plain_score.abs() > 50, "pair {i}: plain {plain_score}");
        }
        // The same seed gives the same opening.
        assert_eq!(
            choose_opening::<Antarctos>(&start, 4, seed, Some(50)),
            chosen
        );
    }
    // Four random plies of Antarctos often give a man away (A9): some are drawn again.
    assert!(redrawn > 0, "no opening of 12 was past ±50");
}

#[test]
fn a_bound_nothing_meets_keeps_the_closest_of_the_draws() {
    // A judge that scores a position by its zobrist key, 1 to 97: never within ±(-1).
    let start = IceAge::start_position();
    let judge = |pos: &<IceAge as Variant>::Position| (IceAge::zobrist(pos) % 97) as i32 + 1;
    let chosen = choose_opening_judged::<IceAge>(&start, 3, game_seed(5, 0), Some(-1), judge);
    assert_eq!(chosen.draws, MAX_DRAWS);
    let best = (0..u64::from(MAX_DRAWS))
        .map(|k| {
            let (_, pos) = random_opening::<IceAge>(&start, 3, splitmix64(game_seed(5, 0) + k));
            judge(&pos)
        })
        .min()
        .unwrap();
    assert_eq!(chosen.score, Some(best));
    assert_eq!(judge(&replay::<IceAge>(&chosen.moves)), best);
}

#[test]
fn when_every_draw_ends_the_game_the_first_is_kept_and_marked_not_balanced() {
    // 150 random plies finish every Antarctos game (A12-A14): nothing is left to judge.
    let start = Antarctos::start_position();
    let seed = game_seed(3, 0);
    let chosen = choose_opening::<Antarctos>(&start, 150, seed, Some(50));
    let (plain, end) = random_opening::<Antarctos>(&start, 150, splitmix64(seed));
    assert!(Antarctos::outcome(&end).is_some());
    assert_eq!(chosen.moves, plain);
    assert_eq!(
        (chosen.score, chosen.draws, chosen.balanced),
        (None, MAX_DRAWS, Some(false))
    );
    assert_eq!(
        chosen.tag(150, Some(50)).unwrap(),
        "150 random plies, not balanced: none of 200 draws left the game going"
    );
}

#[test]
fn the_closest_kept_is_tagged_not_balanced_and_a_proven_score_in_words() {
    let start = Antarctos::start_position();
    let win = engine::score::WIN - 7;
    let chosen = choose_opening_judged::<Antarctos>(&start, 4, game_seed(9, 1), Some(50), |_| win);
    assert_eq!((chosen.balanced, chosen.score), (Some(false), Some(win)));
    assert_eq!(
        chosen.tag(4, Some(50)).unwrap(),
        "4 random plies, not balanced: the closest of 200 draws to ±50, the baseline finds a forced win for the side to move"
    );
    let even = choose_opening_judged::<Antarctos>(&start, 4, game_seed(9, 1), Some(50), |_| -12);
    assert_eq!((even.balanced, even.draws), (Some(true), 1));
    assert_eq!(
        even.tag(4, Some(50)).unwrap(),
        "4 random plies, balanced: the baseline scores the side to move -12"
    );
    assert_eq!(even.tag(4, None), None);
}

#[test]
fn a_match_with_a_bound_plays_judged_openings_in_both_games() {
    let opts = MatchOptions {
        a: parse_setting("nodes=300").unwrap(),
        b: parse_setting("engine=baseline,nodes=300").unwrap(),
        games: 6,
        threads: 2,
        seed: 21,
        random_plies: 4,
        balanced: Some(40),
        max_plies: 400,
        sprt: None,
        sprt_prior: Default::default(),
    };
    let (pairs, report) =
        run_match::<Antarctos>(&opts, |_, _, _| ControlFlow::Continue(())).unwrap();
    assert_eq!(report.games.games(), 6);
    for (i, pair) in pairs.iter().enumerate() {
        let score = pair.opening_score.expect("judged");
        assert!(score.abs() <= 40, "pair {i}: {score}");
        let [first, second] = &pair.games;
        assert_eq!(first.record.moves[..4], second.record.moves[..4]);
        let expected = choose_opening::<Antarctos>(
            &Antarctos::start_position(),
            4,
            game_seed(21, i as u64),
            Some(40),
        );
        assert_eq!(first.record.moves[..4], expected.moves[..]);
        let tag = first.record.tag("Opening").expect("tagged");
        assert!(tag.contains("balanced"), "{tag}");
    }
}
