//! One puzzle per position: a position met again is a duplicate, and in Antarctos so is its
//! colour mirror ([`antarctos::Position::mirrored`]: the same puzzle from the other side).

use std::collections::HashSet;

use antarctos::Antarctos;
use game::Variant;
use iceage::IceAge;

/// A game's puzzle identity: equal keys, one puzzle.
pub trait PuzzleKey: Variant {
    /// The key of the puzzle whose position is `pos` (the zobrist key, the same for a
    /// position and its mirror where the game has one).
    fn puzzle_key(pos: &Self::Position) -> u64;
}

impl PuzzleKey for Antarctos {
    fn puzzle_key(pos: &antarctos::Position) -> u64 {
        pos.zobrist().min(pos.mirrored().zobrist())
    }
}

impl PuzzleKey for IceAge {
    /// The zobrist key holds the Ice Age phase (C5): the same board with another count to
    /// the next Ice Age is another puzzle.
    fn puzzle_key(pos: &iceage::Position) -> u64 {
        pos.zobrist()
    }
}

/// The puzzles kept so far.
#[derive(Debug, Default, Clone)]
pub struct Seen {
    keys: HashSet<u64>,
}

impl Seen {
    /// Nothing seen.
    pub fn new() -> Seen {
        Seen::default()
    }

    /// Whether `pos` is a puzzle already seen.
    pub fn contains<V: PuzzleKey>(&self, pos: &V::Position) -> bool {
        self.keys.contains(&V::puzzle_key(pos))
    }

    /// Records `pos`; false when it (or its mirror) was already there.
    pub fn insert<V: PuzzleKey>(&mut self, pos: &V::Position) -> bool {
        self.keys.insert(V::puzzle_key(pos))
    }

    /// Puzzles seen.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when none was seen.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}
