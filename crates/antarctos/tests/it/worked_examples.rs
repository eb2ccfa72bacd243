//! The seed's three worked examples (spec "The seed's three worked examples, as
//! positions"), played move by move: each given turn is legal, each forced turn is the
//! only legal one, and the game ends with the stated winner and reason.

use antarctos::{Antarctos, Piece, Position, Square};
use game::{Color, EndReason, Outcome, Variant};

fn sq(name: &str) -> Square {
    Square::parse(name).expect("test square")
}

/// Plays `text`, checking it parses to a legal turn whose canonical text is `canonical`.
fn play(pos: &Position, text: &str, canonical: &str) -> Position {
    let mv = Antarctos::parse_move(pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(Antarctos::move_text(pos, &mv), canonical);
    assert!(Antarctos::legal_moves(pos).contains(&mv));
    assert_eq!(Antarctos::outcome(pos), None, "game over before {text}");
    Antarctos::play(pos, &mv).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn only_turn(pos: &Position) -> String {
    let moves = Antarctos::legal_moves(pos);
    assert_eq!(moves.len(), 1, "expected a forced turn, got {moves:?}");
    moves[0].to_string()
}

#[test]
fn example_1_black_begins_and_wins() {
    let pos = Antarctos::parse_position("B:Wa5,d2,d4:Ba7,c7").unwrap();
    let pos = play(&pos, "c7-b6", "c7-b6");
    assert_eq!(only_turn(&pos), "a5xc7");
    let pos = play(&pos, "a5xc7", "a5xc7");
    // White's capture left ice on b6 (A8).
    assert_eq!(pos.piece_at(sq("b6")), Some(Piece::Ice));
    assert_eq!(only_turn(&pos), "a7xc5xe3xc1");
    let pos = play(&pos, "a7xc5xe3xc1#", "a7xc5xe3xc1");
    assert_eq!(
        pos.piece_at(sq("b6")),
        None,
        "the ice jumped on b6 is gone (A7)"
    );
    assert_eq!(pos.piece_at(sq("d4")), Some(Piece::Ice));
    assert_eq!(pos.piece_at(sq("d2")), Some(Piece::Ice));
    assert_eq!(
        Antarctos::outcome(&pos),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: EndReason::Breakthrough
        })
    );
    assert_eq!(Antarctos::position_text(&pos), "W:Wc7:Bc1:Id2,d4");
    assert!(Antarctos::legal_moves(&pos).is_empty());
}

#[test]
fn example_2_white_begins_and_wins() {
    let pos = Antarctos::parse_position("W:Wb4,e3,f2:Bc7,d6:Ic3").unwrap();
    let pos = play(&pos, "b4-c5", "b4-c5");
    assert_eq!(only_turn(&pos), "d6xb4xd2xf4");
    let pos = play(&pos, "d6xb4xd2xf4", "d6xb4xd2xf4");
    assert_eq!(Antarctos::position_text(&pos), "W:Wf2:Bf4,c7:Ie3,c5");
    // Not forced (f2-g3 is legal too): the winning choice.
    let pos = play(&pos, "f2xd4xb6xd8#", "f2xd4xb6xd8");
    assert_eq!(
        Antarctos::outcome(&pos),
        Some(Outcome::Win {
            winner: Color::White,
            reason: EndReason::Breakthrough
        })
    );
    assert_eq!(Antarctos::position_text(&pos), "B:Wd8:Bf4:Ic7");
}

#[test]
fn example_3_white_begins_and_wins() {
    let pos = Antarctos::parse_position("W:Wb2,c1,h2:Ba3,c5:Ie5,e7,g3").unwrap();
    let moves: Vec<String> = Antarctos::legal_moves(&pos)
        .iter()
        .map(|m| m.to_string())
        .collect();
    // The ice jump e7 -> f8 would have won, but the capture of c5 is compulsory (A10).
    assert!(moves.contains(&"h2xf4xd6xb4".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.ends_with("f8")), "{moves:?}");
    let pos = play(&pos, "h2xf4xd6xb4#", "h2xf4xd6xb4");
    assert_eq!(Antarctos::position_text(&pos), "B:Wc1,b2,b4:Ba3:Ic5,e7");
    assert!(Antarctos::legal_moves(&pos).is_empty());
    assert_eq!(
        Antarctos::outcome(&pos),
        Some(Outcome::Win {
            winner: Color::White,
            reason: EndReason::NoMoves
        })
    );
}
