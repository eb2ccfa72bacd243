//! Legal move generation (C1-C3): pins, check evasions, castling and en passant, with ice in
//! the occupancy (sliders and pawn pushes stop at it, C2) and among the capture targets (C3).

use shakmaty::{Bitboard, Color, Role, Square, attacks};

use crate::board::Board;
use crate::moves::{Capture, Move, MoveKind};

const RANK_1: Bitboard = Bitboard(0x0000_0000_0000_00ff);
const RANK_3: Bitboard = Bitboard(0x0000_0000_00ff_0000);
const RANK_6: Bitboard = Bitboard(0x0000_ff00_0000_0000);
const RANK_8: Bitboard = Bitboard(0xff00_0000_0000_0000);
const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);

const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

#[inline]
fn offset(sq: Square, delta: i32) -> Square {
    Square::new(sq.to_u32().wrapping_add_signed(delta))
}

/// The position facts the generator needs (kept apart from `Position` so that the simple
/// parts can be tested alone).
pub(crate) struct GenInput<'a> {
    pub board: &'a Board,
    pub turn: Color,
    pub castling: Bitboard,
    pub ep_square: Option<Square>,
}

/// Pieces of `us` that are the only occupant (piece or ice) between their king and an enemy
/// slider: they may move only along that line.
#[inline]
fn pinned(board: &Board, king: Square, us: Color, occ: Bitboard) -> Bitboard {
    let them = !us;
    let queens = board.by_role(Role::Queen);
    let snipers = board.by_color(them)
        & ((attacks::rook_attacks(king, Bitboard::EMPTY) & (board.by_role(Role::Rook) | queens))
            | (attacks::bishop_attacks(king, Bitboard::EMPTY)
                & (board.by_role(Role::Bishop) | queens)));
    let our = board.by_color(us);
    let mut out = Bitboard::EMPTY;
    for s in snipers {
        let b = attacks::between(king, s) & occ;
        if let Some(sq) = b.single_square()
            && our.contains(sq)
        {
            out.add(sq);
        }
    }
    out
}

/// Classifies what stands on a capture target square.
#[inline]
fn capture_on(board: &Board, their: Bitboard, sq: Square) -> Capture {
    if board.ice().contains(sq) {
        Capture::Ice
    } else if their.contains(sq) {
        board.role_at(sq).map_or(Capture::None, Capture::Piece)
    } else {
        Capture::None
    }
}

/// Where generated moves go: a list, or a counter (perft's bulk counting at the last ply,
/// which never builds the moves).
pub(crate) trait MoveSink {
    /// A non-pawn piece on `from` may go to every square of `targets`.
    fn targets(
        &mut self,
        board: &Board,
        their: Bitboard,
        role: Role,
        from: Square,
        targets: Bitboard,
    );
    /// A pawn move (four when `to` is on the last rank).
    fn pawn(&mut self, board: &Board, their: Bitboard, from: Square, to: Square, last: Bitboard);
    /// Pawn moves to every square of `targets`, each from `delta` squares back.
    fn pawn_set(
        &mut self,
        board: &Board,
        their: Bitboard,
        targets: Bitboard,
        delta: i32,
        last: Bitboard,
    );
    /// Any single move.
    fn push(&mut self, mv: Move);
}

impl MoveSink for Vec<Move> {
    #[inline]
    fn targets(
        &mut self,
        board: &Board,
        their: Bitboard,
        role: Role,
        from: Square,
        targets: Bitboard,
    ) {
        for to in targets {
            self.push(Move {
                role,
                from,
                to,
                capture: capture_on(board, their, to),
                promotion: None,
                kind: MoveKind::Normal,
            });
        }
    }

    #[inline]
    fn pawn(&mut self, board: &Board, their: Bitboard, from: Square, to: Square, last: Bitboard) {
        let capture = capture_on(board, their, to);
        if last.contains(to) {
            for p in PROMOTIONS {
                self.push(Move {
                    role: Role::Pawn,
                    from,
                    to,
                    capture,
                    promotion: Some(p),
                    kind: MoveKind::Normal,
                });
            }
        } else {
            self.push(Move {
                role: Role::Pawn,
                from,
                to,
                capture,
                promotion: None,
                kind: MoveKind::Normal,
            });
        }
    }

