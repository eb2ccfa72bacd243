//! What an Ice Age did and when the next one comes, as the game page and the analysis board
//! show it (C5-C7): computed here once, named by the site (`crates/site`) and by the engine in
//! the browser (`crates/engine-wasm`) alike.

use shakmaty::{Bitboard, Piece, Role, Square};

use crate::{Move, Position, to_game_color};

/// What the Ice Age that one legal move brings did (C5-C7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IceAgeFacts {
    /// The isolated pieces that froze (C6), replaced by ice: square and piece, ordered by
    /// square name (`a1`, `a2`, ... `h8`: file, then rank).
    pub frozen: Vec<(Square, Piece)>,
    /// The empty squares that received ice (C6), the frozen squares not included.
    pub filled: Bitboard,
    /// The empty squares left empty: closed on all four orthogonal sides by pieces or the
    /// board's edge (C6).
    pub closed: Bitboard,
    /// The position right after the move, before the Ice Age: the one it was judged on (C6).
    pub before: Position,
    /// The kings that froze (C7: one loses, two draw), in FEN reading order (rank 8 first).
    pub kings_frozen: Vec<game::Color>,
}

/// What the Ice Age that `mv` brings in `pos` does; `None` when `mv` brings none (C5) or is
/// not legal in `pos`.
///
/// ```
/// use iceage::{facts, fen, notation};
/// // Black's 20th move brings the Ice Age; the rook on h1 stands alone (C6).
/// let pos = fen::parse("3rk3/8/8/8/8/8/8/3QK2R b K - 0 20").unwrap();
/// let mv = notation::parse_move(&pos, "Rd7").unwrap();
/// let f = facts::ice_age_facts(&pos, &mv).unwrap();
/// assert_eq!(f.frozen.len(), 1);
/// assert_eq!(f.frozen[0].0, shakmaty::Square::H1);
/// assert!(f.kings_frozen.is_empty());
/// ```
pub fn ice_age_facts(pos: &Position, mv: &Move) -> Option<IceAgeFacts> {
    let report = pos.ice_age_report(mv)?;
    let before = pos.before_ice_age(mv)?;
    let frozen_squares: Bitboard = report.frozen.iter().map(|(sq, _)| *sq).collect();
    let kings_frozen = report
        .frozen
        .iter()
        .filter(|(_, p)| p.role == Role::King)
        .map(|(_, p)| to_game_color(p.color))
        .collect();
    let mut frozen = report.frozen;
    frozen.sort_by_key(|(sq, _)| (sq.file(), sq.rank()));
    Some(IceAgeFacts {
        frozen,
        filled: report.new_ice & !frozen_squares,
        closed: report.closed,
        before,
        kings_frozen,
    })
}

/// Black's moves until the next Ice Age, counting the one that brings it (C5): 1 when Black's
/// next move brings it.
///
/// ```
/// use iceage::{Position, facts, fen};
/// assert_eq!(facts::black_moves_to_ice_age(&Position::start()), 20);
/// let pos = fen::parse("3rk3/8/8/8/8/8/8/3QK2R b K - 0 20").unwrap();
/// assert_eq!(facts::black_moves_to_ice_age(&pos), 1);
/// ```
pub fn black_moves_to_ice_age(pos: &Position) -> u32 {
    // plies_to_ice_age counts White's moves too: 2k+1 with Black to move, 2k+2 with White
    // to move, for k more Black moves before the one that brings it.
    pos.plies_to_ice_age().div_ceil(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{fen, notation};

    #[test]
    fn the_ice_age_of_the_records_example_freezes_three_pieces_and_fills_the_rest() {
        let pos = fen::parse("4k3/3pp3/8/1P6/7P/8/3P4/4K2R b K - 0 20").expect("a position");
        let mv = notation::parse_move(&pos, "e6").expect("e6");
        let f = ice_age_facts(&pos, &mv).expect("an Ice Age");
        let names: Vec<String> = f.frozen.iter().map(|(sq, _)| sq.to_string()).collect();
        assert_eq!(names, ["b5", "h1", "h4"]);
        assert!(f.kings_frozen.is_empty());
        assert!((f.filled & f.frozen.iter().map(|(sq, _)| *sq).collect::<Bitboard>()).is_empty());
        assert!(f.filled.count() > 10, "{:?}", f.filled);
        assert_eq!(
            fen::write(&f.before),
            "4k3/3p4/4p3/1P6/7P/8/3P4/4K2R w K - 0 21"
        );
        // A move of another number brings none.
        let early = fen::parse("4k3/3pp3/8/1P6/7P/8/3P4/4K2R b K - 0 19").expect("a position");
        let mv = notation::parse_move(&early, "e6").expect("e6");
        assert_eq!(ice_age_facts(&early, &mv), None);
    }

    #[test]
    fn a_lone_king_freezes_and_is_named() {
        let pos = fen::parse("4k3/8/8/8/8/8/8/3QK2R b K - 0 20").expect("a position");
        let mv = notation::parse_move(&pos, "Kf8").expect("Kf8");
        let f = ice_age_facts(&pos, &mv).expect("an Ice Age");
        assert_eq!(f.kings_frozen, [game::Color::Black]);
    }
}
