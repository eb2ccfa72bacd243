//! Judging a player's attempt (`puzzles::judge`): the winner's moves must be the line's, a
//! defence that resists as long is accepted and the winner's next moves are then proven
//! afresh, a defence that loses sooner is refused, and bad attempts say what and where.

use antarctos::Antarctos;
use engine::solve::{Proof, Prover, solve};
use game::Variant;
use puzzles::{AttemptError, Verdict, check, judge, parse_moves};

fn texts(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn judged(fen: &str, line: &[&str], attempt: &[&str]) -> Result<Verdict, AttemptError> {
    let pos = Antarctos::parse_position(fen).expect("valid");
    let line = parse_moves::<Antarctos>(&pos, &texts(line)).expect("line");
    let attempt = parse_moves::<Antarctos>(&pos, &texts(attempt))?;
    judge(
        &mut Prover::<Antarctos>::new(4),
        &pos,
        &line,
        &attempt,
        None,
    )
}

const SEED: &str = "B:Wa5,d2,d4:Ba7,c7";
const SEED_LINE: &[&str] = &["c7-b6", "a5xc7", "a7xc5xe3xc1"];

#[test]
fn the_line_solves_and_a_wrong_winners_move_fails_at_its_ply() {
    assert_eq!(judged(SEED, SEED_LINE, SEED_LINE), Ok(Verdict::Solved));
    assert_eq!(
        judged(SEED, SEED_LINE, &["c7-d6"]),
        Ok(Verdict::Failed { ply: 0 })
    );
    // Moves after the wrong one are not judged.
    let pos = Antarctos::parse_position(SEED).expect("valid");
    let after = Antarctos::play(&pos, &Antarctos::parse_move(&pos, "c7-d6").unwrap()).unwrap();
    let reply = Antarctos::move_text(&after, &Antarctos::legal_moves(&after)[0]);
    assert_eq!(
        judged(SEED, SEED_LINE, &["c7-d6", &reply]),
        Ok(Verdict::Failed { ply: 0 })
    );
}

#[test]
fn bad_attempts_say_what_and_where() {
    assert_eq!(judged(SEED, SEED_LINE, &[]), Err(AttemptError::Empty));
    match judged(SEED, SEED_LINE, &["c7-b6", "h8-g7"]) {
        Err(AttemptError::Illegal { ply: 1, text, .. }) => assert_eq!(text, "h8-g7"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        judged(SEED, SEED_LINE, &["c7-b6", "a5xc7"]),
        Err(AttemptError::Incomplete { plies: 2 })
    );
    let e = judged(SEED, SEED_LINE, &["c7-b6", "a5xc7", "a7xc5xe3xc1", "d4-e5"]).unwrap_err();
    assert_eq!(e, AttemptError::AfterEnd { ply: 3 });
    assert!(e.to_string().contains("move 4"), "{e}");
}

/// On a puzzle where several defences resist as long: every other defence at every
/// defender's ply is judged. One that resists as long, followed by the solver's win, solves
/// the puzzle; one that loses sooner is refused; a winner's move that is not the new win
/// fails.
#[test]
fn defences_that_resist_as_long_are_accepted_and_weaker_ones_refused() {
    let pos = Antarctos::parse_position("W:Wc5,d2:Bb6,d6,b4,d4:If6,c3").expect("valid");
    let limits = puzzles::Limits {
        max_plies: 15,
        deadline: None,
    };
    let line = check(&mut Prover::<Antarctos>::new(4), &pos, &limits)
        .expect("a puzzle")
        .line;
    let (mut equal, mut weaker) = (0, 0);
    let mut at = pos.clone();
    for i in 0..line.len() {
        if i % 2 == 1 {
            let left = (line.len() - i) as u32;
            for d in Antarctos::legal_moves(&at) {
                if d == line[i] {
                    continue;
                }
                let next = Antarctos::play(&at, &d).expect("legal");
                let mut attempt = line[..i].to_vec();
                attempt.push(d.clone());
                let got = judge(
                    &mut Prover::<Antarctos>::new(4),
                    &pos,
                    &line,
                    &attempt,
                    None,
                );
                let plies = match Antarctos::outcome(&next) {
                    Some(_) => 0,
                    None => match solve::<Antarctos>(&next, left - 1).proof {
                        Proof::Win { plies, .. } => plies,
                        other => panic!("the defence escapes: {other:?}"),
                    },
                };
                if plies < left - 1 {
                    weaker += 1;
                    assert_eq!(got, Err(AttemptError::WeakDefence { ply: i as u32 }));
                    continue;
                }
                equal += 1;
                // The winner's win goes on from the new position.
                let Proof::Win { line: rest, .. } = solve::<Antarctos>(&next, left - 1).proof
                else {
                    unreachable!("proven above")
                };
                let mut whole = attempt.clone();
                whole.extend(rest.iter().cloned());
                let got = judge(&mut Prover::<Antarctos>::new(4), &pos, &line, &whole, None);
                assert_eq!(got, Ok(Verdict::Solved), "defence at ply {i}");
                // Any other winner's move there fails at its ply.
                if let Some(bad) = Antarctos::legal_moves(&next)
                    .into_iter()
                    .find(|m| *m != rest[0])
                {
                    attempt.push(bad);
                    let got = judge(
                        &mut Prover::<Antarctos>::new(4),
                        &pos,
                        &line,
                        &attempt,
                        None,
                    );
                    assert_eq!(got, Ok(Verdict::Failed { ply: i as u32 + 1 }));
                }
            }
        }
        at = Antarctos::play(&at, &line[i]).expect("legal");
    }
    assert!(equal > 0, "the position has a defence that resists as long");
    assert!(weaker > 0, "and one that loses sooner");
}
