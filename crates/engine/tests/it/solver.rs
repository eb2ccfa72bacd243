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

/// The exact value within `depth` plies by plain minimax, no table, no pruning: `WIN - k`
/// for a win in `k` plies, its negation for a loss, 0 for neither.
fn brute<V: Variant>(pos: &V::Position, depth: u32) -> i32 {
    use engine::score::{WIN, WIN_BOUND};
    if let Some(o) = V::outcome(pos) {
        return match o.winner() {
            Some(w) if w == V::side_to_move(pos) => WIN,
            Some(_) => -WIN,
            None => 0,
        };
    }
    if depth == 0 {
        return 0;
    }
    let mut best = -WIN - 1;
    for mv in V::legal_moves(pos) {
        let v = -brute::<V>(&V::play_unchecked(pos, &mv), depth - 1);
        // One ply further from the result.
        let v = if v >= WIN_BOUND {
            v - 1
        } else if v <= -WIN_BOUND {
            v + 1
        } else {
            v
        };
        best = best.max(v);
    }
    best
}

fn value<V: Variant>(proof: &Proof<V>) -> i32 {
    use engine::score::WIN;
    match proof {
        Proof::Win { plies, .. } => WIN - *plies as i32,
        Proof::Loss { plies, .. } => -(WIN - *plies as i32),
        Proof::Unknown { .. } => 0,
    }
}

/// One prover, its table shared by every proof, on positions of random games at every
/// limit from 1 to 6 plies: each result is the exact value within the limit (the plain
/// minimax's), so a win is never claimed longer than it is, nor missed, because an entry
/// came from a deeper search of another proof or another path.
#[test]
fn a_prover_sharing_its_table_between_proofs_gives_exact_distances() {
    let mut prover = engine::solve::Prover::<Antarctos>::new(4);
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut checked = 0;
    let mut decisive = 0;
    for _game in 0..12 {
        let mut pos = Antarctos::start_position();
        for ply in 0..80 {
            let moves = Antarctos::legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            if ply >= 24 && ply % 3 == 0 {
                for limit in [1, 3, 2, 6, 4, 5] {
                    let want = brute::<Antarctos>(&pos, limit);
                    let got = prover.solve(&pos, limit, None);
                    assert_eq!(
                        value(&got.proof),
                        want,
                        "{} within {limit}: {:?}",
                        Antarctos::position_text(&pos),
                        got.proof
                    );
                    checked += 1;
                    decisive += usize::from(want != 0);
                }
            }
            let mv = &moves[(next() % moves.len() as u64) as usize];
            pos = Antarctos::play_unchecked(&pos, mv);
        }
    }
    assert!(
        checked > 100 && decisive > 20,
        "{checked} checked, {decisive} decisive"
    );
}
