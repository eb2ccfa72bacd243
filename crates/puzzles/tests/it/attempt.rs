//! [`judge`] and [`parse_moves`] on hand-made positions: the stored line solves, a wrong
//! winner's move fails at its ply, a defence that resists as long is accepted and one that
//! loses sooner is not, errors name the ply.

use antarctos::Antarctos;
use engine::solve::{Proof, Prover, solve};
use game::Variant;
use iceage::IceAge;
use puzzles::judge_texts as judge_sent;
use puzzles::{AttemptError, Limits, Verdict, check, judge, parse_moves};

fn texts(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

/// The position and its proven line.
fn puzzle<V: Variant>(fen: &str, max_plies: u32) -> (V::Position, Vec<V::Move>) {
    let pos = V::parse_position(fen).expect("valid");
    let limits = Limits {
        max_plies,
        deadline: None,
    };
    let proven = check(&mut Prover::<V>::new(4), &pos, &limits).expect("a puzzle");
    (pos, proven.line)
}

fn judge_texts<V: Variant>(
    pos: &V::Position,
    line: &[V::Move],
    attempt: &str,
) -> Result<Verdict, AttemptError> {
    let moves = parse_moves::<V>(pos, &texts(attempt))?;
    judge(&mut Prover::<V>::new(4), pos, line, &moves, None)
}

/// "1. c5xa7 d4-e3 2. d2xf4 d6-e5 3. f4xd6 b4-a3 4. a7-b8#" (rejections.rs).
const LONG: &str = "W:Wc5,d2:Bb6,d6,b4,d4:If6,c3";

#[test]
fn the_stored_line_solves_and_a_wrong_first_move_fails_at_ply_0() {
    let (pos, line) = puzzle::<Antarctos>(LONG, 15);
    let stored = puzzles::file::line_texts::<Antarctos>(&pos, &line).join(" ");
    assert_eq!(stored, "c5xa7 d4-e3 d2xf4 d6-e5 f4xd6 b4-a3 a7-b8");
    assert_eq!(
        judge_texts::<Antarctos>(&pos, &line, &stored),
        Ok(Verdict::Solved)
    );
    // A legal first move that is not the win; the moves after it are not judged.
    let first_moves = Antarctos::legal_moves(&pos);
    let wrong = first_moves
        .iter()
        .find(|m| **m != line[0])
        .expect("another move");
    let wrong_text = Antarctos::move_text(&pos, wrong);
    assert_eq!(
        judge_texts::<Antarctos>(&pos, &line, &wrong_text),
        Ok(Verdict::Failed { ply: 0 })
    );
    let after = Antarctos::play(&pos, wrong).expect("legal");
    let reply = Antarctos::legal_moves(&after).remove(0);
    let mut moves = vec![*wrong, reply, line[0]];
    assert_eq!(
        judge(&mut Prover::<Antarctos>::new(4), &pos, &line, &moves, None),
        Ok(Verdict::Failed { ply: 0 })
    );
    // A wrong winner's move later: the third ply.
    moves = line[..2].to_vec();
    let at2 = Antarctos::play(&Antarctos::play(&pos, &line[0]).unwrap(), &line[1]).unwrap();
    let other = Antarctos::legal_moves(&at2)
        .into_iter()
        .find(|m| *m != line[2]);
    if let Some(other) = other {
        moves.push(other);
        assert_eq!(
            judge(&mut Prover::<Antarctos>::new(4), &pos, &line, &moves, None),
            Ok(Verdict::Failed { ply: 2 })
        );
    }
}

/// Each defence in `before` (the defender to move) with how long it lasts (the solver's
/// count, that move included).
fn defences(before: &antarctos::Position) -> Vec<(antarctos::Move, u32)> {
    Antarctos::legal_moves(before)
        .into_iter()
        .map(|mv| {
            let next = Antarctos::play(before, &mv).expect("legal");
            let lasts = match Antarctos::outcome(&next) {
                Some(_) => 1,
                None => match solve::<Antarctos>(&next, 15).proof {
                    Proof::Win { plies, .. } => plies + 1,
                    p => panic!("{p:?}"),
                },
            };
            (mv, lasts)
        })
        .collect()
}

#[test]
fn a_defence_that_resists_as_long_is_accepted_and_a_weaker_one_is_not() {
    let (pos, line) = puzzle::<Antarctos>(LONG, 15);
    let mut prover = Prover::<Antarctos>::new(4);
    let mut before = pos.clone();
    let (mut accepted, mut rejected) = (0, 0);
    for (k, stored) in line.iter().enumerate() {
        let left = (line.len() - k) as u32;
        if k % 2 == 1 {
            for (mv, lasts) in defences(&before) {
                if mv == *stored {
                    assert_eq!(lasts, left);
                    continue;
                }
                let mut attempt = line[..k].to_vec();
                attempt.push(mv);
                if lasts < left {
                    // Loses sooner: no defence to accept.
                    assert_eq!(
                        judge(&mut prover, &pos, &line, &attempt, None),
                        Err(AttemptError::WeakDefence { ply: k as u32 })
                    );
                    rejected += 1;
                    continue;
                }
                assert_eq!(lasts, left);
                // As long: accepted, and the winner's answers are proven afresh.
                let after = Antarctos::play(&before, &mv).expect("legal");
                let Proof::Win { line: rest, .. } = solve::<Antarctos>(&after, 15).proof else {
                    panic!("a win")
                };
                let mut solved = attempt.clone();
                solved.extend(rest.iter().cloned());
                assert_eq!(solved.len(), line.len());
                assert_eq!(
                    judge(&mut prover, &pos, &line, &solved, None),
                    Ok(Verdict::Solved)
                );
                // There a winner's move that does not win in exactly the plies left fails.
                if let Some(wrong) = Antarctos::legal_moves(&after)
                    .into_iter()
                    .find(|m| *m != rest[0])
                {
                    attempt.push(wrong);
                    assert_eq!(
                        judge(&mut prover, &pos, &line, &attempt, None),
                        Ok(Verdict::Failed { ply: k as u32 + 1 })
                    );
                }
                accepted += 1;
            }
        }
        before = Antarctos::play(&before, stored).expect("legal");
    }
    assert!(accepted >= 1 && rejected >= 1, "{accepted} {rejected}");
}

#[test]
fn errors_name_the_ply() {
    let (pos, line) = puzzle::<Antarctos>(LONG, 15);
    let mut prover = Prover::<Antarctos>::new(4);
    assert_eq!(
        judge(&mut prover, &pos, &line, &[], None),
        Err(AttemptError::Empty)
    );
    // Right so far, but the game goes on.
    assert_eq!(
        judge(&mut prover, &pos, &line, &line[..3], None),
        Err(AttemptError::Incomplete { plies: 3 })
    );
    // A move after the end.
    let mut longer = line.clone();
    longer.push(line[0]);
    assert_eq!(
        judge(&mut prover, &pos, &line, &longer, None),
        Err(AttemptError::AfterEnd { ply: 7 })
    );
    // A move of another position is illegal here.
    let elsewhere = Antarctos::legal_moves(&Antarctos::start_position()).remove(0);
    let got = judge(&mut prover, &pos, &line, &[elsewhere], None);
    assert!(
        matches!(got, Err(AttemptError::Illegal { ply: 0, .. })),
        "{got:?}"
    );
    // Texts: the second one does not read.
    let got = parse_moves::<Antarctos>(&pos, &texts("c5xa7 zz9 d2xf4"));
    match got {
        Err(AttemptError::Illegal {
            ply: 1, ref text, ..
        }) if text == "zz9" => {}
        other => panic!("{other:?}"),
    }
    let message = got.unwrap_err().to_string();
    assert!(
        message.contains("ply 1") && message.contains("zz9"),
        "{message}"
    );
    // A legal-looking text that is not legal here (the capture is forced).
    let got = parse_moves::<Antarctos>(&pos, &texts("d2-e3"));
    assert!(
        matches!(got, Err(AttemptError::Illegal { ply: 0, .. })),
        "{got:?}"
    );
    // After the end.
    let got = parse_moves::<Antarctos>(
        &pos,
        &texts(&format!(
            "{} c5xa7",
            puzzles::file::line_texts::<Antarctos>(&pos, &line).join(" ")
        )),
    );
    assert_eq!(got, Err(AttemptError::AfterEnd { ply: 7 }));
}

#[test]
fn ice_age_chess_attempts() {
    let (pos, line) = puzzle::<IceAge>("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 5);
    assert_eq!(
        judge_texts::<IceAge>(&pos, &line, "Ra8#"),
        Ok(Verdict::Solved)
    );
    assert_eq!(
        judge_texts::<IceAge>(&pos, &line, "Rb1 Kf8"),
        Ok(Verdict::Failed { ply: 0 })
    );
    // The king frozen by the Ice Age that Black's 20th move brings (rejections.rs): the
    // line ends with the defender's move.
    let (pos, line) = puzzle::<IceAge>("7k/8/8/8/8/8/8/R6K w - - 0 20", 5);
    assert_eq!(
        judge_texts::<IceAge>(&pos, &line, "Rg1 Kh7"),
        Ok(Verdict::Solved)
    );
    assert_eq!(
        judge_texts::<IceAge>(&pos, &line, "Rg1"),
        Err(AttemptError::Incomplete { plies: 1 })
    );
}

#[test]
fn a_passed_deadline_is_out_of_time_only_where_a_proof_is_needed() {
    let (pos, line) = puzzle::<Antarctos>(LONG, 15);
    let passed = Some(engine::clock::Instant::now());
    // The stored line needs no proof.
    assert_eq!(
        judge(&mut Prover::<Antarctos>::new(4), &pos, &line, &line, passed),
        Ok(Verdict::Solved)
    );
}

/// A player's client may send the whole line it played after a mistake: the texts after the
/// first wrong winner's move are not read (tester's finding, issue 39), the others are.
#[test]
fn texts_after_the_first_wrong_move_are_not_read_and_errors_list_the_legal_moves() {
    let (pos, line) = puzzle::<Antarctos>(LONG, 15);
    let mut prover = Prover::<Antarctos>::new(4);
    let wrong = Antarctos::legal_moves(&pos)
        .into_iter()
        .find(|m| *m != line[0])
        .expect("another move");
    let wrong = Antarctos::move_text(&pos, &wrong);
    // A wrong first move, then a move of the old line that is illegal now, then garbage.
    let sent = texts(&format!("{wrong} d4-e3 zz9"));
    assert_eq!(
        judge_sent::<Antarctos>(&mut prover, &pos, &line, &sent, None),
        Ok(Verdict::Failed { ply: 0 })
    );
    // Before any wrong move, an unreadable text is the error, at its ply.
    let sent = texts("c5xa7 zz9");
    let got = judge_sent::<Antarctos>(&mut prover, &pos, &line, &sent, None);
    assert!(
        matches!(got, Err(AttemptError::Illegal { ply: 1, ref text, .. }) if text == "zz9"),
        "{got:?}"
    );
    // The whole line and one more: after the end.
    let mut sent = puzzles::file::line_texts::<Antarctos>(&pos, &line);
    sent.push("zz9".into());
    assert_eq!(
        judge_sent::<Antarctos>(&mut prover, &pos, &line, &sent, None),
        Err(AttemptError::AfterEnd { ply: 7 })
    );
    // Ice Age Chess's answer lists the legal moves as Antarctos's does.
    let (pos, _) = puzzle::<IceAge>("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 5);
    let message = parse_moves::<IceAge>(&pos, &texts("Kh3"))
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("ply 0") && message.contains("legal here: Kf1, Kf2"),
        "{message}"
    );
    let message = parse_moves::<Antarctos>(&Antarctos::start_position(), &texts("a3-b5"))
        .unwrap_err()
        .to_string();
    assert_eq!(message.matches("legal here").count(), 1, "{message}");
}
