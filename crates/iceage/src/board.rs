//! The board: pieces of both colours plus the neutral ice cubes (C2), as bitboards.

use shakmaty::{Bitboard, Color, Piece, Role, Square, attacks};

/// Piece placement and ice. Invariant: the colour sets, the role sets and the ice set
/// partition the occupied squares (a square holds at most one piece or one ice cube).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    colors: [Bitboard; 2],
    roles: [Bitboard; 6],
    ice: Bitboard,
}

#[inline]
fn ci(color: Color) -> usize {
    color as usize
}

#[inline]
fn ri(role: Role) -> usize {
    role as usize - 1
}

/// Every role, pawn first.
pub const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

impl Board {
    /// A board with nothing on it.
    pub const fn empty() -> Board {
        Board {
            colors: [Bitboard::EMPTY; 2],
            roles: [Bitboard::EMPTY; 6],
            ice: Bitboard::EMPTY,
        }
    }

    /// The start array of C4: the standard chess pieces and ice on ranks 3 to 6.
    pub fn start() -> Board {
        let mut b = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in back.into_iter().enumerate() {
            let file = file as u32;
            b.put(Square::new(file), role.of(Color::White));
            b.put(Square::new(8 + file), Role::Pawn.of(Color::White));
            b.put(Square::new(48 + file), Role::Pawn.of(Color::Black));
            b.put(Square::new(56 + file), role.of(Color::Black));
        }
        b.ice = Bitboard(0x0000_ffff_ffff_0000);
        b
    }

    /// Squares holding pieces of `color`.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.colors[ci(color)]
    }

    /// Squares holding pieces of `role`, either colour.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.roles[ri(role)]
    }

    /// Squares holding `piece`.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.roles[ri(piece.role)] & self.colors[ci(piece.color)]
    }

    /// Squares holding a piece of either colour (ice excluded).
    #[inline]
    pub fn pieces(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// Squares holding an ice cube.
    #[inline]
    pub fn ice(&self) -> Bitboard {
        self.ice
    }

    /// Squares holding a piece or ice: the occupancy sliders see (C2).
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1] | self.ice
    }

    /// The square of `color`'s king, `None` when it froze (C7) or is absent.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        self.by_piece(Role::King.of(color)).first()
    }

    /// The role on `sq`, if a piece stands there.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.pieces().contains(sq) {
            return None;
        }
        ROLES.into_iter().find(|&r| self.roles[ri(r)].contains(sq))
    }

    /// The piece on `sq`, if any (ice is not a piece).
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = Color::from_white(self.by_color(Color::White).contains(sq));
        Some(role.of(color))
    }

    /// True when `sq` holds an ice cube.
    #[inline]
    pub fn is_ice(&self, sq: Square) -> bool {
        self.ice.contains(sq)
    }

    /// Puts `piece` on `sq`, which must be empty (no piece, no ice).
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.colors[ci(piece.color)].add(sq);
        self.roles[ri(piece.role)].add(sq);
    }

    /// Removes `piece` from `sq`, where it must stand.
    #[inline]
    pub fn take(&mut self, sq: Square, piece: Piece) {
        self.colors[ci(piece.color)].discard(sq);
        self.roles[ri(piece.role)].discard(sq);
    }

    /// Removes whatever piece stands on `sq` and returns it.
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.take(sq, piece);
        Some(piece)
    }

    /// Puts an ice cube on `sq`, which must be empty.
    #[inline]
    pub fn put_ice(&mut self, sq: Square) {
        self.ice.add(sq);
    }

    /// Removes the ice cube on `sq` (a no-op when there is none).
    #[inline]
    pub fn melt(&mut self, sq: Square) {
        self.ice.discard(sq);
    }

    /// Adds every square of `squares` (which must be empty) to the ice.
    #[inline]
    pub fn add_ice(&mut self, squares: Bitboard) {
        self.ice |= squares;
    }

    /// Pieces of `color` that attack `sq` when the occupancy is `occupied` (pieces and ice,
    /// C2: ice blocks; C3: ice itself never attacks).
    #[inline]
    pub fn attackers(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        let queens = self.by_role(Role::Queen);
        let rooks_queens = self.by_role(Role::Rook) | queens;
        let bishops_queens = self.by_role(Role::Bishop) | queens;
        self.by_color(color)
            & ((attacks::rook_attacks(sq, occupied) & rooks_queens)
                | (attacks::bishop_attacks(sq, occupied) & bishops_queens)
                | (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
                | (attacks::king_attacks(sq) & self.by_role(Role::King))
                | (attacks::pawn_attacks(!color, sq) & self.by_role(Role::Pawn)))
    }

    /// True when a piece of `color` attacks `sq` with the board's own occupancy.
    #[inline]
    pub fn is_attacked(&self, sq: Square, color: Color) -> bool {
        self.attackers(sq, color, self.occupied()).any()
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}
