//! `check` against the brute force of `brute.rs` on random small positions: the same
//! positions are puzzles, with the same length, and rejected for the same reason.

use antarctos::Antarctos;
use engine::solve::Prover;
use game::Variant;
use puzzles::{Limits, check};

use crate::{brute, random};

#[test]
fn check_agrees_with_the_brute_force_on_random_positions() {
    let mut prover = Prover::<Antarctos>::new(4);
    let limits = Limits {
        max_plies: 5,
        deadline: None,
    };
    let mut kept = 0;
    let mut reasons = std::collections::BTreeMap::new();
    for pos in random::positions(0x2545_F491_4F6C_DD1D, 1_500) {
        let text = Antarctos::position_text(&pos);
        let ours = check(&mut prover, &pos, &limits)
            .map(|p| p.plies())
            .map_err(|r| r.name());
        assert_eq!(ours, brute::verdict::<Antarctos>(&pos, 5), "{text}");
        match ours {
            Ok(_) => kept += 1,
            Err(name) => *reasons.entry(name).or_insert(0) += 1,
        }
    }
    // The sample reaches every rule.
    for name in ["no_forced_win", "only_legal_move", "second_winning_move"] {
        assert!(reasons.get(name).is_some_and(|n| *n > 10), "{reasons:?}");
    }
    assert!(kept > 50, "{kept} kept; {reasons:?}");
}
