//! The weights file: a header and little-endian integers.
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `ICENNUE\0` |
//! | 4 | format version, 1 |
//! | 4 | game: 1 Antarctos, 2 Ice Age Chess |
//! | 4 | inputs per perspective |
//! | 4 | hidden neurons per perspective (1..=2048) |
//! | 4 | scale: centi-units per unit of the float output |
//! | 8 | FNV-1a 64 hash of the body (everything after the header) |
//! | 2·inputs·hidden | feature weights, `i16`, feature by feature |
//! | 2·hidden | accumulator biases, `i16` |
//! | 2·hidden | output weights, `i8`: side to move's neurons, then the other's |
//! | 4 | output bias, `i32`, in units of `QA · QB` |

use super::Network;

/// The first 8 bytes of a weights file.
pub const MAGIC: [u8; 8] = *b"ICENNUE\0";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
/// Header bytes.
pub const HEADER_LEN: usize = 36;
/// The largest hidden layer a file may declare.
const MAX_HIDDEN: usize = 2048;
/// The largest input count a file may declare.
const MAX_INPUTS: usize = 4096;

/// The game a network is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameId {
    /// Antarctos.
    Antarctos = 1,
    /// Ice Age Chess.
    IceAge = 2,
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GameId::Antarctos => "Antarctos",
            GameId::IceAge => "Ice Age Chess",
        })
    }
}

/// What is wrong with a weights file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("weights file too short: {0} bytes, the header alone is {HEADER_LEN}")]
    TooShort(usize),
    #[error("not a weights file: it does not start with the magic bytes ICENNUE\\0")]
    BadMagic,
    #[error("weights file version {0}, this engine reads version {VERSION}")]
    Version(u32),
    #[error("weights file for unknown game {0} (1 Antarctos, 2 Ice Age Chess)")]
    UnknownGame(u32),
    #[error("weights file for {found}, expected {expected}")]
    WrongGame { expected: GameId, found: GameId },
    #[error("weights file has {found} inputs, this game has {expected}")]
    WrongInputs { expected: usize, found: usize },
    #[error(
        "weights file sizes out of range: {inputs} inputs (1..={MAX_INPUTS}), {hidden} hidden (1..={MAX_HIDDEN})"
    )]
    Sizes { inputs: usize, hidden: usize },
    #[error("weights file scale {0} out of range (1..=100000)")]
    Scale(u32),
    #[error("weights file body is {found} bytes, its sizes need {expected}")]
    BodyLength { expected: usize, found: usize },
    #[error(
        "weights file hash {found:016x} does not match its header's {expected:016x}: the file is damaged"
    )]
    Hash { expected: u64, found: u64 },
}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

fn body_len(inputs: usize, hidden: usize) -> usize {
    2 * inputs * hidden + 2 * hidden + 2 * hidden + 4
}

pub(super) fn read(bytes: &[u8]) -> Result<Network, FormatError> {
    if bytes.len() < HEADER_LEN {
        return Err(FormatError::TooShort(bytes.len()));
    }
    if bytes[..8] != MAGIC {
        return Err(FormatError::BadMagic);
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(FormatError::Version(version));
    }
    let game = match u32_at(bytes, 12) {
        1 => GameId::Antarctos,
        2 => GameId::IceAge,
        g => return Err(FormatError::UnknownGame(g)),
    };
    let inputs = u32_at(bytes, 16) as usize;
    let hidden = u32_at(bytes, 20) as usize;
    if !(1..=MAX_INPUTS).contains(&inputs) || !(1..=MAX_HIDDEN).contains(&hidden) {
        return Err(FormatError::Sizes { inputs, hidden });
    }
    let scale = u32_at(bytes, 24);
    if !(1..=100_000).contains(&scale) {
        return Err(FormatError::Scale(scale));
    }
    let mut h = [0; 8];
    h.copy_from_slice(&bytes[28..36]);
    let expected_hash = u64::from_le_bytes(h);
    let body = &bytes[HEADER_LEN..];
    let expected = body_len(inputs, hidden);
    if body.len() != expected {
        return Err(FormatError::BodyLength {
            expected,
            found: body.len(),
        });
    }
    let found_hash = fnv1a(body);
    if found_hash != expected_hash {
        return Err(FormatError::Hash {
            expected: expected_hash,
            found: found_hash,
        });
    }
    let i16s = |from: usize, n: usize| -> Vec<i16> {
        body[from..from + 2 * n]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect()
    };
    let ft = inputs * hidden;
    let ft_weights = i16s(0, ft);
    let ft_bias = i16s(2 * ft, hidden);
    let at = 2 * ft + 2 * hidden;
    let out_weights = body[at..at + 2 * hidden].iter().map(|&b| b as i8).collect();
    let out_bias = u32_at(body, at + 2 * hidden) as i32;
    Ok(Network {
        game,
        inputs,
        hidden,
        scale: scale as i32,
        ft_weights,
        ft_bias,
        out_weights,
        out_bias,
    })
}

pub(super) fn write(net: &Network) -> Vec<u8> {
    let mut body = Vec::with_capacity(body_len(net.inputs, net.hidden));
    for w in net.ft_weights.iter().chain(&net.ft_bias) {
        body.extend_from_slice(&w.to_le_bytes());
    }
    body.extend(net.out_weights.iter().map(|&w| w as u8));
    body.extend_from_slice(&net.out_bias.to_le_bytes());
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(net.game as u32).to_le_bytes());
    out.extend_from_slice(&(net.inputs as u32).to_le_bytes());
    out.extend_from_slice(&(net.hidden as u32).to_le_bytes());
    out.extend_from_slice(&(net.scale as u32).to_le_bytes());
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}
