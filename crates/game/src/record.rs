use std::fmt;

use crate::{Color, Outcome, Variant};

/// The result written in a record's `[Result]` tag and after its moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl RecordResult {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordResult::WhiteWins => "1-0",
            RecordResult::BlackWins => "0-1",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::Unknown => "*",
        }
    }

    /// Reads the four forms above (PDN's `2-0`/`0-2`/`1-1` too); `None` otherwise.
    pub fn parse(text: &str) -> Option<RecordResult> {
        match text.trim() {
            "1-0" | "2-0" => Some(RecordResult::WhiteWins),
            "0-1" | "0-2" => Some(RecordResult::BlackWins),
            "1/2-1/2" | "1-1" | "½-½" => Some(RecordResult::Draw),
            "*" => Some(RecordResult::Unknown),
            _ => None,
        }
    }

    /// The result of a finished game.
    pub fn from_outcome(outcome: Option<Outcome>) -> RecordResult {
        match outcome.map(Outcome::winner) {
            None => RecordResult::Unknown,
            Some(Some(Color::White)) => RecordResult::WhiteWins,
            Some(Some(Color::Black)) => RecordResult::BlackWins,
            Some(None) => RecordResult::Draw,
        }
    }
}

impl fmt::Display for RecordResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One game of a record file (PDN for Antarctos, PGN for Ice Age Chess), replayed: every
/// move in `moves` is legal in turn from `start`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record<V: Variant> {
    /// Tag pairs in file order (`Event`, `Site`, ... as read or to be written). The writer
    /// adds the tags its format requires (`GameType`, `Variant`, `FEN`, `Result`) when absent.
    pub tags: Vec<(String, String)>,
    /// Position before the first move.
    pub start: V::Position,
    /// The moves, in order.
    pub moves: Vec<V::Move>,
    /// Result as written in the record (may be `*` while the game is going on).
    pub result: RecordResult,
}

impl<V: Variant> Record<V> {
    /// A record with no tags and no moves from `start`.
    pub fn new(start: V::Position) -> Self {
        Record {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: RecordResult::Unknown,
        }
    }

    /// The value of tag `name` (exact, case-sensitive match), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing an existing value in place or appending.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// Replays the moves from `start`; the final position. Errors name the first illegal
    /// move (1-based ply).
    pub fn final_position(&self) -> Result<V::Position, (usize, V::IllegalMove)> {
        let mut pos = self.start.clone();
        for (i, mv) in self.moves.iter().enumerate() {
            pos = V::play(&pos, mv).map_err(|e| (i + 1, e))?;
        }
        Ok(pos)
    }
}

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

/// Writes a PGN/PDN tag pair `[Name "value"]` and a newline, with `\\` and `"` escaped as
/// both standards require.
pub fn write_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{escaped}\"]\n"));
}

/// Appends `units` (move numbers, moves, comments, the result) joined by spaces, in lines of
/// at most `max_line` characters (a longer unit gets a line of its own), ending with a newline.
pub fn write_wrapped(out: &mut String, units: &[String], max_line: usize) {
    let mut line = String::new();
    for unit in units {
        if !line.is_empty() && line.chars().count() + 1 + unit.chars().count() > max_line {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(unit);
    }
    out.push_str(&line);
    out.push('\n');
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
    fn tags_are_escaped_and_moves_wrapped() {
        let mut out = String::new();
        write_tag(&mut out, "White", r#"a "b" \c"#);
        assert_eq!(out, "[White \"a \\\"b\\\" \\\\c\"]\n");
        let mut out = String::new();
        let units: Vec<String> = ["1.", "e4", "e5", "2.", "Nf3"].map(String::from).into();
        write_wrapped(&mut out, &units, 8);
        assert_eq!(out, "1. e4 e5\n2. Nf3\n");
    }

    #[test]
    fn results_parse() {
        assert_eq!(RecordResult::parse("2-0"), Some(RecordResult::WhiteWins));
        assert_eq!(RecordResult::parse("1/2-1/2"), Some(RecordResult::Draw));
        assert_eq!(RecordResult::parse("3-0"), None);
    }
}
