//! The move value of Ice Age Chess (C1-C3): origin, destination, what it takes, promotion.

use std::fmt;

use shakmaty::{Role, Square};

/// What a move removes from the board besides moving its own piece (C3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Capture {
    /// Nothing: the destination was empty.
    None,
    /// An ice cube on the destination (C3: captured like an enemy piece).
    Ice,
    /// An enemy piece of this role (on the destination, or beside it for en passant).
    Piece(Role),
}

/// The special kinds of chess moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move of one piece, promotions included.
    Normal,
    /// A pawn capturing en passant (never onto ice, C3).
    EnPassant,
    /// Castling: `from` is the king's square, `to` its destination (g- or c-file).
    Castle,
}

/// A move of Ice Age Chess. Moves are meant to come from the legal move generator; a hand-made
/// move is checked by [`crate::Position::play`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The moving piece's role before the move.
    pub role: Role,
    /// Origin square.
    pub from: Square,
    /// Destination square (the king's destination when castling).
    pub to: Square,
    /// What the move takes.
    pub capture: Capture,
    /// The role a pawn becomes on the last rank.
    pub promotion: Option<Role>,
    /// Normal, en passant or castling.
    pub kind: MoveKind,
}

impl Move {
    /// True when the move captures an enemy piece (en passant included).
    pub fn is_piece_capture(&self) -> bool {
        matches!(self.capture, Capture::Piece(_))
    }

    /// True when the move captures a piece or an ice cube (C3).
    pub fn is_capture(&self) -> bool {
        self.capture != Capture::None
    }

    /// True for captures (piece or ice) and promotions: the moves that change material.
    pub fn is_tactical(&self) -> bool {
        self.is_capture() || self.promotion.is_some()
    }

    /// UCI long algebraic text: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
    pub fn uci(&self) -> String {
        self.to_string()
    }
}

/// Writes the UCI form (see [`Move::uci`]).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(p) = self.promotion {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}
