//! Fast perft (A-figures in the spec): bulk counted at depth 1, children built straight
//! from the generator's bitboards without [`crate::Move`] values.

use game::Color;

use crate::board::goal_row;
use crate::movegen::{self, TurnSink};
use crate::position::Position;

/// Leaf count of the legal turn tree of depth `depth` from `pos` (a finished game has no
/// children; depth 0 counts 1). Equal to [`game::perft`] over [`crate::Antarctos`].
///
/// ```
/// use antarctos::{Position, perft};
/// // The spec's figures from A3 (depths 1-4).
/// let counts: Vec<u64> = (1..=4).map(|d| perft(&Position::start(), d)).collect();
/// assert_eq!(counts, [7, 49, 302, 1460]);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let white = pos.side_to_move() == Color::White;
    let (own, opp) = if white {
        (pos.white, pos.black)
    } else {
        (pos.black, pos.white)
    };
    perft_boards(own, opp, pos.ice, white, depth)
}

/// Perft on boards seen from the side to move (`own` moves, `white` says which side it
/// is).
fn perft_boards(own: u64, opp: u64, ice: u64, white: bool, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // A12 (the side that just moved is on its goal row) and A13 (no living men left).
    if opp & goal_row(!white) != 0 || own == 0 {
        return 0;
    }
    if depth == 1 {
        return movegen::count_turns(own, opp, ice, white);
    }
    let mut sink = Children {
        own,
        opp,
        ice,
        white,
        depth: depth - 1,
        nodes: 0,
    };
    movegen::generate(own, opp, ice, white, &mut sink);
    sink.nodes
}

/// Plays each turn on the parent's boards and counts the child's subtree.
struct Children {
    own: u64,
    opp: u64,
    ice: u64,
    white: bool,
    depth: u32,
    nodes: u64,
}

impl TurnSink for Children {
    #[inline(always)]
    fn simple(&mut self, from: u64, to: u64) {
        let own = self.own ^ from ^ to;
        self.nodes += perft_boards(self.opp, own, self.ice, !self.white, self.depth);
    }

    #[inline(always)]
    fn jump_end(&mut self, from: u64, to: u64, captured: u64, iced: u64) {
        let own = (self.own & !from) | to;
        let opp = self.opp & !captured;
        let ice = (self.ice & !iced) | captured;
        self.nodes += perft_boards(opp, own, ice, !self.white, self.depth);
    }
}
