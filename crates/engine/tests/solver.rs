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
