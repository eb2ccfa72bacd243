//! Helpers shared by the rules tests.
#![allow(dead_code)]

use iceage::{Move, Position, fen, notation};

/// Reads a FEN that the test knows to be valid.
pub fn pos(text: &str) -> Position {
    fen::parse(text).unwrap_or_else(|e| panic!("bad test FEN {text}: {e}"))
}

/// Plays SAN/UCI moves in turn.
pub fn play(start: &Position, moves: &[&str]) -> Position {
    let mut p = start.clone();
    for text in moves {
        let mv = notation::parse_move(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        p = p.play(&mv).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    p
}

/// The legal moves as sorted UCI strings.
pub fn uci_moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(Move::uci).collect();
    v.sort();
    v
}

/// The legal moves as sorted SAN strings.
pub fn san_moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| notation::move_text(p, m))
        .collect();
    v.sort();
    v
}

/// The legal move named by `text`.
pub fn mv(p: &Position, text: &str) -> Move {
    notation::parse_move(p, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}