    #[inline]
    fn pawn_set(
        &mut self,
        board: &Board,
        their: Bitboard,
        targets: Bitboard,
        delta: i32,
        last: Bitboard,
    ) {
        for to in targets {
            self.pawn(board, their, offset(to, -delta), to, last);
        }
    }

    #[inline]
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }
}

/// Counts moves without building them.
#[derive(Default)]
pub(crate) struct Counter(pub usize);

impl MoveSink for Counter {
    #[inline]
    fn targets(&mut self, _: &Board, _: Bitboard, _: Role, _: Square, targets: Bitboard) {
        self.0 += targets.count();
    }

    #[inline]
    fn pawn(&mut self, _: &Board, _: Bitboard, _: Square, to: Square, last: Bitboard) {
        self.0 += if last.contains(to) { 4 } else { 1 };
    }

    #[inline]
    fn pawn_set(&mut self, _: &Board, _: Bitboard, targets: Bitboard, _: i32, last: Bitboard) {
        self.0 += targets.count() + 3 * (targets & last).count();
    }

    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Appends every legal move of the side to move to `out` (which is not cleared). Nothing
/// when either king is missing (a finished game, C7). The fifty-move rule is not looked at.
pub(crate) fn generate<S: MoveSink>(input: &GenInput<'_>, out: &mut S) {
    let board = input.board;
    let us = input.turn;
    let them = !us;
    let (Some(king), Some(their_king)) = (board.king_of(us), board.king_of(them)) else {
        return;
    };
    let our = board.by_color(us);
    let their = board.by_color(them);
    let occ = board.occupied();
    let checkers = board.attackers(king, them, occ);

    // King steps: onto any square not attacked once the king has left its square.
    let occ_no_king = occ ^ Bitboard::from(king);
    let king_targets = attacks::king_attacks(king) & !our & !Bitboard::from(their_king);
    let mut safe = Bitboard::EMPTY;
    for to in king_targets {
        if board.attackers(to, them, occ_no_king).is_empty() {
            safe.add(to);
        }
    }
    out.targets(board, their, Role::King, king, safe);

    if checkers.more_than_one() {
        return;
    }

    let mut target = !our & !Bitboard::from(their_king);
    if let Some(checker) = checkers.first() {
        target &= attacks::between(king, checker) | Bitboard::from(checker);
    } else {
        castling(input, king, occ, out);
    }

    let pins = pinned(board, king, us, occ);
    let line = |from: Square, t: Bitboard| -> Bitboard {
        if pins.contains(from) {
            t & attacks::ray(king, from)
        } else {
            t
        }
    };

    for from in our & board.by_role(Role::Knight) & !pins {
        out.targets(
            board,
            their,
            Role::Knight,
            from,
            attacks::knight_attacks(from) & target,
        );
    }
    for from in our & board.by_role(Role::Bishop) {
        let t = line(from, attacks::bishop_attacks(from, occ) & target);
        out.targets(board, their, Role::Bishop, from, t);
    }
    for from in our & board.by_role(Role::Rook) {
        let t = line(from, attacks::rook_attacks(from, occ) & target);
        out.targets(board, their, Role::Rook, from, t);
    }
    for from in our & board.by_role(Role::Queen) {
        let t = line(from, attacks::queen_attacks(from, occ) & target);
        out.targets(board, their, Role::Queen, from, t);
    }

    // Pawns: pushes onto empty squares only (never onto or through ice, C2); captures of
    // enemy pieces or ice (C3), promoting on the last rank.
    let pawns = our & board.by_role(Role::Pawn);
    let empty = !occ;
    let (up, third, last) = match us {
        Color::White => (8, RANK_3, RANK_8),
        Color::Black => (-8, RANK_6, RANK_1),
    };
    // Unpinned pawns in bulk, by shifting the whole set; pinned ones one by one.
    let free = pawns & !pins;
    let single = free.shift(up) & empty;
    let double = (single & third).shift(up) & empty & target;
    out.pawn_set(board, their, single & target, up, last);
    out.pawn_set(board, their, double, 2 * up, last);
    let capturable = (their | board.ice()) & target;
    let west = (free & !FILE_A).shift(up - 1) & capturable;
    let east = (free & !FILE_H).shift(up + 1) & capturable;
    out.pawn_set(board, their, west, up - 1, last);
    out.pawn_set(board, their, east, up + 1, last);
    for from in pawns & pins {
        let ray = attacks::ray(king, from);
        let one = offset(from, up);
        if !occ.contains(one) {
            if target.contains(one) && ray.contains(one) {
                out.pawn(board, their, from, one, last);
            }
            if third.contains(one) {
                let two = offset(one, up);
                if !occ.contains(two) && target.contains(two) && ray.contains(two) {
                    out.pawn(board, their, from, two, last);
                }
            }
        }
        for to in attacks::pawn_attacks(us, from) & capturable & ray {
            out.pawn(board, their, from, to, last);
        }
    }

    if let Some(ep) = input.ep_square {
        for from in en_passant_takers(board, us, ep) {
            out.push(Move {
                role: Role::Pawn,
                from,
                to: ep,
                capture: Capture::Piece(Role::Pawn),
                promotion: None,
                kind: MoveKind::EnPassant,
            });
        }
    }
}

/// The pawns of `us` that may legally take en passant on `ep` (C1; never onto ice, C3):
/// `ep` empty, an enemy pawn in front of it, and `us`'s king safe afterwards. The captured
/// pawn and the capturer both leave their squares, which can uncover a slider on the king
/// (even along the rank), so it is judged on the exact resulting occupancy.
pub(crate) fn en_passant_takers(board: &Board, us: Color, ep: Square) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    let occ = board.occupied();
    let Some(king) = board.king_of(us) else {
        return out;
    };
    if occ.contains(ep) {
        return out;
    }
    let up = if us == Color::White { 8 } else { -8 };
    let victim = offset(ep, -up);
    let victim_bb = Bitboard::from(victim);
    if !board.by_piece(Role::Pawn.of(!us)).contains(victim) {
        return out;
    }
    for from in attacks::pawn_attacks(!us, ep) & board.by_piece(Role::Pawn.of(us)) {
        let occ2 = (occ ^ Bitboard::from(from) ^ victim_bb) | Bitboard::from(ep);
        if (board.attackers(king, !us, occ2) & !victim_bb).is_empty() {
            out.add(from);
        }
    }
    out
}

