//! The frozen baseline transposition table (commit 4974cdc), for [`crate::baseline`].
//!
//! Transposition table keyed by the zobrist key ([`game::Variant::zobrist`]).
//!
//! Layout: buckets of two entries; the bucket is chosen by the low bits of the key and the
//! whole 64-bit key is stored, so a hit needs all 64 bits to match.
//!
//! Replacement scheme ("depth-preferred + always-replace"): slot 0 of a bucket keeps the
//! entry searched deepest, unless it is from an older search (generation) or the new entry
//! is for the same key; slot 1 takes every other store. Deep results survive, and recent
//! shallow ones still find a home.
//!
//! A move is stored as a 32-bit hash of the move value ([`move_hash`]), never as the move
//! itself: the search matches it against the legal moves of the position it is asked about,
//! so a table move (even after a key collision) is always a legal move of that position or
//! nothing.

use std::hash::{Hash, Hasher};

/// What a stored score means, as in every alpha-beta table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The exact minimax value at the stored depth.
    Exact,
    /// A lower bound (the search failed high: score >= beta).
    Lower,
    /// An upper bound (the search failed low: score <= alpha).
    Upper,
}

impl Bound {
    /// What the best score of a node searched in the window (`alpha`, `beta`) is: a lower
    /// bound when it reached `beta`, exact inside the window, an upper bound at or below
    /// `alpha` (the window's lower edge before the node raised it).
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// True when a stored `score` with this bound settles a node searched in (`alpha`,
    /// `beta`) without searching it.
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// One table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Full zobrist key of the position.
    pub key: u64,
    /// [`move_hash`] of the best move, 0 when none.
    pub mv: u32,
    /// Score relative to the node ([`crate::score::to_table`]).
    pub score: i32,
    /// Remaining depth in plies of the search that produced it.
    pub depth: i16,
    /// Meaning of `score`.
    pub bound: Bound,
    generation: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    mv: 0,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
    generation: 0,
};

/// The table: `2 * buckets` entries, buckets a power of two.
#[derive(Debug, Clone)]
pub struct Table {
    entries: Vec<[Entry; 2]>,
    mask: usize,
    generation: u8,
}

impl Table {
    /// A table of about `mib` MiB (rounded down to a power of two buckets; at least one).
    pub fn new(mib: usize) -> Table {
        let bucket_bytes = std::mem::size_of::<[Entry; 2]>();
        let wanted = (mib.max(1) * 1024 * 1024 / bucket_bytes).max(1);
        let buckets = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Table {
            entries: vec![[EMPTY; 2]; buckets],
            mask: buckets - 1,
            generation: 0,
        }
    }

    /// Marks the start of a new search: entries of older searches are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.fill([EMPTY; 2]);
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = &self.entries[key as usize & self.mask];
        bucket
            .iter()
            .find(|e| e.key == key && e.depth >= 0)
            .copied()
    }

    /// Stores a result (see the module doc for the replacement scheme). A store without a
    /// move keeps the move already stored for the same key.
    pub fn store(&mut self, key: u64, mv: u32, score: i32, depth: i16, bound: Bound) {
        let generation = self.generation;
        let bucket = &mut self.entries[key as usize & self.mask];
        let slot = if bucket[0].key == key
            || bucket[0].depth < 0
            || bucket[0].generation != generation
            || depth >= bucket[0].depth
        {
            0
        } else {
            1
        };
        let old = bucket[slot];
        let mv = if mv == 0 && old.key == key {
            old.mv
        } else {
            mv
        };
        bucket[slot] = Entry {
            key,
            mv,
            score,
            depth: depth.max(0),
            bound,
            generation,
        };
        // A key lives in one slot only: a copy left in slot 1 would be stale.
        if slot == 0 && bucket[1].key == key {
            bucket[1] = EMPTY;
        }
    }
}

/// A 32-bit FNV-1a hash of a move value, never 0 (0 means "no move" in an [`Entry`]).
pub fn move_hash<M: Hash>(mv: &M) -> u32 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    mv.hash(&mut h);
    let x = h.finish();
    let folded = (x ^ (x >> 32)) as u32;
    if folded == 0 { 1 } else { folded }
}

struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}
