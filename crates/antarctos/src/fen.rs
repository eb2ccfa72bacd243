//! Position text (A18): `<side>:W<squares>:B<squares>[:I<squares>]`.

use std::fmt::Write as _;

use game::Color;

use crate::board::{Square, SquareError, goal_row};
use crate::position::Position;

/// Most men of one colour (A3, A18).
pub const MAX_MEN: usize = 12;

/// Why position text was rejected (A18), naming the field or square at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Nothing but blanks.
    #[error(
        "empty position text (expected <side>:W<squares>:B<squares>[:I<squares>], e.g. W:Wb4,e3:Bc7:Ic3)"
    )]
    Empty,
    /// The first field is not `W` or `B`.
    #[error("side to move must be W or B, found '{0}' (A18)")]
    BadSide(String),
    /// A field other than `W`, `B` or `I`.
    #[error("unknown field '{0}' (fields are W<squares>, B<squares> and I<squares>)")]
    UnknownField(String),
    /// Nothing between two `:` or after the last one (`W:W:B:`).
    #[error("field {0} is empty: each field after the side starts with W, B or I (a stray ':'?)")]
    EmptyField(usize),
    /// The `W` or `B` field is absent.
    #[error("missing field {0}<squares> (write an empty field as ':{0}')")]
    MissingField(char),
    /// A field given twice.
    #[error("field {0} appears twice (A18)")]
    DuplicateField(char),
    /// A square of a field that cannot be read, is off the board or is light.
    #[error("field {field}: {error}")]
    BadSquare {
        /// `W`, `B` or `I`.
        field: char,
        /// What is wrong with it.
        error: SquareError,
    },
    /// A king: Antarctos has none (A2).
    #[error("field {field}: '{text}' is a king, and Antarctos has no kings (A2)")]
    King {
        /// `W` or `B`.
        field: char,
        /// The square as written.
        text: String,
    },
    /// A square listed twice, in one field or in two.
    #[error("square {square} is listed twice (fields {first} and {second}, A18)")]
    DuplicateSquare {
        /// The square.
        square: Square,
        /// Field of its first listing.
        first: char,
        /// Field of its second listing.
        second: char,
    },
    /// More than 12 men of one colour.
    #[error("{count} {color} men: a side has at most 12 (A3, A18)")]
    TooManyMen {
        /// The side.
        color: Color,
        /// How many were listed.
        count: usize,
    },
    /// A man of the side to move already on its goal row (it cannot have got there: the
    /// game would have ended when it did).
    #[error(
        "{color} man on {square}, its goal row, with {color} to move: the game would already be over (A12, A18)"
    )]
    ManOnGoalRow {
        /// The side to move.
        color: Color,
        /// The square.
        square: Square,
    },
}

