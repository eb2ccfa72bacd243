//! A stop flag that polls its host ([`StopFlag::polling`], for the WebAssembly build, where
//! nothing can reach the search's thread) and the solver that takes a stop flag
//! ([`engine::solve::solve_stoppable`]).

use std::sync::atomic::{AtomicU64, Ordering};

use antarctos::Antarctos;
use engine::solve::{Proof, solve, solve_stoppable};
use engine::{Limits, Searcher, StopFlag};
use game::Variant;
use iceage::IceAge;

/// Calls of each polling function (each test that polls has its own): true from the 11th.
static SEARCH_POLLS: AtomicU64 = AtomicU64::new(0);
static SOLVER_POLLS: AtomicU64 = AtomicU64::new(0);

fn search_poll() -> bool {
    SEARCH_POLLS.fetch_add(1, Ordering::SeqCst) >= 10
}

fn solver_poll() -> bool {
    SOLVER_POLLS.fetch_add(1, Ordering::SeqCst) >= 10
}

fn never() -> bool {
    false
}

#[test]
fn a_polling_flag_stops_the_search_when_its_host_says_so() {
    let pos = IceAge::start_position();
    let stop = StopFlag::polling(search_poll);
    let limits = Limits {
        depth: Some(60),
        stop: Some(stop.clone()),
        ..Limits::default()
    };
    let result = Searcher::<IceAge>::new(16).search(&pos, &limits, |_| {});
    // Asked every 1,024 nodes, true from the 11th call: the search ends at 11 x 1,024 nodes.
    assert_eq!(SEARCH_POLLS.load(Ordering::SeqCst), 11);
    assert_eq!(result.nodes, 11 * 1024);
    assert!(stop.is_stopped());
    assert!(result.depth < 60);
    let best = result.best.expect("a move so far");
    assert!(IceAge::legal_moves(&pos).contains(&best));
}

#[test]
fn a_polling_flag_that_never_stops_changes_nothing() {
    let pos = Antarctos::start_position();
    let limits = |stop| Limits {
        depth: Some(8),
        stop,
        ..Limits::default()
    };
    let plain = Searcher::<Antarctos>::new(16).search(&pos, &limits(None), |_| {});
    let polled = Searcher::<Antarctos>::new(16).search(
        &pos,
        &limits(Some(StopFlag::polling(never))),
        |_| {},
    );
    assert_eq!(
        (plain.best, plain.score, plain.nodes),
        (polled.best, polled.score, polled.nodes)
    );
}

#[test]
fn solve_stoppable_stops_on_its_flag_and_otherwise_proves_what_solve_proves() {
    let example = Antarctos::parse_position("B:Wa5,d2,d4:Ba7,c7").expect("valid");
    let proved = solve_stoppable::<Antarctos>(&example, 20, None, Some(StopFlag::new()));
    assert_eq!(proved, solve::<Antarctos>(&example, 20));
    assert!(matches!(proved.proof, Proof::Win { plies: 3, .. }));

    let start = Antarctos::start_position();
    let stopped =
        solve_stoppable::<Antarctos>(&start, 40, None, Some(StopFlag::polling(solver_poll)));
    assert!(stopped.stopped);
    let Proof::Unknown { max_plies } = stopped.proof else {
        panic!("a stopped solver proved {:?}", stopped.proof);
    };
    assert!(max_plies < 40);
    assert_eq!(SOLVER_POLLS.load(Ordering::SeqCst), 11);
    assert_eq!(stopped.nodes, 11 * 4096);

    let flag = StopFlag::new();
    flag.stop();
    let at_once = solve_stoppable::<Antarctos>(&start, 40, None, Some(flag));
    assert!(at_once.stopped);
    assert_eq!(at_once.nodes, 4096);
}
