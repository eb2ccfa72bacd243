//! What reading a record file reports: [`RecordError`] for a game that cannot be read,
//! [`RecordWarning`] for what was read but deserves a word.

use std::fmt;

use crate::Color;

/// Why a game of a record file could not be read or replayed, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game}{}: {message}", location(*.move_number, *.side, *.line))]
pub struct RecordError {
    /// 1-based index of the game in the file.
    pub game: usize,
    /// Full-move number of the offending move, when the error is about a move.
    pub move_number: Option<u32>,
    /// Side of the offending move, when known.
    pub side: Option<Color>,
    /// 1-based line in the file, when known.
    pub line: Option<usize>,
    /// What is wrong, in words (e.g. `no legal turn matches 'e5xc3'`).
    pub message: String,
}

fn location(move_number: Option<u32>, side: Option<Color>, line: Option<usize>) -> String {
    let mut s = String::new();
    if let Some(n) = move_number {
        match side {
            Some(Color::Black) => s.push_str(&format!(", move {n}...")),
            _ => s.push_str(&format!(", move {n}")),
        }
    }
    if let Some(l) = line {
        s.push_str(&format!(" (line {l})"));
    }
    s
}

/// Something the reader accepted but a person should know: a guessed encoding, a missing
/// result marker, a result tag that disagrees with the marker, an Ice Age comment that
/// names other pieces than the replay froze, a variation cut at an illegal move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordWarning {
    /// 1-based game, `None` for the whole file (the encoding).
    pub game: Option<usize>,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// What was noticed and what the reader did about it.
    pub message: String,
}

/// `game 2 (line 14): ...`, `file: ...`.
impl fmt::Display for RecordWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.game {
            Some(g) => write!(f, "game {g}")?,
            None => f.write_str("file")?,
        }
        if let Some(l) = self.line {
            write!(f, " (line {l})")?;
        }
        write!(f, ": {}", self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_error_names_game_and_move() {
        let e = RecordError {
            game: 3,
            move_number: Some(12),
            side: Some(Color::Black),
            line: Some(40),
            message: "no legal turn matches 'e5xc3'".into(),
        };
        assert_eq!(
            e.to_string(),
            "game 3, move 12... (line 40): no legal turn matches 'e5xc3'"
        );
    }

    #[test]
    fn warning_names_game_and_line() {
        let w = RecordWarning {
            game: Some(2),
            line: Some(7),
            message: "no result marker".into(),
        };
        assert_eq!(w.to_string(), "game 2 (line 7): no result marker");
        let w = RecordWarning {
            game: None,
            line: None,
            message: "read as windows-1252".into(),
        };
        assert_eq!(w.to_string(), "file: read as windows-1252");
    }
}
