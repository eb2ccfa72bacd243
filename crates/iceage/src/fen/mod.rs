//! FEN with `*` for ice (C12): reading with every rejection C12 lists, and writing.

use shakmaty::{Bitboard, Color, Piece, Role, Square};

use crate::board::Board;
use crate::position::Position;

/// The largest full-move number a FEN may give (C12). Whatever full-move number the writer
/// writes reads back: the count stops at this number (no game comes near it: every game
/// ends within some 8,000 moves of any position, C10), so it never overflows.
pub const MAX_FULLMOVES: u32 = u32::MAX;

/// Why a FEN text could not be read (C12). Ranks are named as on the board (8 is the first
/// rank written).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The text is empty.
    #[error("empty position text")]
    Empty,
    /// Fewer than 2 or more than 6 space-separated fields.
    #[error(
        "expected 2 to 6 fields (board, side, castling, en passant, half-moves, full-moves), found {0}"
    )]
    FieldCount(usize),
    /// The board field does not have 8 ranks.
    #[error("the board has {0} ranks, expected 8")]
    RankCount(usize),
    /// A rank does not cover 8 squares.
    #[error("rank {rank} covers {squares} squares, expected 8")]
    RankLength {
        /// Rank number 1..8.
        rank: u32,
        /// Squares it describes.
        squares: u32,
    },
    /// A letter that is no piece, no ice and no digit 1-8.
    #[error("unknown letter '{letter}' in rank {rank}")]
    UnknownLetter {
        /// The letter.
        letter: char,
        /// Rank number 1..8.
        rank: u32,
    },
    /// More than one king of a side.
    #[error("{color} has {count} kings, at most one is allowed")]
    TooManyKings {
        /// `white` or `black`.
        color: &'static str,
        /// How many.
        count: usize,
    },
    /// A pawn on the first or the last rank.
    #[error("pawn on {square}: pawns cannot stand on the first or last rank")]
    PawnOnBackRank {
        /// Its square.
        square: String,
    },
    /// The side to move is not `w` or `b`.
    #[error("side to move '{0}' is not 'w' or 'b'")]
    BadTurn(String),
    /// The side that just moved is in check.
    #[error("the side not to move ({0}) is in check")]
    OppositeCheck(&'static str),
    /// The castling field has a letter other than `KQkq` or `-`, or repeats one.
    #[error("bad castling field '{0}' (expected '-' or letters of KQkq)")]
    BadCastling(String),
    /// A castling right whose king or rook is not on its start square.
    #[error("castling right '{right}' needs the king on {king} and a rook on {rook}")]
    CastlingWithoutKingAndRook {
        /// The letter: K, Q, k or q.
        right: char,
        /// The king's square.
        king: &'static str,
        /// The rook's square.
        rook: &'static str,
    },
    /// The en-passant field is not a square or `-`.
    #[error("bad en-passant field '{0}' (expected a square or '-')")]
    BadEnPassant(String),
    /// The en-passant square cannot follow a double step.
    #[error("impossible en-passant square {square}: {why}")]
    ImpossibleEnPassant {
        /// The square given.
        square: String,
        /// What is wrong.
        why: EnPassantFault,
    },
    /// The half-move clock is not a number.
    #[error("bad half-move clock '{0}'")]
    BadHalfmoves(String),
    /// The full-move number is not a number.
    #[error("bad full-move number '{0}'")]
    BadFullmoves(String),
    /// The full-move number is above [`MAX_FULLMOVES`].
    #[error("full-move number {0} is too large (at most {MAX_FULLMOVES})")]
    FullmoveTooLarge(String),
    /// The full-move number is 0.
    #[error("the full-move number is 0, it starts at 1")]
    FullmoveZero,
}

/// Why an en-passant square cannot follow a double step (C1, C12).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnPassantFault {
    /// Not on the third rank of the side that just moved: the sixth rank (`6`) with White to
    /// move, the third (`3`) with Black to move.
    #[error("it must be on the third rank of the side that just moved (rank {0})")]
    WrongRank(u32),
    /// Something stands on it.
    #[error("the square is not empty")]
    Occupied,
    /// Something stands on the square the pawn left (named).
    #[error("the pawn's start square {0} is not empty")]
    StartOccupied(String),
    /// No pawn of the side that just moved on the square in front of it (named).
    #[error("no pawn that just made a double step on {0}")]
    NoPawn(String),
}

