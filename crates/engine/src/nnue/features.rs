//! The input features of each game.
//!
//! - Antarctos: 3 planes × 32 dark squares = 96 features per perspective, side-relative:
//!   the perspective's own men, the other side's men, ice; Black's view is the board
//!   turned by 180° (the dark square `i` of 0..32, in rank-then-file order, becomes
//!   `31 - i`), so both sides' networks see their men advancing "up".
//! - Ice Age Chess: 12 piece planes × 64 (own pawn..king, then the other side's), one ice
//!   plane × 64, and [`ICEAGE_BUCKETS`] buckets of the plies to the next Ice Age
//!   ([`iceage_bucket`]) = 840 features per perspective; Black's view flips the ranks
//!   (square `s` becomes `s ^ 56`) and swaps the colours. The bucket is the same feature
//!   for both views.

use antarctos::Antarctos;
use iceage::IceAge;
use shakmaty::{Color, Role};

use super::{GameId, MAX_PLANES, NnueGame, Planes};

/// Antarctos inputs per perspective.
pub const ANTARCTOS_INPUTS: usize = 96;
/// Ice Age Chess buckets of the plies to the next Ice Age.
pub const ICEAGE_BUCKETS: usize = 8;
/// Ice Age Chess inputs per perspective.
pub const ICEAGE_INPUTS: usize = 13 * 64 + ICEAGE_BUCKETS;

/// The dark-square index 0..32 (rank then file) of each bit of Antarctos's ghost-square
/// layout (`(9 * rank + file) / 2`); 255 for the ghost bits.
const GHOST_TO_DARK: [u8; 64] = ghost_to_dark();

const fn ghost_to_dark() -> [u8; 64] {
    let mut t = [255u8; 64];
    let mut r = 0;
    while r < 8 {
        let mut f = 0;
        while f < 8 {
            if (f + r) % 2 == 0 {
                t[(9 * r + f) / 2] = (r * 4 + f / 2) as u8;
            }
            f += 1;
        }
        r += 1;
    }
    t
}

impl NnueGame for Antarctos {
    type Pos = antarctos::Position;
    const GAME: GameId = GameId::Antarctos;
    const INPUTS: usize = ANTARCTOS_INPUTS;
    const PLANES: usize = 3;

    #[inline]
    fn planes(pos: &antarctos::Position) -> Planes {
        let mut p = [0; MAX_PLANES];
        p[0] = pos.men(game::Color::White).bits();
        p[1] = pos.men(game::Color::Black).bits();
        p[2] = pos.ice().bits();
        p
    }

    #[inline]
    fn feature(persp: usize, plane: usize, bit: u32) -> usize {
        let sq = usize::from(GHOST_TO_DARK[bit as usize & 63]);
        if persp == 0 {
            plane * 32 + sq
        } else {
            let plane = match plane {
                0 => 1,
                1 => 0,
                p => p,
            };
            plane * 32 + (31 - sq)
        }
    }

    #[inline]
    fn side_to_move(pos: &antarctos::Position) -> usize {
        usize::from(pos.side_to_move() == game::Color::Black)
    }
}

/// The bucket of `plies` to the next Ice Age (1..=40, 1 when the next move brings it):
/// 1, 2, 3-4, 5-8, 9-14, 15-20, 21-30, 31-40. Fine near the Ice Age, where a piece's
/// square decides whether it is frozen, coarse far from it.
pub fn iceage_bucket(plies: u32) -> usize {
    match plies {
        0..=1 => 0,
        2 => 1,
        3..=4 => 2,
        5..=8 => 3,
        9..=14 => 4,
        15..=20 => 5,
        21..=30 => 6,
        _ => 7,
    }
}

const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

impl NnueGame for IceAge {
    type Pos = iceage::Position;
    const GAME: GameId = GameId::IceAge;
    const INPUTS: usize = ICEAGE_INPUTS;
    const PLANES: usize = 14;

    #[inline]
    fn planes(pos: &iceage::Position) -> Planes {
        let b = pos.board();
        let white = b.by_color(Color::White);
        let black = b.by_color(Color::Black);
        let mut p = [0; MAX_PLANES];
        for (i, role) in ROLES.into_iter().enumerate() {
            let r = b.by_role(role);
            p[i] = (r & white).0;
            p[6 + i] = (r & black).0;
        }
        p[12] = b.ice().0;
        p[13] = 1 << iceage_bucket(pos.plies_to_ice_age());
        p
    }

    #[inline]
    fn feature(persp: usize, plane: usize, bit: u32) -> usize {
        let sq = bit as usize & 63;
        if plane == 13 {
            13 * 64 + (sq & 7)
        } else if persp == 0 {
            plane * 64 + sq
        } else {
            let plane = if plane < 12 { (plane + 6) % 12 } else { plane };
            plane * 64 + (sq ^ 56)
        }
    }

    #[inline]
    fn side_to_move(pos: &iceage::Position) -> usize {
        usize::from(pos.side_to_move() == Color::Black)
    }
}
