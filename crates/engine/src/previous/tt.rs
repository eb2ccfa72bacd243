//! The transposition table of 2026-12-07, frozen (a copy of `crate::tt` of that day).
//!
//! Transposition table keyed by the zobrist key ([`game::Variant::zobrist`]), shared by
//! every thread of a search without locks.
//!
//! Lockless entries (R. Hyatt and T. Mann, "A lockless transposition table implementation
//! for parallel search", ICGA Journal 25(1), 2002; the scheme Stockfish used for years): an
//! entry is two 64-bit words, the packed data and the key XOR the data, each written and
//! read atomically (relaxed order). A reader accepts an entry only when the two words it
//! read XOR to the key it asked for, so an entry torn by two threads writing at once reads
//! as a miss, never as another position's data.
//!
//! Layout: buckets of two entries (32 bytes); the bucket is chosen by the low bits of the
//! key and the whole 64-bit key is checked.
//!
//! Replacement ("depth-preferred + always-replace"): slot 0 of a bucket keeps the entry
//! searched deepest, unless it is from an older search (generation) or the new entry is for
//! the same key; slot 1 takes every other store. Deep results survive, and recent shallow
//! ones still find a home.
//!
//! A move is stored as a 32-bit hash of the move value ([`move_hash`]), never as the move
//! itself: the search matches it against the legal moves of the position it is asked about,
//! so a table move (even after a key collision) is always a legal move of that position or
//! nothing.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

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

    fn bits(self) -> u64 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    fn from_bits(bits: u64) -> Option<Bound> {
        match bits {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// One table entry, as read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Full zobrist key of the position.
    pub key: u64,
    /// [`move_hash`] of the best move, 0 when none.
    pub mv: u32,
    /// Score relative to the node ([`crate::score::to_table`]), within ±32,767.
    pub score: i32,
    /// Remaining depth in plies of the search that produced it (0 to 255).
    pub depth: i16,
    /// Meaning of `score`.
    pub bound: Bound,
    generation: u8,
}

impl Entry {
    /// Data word: move (bits 0-31), score (32-47), depth (48-55), bound (56-57),
    /// generation (58-63). A bound of 0 marks an empty slot.
    fn pack(&self) -> u64 {
        u64::from(self.mv)
            | (u64::from(self.score as i16 as u16) << 32)
            | (u64::from(self.depth.clamp(0, 255) as u8) << 48)
            | (self.bound.bits() << 56)
            | (u64::from(self.generation & 63) << 58)
    }

    fn unpack(key: u64, data: u64) -> Option<Entry> {
        Some(Entry {
            key,
            mv: data as u32,
            score: i32::from((data >> 32) as u16 as i16),
            depth: i16::from((data >> 48) as u8),
            bound: Bound::from_bits((data >> 56) & 3)?,
            generation: (data >> 58) as u8,
        })
    }
}

/// One slot: the key XOR the data, and the data.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The entry if the slot holds `key` consistently.
    fn read(&self, key: u64) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        Entry::unpack(key, data)
    }

    /// The entry whatever its key (for the replacement decision); `None` when empty or torn
    /// beyond reading.
    fn peek(&self) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        if data == 0 {
            return None;
        }
        Entry::unpack(check ^ data, data)
    }

    fn write(&self, entry: &Entry) {
        let data = entry.pack();
        self.data.store(data, Ordering::Relaxed);
        self.check.store(entry.key ^ data, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.data.store(0, Ordering::Relaxed);
        self.check.store(0, Ordering::Relaxed);
    }
}

/// Two slots, 32 bytes, aligned to 32 so that a bucket never straddles two 64-byte cache
/// lines and one prefetch ([`Table::prefetch`]) brings it whole.
#[derive(Default)]
#[repr(align(32))]
struct Bucket([Slot; 2]);