/// Castling (C1, C2): the king not in check (the caller checks), no piece and no ice between
/// king and rook, and no square the king crosses or lands on attacked.
fn castling<S: MoveSink>(input: &GenInput<'_>, king: Square, occ: Bitboard, out: &mut S) {
    let board = input.board;
    let us = input.turn;
    let rooks = input.castling & board.by_piece(Role::Rook.of(us));
    for rook in rooks {
        if king.rank() != rook.rank() || (attacks::between(king, rook) & occ).any() {
            continue;
        }
        let file = if rook.file() > king.file() { 6 } else { 2 };
        let dest = Square::new(rook.rank().to_u32() * 8 + file);
        let path = attacks::between(king, dest) | Bitboard::from(dest);
        if path
            .into_iter()
            .all(|sq| board.attackers(sq, !us, occ).is_empty())
        {
            out.push(Move {
                role: Role::King,
                from: king,
                to: dest,
                capture: Capture::None,
                promotion: None,
                kind: MoveKind::Castle,
            });
        }
    }
}

/// Pieces of the side not to move that attack the king of `turn` (empty without a king).
pub(crate) fn checkers(board: &Board, turn: Color) -> Bitboard {
    match board.king_of(turn) {
        Some(king) => board.attackers(king, !turn, board.occupied()),
        None => Bitboard::EMPTY,
    }
}