impl game::PositionFault for PositionError {
    /// The fault as a code and its values (A18), for pages in other languages:
    ///
    /// | code | args | variant |
    /// |---|---|---|
    /// | `empty` | | [`PositionError::Empty`] |
    /// | `bad_side` | text | [`PositionError::BadSide`]: not `W` or `B` |
    /// | `unknown_field` | text | [`PositionError::UnknownField`] |
    /// | `empty_field` | field number (2 = the first after the side) | [`PositionError::EmptyField`] |
    /// | `missing_field` | `W` or `B` | [`PositionError::MissingField`] |
    /// | `duplicate_field` | `W`, `B` or `I` | [`PositionError::DuplicateField`] |
    /// | `malformed_square` | field, text | [`PositionError::BadSquare`], [`SquareError::Malformed`] |
    /// | `off_board` | field, square | [`PositionError::BadSquare`], [`SquareError::OffBoard`] |
    /// | `light_square` | field, square | [`PositionError::BadSquare`], [`SquareError::Light`] (A1) |
    /// | `king` | field, text | [`PositionError::King`]: Antarctos has no kings (A2) |
    /// | `duplicate_square` | square, first field, second field | [`PositionError::DuplicateSquare`] |
    /// | `too_many_men` | side, count | [`PositionError::TooManyMen`]: at most 12 (A3) |
    /// | `man_on_goal_row` | side, square | [`PositionError::ManOnGoalRow`] (A4, A12) |
    ///
    /// A side is `white` or `black`.
    fn hint(&self) -> game::PositionHint {
        use game::PositionHint as H;
        match self {
            PositionError::Empty => H::new("empty", [""; 0]),
            PositionError::BadSide(text) => H::new("bad_side", [text]),
            PositionError::UnknownField(text) => H::new("unknown_field", [text]),
            PositionError::EmptyField(n) => H::new("empty_field", [n]),
            PositionError::MissingField(f) => H::new("missing_field", [f]),
            PositionError::DuplicateField(f) => H::new("duplicate_field", [f]),
            PositionError::BadSquare { field, error } => {
                let (code, text) = match error {
                    SquareError::Malformed(t) => ("malformed_square", t),
                    SquareError::OffBoard(t) => ("off_board", t),
                    SquareError::Light(t) => ("light_square", t),
                };
                H::new(code, [field.to_string(), text.clone()])
            }
            PositionError::King { field, text } => {
                H::new("king", [field.to_string(), text.clone()])
            }
            PositionError::DuplicateSquare {
                square,
                first,
                second,
            } => H::new(
                "duplicate_square",
                [square.to_string(), first.to_string(), second.to_string()],
            ),
            PositionError::TooManyMen { color, count } => H::new(
                "too_many_men",
                [color.name().to_string(), count.to_string()],
            ),
            PositionError::ManOnGoalRow { color, square } => H::new(
                "man_on_goal_row",
                [color.name().to_string(), square.to_string()],
            ),
        }
    }
}

/// Reads position text (A18). Fields are separated by `:`; squares by `,`, in any order
/// and any case; a field may be empty (`:W:Bc7`); the `I` field is optional. The
/// fullmove number is 1.
///
/// ```
/// use antarctos::{fen, PositionError};
/// let pos = fen::parse("W:Wb4,e3,f2:Bc7,d6:Ic3").unwrap();
/// assert_eq!(fen::write(&pos), "W:Wf2,e3,b4:Bd6,c7:Ic3");
/// assert!(matches!(fen::parse("W:Wb4,b4:B"), Err(PositionError::DuplicateSquare { .. })));
/// ```
pub fn parse(text: &str) -> Result<Position, PositionError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(PositionError::Empty);
    }
    let mut fields = text.split(':');
    let side_text = fields.next().unwrap_or("").trim();
    let side = match side_text {
        "W" | "w" => Color::White,
        "B" | "b" => Color::Black,
        other => return Err(PositionError::BadSide(game::excerpt(other))),
    };
    // Occupant field of every square bit (0 = none), to find squares listed twice.
    let mut owner = [None::<char>; 36];
    let mut boards = [None::<u64>; 3];
    for (index, field) in fields.enumerate() {
        let field = field.trim();
        if field.is_empty() {
            // Field 1 is the side; the first square field is field 2.
            return Err(PositionError::EmptyField(index + 2));
        }
        let mut chars = field.chars();
        let name = chars.next().map(|c| c.to_ascii_uppercase());
        let kind = match name {
            Some('W') => 0,
            Some('B') => 1,
            Some('I') => 2,
            _ => return Err(PositionError::UnknownField(game::excerpt(field))),
        };
        let name = ['W', 'B', 'I'][kind];
        if boards[kind].is_some() {
            return Err(PositionError::DuplicateField(name));
        }
        let mut bits = 0u64;
        let list = chars.as_str().trim();
        if !list.is_empty() {
            for item in list.split(',') {
                let item = item.trim();
                if kind < 2 && item.len() > 1 && item.starts_with(['K', 'k']) {
                    return Err(PositionError::King {
                        field: name,
                        text: game::excerpt(item),
                    });
                }
                let sq = Square::parse(item)
                    .map_err(|error| PositionError::BadSquare { field: name, error })?;
                let slot = &mut owner[sq.bit_index() as usize];
                if let Some(first) = *slot {
                    return Err(PositionError::DuplicateSquare {
                        square: sq,
                        first,
                        second: name,
                    });
                }
                *slot = Some(name);
                bits |= sq.bit();
            }
        }
        boards[kind] = Some(bits);
    }
    let white = boards[0].ok_or(PositionError::MissingField('W'))?;
    let black = boards[1].ok_or(PositionError::MissingField('B'))?;
    let ice = boards[2].unwrap_or(0);
    for (color, men) in [(Color::White, white), (Color::Black, black)] {
        let count = men.count_ones() as usize;
        if count > MAX_MEN {
            return Err(PositionError::TooManyMen { color, count });
        }
    }
    let to_move = if side == Color::White { white } else { black };
    let on_goal = to_move & goal_row(side == Color::White);
    if on_goal != 0 {
        let square = Square::from_bit(on_goal.trailing_zeros()).expect("a board square");
        return Err(PositionError::ManOnGoalRow {
            color: side,
            square,
        });
    }
    Ok(Position::from_bits(white, black, ice, side, 1))
}

