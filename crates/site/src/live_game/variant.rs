//! What the site needs of each game beyond the rules and the engine ([`SiteVariant`]), and
//! its two implementations. Everything here is read from the rules crates.

use antarctos::Antarctos;
use engine::EngineVariant;
use game::Variant;
use iceage::IceAge;

use super::PreparedPly;
use crate::engine_memory;
use crate::view::{FrozenView, IceAgeView};

/// What a move did besides moving a piece, as the page shows it (MoveView's `captured`,
/// `melted`, `ice_age`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoveFacts {
    /// Antarctos: living men captured (A8).
    pub captured: Vec<String>,
    /// Antarctos: ice jumped and melted (A7).
    pub melted: Vec<String>,
    /// Ice Age Chess: the Ice Age the move brought (C5-C9).
    pub ice_age: Option<IceAgeView>,
}

/// What the site needs of a game beyond the rules and the engine. Everything here is read
/// from the rules crates: the page computes no rule itself.
pub trait SiteVariant: EngineVariant + engine_memory::Keepable {
    /// A checked move and the position after it, as a [`PreparedMove`] carries them.
    fn wrap_ply(mv: Self::Move, next: Self::Position) -> PreparedPly;

    /// This game's move and position out of `ply`; `None` for another game's.
    fn unwrap_ply(ply: PreparedPly) -> Option<(Self::Move, Self::Position)>;

    /// A note on what happened besides the move itself, shown in the move list (Ice Age
    /// Chess: the Ice Age after Black's 20th, 40th ... move, C5-C9).
    fn event(_pos: &Self::Position, _mv: &Self::Move) -> Option<String> {
        None
    }

    /// What legal move `mv` of `pos` did besides moving: captures, melted ice, an Ice Age.
    fn facts(_pos: &Self::Position, _mv: &Self::Move) -> MoveFacts {
        MoveFacts::default()
    }

    /// Whether every legal turn of `pos` must start with a capture (Antarctos A9).
    fn capture_compulsory(_pos: &Self::Position) -> bool {
        false
    }

    /// Moves of Black until the next Ice Age, counting the one that brings it (C5); `None`
    /// in a game without Ice Ages.
    fn ice_age_in(_pos: &Self::Position) -> Option<u32> {
        None
    }
}

impl SiteVariant for Antarctos {
    fn wrap_ply(mv: antarctos::Move, next: antarctos::Position) -> PreparedPly {
        PreparedPly::Antarctos(Box::new((mv, next)))
    }

    fn unwrap_ply(ply: PreparedPly) -> Option<(antarctos::Move, antarctos::Position)> {
        match ply {
            PreparedPly::Antarctos(p) => Some(*p),
            PreparedPly::IceAge(_) => None,
        }
    }

    fn facts(_pos: &antarctos::Position, mv: &antarctos::Move) -> MoveFacts {
        MoveFacts {
            captured: mv.captured().iter().map(|sq| sq.to_string()).collect(),
            melted: mv.ice_jumped().iter().map(|sq| sq.to_string()).collect(),
            ice_age: None,
        }
    }

    fn capture_compulsory(pos: &antarctos::Position) -> bool {
        pos.must_capture()
    }
}

impl SiteVariant for IceAge {
    fn wrap_ply(mv: iceage::Move, next: iceage::Position) -> PreparedPly {
        PreparedPly::IceAge(Box::new((mv, next)))
    }

    fn unwrap_ply(ply: PreparedPly) -> Option<(iceage::Move, iceage::Position)> {
        match ply {
            PreparedPly::IceAge(p) => Some(*p),
            PreparedPly::Antarctos(_) => None,
        }
    }

    fn event(pos: &iceage::Position, mv: &iceage::Move) -> Option<String> {
        iceage::ice_age_comment(pos, mv)
    }

    fn facts(pos: &iceage::Position, mv: &iceage::Move) -> MoveFacts {
        MoveFacts {
            ice_age: ice_age_view(pos, mv),
            ..MoveFacts::default()
        }
    }

    fn ice_age_in(pos: &iceage::Position) -> Option<u32> {
        Some(iceage::facts::black_moves_to_ice_age(pos))
    }
}

/// The Ice Age that legal move `mv` of `pos` brings, as the page shows it; `None` when it
/// brings none (C5). The facts are the rules crate's ([`iceage::facts`]); this names them.
fn ice_age_view(pos: &iceage::Position, mv: &iceage::Move) -> Option<IceAgeView> {
    let facts = iceage::facts::ice_age_facts(pos, mv)?;
    let names = |b: shakmaty::Bitboard| b.into_iter().map(|sq| sq.to_string()).collect::<Vec<_>>();
    Some(IceAgeView {
        frozen: facts
            .frozen
            .iter()
            .map(|(sq, piece)| FrozenView {
                square: sq.to_string(),
                color: iceage::to_game_color(piece.color),
                role: piece.role.char().to_string(),
            })
            .collect(),
        filled: names(facts.filled),
        closed: names(facts.closed),
        before_fen: IceAge::position_text(&facts.before),
        kings_frozen: facts.kings_frozen,
    })
}
