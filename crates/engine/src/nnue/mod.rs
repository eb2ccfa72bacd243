//! The learned evaluation (NNUE, issue 43): one small network per game, evaluated with
//! integer arithmetic from accumulators that the search updates incrementally.
//!
//! # Network
//! `inputs` sparse binary features per perspective (White's and Black's view of the board,
//! [`NnueGame::feature`]) → one hidden layer of `hidden` neurons whose pre-activations
//! (the *accumulator*, `i16`) are the sum of the active features' columns plus a bias; the
//! two perspectives share these weights. The side to move's accumulator and then the
//! other's go through a clipped ReLU (`0..=QA`) into one output neuron (`i8` weights, `i32`
//! bias). The output, scaled by `scale / (QA * QB)`, is the evaluation in centi-units from
//! the side to move's point of view.
//!
//! # Incremental updates
//! The search is copy-make: a child position is a fresh copy. [`Accumulators`] keeps one
//! entry per ply: the feature planes of the position last evaluated at that ply
//! ([`Planes`], bitboards) and the accumulators of both perspectives for exactly those
//! planes. To evaluate a position at ply `p`, the nearest computed entry at or below `p`
//! is taken as the source (normally the parent, a sibling or a grandparent) and the
//! features that differ between its planes and the new ones (a XOR per plane: the moved
//! piece, a capture, ice that melts under a jump, new ice from a captured man, the
//! Ice Age bucket) are subtracted and added; when more than [`REFRESH_CHANGES`] features
//! differ (an Ice Age, a distant source) the entry is computed from scratch. Correctness
//! does not depend on which entry is the source: every entry's accumulators always
//! match its own planes.
//!
//! The code is scalar Rust over slices, which the compiler vectorises (SSE on the
//! x86-64-v2 build, SIMD128 or plain scalar on wasm32); there is no hand-written SIMD.

mod features;
mod format;

pub use features::{ANTARCTOS_INPUTS, ICEAGE_BUCKETS, ICEAGE_INPUTS, iceage_bucket};
pub use format::{FormatError, GameId, HEADER_LEN, MAGIC, VERSION, fnv1a};

/// Clipped ReLU ceiling: accumulator values are clamped to `0..=QA`.
pub const QA: i32 = 255;
/// Output weight scale: a float output weight `w` is stored as `round(w * QB)` in an `i8`.
pub const QB: i32 = 64;
/// More changed features than this: recompute the accumulators from scratch.
pub const REFRESH_CHANGES: u32 = 24;
/// Bitboards that describe a position's features (13 pieces/ice planes + a bucket plane
/// in Ice Age Chess; men of each colour and ice in Antarctos).
pub const MAX_PLANES: usize = 14;

/// A position's features as bitboards: plane `p`, bit `b` is feature
/// [`NnueGame::feature`]`(perspective, p, b)`.
pub type Planes = [u64; MAX_PLANES];

/// What a game tells the network: its features and its weights.
pub trait NnueGame {
    /// The game's position.
    type Pos;
    /// The game's id in a weights file.
    const GAME: GameId;
    /// Input features per perspective.
    const INPUTS: usize;
    /// Planes in use (the rest stay 0).
    const PLANES: usize;
    /// The position's features.
    fn planes(pos: &Self::Pos) -> Planes;
    /// The index of feature (`plane`, `bit`) for perspective `persp` (0 White, 1 Black).
    fn feature(persp: usize, plane: usize, bit: u32) -> usize;
    /// 0 when White is to move, 1 for Black.
    fn side_to_move(pos: &Self::Pos) -> usize;
}

/// A network's integer weights.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    /// Which game it is for.
    pub game: GameId,
    /// Input features per perspective.
    pub inputs: usize,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Centi-units per unit of the float output.
    pub scale: i32,
    /// `inputs` rows of `hidden`: the column of feature `f` is `ft_weights[f * hidden..]`.
    pub ft_weights: Vec<i16>,
    /// `hidden` accumulator biases.
    pub ft_bias: Vec<i16>,
    /// `2 * hidden`: the side to move's neurons, then the other side's.
    pub out_weights: Vec<i8>,
    /// Output bias, in units of `QA * QB`.
    pub out_bias: i32,
}

impl Network {
    /// Reads a weights file (format in [`format`]), checking it is for game `G`.
    ///
    /// # Errors
    /// A [`FormatError`] that says what is wrong; never panics on any bytes.
    pub fn from_bytes<G: NnueGame>(bytes: &[u8]) -> Result<Network, FormatError> {
        let net = format::read(bytes)?;
        if net.game != G::GAME {
            return Err(FormatError::WrongGame {
                expected: G::GAME,
                found: net.game,
            });
        }
        if net.inputs != G::INPUTS {
            return Err(FormatError::WrongInputs {
                expected: G::INPUTS,
                found: net.inputs,
            });
        }
        Ok(net)
    }

