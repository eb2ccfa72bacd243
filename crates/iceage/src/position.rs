//! A position of Ice Age Chess as a value: board, side to move, castling rights, en-passant
//! square, half-move clock (C10), full-move number (C5) and its zobrist key. Playing a move
//! returns a new position, with the Ice Age applied inside Black's 20th, 40th ... move (C5-C9).

use shakmaty::{Bitboard, Color, Role, Square};

use crate::board::Board;
use crate::ice_age::{self, IceAgeReport};
use crate::movegen::{self, GenInput};
use crate::moves::{Capture, Move, MoveKind};
use crate::zobrist;

/// A move that is not legal in the position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game is over (a frozen king, checkmate, stalemate or the fifty-move rule).
    #[error("illegal move {uci}: the game is over")]
    GameOver {
        /// The move in UCI form.
        uci: String,
    },
    /// The move is not among the legal moves of the position.
    #[error("illegal move {uci}: not a legal move in this position")]
    NotLegal {
        /// The move in UCI form.
        uci: String,
    },
}

/// The corners whose rooks may carry castling rights.
pub(crate) const CASTLING_CORNERS: Bitboard = Bitboard::CORNERS;

/// A position. Build one with [`Position::start`] or by reading FEN ([`crate::fen`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    /// Squares of the rooks that may still castle (subset of the corners).
    pub(crate) castling: Bitboard,
    /// Square passed by a double step when an enemy pawn attacks it.
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) key: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The start position of C4, White to move, full-move 1.
    pub fn start() -> Position {
        let mut pos = Position {
            board: Board::start(),
            turn: Color::White,
            castling: CASTLING_CORNERS,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            key: 0,
        };
        pos.key = pos.compute_key();
        pos
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move (in shakmaty's colours, as the board speaks; the [`game::Variant`]
    /// gives it as a [`game::Color`]).
    pub fn side_to_move(&self) -> Color {
        self.turn
    }

    /// The rooks (by square, among a1, h1, a8, h8) that keep a castling right.
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// The en-passant square: the square a pawn passed by a double step, kept only when an
    /// en-passant capture onto it is legal (the rule of `docs/rules/iceage.md`, C1).
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last pawn move, capture of a piece or freeze (C10; FEN's fifth
    /// field).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmoves
    }

    /// Full-move number: 1 at the start, one more after each Black move (FEN's sixth
    /// field; C5 counts Ice Ages by it).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmoves
    }

    /// The zobrist key (see [`crate::zobrist`]).
    pub fn zobrist(&self) -> u64 {
        self.key
    }

    /// True when the move to be played now brings an Ice Age (C5).
    pub fn ice_age_due(&self) -> bool {
        ice_age::is_due(self.turn, self.fullmoves)
    }

    /// Plies until the next Ice Age, counting the move that brings it (1 when it comes with
    /// the next move).
    pub fn plies_to_ice_age(&self) -> u32 {
        let rest = (ice_age::PERIOD - self.fullmoves % ice_age::PERIOD) % ice_age::PERIOD;
        match self.turn {
            Color::White => 2 * rest + 2,
            Color::Black => 2 * rest + 1,
        }
    }

    /// Pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        movegen::checkers(&self.board, self.turn)
    }

    /// True when the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    pub(crate) fn gen_input(&self) -> GenInput<'_> {
        GenInput {
            board: &self.board,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
        }
    }

    /// Every legal move by the board alone (the fifty-move rule not applied), appended.
    pub(crate) fn board_moves(&self, out: &mut Vec<Move>) {
        movegen::generate(&self.gen_input(), out);
    }

    /// True once the fifty-move rule applies (C10: 100 half-moves).
    pub fn fifty_moves(&self) -> bool {
        self.halfmoves >= 100
    }

    /// Clears `out` and fills it with the legal moves; empty when the game is over (a king
    /// frozen, checkmate, stalemate, or the fifty-move rule, C7/C10).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        // At 100 half-moves the game is over: drawn, or lost if mated (no moves either way).
        if self.fifty_moves() {
            return;
        }
        self.board_moves(out);
    }

    /// The number of legal moves (as [`Position::legal_moves_into`] would give), without
    /// building them: perft's bulk count.
    pub fn count_legal_moves(&self) -> usize {
        let n = self.count_board_moves();
        if n > 0 && self.fifty_moves() {
            return 0;
        }
        n
    }

    /// The legal moves (see [`Position::legal_moves_into`]).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        self.legal_moves_into(&mut out);
        out
    }

    /// True when the side to move is checkmated: both kings on the board (a frozen king ends
    /// the game first, C7), the side to move in check and without a move (C8, C10). What
    /// `#` means in SAN.
    pub fn is_checkmate(&self) -> bool {
        self.board.king_of(Color::White).is_some()
            && self.board.king_of(Color::Black).is_some()
            && self.is_check()
            && self.count_board_moves() == 0
    }

    /// The number of legal moves by the board alone (the fifty-move rule not applied).
    fn count_board_moves(&self) -> usize {
        let mut counter = movegen::Counter::default();
        movegen::generate(&self.gen_input(), &mut counter);
        counter.0
    }

    /// Plays `mv` if it is legal.
    ///
    /// ```
    /// use iceage::{Position, notation};
    /// let start = Position::start();
    /// assert_eq!(start.legal_moves().len(), 18); // every first move takes ice (C4)
    /// let mv = notation::parse_move(&start, "Nxf3").unwrap();
    /// let next = start.play(&mv).unwrap();
    /// assert!(next.play(&mv).is_err(), "it is Black's turn");
    /// assert_eq!(next.outcome(), None);
    /// ```
    ///
    /// # Errors
    /// [`IllegalMove`] when the game is over or `mv` is not among the legal moves.
    pub fn play(&self, mv: &Move) -> Result<Position, IllegalMove> {
        let moves = self.legal_moves();
        if moves.is_empty() {
            return Err(IllegalMove::GameOver { uci: mv.uci() });
        }
        if !moves.contains(mv) {
            return Err(IllegalMove::NotLegal { uci: mv.uci() });
        }
        Ok(self.play_unchecked(mv))
    }

    /// The position after the side to move passes: the other side to move, no en-passant
    /// square, the counters advanced as after a quiet move. The rules have no pass; the
    /// engine's null-move search uses it. `None` when the side to move is in check (a pass
    /// would leave its king attacked) or when its move is the one that brings the Ice Age
    /// (C5: a pass cannot bring it).
    pub fn pass(&self) -> Option<Position> {
        if self.ice_age_due() || self.is_check() {
            return None;
        }
        let mut p = self.clone();
        let mut key = self.key;
        if let Some(ep) = self.ep_square {
            key ^= zobrist::en_passant(ep);
        }
        p.ep_square = None;
        p.halfmoves = p.halfmoves.saturating_add(1);
        key ^= zobrist::turn(Color::Black);
        if self.turn == Color::Black {
            p.fullmoves = p.fullmoves.saturating_add(1);
            key ^= zobrist::phase(self.fullmoves) ^ zobrist::phase(p.fullmoves);
        }
        p.turn = !self.turn;
        p.key = key;
        debug_assert_eq!(p.key, p.compute_key());
        Some(p)
    }

    /// Plays `mv`, which must be one of this position's legal moves.
    pub fn play_unchecked(&self, mv: &Move) -> Position {
        self.play_inner(mv, Ice::Apply).0
    }

    /// Plays a legal `mv` and also returns what its Ice Age did, if it brought one.
    pub fn play_with_report(&self, mv: &Move) -> (Position, Option<IceAgeReport>) {
        self.play_inner(mv, Ice::Report)
    }

    /// What the Ice Age that `mv` brings does (C5-C6): `None` when `mv` brings none or is
    /// not legal here.
    pub fn ice_age_report(&self, mv: &Move) -> Option<IceAgeReport> {
        if !self.ice_age_due() || !self.legal_moves().contains(mv) {
            return None;
        }
        self.play_with_report(mv).1
    }

    /// The position right after the legal `mv`, before the Ice Age it brings: the position the
    /// Ice Age is judged on (C6), for showing what it changed. `None` when `mv` brings no Ice
    /// Age (C5). Play goes on from [`Position::play`]'s position, never from this one.
    pub fn before_ice_age(&self, mv: &Move) -> Option<Position> {
        self.ice_age_due().then(|| self.play_inner(mv, Ice::Skip).0)
    }

    fn play_inner(&self, mv: &Move, ice: Ice) -> (Position, Option<IceAgeReport>) {
        let mut p = self.clone();
        let us = self.turn;
        let them = !us;
        let mut key = self.key;
        let moved = mv.role.of(us);
        p.halfmoves += 1;

        if let Some(ep) = self.ep_square {
            key ^= zobrist::en_passant(ep);
        }
        p.ep_square = None;

        match mv.capture {
            Capture::None => {}
            Capture::Ice => {
                p.board.melt(mv.to);
                key ^= zobrist::ice(mv.to);
            }
            Capture::Piece(role) => {
                let sq = if mv.kind == MoveKind::EnPassant {
                    Square::from_coords(mv.to.file(), mv.from.rank())
                } else {
                    mv.to
                };
                let victim = role.of(them);
                p.board.take(sq, victim);
                key ^= zobrist::piece(victim, sq);
                p.halfmoves = 0;
            }
        }

        p.board.take(mv.from, moved);
        key ^= zobrist::piece(moved, mv.from);
        let placed = mv.promotion.unwrap_or(mv.role).of(us);
        p.board.put(mv.to, placed);
        key ^= zobrist::piece(placed, mv.to);

        if mv.kind == MoveKind::Castle {
            let rank = mv.from.rank().to_u32() * 8;
            let (rook_from, rook_to) = if mv.to.file() > mv.from.file() {
                (Square::new(rank + 7), Square::new(rank + 5))
            } else {
                (Square::new(rank), Square::new(rank + 3))
            };
            let rook = Role::Rook.of(us);
            p.board.take(rook_from, rook);
            p.board.put(rook_to, rook);
            key ^= zobrist::piece(rook, rook_from) ^ zobrist::piece(rook, rook_to);
        }

        if mv.role == Role::Pawn {
            p.halfmoves = 0;
            if mv.from.to_u32().abs_diff(mv.to.to_u32()) == 16 {
                // Kept only when an en-passant capture onto it is legal (C1).
                let mid = Square::new((mv.from.to_u32() + mv.to.to_u32()) / 2);
                if movegen::en_passant_takers(&p.board, them, mid).any() {
                    p.ep_square = Some(mid);
                }
            }
        }

        let old_castling = p.castling;
        if mv.role == Role::King {
            p.castling &= !Bitboard::from(us.backrank());
        }
        p.castling &= !(Bitboard::from(mv.from) | Bitboard::from(mv.to));

        let mut ice_report = None;
        if ice_age::is_due(us, self.fullmoves) && ice != Ice::Skip {
            // C5-C9: inside Black's move, judged after the move was found legal (C6a).
            let frozen = if ice == Ice::Report {
                let r = ice_age::apply_with_report(&mut p.board);
                let frozen: Bitboard = r.frozen.iter().map(|(sq, _)| *sq).collect();
                ice_report = Some(r);
                frozen
            } else {
                ice_age::apply(&mut p.board)
            };
            if frozen.any() {
                p.halfmoves = 0;
                p.castling &= !frozen;
                // A frozen king takes its side's castling rights with it (C8).
                for color in [Color::White, Color::Black] {
                    if p.board.king_of(color).is_none() {
                        p.castling &= !Bitboard::from(color.backrank());
                    }
                }
            }
            if let Some(ep) = p.ep_square
                && p.board.is_ice(ep)
            {
                p.ep_square = None;
            }
        }

        if us == Color::Black {
            p.fullmoves = p.fullmoves.saturating_add(1);
        }
        p.turn = them;

        if ice_report.is_some() || ice_age::is_due(us, self.fullmoves) {
            p.key = p.compute_key();
        } else {
            key ^= zobrist::castling_set(old_castling ^ p.castling);
            if let Some(ep) = p.ep_square {
                key ^= zobrist::en_passant(ep);
            }
            key ^= zobrist::turn(Color::Black);
            if us == Color::Black {
                key ^= zobrist::phase(self.fullmoves) ^ zobrist::phase(p.fullmoves);
            }
            p.key = key;
        }
        (p, ice_report)
    }

    /// The key from scratch.
    pub(crate) fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.board.pieces() {
            if let Some(piece) = self.board.piece_at(sq) {
                key ^= zobrist::piece(piece, sq);
            }
        }
        for sq in self.board.ice() {
            key ^= zobrist::ice(sq);
        }
        key ^= zobrist::castling_set(self.castling);
        if let Some(ep) = self.ep_square {
            key ^= zobrist::en_passant(ep);
        }
        key ^= zobrist::turn(self.turn);
        key ^= zobrist::phase(self.fullmoves);
        key
    }

    /// The result, if the game is over (C7, C10): a missing (frozen) king loses, two missing
    /// kings draw; then checkmate, stalemate, and the fifty-move rule.
    pub fn outcome(&self) -> Option<game::Outcome> {
        use game::{EndReason, Outcome};
        let white = self.board.king_of(Color::White).is_some();
        let black = self.board.king_of(Color::Black).is_some();
        match (white, black) {
            (false, false) => {
                return Some(Outcome::Draw {
                    reason: EndReason::BothKingsFrozen,
                });
            }
            (true, false) => {
                return Some(Outcome::Win {
                    winner: game::Color::White,
                    reason: EndReason::FrozenKing,
                });
            }
            (false, true) => {
                return Some(Outcome::Win {
                    winner: game::Color::Black,
                    reason: EndReason::FrozenKing,
                });
            }
            (true, true) => {}
        }
        if self.count_board_moves() == 0 {
            if self.is_check() {
                return Some(Outcome::Win {
                    winner: to_game_color(!self.turn),
                    reason: EndReason::Checkmate,
                });
            }
            return Some(Outcome::Draw {
                reason: EndReason::Stalemate,
            });
        }
        if self.fifty_moves() {
            return Some(Outcome::Draw {
                reason: EndReason::FiftyMoveRule,
            });
        }
        None
    }
}

/// shakmaty's colour as the game crate's.
pub fn to_game_color(color: Color) -> game::Color {
    match color {
        Color::White => game::Color::White,
        Color::Black => game::Color::Black,
    }
}

/// What [`Position::play_inner`] does with a due Ice Age.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ice {
    /// Apply it (the game's move).
    Apply,
    /// Apply it and describe it.
    Report,
    /// Leave it out: the position it is judged on.
    Skip,
}
