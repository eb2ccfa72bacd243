//! Property tests: position text (A18) and move text (A16/A17) read back what they wrote,
//! over random reachable positions.

use antarctos::{Antarctos, Position, fen};
use game::Variant;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The position after up to `plies` random turns from the start (fewer if the game ends).
fn walk(seed: u64, plies: usize) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = Position::start();
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p = p
            .play(&moves[rng.random_range(0..moves.len())])
            .expect("legal");
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn a18_position_text_round_trips(seed in any::<u64>(), plies in 0usize..90) {
        let p = walk(seed, plies);
        let text = Antarctos::position_text(&p);
        let back = Antarctos::parse_position(&text).expect("canonical text reads back");
        prop_assert_eq!(Antarctos::position_text(&back), text.clone());
        prop_assert_eq!(back.clone(), p.with_fullmove_number(1));
        prop_assert_eq!(Antarctos::zobrist(&back), Antarctos::zobrist(&p));
        prop_assert_eq!(Antarctos::outcome(&back), Antarctos::outcome(&p));
        // Lower case and the fields in another order read the same position.
        let mut fields: Vec<&str> = text.split(':').collect();
        fields[1..].reverse();
        let shuffled = fields.join(":").to_lowercase();
        prop_assert_eq!(Antarctos::parse_position(&shuffled).expect("any order"), back);
    }

    #[test]
    fn a16_a17_move_text_round_trips(seed in any::<u64>(), plies in 0usize..90) {
        let p = walk(seed, plies);
        let moves = Antarctos::legal_moves(&p);
        for mv in &moves {
            let text = Antarctos::move_text(&p, mv);
            prop_assert_eq!(Antarctos::parse_move(&p, &text), Ok(*mv), "{}", text);
            let russian = text.replace('x', ":").to_uppercase();
            prop_assert_eq!(Antarctos::parse_move(&p, &russian), Ok(*mv), "{}", russian);
            let marked = format!("{text}#");
            prop_assert_eq!(Antarctos::parse_move(&p, &marked), Ok(*mv), "{}", marked);
            // Start and end only: accepted exactly when no other turn shares them.
            if mv.is_jump() {
                let short = format!("{}x{}", mv.from(), mv.to());
                let sharing = moves
                    .iter()
                    .filter(|m| m.is_jump() && m.from() == mv.from() && m.to() == mv.to())
                    .count();
                let exact_one_jump = moves.iter().any(|m| m.path_len() == 2 && m.from() == mv.from() && m.to() == mv.to());
                match Antarctos::parse_move(&p, &short) {
                    Ok(found) => prop_assert!(sharing == 1 || (exact_one_jump && found.path_len() == 2)),
                    Err(e) => prop_assert!(sharing > 1, "{}: {}", short, e),
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Bad input gets an error, never a panic (position text and move text alike).
    #[test]
    fn arbitrary_text_is_rejected_without_panic(
        text in "[WBIwbiKk:,a-j0-9x#+!? .-]{0,30}|\\PC{0,20}",
        seed in any::<u64>(),
    ) {
        let parsed = Antarctos::parse_position(&text);
        if let Ok(p) = &parsed {
            // Whatever reads must write back canonically and read back the same.
            let again = Antarctos::parse_position(&Antarctos::position_text(p));
            prop_assert_eq!(again.as_ref(), Ok(p));
        }
        let p = walk(seed, 20);
        if let Ok(mv) = Antarctos::parse_move(&p, &text) {
            prop_assert!(Antarctos::legal_moves(&p).contains(&mv));
        }
    }
}

#[test]
fn fen_module_format_is_variant_position_text() {
    let p = walk(7, 30);
    assert_eq!(fen::write(&p), Antarctos::position_text(&p));
}
