//! Move text: canonical output (A16) and the input forms of A17.

use game::{Color, Outcome};

use crate::board::{Square, SquareError};
use crate::position::{Piece, Position};
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
        /// The same reason as a code and its squares (see [`why_not`]'s codes), if any.
        reason: Option<game::MoveHint>,
    },
    /// Several legal turns match (start and end only, or the short form).
    #[error("'{text}' is ambiguous: it matches {} (A17)", .candidates.join(", "))]
    Ambiguous {
        /// The text as given.
        text: String,
        /// The matching turns in canonical text.
        candidates: Vec<String>,
    },
    /// A jump sequence given with some of its landing squares left out (A17).
    #[error("'{text}' leaves out landing squares of {} (list every landing square, A17)", .candidates.join(", "))]
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

    fn candidates(&self) -> &[String] {
        match self {
            MoveTextError::Ambiguous { candidates, .. }
            | MoveTextError::Incomplete { candidates, .. } => candidates,
            _ => &[],
        }
    }

    fn hint(&self) -> Option<&game::MoveHint> {
        match self {
            MoveTextError::NoMatch { reason, .. } => reason.as_ref(),
            _ => None,
        }
    }
}

/// The canonical text of a turn (A16): `c3-d4`, `d6xb4xd2xf4`. No `#` is appended. The
/// text depends on the turn alone; `pos` is taken so that both rules crates write moves
/// with the same call (`notation::move_text(&pos, &mv)`).
///
/// ```
/// use antarctos::{Position, notation};
/// let start = Position::start();
/// let mv = notation::parse_move(&start, "c3d4").unwrap();
/// assert_eq!(notation::move_text(&start, &mv), "c3-d4");
/// ```
pub fn move_text(_pos: &Position, mv: &Move) -> String {
    mv.to_string()
}

/// Reads a turn in any A17 form: `c3-d4`, `c3d4`, `C3-D4`, `d6xb4xd2xf4`, `d6:b4:d2:f4`,
/// the short simple move `cb6` (the man on file c that steps to b6), the short jump
/// sequence `db6` (the man on file d whose turn ends on b6: `d4xb6`), a jump sequence by
/// its start and end only (`a7xc1`) when exactly one legal turn matches, with any trailing
/// `#`, `+`, `!`, `?` (blanks inside are ignored). A full square list that equals a legal
/// turn's always wins; a list of three or more squares must list every landing square.
///
/// A rejection says which decision forbids the move (A5-A10), e.g. for `c3xe5xc3` in
/// `W:Wc3:Bd4,a7`: "d4 was already jumped this turn: nothing may be jumped twice (A8)".
///
/// ```
/// use antarctos::{fen, notation, MoveTextError};
/// let pos = fen::parse("W:Wc3:Bd4,a7").unwrap();
/// assert_eq!(notation::parse_move(&pos, "c3:e5").unwrap().to_string(), "c3xe5");
/// let e = notation::parse_move(&pos, "c3xe5xc3").unwrap_err();
/// assert!(matches!(e, MoveTextError::NoMatch { .. }));
/// assert!(e.to_string().contains("nothing may be jumped twice (A8)"), "{e}");
/// ```
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
        // A simple move changes the file by one, every jump by two: the files tell which
        // the short form names (`cb6` a simple move, `db6` a jump sequence from file d
        // that ends on b6, as Russian draughts records write captures).
        let found: Vec<&Move> = legal
            .iter()
            .filter(|m| m.from().file() == file && m.to() == to)
            .collect();
        // A9: a simple move is never legal while a capture exists.
        let simple = to.file().abs_diff(file) % 2 == 1;
        let compulsory = simple && capture_compulsory(&legal);
        let reason = if !found.is_empty() {
            NO_REASON
        } else if compulsory {
            why(
                "capture_compulsory",
                NO_SQUARES,
                ": a capture is compulsory (A9)",
            )
        } else {
            match short_form_start(pos, file, to) {
                Some(from) => why_not(pos, &legal, &[from, to]),
                None => NO_REASON,
            }
        };
        return pick(original, found, reason);
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
            return pick(original, ends, NO_REASON);
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
    let (hint, reason) = why_not(pos, &legal, &squares);
    Err(MoveTextError::NoMatch {
        text: given(),
        hint,
        reason,
    })
}