/// The table: `2 * buckets` entries, buckets a power of two. Share it between threads by
/// reference (`&Table` or `Arc<Table>`): every method takes `&self`.
pub struct Table {
    slots: Vec<Bucket>,
    /// The stretch of `slots` advised to use huge pages, if the kernel accepted.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    huge_pages: Option<(usize, usize)>,
    mask: usize,
    generation: AtomicU8,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("buckets", &self.slots.len())
            .finish()
    }
}

/// The memory for a table could not be had (a process memory limit below `--hash`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a transposition table of {mib} MiB (ask for less with --hash)")]
pub struct TableAllocError {
    /// The size asked for, in MiB.
    pub mib: usize,
}

/// The page-aligned stretch `[start, end)` inside a table's allocation of `bytes` bytes at
/// `ptr` that huge-page advice may cover, or `None` below 2 MiB (not worth a huge page) or
/// where no whole page fits. The page size is the system's (`sysconf(_SC_PAGESIZE)`: 4 KiB on
/// x86-64, 16 or 64 KiB on some arm64 kernels).
#[cfg(target_os = "linux")]
fn huge_page_range(ptr: usize, bytes: usize) -> Option<(usize, usize)> {
    const HUGE: usize = 2 << 20;
    // SAFETY: sysconf only reads a system constant.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    let page = usize::try_from(page).ok().filter(|p| p.is_power_of_two())?;
    if bytes < HUGE {
        return None;
    }
    let start = ptr.next_multiple_of(page);
    let end = (ptr + bytes) / page * page;
    (end > start).then_some((start, end))
}

/// `madvise(start, end - start, advice)`; true if the kernel accepted it.
#[cfg(target_os = "linux")]
fn advise(range: (usize, usize), advice: libc::c_int) -> bool {
    let (start, end) = range;
    // SAFETY: callers pass a page-aligned stretch inside a live allocation of the table
    // (huge_page_range); MADV_HUGEPAGE and MADV_NOHUGEPAGE change how the kernel backs
    // those pages, never their contents.
    unsafe { libc::madvise(start as *mut libc::c_void, end - start, advice) == 0 }
}

/// Asks Linux to back the table's memory with transparent huge pages (2 MiB) where the
/// system allows them on request (`/sys/kernel/mm/transparent_hugepage/enabled` set to
/// `madvise` or `always`); called before the memory is first written, so that the first
/// touch of each 2 MiB stretch faults one huge page in. Why: a probe lands on a random bucket,
/// and with 4 KiB pages nearly every one also misses the TLB; `perf annotate` of an Antarctos
/// search (2026-12-03) put a third of the search function's own samples on the table's
/// prefetch and first load (docs/strength.md, "Huge pages for the table"). Returns the
/// stretch advised if the kernel accepted, so that [`Table`]'s drop can take the advice
/// back: the allocator reuses freed memory for small objects, and the binary's mimalloc is
/// built without huge pages on purpose (docs/performance.md: they cost the site a third
/// more resident memory). A refusal (a kernel without THP) leaves the table as it was,
/// slower only.
#[cfg(target_os = "linux")]
fn advise_huge_pages(slots: &Vec<Bucket>) -> Option<(usize, usize)> {
    let bytes = slots.capacity() * std::mem::size_of::<Bucket>();
    let range = huge_page_range(slots.as_ptr() as usize, bytes)?;
    advise(range, libc::MADV_HUGEPAGE).then_some(range)
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_slots: &Vec<Bucket>) -> Option<(usize, usize)> {
    None
}

impl Drop for Table {
    /// Takes back the huge-page advice (MADV_NOHUGEPAGE) before the memory returns to the
    /// allocator; see `advise_huge_pages`.
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some(range) = self.huge_pages {
            advise(range, libc::MADV_NOHUGEPAGE);
        }
    }
}