impl game::PositionFault for PositionError {
    /// The fault as a code and its values (C12), for pages in other languages:
    ///
    /// | code | args | variant |
    /// |---|---|---|
    /// | `empty` | | [`PositionError::Empty`] |
    /// | `field_count` | fields found | [`PositionError::FieldCount`]: 2 to 6 |
    /// | `rank_count` | ranks found | [`PositionError::RankCount`]: 8 |
    /// | `rank_length` | rank, squares | [`PositionError::RankLength`]: 8 |
    /// | `unknown_letter` | letter, rank | [`PositionError::UnknownLetter`] |
    /// | `too_many_kings` | side, count | [`PositionError::TooManyKings`] |
    /// | `pawn_on_back_rank` | square | [`PositionError::PawnOnBackRank`] |
    /// | `bad_turn` | text | [`PositionError::BadTurn`]: not `w` or `b` |
    /// | `opposite_check` | side not to move | [`PositionError::OppositeCheck`] |
    /// | `bad_castling` | text | [`PositionError::BadCastling`] |
    /// | `castling_without_king_and_rook` | right, king's square, rook's square | [`PositionError::CastlingWithoutKingAndRook`] (C1) |
    /// | `bad_en_passant` | text | [`PositionError::BadEnPassant`] |
    /// | `en_passant_rank` | square, rank it must be on | [`EnPassantFault::WrongRank`] (C1) |
    /// | `en_passant_occupied` | square | [`EnPassantFault::Occupied`] (C1) |
    /// | `en_passant_start_occupied` | square, start square | [`EnPassantFault::StartOccupied`] (C1) |
    /// | `en_passant_no_pawn` | square, pawn's square | [`EnPassantFault::NoPawn`] (C1) |
    /// | `bad_halfmoves` | text | [`PositionError::BadHalfmoves`] |
    /// | `bad_fullmoves` | text | [`PositionError::BadFullmoves`] |
    /// | `fullmove_too_large` | text, largest | [`PositionError::FullmoveTooLarge`] |
    /// | `fullmove_zero` | | [`PositionError::FullmoveZero`] |
    ///
    /// A side is `white` or `black`.
    fn hint(&self) -> game::PositionHint {
        use game::PositionHint as H;
        let none: [&str; 0] = [];
        match self {
            PositionError::Empty => H::new("empty", none),
            PositionError::FieldCount(n) => H::new("field_count", [n]),
            PositionError::RankCount(n) => H::new("rank_count", [n]),
            PositionError::RankLength { rank, squares } => H::new("rank_length", [rank, squares]),
            PositionError::UnknownLetter { letter, rank } => {
                H::new("unknown_letter", [letter.to_string(), rank.to_string()])
            }
            PositionError::TooManyKings { color, count } => {
                H::new("too_many_kings", [color.to_string(), count.to_string()])
            }
            PositionError::PawnOnBackRank { square } => H::new("pawn_on_back_rank", [square]),
            PositionError::BadTurn(text) => H::new("bad_turn", [text]),
            PositionError::OppositeCheck(color) => H::new("opposite_check", [color]),
            PositionError::BadCastling(text) => H::new("bad_castling", [text]),
            PositionError::CastlingWithoutKingAndRook { right, king, rook } => H::new(
                "castling_without_king_and_rook",
                [right.to_string(), king.to_string(), rook.to_string()],
            ),
            PositionError::BadEnPassant(text) => H::new("bad_en_passant", [text]),
            PositionError::ImpossibleEnPassant { square, why } => match why {
                EnPassantFault::WrongRank(rank) => {
                    H::new("en_passant_rank", [square.clone(), rank.to_string()])
                }
                EnPassantFault::Occupied => H::new("en_passant_occupied", [square]),
                EnPassantFault::StartOccupied(start) => {
                    H::new("en_passant_start_occupied", [square, start])
                }
                EnPassantFault::NoPawn(pawn) => H::new("en_passant_no_pawn", [square, pawn]),
            },
            PositionError::BadHalfmoves(text) => H::new("bad_halfmoves", [text]),
            PositionError::BadFullmoves(text) => H::new("bad_fullmoves", [text]),
            PositionError::FullmoveTooLarge(text) => H::new(
                "fullmove_too_large",
                [text.clone(), MAX_FULLMOVES.to_string()],
            ),
            PositionError::FullmoveZero => H::new("fullmove_zero", none),
        }
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn parse_board(text: &str) -> Result<Board, PositionError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(PositionError::RankCount(ranks.len()));
    }
    let mut board = Board::empty();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u32;
        let mut file = 0u32;
        for ch in rank_text.chars() {
            let here = file;
            match ch {
                '1'..='8' => file += ch as u32 - '0' as u32,
                '*' => file += 1,
                _ => {
                    let role = Role::from_char(ch.to_ascii_lowercase()).ok_or(
                        PositionError::UnknownLetter {
                            letter: ch,
                            rank: rank + 1,
                        },
                    )?;
                    file += 1;
                    if file <= 8 {
                        let color = Color::from_white(ch.is_ascii_uppercase());
                        board.put(Square::new(rank * 8 + here), Piece { color, role });
                    }
                    continue;
                }
            }
            if ch == '*' && file <= 8 {
                board.put_ice(Square::new(rank * 8 + here));
            }
        }
        if file != 8 {
            return Err(PositionError::RankLength {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    Ok(board)
}

/// Reads a FEN with `*` for ice (C12). Missing half-move and full-move fields default to
/// `0 1`; missing castling and en-passant fields to `-`.
///
/// # Errors
/// [`PositionError`] naming the first problem found: shape (field count, ranks, rank length,
/// letters), then the counts, then the rules (kings, pawns, castling, en passant, check).
///
/// ```
/// use iceage::{fen, PositionError};
/// // An en-passant square is kept only when the capture is legal: here d4xe3 would
/// // leave Black's king on a4 in check from the rook on h4.
/// let pos = fen::parse("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 5").unwrap();
/// assert_eq!(fen::write(&pos), "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 5");
/// assert_eq!(fen::parse("8/8/8/8/8/8/8/K1k5 w - - 0 0"), Err(PositionError::FullmoveZero));
/// ```
pub fn parse(text: &str) -> Result<Position, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(PositionError::Empty);
    }
    if fields.len() < 2 || fields.len() > 6 {
        return Err(PositionError::FieldCount(fields.len()));
    }
    let board = parse_board(fields[0])?;
    let turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(PositionError::BadTurn(game::excerpt(other))),
    };
    let castling_text = fields.get(2).copied().unwrap_or("-");
    let ep_text = fields.get(3).copied().unwrap_or("-");
    let halfmoves = match fields.get(4) {
        None => 0,
        Some(t) => t
            .parse::<u32>()
            .map_err(|_| PositionError::BadHalfmoves(game::excerpt(t)))?,
    };
    let fullmoves = match fields.get(5) {
        None => 1,
        Some(t) if t.bytes().all(|b| b.is_ascii_digit()) => t
            .parse::<u32>()
            .map_err(|_| PositionError::FullmoveTooLarge(game::excerpt(t)))?,
        Some(t) => return Err(PositionError::BadFullmoves(game::excerpt(t))),
    };
    if fullmoves == 0 {
        return Err(PositionError::FullmoveZero);
    }

