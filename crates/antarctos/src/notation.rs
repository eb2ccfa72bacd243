//! Move text: canonical output (A16) and the input forms of A17.

use game::Outcome;

use crate::board::{Square, SquareError};
use crate::position::Position;
use crate::turn::Move;

/// Why move text was rejected (A17).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Not squares joined by `-`, `x` or `:`, nor the short form `cb6`.
    #[error("cannot read move '{text}': {reason}")]
    Syntax {
        /// The text as given.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A square of the text is malformed, off the board or light.
    #[error("cannot read move '{text}': {error}")]
    BadSquare {
        /// The text as given.
        text: String,
        /// The square's problem.
        error: SquareError,
    },
    /// The game is over: no turn is legal.
    #[error("no legal turn matches '{text}': the game is over ({outcome})")]
    GameOver {
        /// The text as given.
        text: String,
        /// How the game ended.
        outcome: Outcome,
    },
    /// No legal turn has these squares.
    #[error("no legal turn matches '{text}'{hint}")]
    NoMatch {
        /// The text as given.
        text: String,
        /// Empty, or why a likely reading is not legal (starts with `: `).
        hint: String,
    },
    /// Several legal turns match (start and end only, or the short form).
    #[error("'{text}' is ambiguous: it matches {}", .candidates.join(", "))]
    Ambiguous {
        /// The text as given.
        text: String,
        /// The matching turns in canonical text.
        candidates: Vec<String>,
    },
    /// A jump sequence given with some of its landing squares left out (A17).
    #[error("'{text}' leaves out landing squares of {} (list every landing square)", .candidates.join(", "))]
    Incomplete {
        /// The text as given.
        text: String,
        /// The full turns it abbreviates, in canonical text.
        candidates: Vec<String>,
    },
}

impl game::MoveTextFault for MoveTextError {
    /// An abbreviated jump sequence (A17) matches no legal turn as written: `NoMatch`.
    fn kind(&self) -> game::MoveTextKind {
        match self {
            MoveTextError::Syntax { .. } | MoveTextError::BadSquare { .. } => {
                game::MoveTextKind::Unreadable
            }
            MoveTextError::GameOver { .. }
            | MoveTextError::NoMatch { .. }
            | MoveTextError::Incomplete { .. } => game::MoveTextKind::NoMatch,
            MoveTextError::Ambiguous { .. } => game::MoveTextKind::Ambiguous,
        }
    }
}

/// The canonical text of a turn (A16): `c3-d4`, `d6xb4xd2xf4`. No `#` is appended.
pub fn move_text(mv: &Move) -> String {
    mv.to_string()
}