    /// The file bytes of this network ([`Network::from_bytes`] reads them back).
    pub fn to_bytes(&self) -> Vec<u8> {
        format::write(self)
    }

    /// The accumulators (White's, then Black's view, `2 * hidden` values) of `planes`
    /// computed from scratch.
    pub fn refresh<G: NnueGame>(&self, planes: &Planes, acc: &mut [i16]) {
        let h = self.hidden;
        let (white, black) = acc.split_at_mut(h);
        white.copy_from_slice(&self.ft_bias);
        black.copy_from_slice(&self.ft_bias);
        for (p, &plane) in planes.iter().enumerate().take(G::PLANES) {
            let mut bits = plane;
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                add(white, self.column(G::feature(0, p, b)));
                add(black, self.column(G::feature(1, p, b)));
            }
        }
    }

    /// The weights column of feature `f`.
    #[inline]
    fn column(&self, f: usize) -> &[i16] {
        &self.ft_weights[f * self.hidden..(f + 1) * self.hidden]
    }

    /// Updates `acc` (computed for `from`) to `to`; false (and `acc` unchanged) when more
    /// than [`REFRESH_CHANGES`] features differ.
    pub fn update<G: NnueGame>(&self, from: &Planes, to: &Planes, acc: &mut [i16]) -> bool {
        let changes: u32 = (0..G::PLANES).map(|p| (from[p] ^ to[p]).count_ones()).sum();
        if changes > REFRESH_CHANGES {
            return false;
        }
        let h = self.hidden;
        let (white, black) = acc.split_at_mut(h);
        for p in 0..G::PLANES {
            let mut gone = from[p] & !to[p];
            while gone != 0 {
                let b = gone.trailing_zeros();
                gone &= gone - 1;
                sub(white, self.column(G::feature(0, p, b)));
                sub(black, self.column(G::feature(1, p, b)));
            }
            let mut new = to[p] & !from[p];
            while new != 0 {
                let b = new.trailing_zeros();
                new &= new - 1;
                add(white, self.column(G::feature(0, p, b)));
                add(black, self.column(G::feature(1, p, b)));
            }
        }
        true
    }

    /// The output for accumulators `acc` (White's view, then Black's) with `stm` to move
    /// (0 White, 1 Black), in centi-units from the side to move's point of view.
    pub fn output(&self, acc: &[i16], stm: usize) -> i32 {
        let h = self.hidden;
        let (white, black) = acc.split_at(h);
        let (us, them) = if stm == 0 {
            (white, black)
        } else {
            (black, white)
        };
        let (w_us, w_them) = self.out_weights.split_at(h);
        let sum = self.out_bias + dot_crelu(us, w_us) + dot_crelu(them, w_them);
        // Widened: |sum| <= 2 * 1024 * 255 * 128 + bias fits an i32, times scale does not.
        (i64::from(sum) * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `pos` from scratch (for tests and one-off calls).
    pub fn evaluate<G: NnueGame>(&self, pos: &G::Pos) -> i32 {
        let mut acc = vec![0; 2 * self.hidden];
        self.refresh::<G>(&G::planes(pos), &mut acc);
        self.output(&acc, G::side_to_move(pos))
    }
}

#[inline]
fn add(acc: &mut [i16], col: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(col) {
        *a = a.wrapping_add(w);
    }
}

#[inline]
fn sub(acc: &mut [i16], col: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(col) {
        *a = a.wrapping_sub(w);
    }
}

/// `Σ clamp(acc[i], 0, QA) * w[i]` (the compiler vectorises it: i16 → i32 lanes).
#[inline]
pub fn dot_crelu(acc: &[i16], w: &[i8]) -> i32 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}

/// One ply's accumulators.
#[derive(Clone)]
struct Entry {
    planes: Planes,
    computed: bool,
}

/// The accumulator stack of one search thread: one entry per ply (see the module doc).
pub struct Accumulators {
    entries: Vec<Entry>,
    /// `2 * hidden` values per entry.
    values: Vec<i16>,
    hidden: usize,
    /// Entries computed from scratch and incrementally (statistics for tests and benches).
    pub refreshes: u64,
    /// Entries computed from another entry.
    pub updates: u64,
}

