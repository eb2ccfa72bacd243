//! The solver proves the seed's three Antarctos worked examples (antarctos.md, last
//! section) with their lines, and never claims what it cannot prove.

use antarctos::Antarctos;
use engine::solve::{Proof, proof_text, solve};
use game::Variant;

fn prove(fen: &str, max_plies: u32) -> String {
    let pos = Antarctos::parse_position(fen).expect("valid position");
    let sol = solve::<Antarctos>(&pos, max_plies);
    // The line is legal and really ends the game with the announced winner.
    if let Proof::Win { plies, line } | Proof::Loss { plies, line } = &sol.proof {
        assert_eq!(line.len() as u32, *plies);
        let mut p = pos.clone();
        for mv in line {
            p = Antarctos::play(&p, mv).expect("line move legal");
        }
        let winner = Antarctos::outcome(&p).and_then(|o| o.winner());
        let mover = Antarctos::side_to_move(&pos);
        match sol.proof {
            Proof::Win { .. } => assert_eq!(winner, Some(mover)),
            _ => assert_eq!(winner, Some(!mover)),
        }
    }
    proof_text::<Antarctos>(&pos, &sol.proof)
}

#[test]
fn worked_example_1_black_begins_and_wins() {
    assert_eq!(
        prove("B:Wa5,d2,d4:Ba7,c7", 20),
        "win in 3 plies: 1... c7-b6 2. a5xc7 a7xc5xe3xc1#"
    );
}

#[test]
fn worked_example_2_white_begins_and_wins() {
    assert_eq!(
        prove("W:Wb4,e3,f2:Bc7,d6:Ic3", 20),
        "win in 3 plies: 1. b4-c5 d6xb4xd2xf4 2. f2xd4xb6xd8#"
    );
}

#[test]
fn worked_example_3_white_begins_and_wins() {
    // A10: the capture of c5 is compulsory, so the sequence ends on b4 and Black's last
    // man has no turn (A14).
    assert_eq!(
        prove("W:Wb2,c1,h2:Ba3,c5:Ie5,e7,g3", 20),
        "win in 1 plies: 1. h2xf4xd6xb4#"
    );
}

#[test]
fn loss_is_proved_from_the_losers_side() {
    // Example 1 after Black's first move: White's only turn loses in two plies.
    assert_eq!(
        prove("W:Wa5,d2,d4:Ba7,b6", 20),
        "loss in 2 plies: 1. a5xc7 a7xc5xe3xc1#"
    );
}

#[test]
fn no_claim_beyond_the_limit() {
    assert_eq!(
        prove("B:Wa5,d2,d4:Ba7,c7", 2),
        "no forced result within 2 plies"
    );
    let start = Antarctos::start_position();
    let sol = solve::<Antarctos>(&start, 4);
    assert_eq!(sol.proof, Proof::Unknown { max_plies: 4 });
}

#[test]
fn solve_until_a_passed_deadline_claims_only_the_plies_searched_in_full() {
    use engine::solve::solve_until;
    let start = Antarctos::start_position();
    let sol = solve_until::<Antarctos>(&start, 20, Some(std::time::Instant::now()));
    assert!(sol.stopped);
    let Proof::Unknown { max_plies } = sol.proof else {
        panic!("a stopped search proved {:?}", sol.proof);
    };
    assert!(max_plies < 20, "{max_plies}");
    // What it claims is what the full solver finds at that depth.
    let full = solve::<Antarctos>(&start, max_plies);
    assert_eq!(full.proof, Proof::Unknown { max_plies });
    assert!(!full.stopped);
    // A proof found before the deadline is the full solver's.
    let pos = Antarctos::parse_position("B:Wa5,d2,d4:Ba7,c7").expect("valid position");
    let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
    let sol = solve_until::<Antarctos>(&pos, 20, Some(far));
    assert!(!sol.stopped);
    assert_eq!(sol.proof, solve::<Antarctos>(&pos, 20).proof);
}