/// The canonical text (A18): `W`, `B`, then `I` only when there is ice; squares in
/// rank-then-file order.
///
/// ```
/// use antarctos::{Position, fen};
/// assert_eq!(
///     fen::write(&Position::start()),
///     "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
/// );
/// ```
pub fn write(pos: &Position) -> String {
    let mut s = String::with_capacity(64);
    s.push(if pos.side_to_move() == Color::White {
        'W'
    } else {
        'B'
    });
    let mut field = |name: char, set: crate::SquareSet| {
        s.push(':');
        s.push(name);
        for (i, sq) in set.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(s, "{sq}");
        }
    };
    field('W', pos.men(Color::White));
    field('B', pos.men(Color::Black));
    if !pos.ice().is_empty() {
        field('I', pos.ice());
    }
    s
}

#[cfg(test)]
mod tests {
    use game::{PositionFault, PositionHint};

    /// The hint of the error `parse` gives for `text`.
    fn hint(text: &str) -> PositionHint {
        super::parse(text).expect_err(text).hint()
    }

    /// One unit test per code: the position text, the code, its args.
    macro_rules! code {
        ($name:ident, $text:expr, $code:literal, [$($arg:literal),*]) => {
            #[test]
            fn $name() {
                let args: Vec<String> = vec![$($arg.to_string()),*];
                assert_eq!(hint($text), PositionHint { code: $code, args });
            }
        };
    }

    code!(a18_empty, "  ", "empty", []);
    code!(a18_bad_side, "X:Wb4:Bd6", "bad_side", ["X"]);
    code!(a18_unknown_field, "W:Wb4:Bd6:Qa1", "unknown_field", ["Qa1"]);
    code!(a18_empty_field, "W:Wb4::Bd6", "empty_field", ["3"]);
    code!(a18_missing_field, "W:Wb4", "missing_field", ["B"]);
    code!(
        a18_duplicate_field,
        "W:Wb4:Bd6:wc3",
        "duplicate_field",
        ["W"]
    );
    code!(
        a18_malformed_square,
        "W:Wb4:B3d",
        "malformed_square",
        ["B", "3d"]
    );
    code!(a18_off_board, "W:Wb4:Bd6:Ii3", "off_board", ["I", "i3"]);
    code!(a1_light_square, "W:WB1:Bc7", "light_square", ["W", "b1"]);
    code!(a2_king, "W:Wb4:BKd6", "king", ["B", "Kd6"]);
    code!(
        a18_duplicate_square,
        "W:Wc3:Bd6:Ic3",
        "duplicate_square",
        ["c3", "W", "I"]
    );
    code!(
        a3_too_many_men,
        "B:Wb4:Ba1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,a5,c5",
        "too_many_men",
        ["black", "14"]
    );
    code!(
        a12_man_on_goal_row,
        "B:Wb4:Bd6,c1",
        "man_on_goal_row",
        ["black", "c1"]
    );

    #[test]
    fn a18_every_code_is_tested_once() {
        let source = include_str!("fen.rs");
        let tested = source.matches("\n    code!(").count();
        // One per code of `PositionFault::hint` (its doc table).
        let listed = source.matches("\n    /// | `").count();
        assert_eq!(tested, listed);
    }
}
