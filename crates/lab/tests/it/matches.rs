//! Matches on a toy game: pairing, scoring from A's side, Elo sign, SPRT early stop.

use crate::common;

use common::{Pile, toy_chooser};
use game::Color;
use std::ops::ControlFlow;

use lab::matches::{MatchError, MatchOptions, run_match_with};
use lab::setting::parse_setting;
use lab::sprt::{SprtParams, Verdict};

fn options(a: &str, b: &str, games: u32) -> MatchOptions {
    MatchOptions {
        a: parse_setting(a).unwrap(),
        b: parse_setting(b).unwrap(),
        games,
        threads: 2,
        seed: 3,
        random_plies: 1,
        balanced: None,
        max_plies: 100,
        sprt: None,
        sprt_prior: Default::default(),
    }
}

#[test]
fn pairs_swap_colours_and_share_the_opening() {
    let (pairs, report) = run_match_with::<Pile, _>(
        &options("level=8", "nodes=5", 20),
        &toy_chooser,
        |_, _, _| ControlFlow::Continue(()),
    )
    .unwrap();
    assert_eq!(pairs.len(), 10);
    for p in &pairs {
        assert_eq!(p.games[0].record.moves[0], p.games[1].record.moves[0]);
        assert_eq!(p.games[0].record.tag("White"), Some("A level=8"));
        assert_eq!(p.games[1].record.tag("White"), Some("B nodes=5"));
    }
    assert_eq!(report.games.games(), 20);
    assert_eq!(report.pairs.pairs(), 10);
    assert_eq!(report.white.games(), 20);
    // The perfect player never loses with this pile (it moves first as White, or wins as
    // Black after any random first take it can answer) except where the draw rule bites.
    assert!(report.games.score().unwrap() > 0.7, "{report:?}");
    let elo = report.pairs.elo().unwrap();
    assert!(elo.elo > 100.0, "{elo:?}");
    // Points agree between the per-game and per-pair views.
    let pair_points: u64 = report
        .pairs
        .counts
        .iter()
        .enumerate()
        .map(|(k, c)| k as u64 * c)
        .sum();
    assert_eq!(pair_points as f64 / 2.0, report.games.points());
}

#[test]
fn a_scores_from_its_own_side() {
    let (pairs, report) = run_match_with::<Pile, _>(
        &options("nodes=5", "level=8", 20),
        &toy_chooser,
        |_, _, _| ControlFlow::Continue(()),
    )
    .unwrap();
    assert!(report.games.score().unwrap() < 0.3, "{report:?}");
    let mut a_wins = 0;
    for p in &pairs {
        if p.games[0].end.winner() == Some(Color::White) {
            a_wins += 1;
        }
        if p.games[1].end.winner() == Some(Color::Black) {
            a_wins += 1;
        }
    }
    assert_eq!(report.games.wins, a_wins);
}

#[test]
fn sprt_stops_early_on_a_clear_difference() {
    let mut opts = options("level=8", "nodes=5", 1000);
    opts.sprt = Some(SprtParams::new(0.0, 50.0).unwrap());
    let mut verdicts = Vec::new();
    let (pairs, report) = run_match_with::<Pile, _>(&opts, &toy_chooser, |i, _, r| {
        assert_eq!(i, verdicts.len());
        verdicts.push(r.sprt.unwrap().verdict);
        ControlFlow::Continue(())
    })
    .unwrap();
    // The match stops at the first verdict: every earlier pair said "continue".
    let (last, before) = verdicts.split_last().unwrap();
    assert_eq!(*last, Verdict::H1);
    assert!(before.iter().all(|v| *v == Verdict::Continue));
    let st = report.sprt.unwrap();
    assert_eq!(st.verdict, Verdict::H1, "{st:?}");
    assert!(st.llr >= st.upper);
    assert!(pairs.len() < 500, "stopped after {} pairs", pairs.len());
    assert!(
        pairs.len() as u64 >= lab::sprt::MIN_SAMPLES,
        "no verdict before {} pairs",
        lab::sprt::MIN_SAMPLES
    );
    assert_eq!(report.pairs.pairs() as usize, pairs.len());
    assert_eq!(verdicts.len(), pairs.len());
}

