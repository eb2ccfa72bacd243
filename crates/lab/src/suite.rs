//! Test suites of chess positions (EPD, the Extended Position Description of the PGN
//! standard, section 16.2) as an outside check of Ice Age Chess's chess core: each position
//! has best moves (`bm`) or moves to avoid (`am`) in SAN, and an engine solves it when its
//! move is one of the best (or none of the avoided).
//!
//! The positions are ice-free; Ice Age Chess plays them with the full-move number set to
//! [`FULLMOVE`], so that the next Ice Age (C5: after Black's 20th move) is 39 or 40 plies
//! away, beyond what a search of a few seconds reaches, and the rules are those of chess
//! but for repetition (C11).

use game::Variant;
use iceage::{IceAge, Move, Position};

/// Full-move number given to every suite position (see the module doc).
pub const FULLMOVE: u32 = 1;

/// One position of a suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpdEntry {
    /// The `id` operand, or `line N` when there is none.
    pub id: String,
    /// The four position fields (board, side, castling, en passant).
    pub fen: String,
    /// Best moves (`bm`), SAN.
    pub best: Vec<String>,
    /// Moves to avoid (`am`), SAN.
    pub avoid: Vec<String>,
}

/// What was wrong with a line of an EPD file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EpdError {
    /// Fewer than four position fields.
    #[error("line {line}: an EPD line starts with four fields (board, side, castling, en passant)")]
    ShortLine {
        /// 1-based line number.
        line: usize,
    },
    /// Neither `bm` nor `am`.
    #[error("line {line}: no 'bm' or 'am' operation: nothing to solve")]
    NoTarget {
        /// 1-based line number.
        line: usize,
    },
    /// The position or a move does not read in Ice Age Chess.
    #[error("{id}: {message}")]
    Bad {
        /// The entry's id.
        id: String,
        /// What is wrong.
        message: String,
    },
}

/// Reads every position of an EPD file (blank lines and `#` comments skipped).
pub fn parse_epd(text: &str) -> Result<Vec<EpdEntry>, EpdError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        if fields.len() < 5 {
            return Err(EpdError::ShortLine { line: i + 1 });
        }
        let fen = fields[..4].join(" ");
        let mut entry = EpdEntry {
            id: format!("line {}", i + 1),
            fen,
            best: Vec::new(),
            avoid: Vec::new(),
        };
        for op in fields[4].split(';') {
            let op = op.trim();
            let (code, operands) = op.split_once(' ').unwrap_or((op, ""));
            let words = || operands.split_whitespace().map(str::to_string);
            match code {
                "bm" => entry.best.extend(words()),
                "am" => entry.avoid.extend(words()),
                "id" => entry.id = operands.trim().trim_matches('"').to_string(),
                _ => {}
            }
        }
        if entry.best.is_empty() && entry.avoid.is_empty() {
            return Err(EpdError::NoTarget { line: i + 1 });
        }
        out.push(entry);
    }
    Ok(out)
}

/// A suite position ready to search: the Ice Age Chess position (full-move [`FULLMOVE`])
/// and its best and avoided moves.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The entry it comes from.
    pub entry: EpdEntry,
    /// The position.
    pub position: Position,
    /// The best moves.
    pub best: Vec<Move>,
    /// The moves to avoid.
    pub avoid: Vec<Move>,
}

impl Problem {
    /// Reads `entry` as Ice Age Chess; an error names the entry and what does not read.
    pub fn new(entry: &EpdEntry) -> Result<Problem, EpdError> {
        let bad = |message: String| EpdError::Bad {
            id: entry.id.clone(),
            message,
        };
        let position = IceAge::parse_position(&format!("{} 0 {FULLMOVE}", entry.fen))
            .map_err(|e| bad(e.to_string()))?;
        let read = |moves: &[String]| -> Result<Vec<Move>, EpdError> {
            moves
                .iter()
                .map(|m| IceAge::parse_move(&position, m).map_err(|e| bad(e.to_string())))
                .collect()
        };
        Ok(Problem {
            best: read(&entry.best)?,
            avoid: read(&entry.avoid)?,
            position,
            entry: entry.clone(),
        })
    }

    /// The position as standard FEN (what a UCI engine reads).
    pub fn fen(&self) -> String {
        format!("{} 0 {FULLMOVE}", self.entry.fen)
    }

    /// True when `mv` solves the problem: one of the best moves, or (with only moves to
    /// avoid) none of those.
    pub fn solved_by(&self, mv: &Move) -> bool {
        if !self.best.is_empty() {
            self.best.contains(mv)
        } else {
            !self.avoid.contains(mv)
        }
    }

    /// The target as text: `bm Qg6` or `am Rxb2`.
    pub fn target(&self) -> String {
        if self.entry.best.is_empty() {
            format!("am {}", self.entry.avoid.join(" "))
        } else {
            format!("bm {}", self.entry.best.join(" "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WAC: &str = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n\
        # a comment\n\
        8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - am Rb4; id \"X.2\";\n";

    #[test]
    fn epd_lines_read() {
        let entries = parse_epd(WAC).expect("reads");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].id, "WAC.001");
        assert_eq!(entries[0].best, vec!["Qg6"]);
        assert_eq!(entries[1].avoid, vec!["Rb4"]);
        assert_eq!(entries[1].fen, "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - -");
    }

    #[test]
    fn problems_read_as_ice_age_chess_far_from_an_ice_age() {
        let entries = parse_epd(WAC).expect("reads");
        let p = Problem::new(&entries[0]).expect("valid");
        assert!(p.position.plies_to_ice_age() >= 39);
        assert!(p.position.board().ice().is_empty());
        let qg6 = IceAge::parse_move(&p.position, "Qg6").expect("legal");
        assert!(p.solved_by(&qg6));
        let other = IceAge::parse_move(&p.position, "Qh3").expect("legal");
        assert!(!p.solved_by(&other));
        let q = Problem::new(&entries[1]).expect("valid");
        assert_eq!(q.target(), "am Rb4");
        let rxb2 = IceAge::parse_move(&q.position, "Rxb2").expect("legal");
        assert!(q.solved_by(&rxb2));
    }

    #[test]
    fn bad_lines_say_where() {
        assert_eq!(parse_epd("8/8/8 w -"), Err(EpdError::ShortLine { line: 1 }));
        assert_eq!(
            parse_epd("\n8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - id \"x\";"),
            Err(EpdError::NoTarget { line: 2 })
        );
        let e =
            parse_epd("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qa8; id \"y\";")
                .expect("reads");
        assert!(matches!(Problem::new(&e[0]), Err(EpdError::Bad { .. })));
    }

    #[test]
    fn the_committed_suites_read_whole() {
        for (file, count) in [("wac.epd", 300), ("arasan2024.epd", 200)] {
            let path = format!("{}/../../testdata/epd/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("suite file");
            let entries = parse_epd(&text).expect("reads");
            assert_eq!(entries.len(), count, "{file}");
            for e in &entries {
                Problem::new(e).unwrap_or_else(|err| panic!("{file}: {err}"));
            }
        }
    }
}