/// The square a short form that matches no turn most likely starts from, to tell why it
/// is refused: for a simple move the square on `file` diagonally behind `to` (for the side
/// to move); for a single jump the one square on `file` two ranks from `to` that holds a
/// man of the side to move. `None` when no single square fits.
fn short_form_start(pos: &Position, file: u8, to: Square) -> Option<Square> {
    let side = pos.side_to_move();
    let df = to.file().abs_diff(file);
    let rank = |dr: i32| u8::try_from(i32::from(to.rank()) + dr).ok();
    if df == 1 {
        let back = if side == Color::White { -1 } else { 1 };
        return Square::new(file, rank(back)?);
    }
    if df != 2 {
        return None;
    }
    let mut own = [-2, 2]
        .into_iter()
        .filter_map(|dr| Square::new(file, rank(dr)?))
        .filter(|&s| pos.piece_at(s) == Some(Piece::Man(side)));
    match (own.next(), own.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// One match is the turn; several are ambiguous; none is no match.
fn pick(text: &str, found: Vec<&Move>, why: Why) -> Result<Move, MoveTextError> {
    match found.as_slice() {
        [one] => Ok(**one),
        [] => Err(MoveTextError::NoMatch {
            text: game::excerpt(text),
            hint: why.0,
            reason: why.1,
        }),
        many => Err(MoveTextError::Ambiguous {
            text: game::excerpt(text),
            candidates: many.iter().map(|m| m.to_string()).collect(),
        }),
    }
}

/// A reason in English (after `: `, empty for none) and as a code with its squares.
type Why = (String, Option<game::MoveHint>);

/// No reason can be told.
const NO_REASON: Why = (String::new(), None);

/// A reason that names no square.
const NO_SQUARES: [Square; 0] = [];

fn why<S: ToString>(
    code: &'static str,
    squares: impl IntoIterator<Item = S>,
    words: impl Into<String>,
) -> Why {
    (words.into(), Some(game::MoveHint::new(code, squares)))
}

/// Why no legal turn has these squares, naming the decision: the first square's occupant,
/// then each step or jump of the list in turn (A5-A8), then the priorities (A9, A10).
/// [`NO_REASON`] when no single reason can be told. The codes, with the squares they name:
/// `not_own_man` [a], `ice_not_man` [a], `no_man` [a], `step_then_more`, `forward_only`,
/// `not_empty` [a], `capture_compulsory`, `not_a_jump` [from, to], `jumped_twice` [a],
/// `start_left` [a], `nothing_to_jump` [a], `own_man` [a], `captured_stays` [a],
/// `capture_first`, `capture_beats_ice` [a], `capture_goes_on` [a], `ice_jump_goes_on` [a].
fn why_not(pos: &Position, legal: &[Move], squares: &[Square]) -> Why {
    let side = pos.side_to_move();
    let first = squares[0];
    match pos.piece_at(first) {
        Some(Piece::Man(c)) if c == side => {}
        Some(Piece::Man(_)) => {
            return why(
                "not_own_man",
                [first],
                format!(": the man on {first} is not {side}'s"),
            );
        }
        Some(Piece::Ice) => {
            return why(
                "ice_not_man",
                [first],
                format!(": {first} holds ice, not a man (A2)"),
            );
        }
        None => return why("no_man", [first], format!(": no man on {first}")),
    }
    let capture_exists = capture_compulsory(legal);
    let (df, dr) = delta(first, squares[1], side);
    if df.abs() == 1 && dr.abs() == 1 {
        return if squares.len() > 2 {
            why(
                "step_then_more",
                NO_SQUARES,
                ": a simple move is one step (A5); a jump sequence lists landing squares two \
                 diagonal squares apart (A16)",
            )
        } else if dr < 0 {
            why(
                "forward_only",
                NO_SQUARES,
                ": a man steps forward only (A5); it goes backward only by jumping (A6, A7)",
            )
        } else if pos.piece_at(squares[1]).is_some() {
            why(
                "not_empty",
                [squares[1]],
                format!(": {} is not empty (A5)", squares[1]),
            )
        } else if capture_exists {
            why(
                "capture_compulsory",
                NO_SQUARES,
                ": a capture is compulsory (A9)",
            )
        } else {
            NO_REASON
        };
    }
    jump_why_not(pos, capture_exists, squares)
}

/// True when a man of the side to move can capture at the start of the turn, so that the
/// turn must begin with a capture (A9): some legal turn's first jump takes a man.
fn capture_compulsory(legal: &[Move]) -> bool {
    legal.iter().any(|m| {
        let mut path = m.path();
        match (path.next(), path.next()) {
            (Some(a), Some(b)) if m.is_jump() => {
                let over = Square::new((a.file() + b.file()) / 2, (a.rank() + b.rank()) / 2);
                over.is_some_and(|sq| m.captured().contains(sq))
            }
            _ => false,
        }
    })
}

/// File and rank steps from `a` to `b`, the rank counted forward for `side` (A4).
fn delta(a: Square, b: Square, side: Color) -> (i32, i32) {
    let df = i32::from(b.file()) - i32::from(a.file());
    let dr = i32::from(b.rank()) - i32::from(a.rank());
    (df, if side == Color::White { dr } else { -dr })
}

/// [`why_not`] for a list that starts with a jump: walks it with the board as the turn
/// leaves it (start square empty, A11; jumped ice gone, A7; captured men still there, A8).
fn jump_why_not(pos: &Position, capture_exists: bool, squares: &[Square]) -> Why {
    let side = pos.side_to_move();
    let start = squares[0];
    let mut captured = 0u64;
    let mut melted = 0u64;
    let occupied = |sq: Square, captured: u64, melted: u64| -> bool {
        sq != start
            && (pos.piece_at(sq).is_some() && melted & sq.bit() == 0 || captured & sq.bit() != 0)
    };
    let jumpable = |at: Square, captured: u64, melted: u64| -> (bool, bool) {
        // (a capture goes on from `at`, an ice jump goes on from `at`)
        let mut capture = false;
        let mut ice = false;
        for (df, dr) in [(1i8, 1i8), (1, -1), (-1, 1), (-1, -1)] {
            let over = offset(at, df, dr);
            let land = offset(at, 2 * df, 2 * dr);
            let (Some(over), Some(land)) = (over, land) else {
                continue;
            };
            if occupied(land, captured, melted) || (captured | melted) & over.bit() != 0 {
                continue;
            }
            match pos.piece_at(over) {
                Some(Piece::Man(c)) if c != side && over != start => capture = true,
                Some(Piece::Ice) => ice = true,
                _ => {}
            }
        }
        (capture, ice)
    };
    for (k, pair) in squares.windows(2).enumerate() {
        let (from, to) = (pair[0], pair[1]);
        let (df, dr) = delta(from, to, side);
        if df.abs() != 2 || dr.abs() != 2 {
            return why(
                "not_a_jump",
                [from, to],
                format!(
                    ": {from} to {to} is not a jump (a man jumps two squares diagonally, over \
                     the square between, A6, A7)"
                ),
            );
        }
        let over = Square::new(
            ((i32::from(from.file()) + i32::from(to.file())) / 2) as u8,
            ((i32::from(from.rank()) + i32::from(to.rank())) / 2) as u8,
        )
        .expect("the middle of a diagonal jump is a dark square");
        if (captured | melted) & over.bit() != 0 {
            return why(
                "jumped_twice",
                [over],
                format!(": {over} was already jumped this turn: nothing may be jumped twice (A8)"),
            );
        }
        let is_ice = match pos.piece_at(over) {
            _ if over == start => {
                return why(
                    "start_left",
                    [over],
                    format!(": nothing to jump on {over}: the man has left it (A11)"),
                );
            }
            None => {
                return why(
                    "nothing_to_jump",
                    [over],
                    format!(": nothing to jump on {over} (A6, A7)"),
                );
            }
            Some(Piece::Man(c)) if c == side => {
                return why(
                    "own_man",
                    [over],
                    format!(
                        ": {over} holds {side}'s own man, and a man jumps only an enemy man or \
                         ice (A6, A7)"
                    ),
                );
            }
            Some(Piece::Man(_)) => false,
            Some(Piece::Ice) => true,
        };
        if captured & to.bit() != 0 {
            return why(
                "captured_stays",
                [to],
                format!(
                    ": {to} holds a man captured this turn, which stays there until the turn \
                     ends (A8)"
                ),
            );
        }
        if occupied(to, captured, melted) {
            return why("not_empty", [to], format!(": {to} is not empty (A6, A7)"));
        }
        if is_ice {
            if k == 0 && capture_exists {
                return why(
                    "capture_first",
                    NO_SQUARES,
                    ": a capture is compulsory: the turn must start by taking a man (A9)",
                );
            }
            if k > 0 && jumpable(from, captured, melted).0 {
                return why(
                    "capture_beats_ice",
                    [from],
                    format!(
                        ": from {from} a man can be captured, and a capture beats an ice jump \
                         (A10)"
                    ),
                );
            }
            melted |= over.bit();
        } else {
            captured |= over.bit();
        }
    }
    let end = squares[squares.len() - 1];
    match jumpable(end, captured, melted) {
        (true, _) => why(
            "capture_goes_on",
            [end],
            format!(": the sequence cannot stop on {end}: a capture goes on from there (A10)"),
        ),
        (false, true) => why(
            "ice_jump_goes_on",
            [end],
            format!(": the sequence cannot stop on {end}: an ice jump goes on from there (A10)"),
        ),
        _ => NO_REASON,
    }
}

/// The square `df` files and `dr` ranks from `sq`, if on the board.
fn offset(sq: Square, df: i8, dr: i8) -> Option<Square> {
    let f = sq.file() as i8 + df;
    let r = sq.rank() as i8 + dr;
    if !(0..8).contains(&f) || !(0..8).contains(&r) {
        return None;
    }
    Square::new(f as u8, r as u8)
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