/// An SPRT continued from an earlier run's pairs (`sprt_prior`): the LLR is that of both runs'
/// pairs together, so a prior that leans the same way decides sooner, and the report's score
/// stays this run's.
#[test]
fn sprt_goes_on_from_an_earlier_runs_pairs() {
    let mut opts = options("level=8", "nodes=5", 1000);
    opts.sprt = Some(SprtParams::new(0.0, 50.0).unwrap());
    let (fresh, _) =
        run_match_with::<Pile, _>(&opts, &toy_chooser, |_, _, _| ControlFlow::Continue(()))
            .unwrap();
    // More pairs than the SPRT's floor (MIN_SAMPLES), so that it is the LLR of both runs
    // that decides sooner, not the floor.
    let prior = lab::stats::Pentanomial::new([20, 30, 100, 60, 90]);
    opts.sprt_prior = prior;
    let params = opts.sprt.unwrap();
    let (pairs, report) = run_match_with::<Pile, _>(&opts, &toy_chooser, |_, _, r| {
        let own = r.pairs;
        let expected = params.status_pentanomial(&own.plus(&prior));
        assert_eq!(r.sprt, Some(expected), "the LLR of both runs' pairs");
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(report.sprt.map(|s| s.verdict), Some(Verdict::H1));
    assert!(
        pairs.len() < fresh.len(),
        "decided after {} pairs, a new test after {}",
        pairs.len(),
        fresh.len()
    );
    assert_eq!(
        report.pairs.pairs() as usize,
        pairs.len(),
        "the score is this run's"
    );
}

#[test]
fn sprt_stop_does_not_depend_on_threads() {
    let mut opts = options("level=8", "nodes=5", 1000);
    opts.sprt = Some(SprtParams::new(0.0, 50.0).unwrap());
    opts.threads = 1;
    let (_, one) =
        run_match_with::<Pile, _>(&opts, &toy_chooser, |_, _, _| ControlFlow::Continue(()))
            .unwrap();
    opts.threads = 3;
    let (_, three) =
        run_match_with::<Pile, _>(&opts, &toy_chooser, |_, _, _| ControlFlow::Continue(()))
            .unwrap();
    assert_eq!(one, three);
}

#[test]
fn odd_game_count_is_refused() {
    let err = run_match_with::<Pile, _>(
        &options("level=8", "nodes=5", 7),
        &toy_chooser,
        |_, _, _| ControlFlow::Continue(()),
    )
    .unwrap_err();
    assert_eq!(err, MatchError::OddGames(7));
    assert!(err.to_string().contains("must be even"));
    let err = run_match_with::<Pile, _>(
        &options("level=8", "nodes=5", 0),
        &toy_chooser,
        |_, _, _| ControlFlow::Continue(()),
    )
    .unwrap_err();
    assert_eq!(err, MatchError::OddGames(0));
}

/// A callback that asks to stop ends the match after that pair (`icebound match` stops so
/// when its records can no longer be written).
#[test]
fn the_callback_can_end_the_match() {
    let (pairs, report) = run_match_with::<Pile, _>(
        &options("level=8", "nodes=5", 20),
        &toy_chooser,
        |i, _, _| {
            if i == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    )
    .unwrap();
    assert_eq!(pairs.len(), 3);
    assert_eq!(report.pairs.pairs(), 3);
}

/// A chooser that remembers, per side, the full-move numbers it has moved at.
struct Remembering;

impl lab::games::Chooser<Pile> for Remembering {
    type Side = Vec<(Color, u32)>;
    fn choose(
        &self,
        side: &mut Self::Side,
        pos: &game::toy::PilePos,
        config: &engine::EngineConfig,
    ) -> Option<u32> {
        // One side's memory holds only its own moves of this game, one per full move.
        if let Some(&(colour, fullmove)) = side.last() {
            assert_eq!(colour, pos.side, "a side was handed the other's memory");
            assert_eq!(pos.fullmove, fullmove + 1, "memory kept from another game");
        }
        side.push((pos.side, pos.fullmove));
        toy_chooser(pos, config)
    }
}

#[test]
fn each_side_keeps_its_own_memory_for_one_game() {
    let (pairs, report) = run_match_with::<Pile, _>(
        &options("nodes=5,seed=1", "nodes=5,seed=2", 40),
        &Remembering,
        |_, _, _| ControlFlow::Continue(()),
    )
    .expect("no chooser assertion failed");
    assert_eq!(pairs.len(), 20);
    assert_eq!(report.games.games(), 40);
}

#[test]
fn run_match_refuses_weights_that_do_not_fit_the_game() {
    let mut opts = options("nodes=10,weights=100/5", "nodes=10", 2);
    opts.threads = 1;
    let err =
        lab::matches::run_match::<antarctos::Antarctos>(&opts, |_, _, _| ControlFlow::Continue(()))
            .unwrap_err();
    assert_eq!(
        err.to_string(),
        "engine A: 2 weights given, the antarctos evaluation has 18 terms"
    );
}