impl Accumulators {
    /// A stack of `plies` entries for `net`, all uncomputed.
    pub fn new(net: &Network, plies: usize) -> Accumulators {
        Accumulators {
            entries: vec![
                Entry {
                    planes: [0; MAX_PLANES],
                    computed: false,
                };
                plies
            ],
            values: vec![0; plies * 2 * net.hidden],
            hidden: net.hidden,
            refreshes: 0,
            updates: 0,
        }
    }

    /// Forgets every entry (the next evaluation at each ply is computed from scratch or
    /// from an entry computed later).
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| e.computed = false);
    }

    /// Number of plies.
    pub fn plies(&self) -> usize {
        self.entries.len()
    }

    /// Makes entry `ply` hold `pos`'s accumulators, from the nearest computed entry at or
    /// below `ply` (or from scratch), and returns them (White's view, then Black's).
    pub fn compute<G: NnueGame>(&mut self, net: &Network, ply: usize, pos: &G::Pos) -> &[i16] {
        let planes = G::planes(pos);
        let n = 2 * self.hidden;
        let source = (0..=ply).rev().find(|&q| self.entries[q].computed);
        let done = match source {
            Some(q) if self.entries[q].planes == planes => {
                if q != ply {
                    self.values.copy_within(q * n..(q + 1) * n, ply * n);
                }
                true
            }
            Some(q) => {
                if q != ply {
                    self.values.copy_within(q * n..(q + 1) * n, ply * n);
                }
                let from = self.entries[q].planes;
                let acc = &mut self.values[ply * n..(ply + 1) * n];
                net.update::<G>(&from, &planes, acc)
            }
            None => false,
        };
        let acc = &mut self.values[ply * n..(ply + 1) * n];
        if done {
            self.updates += 1;
        } else {
            net.refresh::<G>(&planes, acc);
            self.refreshes += 1;
        }
        let e = &mut self.entries[ply];
        e.planes = planes;
        e.computed = true;
        &self.values[ply * n..(ply + 1) * n]
    }

    /// The evaluation of `pos` at `ply` through the stack, in centi-units from the side to
    /// move's point of view.
    pub fn evaluate<G: NnueGame>(&mut self, net: &Network, ply: usize, pos: &G::Pos) -> i32 {
        let stm = G::side_to_move(pos);
        let acc = self.compute::<G>(net, ply, pos);
        net.output(acc, stm)
    }
}

/// The embedded Antarctos network (`antarctos.nnue` beside this file; README.md there says
/// how it was trained).
static ANTARCTOS_BYTES: &[u8] = include_bytes!("antarctos.nnue");
/// The embedded Ice Age Chess network (`iceage.nnue`).
static ICEAGE_BYTES: &[u8] = include_bytes!("iceage.nnue");

static ANTARCTOS_NET: std::sync::OnceLock<Result<Network, FormatError>> =
    std::sync::OnceLock::new();
static ICEAGE_NET: std::sync::OnceLock<Result<Network, FormatError>> = std::sync::OnceLock::new();

/// The embedded Antarctos network, read once.
///
/// # Errors
/// What is wrong with the embedded bytes (a build with a damaged file).
pub fn antarctos_network() -> Result<&'static Network, &'static FormatError> {
    ANTARCTOS_NET
        .get_or_init(|| Network::from_bytes::<antarctos::Antarctos>(ANTARCTOS_BYTES))
        .as_ref()
}

/// The embedded Ice Age Chess network, read once.
///
/// # Errors
/// What is wrong with the embedded bytes.
pub fn iceage_network() -> Result<&'static Network, &'static FormatError> {
    ICEAGE_NET
        .get_or_init(|| Network::from_bytes::<iceage::IceAge>(ICEAGE_BYTES))
        .as_ref()
}

/// Puts `net` in place of its game's embedded network for the rest of the process, so the
/// lab can match a network that is not embedded yet (`icebound match --nnue FILE`). Only
/// before that game's network is first read (the first search with `nnue` on, or
/// [`antarctos_network`]/[`iceage_network`]); afterwards it changes nothing and returns
/// `false`.
pub fn install_network(net: Network) -> bool {
    let lock = match net.game {
        GameId::Antarctos => &ANTARCTOS_NET,
        GameId::IceAge => &ICEAGE_NET,
    };
    lock.set(Ok(net)).is_ok()
}

/// The FNV-1a hash of the embedded weights files' bodies (Antarctos, Ice Age Chess), as the
/// README beside them states.
pub fn embedded_hashes() -> (u64, u64) {
    let body = |b: &[u8]| format::fnv1a(b.get(HEADER_LEN..).unwrap_or(&[]));
    (body(ANTARCTOS_BYTES), body(ICEAGE_BYTES))
}