    for color in [Color::White, Color::Black] {
        let count = board.by_piece(Role::King.of(color)).count();
        if count > 1 {
            return Err(PositionError::TooManyKings {
                color: color_name(color),
                count,
            });
        }
    }
    if let Some(sq) = (board.by_role(Role::Pawn) & Bitboard::BACKRANKS).first() {
        return Err(PositionError::PawnOnBackRank {
            square: sq.to_string(),
        });
    }

    let castling = parse_castling(castling_text, &board)?;
    let ep_square = parse_en_passant(ep_text, &board, turn)?;

    // C12: the side not to move must not be in check (a missing king is a finished game).
    if let Some(king) = board.king_of(!turn)
        && board.is_attacked(king, turn)
    {
        return Err(PositionError::OppositeCheck(color_name(!turn)));
    }

    let mut pos = Position {
        board,
        turn,
        castling,
        ep_square,
        halfmoves,
        fullmoves,
        key: 0,
    };
    pos.key = pos.compute_key();
    Ok(pos)
}

fn parse_castling(text: &str, board: &Board) -> Result<Bitboard, PositionError> {
    let mut rights = Bitboard::EMPTY;
    if text == "-" {
        return Ok(rights);
    }
    for ch in text.chars() {
        let (color, king, rook, king_name, rook_name) = match ch {
            'K' => (Color::White, Square::E1, Square::H1, "e1", "h1"),
            'Q' => (Color::White, Square::E1, Square::A1, "e1", "a1"),
            'k' => (Color::Black, Square::E8, Square::H8, "e8", "h8"),
            'q' => (Color::Black, Square::E8, Square::A8, "e8", "a8"),
            _ => return Err(PositionError::BadCastling(game::excerpt(text))),
        };
        if rights.contains(rook) {
            return Err(PositionError::BadCastling(game::excerpt(text)));
        }
        if board.piece_at(king) != Some(Role::King.of(color))
            || board.piece_at(rook) != Some(Role::Rook.of(color))
        {
            return Err(PositionError::CastlingWithoutKingAndRook {
                right: ch,
                king: king_name,
                rook: rook_name,
            });
        }
        rights.add(rook);
    }
    Ok(rights)
}