/// Reads a turn in any A17 form: `c3-d4`, `c3d4`, `C3-D4`, `d6xb4xd2xf4`, `d6:b4:d2:f4`,
/// the short simple move `cb6` (the man on file c that steps to b6), a jump sequence by
/// its start and end only (`a7xc1`) when exactly one legal turn matches, with any trailing
/// `#`, `+`, `!`, `?` (blanks inside are ignored). A full square list that equals a legal turn's always wins; a list of
/// three or more squares must list every landing square.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    let original = text.trim();
    let given = || game::excerpt(original);
    // Blanks inside (`c3 - d4`) are ignored.
    let body: String = original
        .trim_end_matches(['#', '+', '!', '?'])
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    if body.is_empty() {
        return Err(MoveTextError::Syntax {
            text: given(),
            reason: "empty move".into(),
        });
    }
    let legal = pos.legal_moves();
    if legal.is_empty()
        && let Some(outcome) = pos.outcome()
    {
        return Err(MoveTextError::GameOver {
            text: given(),
            outcome,
        });
    }
    let bytes = body.as_bytes();
    // Short form: file letter, then the target square (`cb6`).
    if bytes.len() == 3
        && bytes[0].is_ascii_lowercase()
        && bytes[1].is_ascii_lowercase()
        && bytes[2].is_ascii_digit()
    {
        let file = bytes[0] - b'a';
        if file >= 8 {
            return Err(MoveTextError::Syntax {
                text: given(),
                reason: format!("'{}' is not a file (a-h)", bytes[0] as char),
            });
        }
        let to = Square::parse(&body[1..]).map_err(|error| MoveTextError::BadSquare {
            text: given(),
            error,
        })?;
        let found: Vec<&Move> = legal
            .iter()
            .filter(|m| !m.is_jump() && m.from().file() == file && m.to() == to)
            .collect();
        // A9: the short form names a simple move, never legal while a capture exists.
        let compulsory = legal.first().is_some_and(|m| !m.captured().is_empty());
        return pick(
            original,
            found,
            if compulsory {
                ": a capture is compulsory (A9)"
            } else {
                ""
            },
        );
    }
    let squares = split_squares(&body).map_err(|e| match e {
        Split::Square(error) => MoveTextError::BadSquare {
            text: given(),
            error,
        },
        Split::Syntax(reason) => MoveTextError::Syntax {
            text: given(),
            reason,
        },
    })?;
    if squares.len() < 2 {
        return Err(MoveTextError::Syntax {
            text: given(),
            reason: "a move needs at least two squares (c3-d4) or the short form (cb6)".into(),
        });
    }
    if let Some(exact) = legal.iter().find(|m| m.path().eq(squares.iter().copied())) {
        return Ok(*exact);
    }
    let (first, last) = (squares[0], squares[squares.len() - 1]);
    if squares.len() == 2 {
        let ends: Vec<&Move> = legal
            .iter()
            .filter(|m| m.is_jump() && m.from() == first && m.to() == last)
            .collect();
        if !ends.is_empty() {
            return pick(original, ends, "");
        }
    }
    let longer: Vec<String> = legal
        .iter()
        .filter(|m| m.from() == first && is_subsequence(&squares, m))
        .map(Move::to_string)
        .collect();
    if !longer.is_empty() {
        return Err(MoveTextError::Incomplete {
            text: given(),
            candidates: longer,
        });
    }
    Err(MoveTextError::NoMatch {
        text: given(),
        hint: hint(pos, &legal, first),
    })
}

/// One match is the turn; several are ambiguous; none is no match.
fn pick(text: &str, found: Vec<&Move>, hint: &str) -> Result<Move, MoveTextError> {
    match found.as_slice() {
        [one] => Ok(**one),
        [] => Err(MoveTextError::NoMatch {
            text: game::excerpt(text),
            hint: hint.to_string(),
        }),
        many => Err(MoveTextError::Ambiguous {
            text: game::excerpt(text),
            candidates: many.iter().map(|m| m.to_string()).collect(),
        }),
    }
}

/// Why nothing matched, when it can be told simply.
fn hint(pos: &Position, legal: &[Move], first: Square) -> String {
    if legal.first().is_some_and(|m| !m.captured().is_empty()) {
        return ": a capture is compulsory (A9)".into();
    }
    match pos.piece_at(first) {
        Some(crate::Piece::Man(c)) if c == pos.side_to_move() => String::new(),
        Some(crate::Piece::Man(_)) => {
            format!(": the man on {first} is not {}'s", pos.side_to_move())
        }
        Some(crate::Piece::Ice) => format!(": {first} holds ice"),
        None => format!(": no man on {first}"),
    }
}

/// True when `squares` appear in order within the move's path (gaps allowed).
fn is_subsequence(squares: &[Square], mv: &Move) -> bool {
    let mut it = mv.path();
    squares.iter().all(|s| it.any(|p| p == *s))
}

enum Split {
    Square(SquareError),
    Syntax(String),
}

/// Splits `c3-d4`, `c3d4`, `d6xb4:d2xf4` into squares.
fn split_squares(body: &str) -> Result<Vec<Square>, Split> {
    let mut squares = Vec::new();
    let chars: Vec<char> = body.chars().collect();
    let mut i = 0;
    let mut expect_square = true;
    while i < chars.len() {
        let c = chars[i];
        if matches!(c, '-' | 'x' | ':') && !expect_square {
            expect_square = true;
            i += 1;
            continue;
        }
        if c.is_ascii_lowercase() {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            squares.push(Square::parse(&name).map_err(Split::Square)?);
            expect_square = false;
            continue;
        }
        return Err(Split::Syntax(format!("unexpected '{c}'")));
    }
    if expect_square && !squares.is_empty() {
        return Err(Split::Syntax("ends with a separator".into()));
    }
    Ok(squares)
}