impl Table {
    /// A table of about `mib` MiB (rounded down to a power of two buckets; at least one).
    /// Panics if the memory cannot be had (the program's own sizes); a size a user asks
    /// for goes through [`Table::try_new`].
    pub fn new(mib: usize) -> Table {
        Table::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Table::new`], or an error when the allocation fails (for sizes a user asks for).
    pub fn try_new(mib: usize) -> Result<Table, TableAllocError> {
        let bucket_bytes = std::mem::size_of::<Bucket>();
        let wanted = (mib.max(1).saturating_mul(1024 * 1024) / bucket_bytes).max(1);
        let buckets = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        // Zeroed memory from the allocator, not written bucket by bucket: the operating
        // system hands out zero pages as they are first touched, so `analyze --hash 4096`
        // starts at once instead of writing 4 GiB first (issue 41: 9.6 s and 4.2 GB before
        // the search began; now resident memory grows only with the buckets the search
        // reaches).
        let layout =
            std::alloc::Layout::array::<Bucket>(buckets).map_err(|_| TableAllocError { mib })?;
        // SAFETY: the layout's size is not zero (at least one 32-byte bucket).
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Bucket>();
        if ptr.is_null() {
            return Err(TableAllocError { mib });
        }
        // SAFETY: `ptr` comes from the global allocator with the layout of `buckets`
        // buckets, which `Vec<Bucket>` frees with the same layout (capacity = `buckets`);
        // every bucket is initialised, since all-zero bytes are `Bucket::default()` (two
        // slots of two `AtomicU64` at 0).
        let slots = unsafe { Vec::from_raw_parts(ptr, buckets, buckets) };
        let huge_pages = advise_huge_pages(&slots);
        Ok(Table {
            slots,
            huge_pages,
            mask: buckets - 1,
            generation: AtomicU8::new(0),
        })
    }

    /// Size in MiB (what [`Table::new`] was given, rounded down to a power of two).
    pub fn mib(&self) -> usize {
        (self.slots.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Marks the start of a new search: entries of older searches are replaced first.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & 63, Ordering::Relaxed);
    }

    /// Empties the table (no search may run meanwhile).
    pub fn clear(&self) {
        for bucket in &self.slots {
            bucket.0.iter().for_each(Slot::clear);
        }
    }

    fn bucket(&self, key: u64) -> &[Slot; 2] {
        &self.slots[key as usize & self.mask].0
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that a later
    /// [`Table::probe`] does not wait for memory. A hint only: no effect on any result; a
    /// no-op off x86-64. Why: `perf record` of `analyze --variant antarctos --movetime 4000`
    /// (2026-12-02) put 70 % of the search function's own samples, 39 % of all, on the
    /// probe's first load; with the prefetch Antarctos runs about 12 % more nodes a second
    /// (docs/strength.md).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.bucket(key).as_ptr().cast::<i8>();
            // SAFETY: SSE is part of the x86-64 baseline, and a prefetch never faults nor
            // reads into the program: `p` is only a hint (here a valid address besides).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|s| s.read(key))
    }

    /// Stores a result (see the module doc for the replacement scheme). A store without a
    /// move keeps the move already stored for the same key. `depth` is clamped to 0..=255.
    pub fn store(&self, key: u64, mv: u32, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let first = bucket[0].peek();
        let depth = depth.clamp(0, 255) as i16;
        let slot = match first {
            None => 0,
            Some(e) if e.key == key || e.generation != generation || depth >= e.depth => 0,
            Some(_) => 1,
        };
        let old = bucket[slot].read(key);
        let mv = match old {
            Some(o) if mv == 0 => o.mv,
            _ => mv,
        };
        bucket[slot].write(&Entry {
            key,
            mv,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)),
            depth,
            bound,
            generation,
        });
        // A key lives in one slot only: a copy left in slot 1 would be stale.
        if slot == 0 && bucket[1].read(key).is_some() {
            bucket[1].clear();
        }
    }

    /// Per mille of the first 1,000 buckets' entries written in the current search (UCI's
    /// `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let n = self.slots.len().min(500);
        let used = self.slots[..n]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|s| s.peek().is_some_and(|e| e.generation == generation))
            .count();
        (used * 1000 / (2 * n).max(1)) as u32
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
