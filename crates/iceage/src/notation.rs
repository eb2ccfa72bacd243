//! Move text (C13): SAN out (disambiguation, `x` for ice captures too, `+`/`#` judged after
//! the Ice Age, C8), SAN and UCI in.

use shakmaty::{Role, Square};

use crate::moves::{Move, MoveKind};
use crate::position::Position;

/// Move text that names no legal move, or several.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Empty text.
    #[error("empty move text")]
    Empty,
    /// The text is neither SAN nor UCI.
    #[error("'{text}' is not a move in SAN or UCI: {why}")]
    Syntax {
        /// The text read.
        text: String,
        /// What is wrong.
        why: &'static str,
    },
    /// No legal move matches.
    #[error("no legal move matches '{text}'{}{hint}", if *.game_over { " (the game is over)" } else { "" })]
    NoMatch {
        /// The text read.
        text: String,
        /// True when there is no legal move at all.
        game_over: bool,
        /// Empty, or why a likely reading is not legal (starts with `: `): a pawn push onto
        /// or through ice (C2), or the side to move being in check.
        hint: String,
        /// The same reason as a code and its squares (see [`hint`]'s codes), if any.
        reason: Option<game::MoveHint>,
    },
    /// Several legal moves match.
    #[error("'{text}' is ambiguous: {}", candidates.join(", "))]
    Ambiguous {
        /// The text read.
        text: String,
        /// The matching moves in SAN.
        candidates: Vec<String>,
    },
}

impl game::MoveTextFault for MoveTextError {
    fn kind(&self) -> game::MoveTextKind {
        match self {
            MoveTextError::Empty | MoveTextError::Syntax { .. } => game::MoveTextKind::Unreadable,
            MoveTextError::NoMatch { .. } => game::MoveTextKind::NoMatch,
            MoveTextError::Ambiguous { .. } => game::MoveTextKind::Ambiguous,
        }
    }