/// The en-passant square must be on the sixth rank of the side to move, empty (no ice),
/// with the empty start square behind it and the enemy pawn that just passed in front. It is
/// kept only when an en-passant capture onto it is legal (the rule of C1 in
/// `docs/rules/iceage.md`), so every FEN of a position is written alike.
fn parse_en_passant(
    text: &str,
    board: &Board,
    turn: Color,
) -> Result<Option<Square>, PositionError> {
    if text == "-" {
        return Ok(None);
    }
    let sq: Square = text
        .parse()
        .map_err(|_| PositionError::BadEnPassant(game::excerpt(text)))?;
    let impossible = |why| PositionError::ImpossibleEnPassant {
        square: text.to_string(),
        why,
    };
    let (rank, up) = match turn {
        Color::White => (5, 8i32),
        Color::Black => (2, -8i32),
    };
    if sq.rank().to_u32() != rank {
        return Err(impossible(EnPassantFault::WrongRank(rank + 1)));
    }
    if board.occupied().contains(sq) {
        return Err(impossible(EnPassantFault::Occupied));
    }
    let behind = Square::new(sq.to_u32().wrapping_add_signed(up));
    if board.occupied().contains(behind) {
        return Err(impossible(EnPassantFault::StartOccupied(
            behind.to_string(),
        )));
    }
    let pawn = Square::new(sq.to_u32().wrapping_add_signed(-up));
    if board.piece_at(pawn) != Some(Role::Pawn.of(!turn)) {
        return Err(impossible(EnPassantFault::NoPawn(pawn.to_string())));
    }
    Ok(crate::movegen::en_passant_takers(board, turn, sq)
        .any()
        .then_some(sq))
}

/// Writes the position as FEN with `*` for ice (C12); a run of empty squares is a digit and
/// `*` is never merged into one.
///
/// ```
/// use iceage::{Position, fen};
/// assert_eq!(
///     fen::write(&Position::start()),
///     "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
/// );
/// ```
pub fn write(pos: &Position) -> String {
    let mut s = String::with_capacity(90);
    let board = pos.board();
    for rank in (0..8u32).rev() {
        let mut run = 0;
        for file in 0..8u32 {
            let sq = Square::new(rank * 8 + file);
            let ch = if board.is_ice(sq) {
                Some('*')
            } else {
                board.piece_at(sq).map(|p| p.char())
            };
            match ch {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        s.push(char::from(b'0' + run));
                        run = 0;
                    }
                    s.push(c);
                }
            }
        }
        if run > 0 {
            s.push(char::from(b'0' + run));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(match pos.side_to_move() {
        Color::White => 'w',
        Color::Black => 'b',
    });
    s.push(' ');
    let rights = pos.castling_rights();
    if rights.is_empty() {
        s.push('-');
    } else {
        for (sq, ch) in [
            (Square::H1, 'K'),
            (Square::A1, 'Q'),
            (Square::H8, 'k'),
            (Square::A8, 'q'),
        ] {
            if rights.contains(sq) {
                s.push(ch);
            }
        }
    }
    s.push(' ');
    match pos.ep_square() {
        Some(sq) => s.push_str(&sq.to_string()),
        None => s.push('-'),
    }
    s.push_str(&format!(
        " {} {}",
        pos.halfmove_clock(),
        pos.fullmove_number()
    ));
    s
}

#[cfg(test)]
mod tests;
