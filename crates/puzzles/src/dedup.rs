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

/// Why a puzzle is not kept beside the puzzles kept so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clash {
    /// Its position (or its mirror) is a kept puzzle's.
    Duplicate,
    /// Its position is met inside a kept puzzle's line, or its line meets a kept puzzle's
    /// position: one puzzle would be the tail of the other.
    Overlap,
}

impl Clash {
    /// The reject's name in a mining summary.
    pub fn name(self) -> &'static str {
        match self {
            Clash::Duplicate => "duplicate",
            Clash::Overlap => "overlaps_a_puzzle",
        }
    }
}

/// The puzzles kept so far: their positions, and the positions inside their lines where the
/// solver is to move again (a tester found six shipped puzzles whose line passed through
/// another's start).
#[derive(Debug, Default, Clone)]
pub struct Seen {
    keys: HashSet<u64>,
    inner: HashSet<u64>,
}

impl Seen {
    /// Nothing seen.
    pub fn new() -> Seen {
        Seen::default()
    }

    /// Whether `pos` clashes with a kept puzzle as a start ([`Clash::Duplicate`], or
    /// [`Clash::Overlap`] when a kept line passes through it); its own line is not looked
    /// at ([`Seen::admit`] does).
    pub fn clash<V: PuzzleKey>(&self, pos: &V::Position) -> Option<Clash> {
        let key = V::puzzle_key(pos);
        if self.keys.contains(&key) {
            Some(Clash::Duplicate)
        } else if self.inner.contains(&key) {
            Some(Clash::Overlap)
        } else {
            None
        }
    }

    /// Whether `pos` is a puzzle already seen.
    pub fn contains<V: PuzzleKey>(&self, pos: &V::Position) -> bool {
        self.keys.contains(&V::puzzle_key(pos))
    }

    /// Keeps the puzzle `start` with its `line` (legal moves from `start`) unless it clashes
    /// with one kept so far; the clash otherwise.
    pub fn admit<V: PuzzleKey>(
        &mut self,
        start: &V::Position,
        line: &[V::Move],
    ) -> Result<(), Clash> {
        if let Some(clash) = self.clash::<V>(start) {
            return Err(clash);
        }
        let inner = inner_keys::<V>(start, line);
        if inner.iter().any(|k| self.keys.contains(k)) {
            return Err(Clash::Overlap);
        }
        self.keys.insert(V::puzzle_key(start));
        self.inner.extend(inner);
        Ok(())
    }

    /// Records `pos` alone (no line); false when it (or its mirror) was already there.
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

/// The keys of the positions of `line` where the solver is to move again (after plies 2, 4,
/// ...), before its end; stops at a move that is not legal.
fn inner_keys<V: PuzzleKey>(start: &V::Position, line: &[V::Move]) -> Vec<u64> {
    let mut pos = start.clone();
    let mut keys = Vec::new();
    for (i, mv) in line.iter().enumerate() {
        let Ok(next) = V::play(&pos, mv) else { break };
        pos = next;
        if i % 2 == 1 && i + 1 < line.len() {
            keys.push(V::puzzle_key(&pos));
        }
    }
    keys
}
