//! The Ice Age (C5-C9): which pieces freeze and which empty squares fill, both judged on the
//! same position (C6), and applying them to a board.

use shakmaty::{Bitboard, Piece, Square, attacks};

use crate::board::Board;

const RANK_1: Bitboard = Bitboard(0x0000_0000_0000_00ff);
const RANK_8: Bitboard = Bitboard(0xff00_0000_0000_0000);
const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);

/// The Ice Age period (C5): the Ice Age comes inside Black's move whose full-move number
/// is a multiple of this. Every other place that counts towards an Ice Age uses it.
pub const PERIOD: u32 = 20;

/// True when the Ice Age comes inside the move of `turn` at full-move number `fullmoves`:
/// Black's move whose number is a multiple of [`PERIOD`] (C5).
///
/// ```
/// use iceage::ice_age::{PERIOD, is_due};
/// use shakmaty::Color;
/// assert!(is_due(Color::Black, PERIOD));
/// assert!(!is_due(Color::White, PERIOD));
/// assert!(!is_due(Color::Black, PERIOD + 1));
/// ```
#[inline]
pub fn is_due(turn: shakmaty::Color, fullmoves: u32) -> bool {
    turn == shakmaty::Color::Black && fullmoves.is_multiple_of(PERIOD)
}

/// The isolated pieces of `board` (C6): pieces of either colour with no other piece on any of
/// the up to eight squares around them (ice does not count).
pub fn isolated(board: &Board) -> Bitboard {
    let pieces = board.pieces();
    let mut out = Bitboard::EMPTY;
    for sq in pieces {
        if (attacks::king_attacks(sq) & pieces).is_empty() {
            out.add(sq);
        }
    }
    out
}

/// The empty squares of `board` that the Ice Age fills (C6): every empty square except those
/// whose orthogonal neighbours all hold pieces, a board edge counting as closed and ice never
/// counting as a piece.
pub fn filled(board: &Board) -> Bitboard {
    let pieces = board.pieces().0;
    let empty = !board.occupied().0;
    let north = RANK_8.0 | (pieces >> 8);
    let south = RANK_1.0 | (pieces << 8);
    let east = FILE_H.0 | (pieces >> 1);
    let west = FILE_A.0 | (pieces << 1);
    Bitboard(empty & !(north & south & east & west))
}

/// What one Ice Age did: the frozen pieces (square and piece, in FEN reading order: rank 8
/// to 1, file a to h), the squares that received ice (frozen squares included), and the empty
/// squares it left empty because they were closed on all four orthogonal sides (C6).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IceAgeReport {
    /// Pieces removed and replaced by ice, rank 8 first, file a first.
    pub frozen: Vec<(Square, Piece)>,
    /// Every square that received ice in this Ice Age.
    pub new_ice: Bitboard,
    /// Squares that were empty and stayed empty: closed on all four sides by pieces or the
    /// board's edge (C6).
    pub closed: Bitboard,
}

impl IceAgeReport {
    /// The C13 comment: `Ice Age: Rh8, Ke1 frozen`, or `Ice Age` when nothing froze. Pieces
    /// are named as in SAN (upper-case letter, none for a pawn) with their square.
    pub fn comment(&self) -> String {
        if self.frozen.is_empty() {
            return "Ice Age".to_string();
        }
        let names: Vec<String> = self
            .frozen
            .iter()
            .map(|(sq, piece)| match piece.role {
                shakmaty::Role::Pawn => sq.to_string(),
                role => format!("{}{}", role.upper_char(), sq),
            })
            .collect();
        format!("Ice Age: {} frozen", names.join(", "))
    }
}

/// Applies the Ice Age to `board` and returns the bitboard of the frozen squares (C6).
#[inline]
pub fn apply(board: &mut Board) -> Bitboard {
    let frozen = isolated(board);
    let fill = filled(board);
    for sq in frozen {
        board.remove_piece_at(sq);
    }
    board.add_ice(frozen | fill);
    frozen
}

/// Applies the Ice Age to `board` and describes what it did.
pub fn apply_with_report(board: &mut Board) -> IceAgeReport {
    let before = *board;
    let closed = !before.occupied() & !filled(&before);
    let frozen = apply(board);
    let mut list: Vec<(Square, Piece)> = frozen
        .into_iter()
        .filter_map(|sq| before.piece_at(sq).map(|p| (sq, p)))
        .collect();
    list.sort_by_key(|(sq, _)| (std::cmp::Reverse(sq.rank()), sq.file()));
    IceAgeReport {
        frozen: list,
        new_ice: board.ice() & !before.ice(),
        closed,
    }
}