    fn candidates(&self) -> &[String] {
        match self {
            MoveTextError::Ambiguous { candidates, .. } => candidates,
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

/// SAN of a legal `mv` in `pos` (C13): `Nxf3` for an ice capture too, `=Q` for promotion,
/// `O-O`/`O-O-O`; `#` for a checkmate and `+` for any other check, both judged on the
/// position after the move and its Ice Age (C8). A move whose Ice Age freezes a king ends
/// the game by C7, not by checkmate: it gets `+` at most.
///
/// ```
/// use iceage::{fen, notation};
/// // Black's 20th move checks, but the Ice Age freezes Black's own king (C7): `+`, not `#`.
/// let pos = fen::parse("7k/8/8/8/1n6/8/4P3/4K3 b - - 0 20").unwrap();
/// let mv = notation::parse_move(&pos, "Nd3").unwrap();
/// assert_eq!(notation::move_text(&pos, &mv), "Nd3+");
/// ```
pub fn move_text(pos: &Position, mv: &Move) -> String {
    move_texts(pos, std::slice::from_ref(mv))
        .pop()
        .unwrap_or_default()
}

/// [`move_text`] of each of `moves` (moves of `pos`), generating the position's moves once
/// for the disambiguation of all (a page lists every legal move's SAN after each move).
pub fn move_texts(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut board = Vec::with_capacity(64);
    pos.board_moves(&mut board);
    moves
        .iter()
        .map(|mv| {
            let mut s = String::with_capacity(8);
            write_body(&board, mv, &mut s);
            let after = pos.play_unchecked(mv);
            if after.is_checkmate() {
                s.push('#');
            } else if after.is_check() {
                s.push('+');
            }
            s
        })
        .collect()
}

fn write_body(moves: &[Move], mv: &Move, s: &mut String) {
    if mv.kind == MoveKind::Castle {
        s.push_str(if mv.to.file() > mv.from.file() {
            "O-O"
        } else {
            "O-O-O"
        });
        return;
    }
    if mv.role == Role::Pawn {
        if mv.is_capture() {
            s.push(mv.from.file().char());
            s.push('x');
        }
        s.push_str(&mv.to.to_string());
        if let Some(p) = mv.promotion {
            s.push('=');
            s.push(p.upper_char());
        }
        return;
    }
    s.push(mv.role.upper_char());
    let rivals: Vec<Square> = moves
        .iter()
        .filter(|m| m.role == mv.role && m.to == mv.to && m.from != mv.from)
        .map(|m| m.from)
        .collect();
    if !rivals.is_empty() {
        let same_file = rivals.iter().any(|r| r.file() == mv.from.file());
        let same_rank = rivals.iter().any(|r| r.rank() == mv.from.rank());
        if !same_file {
            s.push(mv.from.file().char());
        } else if !same_rank {
            s.push(mv.from.rank().char());
        } else {
            s.push_str(&mv.from.to_string());
        }
    }
    if mv.is_capture() {
        s.push('x');
    }
    s.push_str(&mv.to.to_string());
}

fn promotion_role(ch: char) -> Option<Role> {
    match ch.to_ascii_lowercase() {
        'q' => Some(Role::Queen),
        'r' => Some(Role::Rook),
        'b' => Some(Role::Bishop),
        'n' => Some(Role::Knight),
        _ => None,
    }
}

/// What a move text asks for.
#[derive(Clone, Copy)]
struct Pattern {
    role: Option<Role>,
    from_file: Option<u32>,
    from_rank: Option<u32>,
    to: Option<Square>,
    promotion: Option<Role>,
    capture: bool,
    castle: Option<bool>,
}

fn parse_uci(text: &str) -> Option<Pattern> {
    let b = text.as_bytes();
    if !(b.len() == 4 || b.len() == 5) {
        return None;
    }
    let from = Square::from_ascii(&b[0..2]).ok()?;
    let to = Square::from_ascii(&b[2..4]).ok()?;
    let promotion = match b.get(4) {
        None => None,
        Some(&c) => Some(promotion_role(char::from(c))?),
    };
    Some(Pattern {
        role: None,
        from_file: Some(from.file().to_u32()),
        from_rank: Some(from.rank().to_u32()),
        to: Some(to),
        promotion,
        capture: false,
        castle: None,
    })
}

fn parse_san(text: &str) -> Result<Pattern, &'static str> {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    // FIDE's optional en-passant mark: `exd6 e.p.`, `exd6ep`.
    let t = t
        .strip_suffix("e.p.")
        .or_else(|| t.strip_suffix("ep"))
        .map_or(t, str::trim_end);
    match t {
        // Short castling is the three-character form.
        "O-O" | "0-0" | "O-O-O" | "0-0-0" => {
            return Ok(Pattern {
                role: Some(Role::King),
                from_file: None,
                from_rank: None,
                to: None,
                promotion: None,
                capture: false,
                castle: Some(t.len() == 3),
            });
        }
        _ => {}
    }
    let mut chars: Vec<char> = t.chars().collect();
    let role = match chars.first() {
        Some('N') => Some(Role::Knight),
        Some('B') => Some(Role::Bishop),
        Some('R') => Some(Role::Rook),
        Some('Q') => Some(Role::Queen),
        Some('K') => Some(Role::King),
        Some('a'..='h') => None,
        _ => return Err("it must start with a piece letter (NBRQK) or a file (a-h)"),
    };
    if role.is_some() {
        chars.remove(0);
    }
    // Promotion suffix: `=Q` or `Q` after the destination.
    let mut promotion = None;
    if let Some(&last) = chars.last()
        && last.is_ascii_alphabetic()
        && !('a'..='h').contains(&last)
    {
        chars.pop();
        let marked = chars.last() == Some(&'=');
        promotion = Some(promotion_role(last).ok_or(if marked {
            "unknown promotion piece (Q, R, B or N)"
        } else {
            "unexpected letter after the destination"
        })?);
        if marked {
            chars.pop();
        }
    } else if let Some(&last) = chars.last()
        && (last == 'q' || last == 'n' || last == 'r')
    {
        promotion = promotion_role(last);
        chars.pop();
    }
    if chars.len() < 2 {
        return Err("no destination square");
    }
    let dest: String = chars[chars.len() - 2..].iter().collect();
    let to = dest
        .parse::<Square>()
        .map_err(|_| "the destination is not a square")?;
    chars.truncate(chars.len() - 2);
    let mut capture = false;
    if matches!(chars.last(), Some('x') | Some(':')) {
        capture = true;
        chars.pop();
    }
    let mut from_file = None;
    let mut from_rank = None;
    for c in chars {
        match c {
            'a'..='h' if from_file.is_none() && from_rank.is_none() => {
                from_file = Some(c as u32 - 'a' as u32)
            }
            '1'..='8' if from_rank.is_none() => from_rank = Some(c as u32 - '1' as u32),
            '-' => {}
            _ => return Err("unexpected letters before the destination"),
        }
    }
    if promotion.is_some() && role.is_some() {
        return Err("only pawns promote");
    }
    // A pawn move written without a file (`e4`) is a push along the destination's file:
    // a pawn capture always names its file (`dxe4`), ice captures included (C13). Without
    // this, `a3` at the start would play `bxa3` (a2-a3 is blocked by ice, C2).
    if role.is_none() && from_file.is_none() {
        from_file = Some(to.file().to_u32());
    }
    Ok(Pattern {
        role: Some(role.unwrap_or(Role::Pawn)),
        from_file,
        from_rank,
        to: Some(to),
        promotion,
        capture,
        castle: None,
    })
}

fn matches(p: &Pattern, m: &Move) -> bool {
    if let Some(kingside) = p.castle {
        return m.kind == MoveKind::Castle && (m.to.file() > m.from.file()) == kingside;
    }
    // SAN names castling only as O-O / O-O-O; UCI (no role) names it by the king's move.
    if p.role.is_some() && m.kind == MoveKind::Castle {
        return false;
    }
    p.role.is_none_or(|r| r == m.role)
        && p.from_file.is_none_or(|f| f == m.from.file().to_u32())
        && p.from_rank.is_none_or(|r| r == m.from.rank().to_u32())
        && p.to.is_none_or(|t| t == m.to)
        && p.promotion == m.promotion
        && (!p.capture || m.is_capture())
}

/// Reads a move in SAN (`Nxf3`, `exd8=Q+`, `O-O`) or UCI (`g1f3`, `e7e8q`, castling as the
/// king's move `e1g1`) and finds the legal move it names (C13).
///
/// # Errors
/// [`MoveTextError`]: bad syntax, no legal move matching (with the decision that forbids
/// the likely reading, when one can be told), or several (listed in SAN).
///
/// ```
/// use iceage::{Position, notation};
/// let start = Position::start();
/// let mv = notation::parse_move(&start, "g1f3").unwrap();
/// assert_eq!(notation::move_text(&start, &mv), "Nxf3"); // the knight takes ice (C3)
/// let e = notation::parse_move(&start, "e4").unwrap_err();
/// assert!(e.to_string().contains("C2"), "{e}");
/// ```
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(MoveTextError::Empty);
    }
    let moves = pos.legal_moves();
    let pattern = match parse_uci(text) {
        Some(p) if moves.iter().any(|m| matches(&p, m)) => p,
        uci => match parse_san(text) {
            Ok(p) => p,
            Err(why) => match uci {
                Some(p) => p,
                None => {
                    return Err(MoveTextError::Syntax {
                        text: game::excerpt(text),
                        why,
                    });
                }
            },
        },
    };
    let found: Vec<&Move> = moves.iter().filter(|m| matches(&pattern, m)).collect();
    match found.as_slice() {
        [] => {
            let (hint, reason) = if moves.is_empty() {
                (String::new(), None)
            } else {
                hint(pos, &pattern, &moves)
            };
            Err(MoveTextError::NoMatch {
                text: game::excerpt(text),
                game_over: moves.is_empty(),
                hint,
                reason,
            })
        }
        [one] => Ok(**one),
        many => Err(MoveTextError::Ambiguous {
            text: game::excerpt(text),
            candidates: many.iter().map(|m| move_text(pos, m)).collect(),
        }),
    }
}

/// Why a move text that names no legal move failed, when it can be told simply, with the
/// decision: a pawn push onto or through ice (C2: a pawn takes ice only diagonally, C3), a
/// promotion written without its piece (C1), castling through ice (C2), or a check (C1).
/// Also as a code with the squares it names: `must_promote`, `pawn_onto_ice` [to],
/// `ice_blocks_pawn` [ice, to], `ice_blocks_castling` [ice], `in_check`.
fn hint(pos: &Position, p: &Pattern, moves: &[Move]) -> (String, Option<game::MoveHint>) {
    let why = |code: &'static str, squares: &[String], words: String| {
        (words, Some(game::MoveHint::new(code, squares)))
    };
    let board = pos.board();
    if p.promotion.is_none()
        && let Some(m) = moves.iter().find(|m| {
            m.promotion.is_some()
                && matches(
                    &Pattern {
                        promotion: m.promotion,
                        ..*p
                    },
                    m,
                )
        })
    {
        let san = move_text(pos, m);
        let base = san.split('=').next().unwrap_or(&san);
        return why(
            "must_promote",
            &[],
            format!(
                ": a pawn reaching the last rank must promote: add =Q, =R, =B or =N (e.g. \
                 {base}=Q, C1)"
            ),
        );
    }
    if let Some(to) = p.to
        && p.role == Some(Role::Pawn)
        && !p.capture
        && p.from_file == Some(to.file().to_u32())
    {
        if board.is_ice(to) {
            return why(
                "pawn_onto_ice",
                &[to.to_string()],
                format!(": {to} holds ice, and a pawn takes ice only diagonally (C2, C3)"),
            );
        }
        let back = match pos.side_to_move() {
            shakmaty::Color::White => to.to_u32().checked_sub(8),
            shakmaty::Color::Black => Some(to.to_u32() + 8).filter(|&i| i < 64),
        };
        if let Some(sq) = back.map(Square::new)
            && board.is_ice(sq)
        {
            return why(
                "ice_blocks_pawn",
                &[sq.to_string(), to.to_string()],
                format!(": ice on {sq} blocks the pawn's way to {to} (C2)"),
            );
        }
    }
    if let Some(kingside) = p.castle {
        let rank = match pos.side_to_move() {
            shakmaty::Color::White => 0,
            shakmaty::Color::Black => 7,
        };
        let files = if kingside { 5..7 } else { 1..4 };
        if let Some(sq) = files
            .map(|f| Square::new(rank * 8 + f))
            .find(|&sq| board.is_ice(sq))
        {
            return why(
                "ice_blocks_castling",
                &[sq.to_string()],
                format!(": ice on {sq} stands between king and rook (C2)"),
            );
        }
    }
    if pos.is_check() {
        let side = match pos.side_to_move() {
            shakmaty::Color::White => "white",
            shakmaty::Color::Black => "black",
        };
        return why(
            "in_check",
            &[],
            format!(": {side} is in check and must answer it (C1)"),
        );
    }
    (String::new(), None)
}
