//! The puzzle file: CSV (RFC 4180) with a header row, one puzzle a row, as
//! `icebound puzzles mine --out` writes it and the site loads it (`testdata/puzzles/`).
//!
//! Columns: `id` (16 hex digits of the puzzle key: the same position mined again gets the
//! same id), `variant` (`antarctos` / `iceage`), `fen` (the position, the solver's side to
//! move), `moves` (both sides' moves to the end of the game, space-separated, in the game's
//! canonical move text), `length` (moves of the winning side), `themes` (space-separated
//! names, [`Theme::name`]), `rating` (the puzzle's rating to start from), `game` and `ply`
//! (where it was mined), `seen` (`yes`: the game's player played the first move, `no`: it
//! did not, empty: unknown), `hint` (text shown on request; empty for most).

use std::io::Write;

use game::{Outcome, Variant};
use serde::{Deserialize, Serialize};

use crate::dedup::PuzzleKey;
use crate::mine::{Minable, Mined};
use crate::themes::Theme;

/// A puzzle's rating before anyone has tried it (issue 39: 1500, as a player's).
pub const START_RATING: u32 = 1500;

/// One row of a puzzle file, as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// 16 hex digits of the puzzle key.
    pub id: String,
    /// The game's name.
    pub variant: String,
    /// The position.
    pub fen: String,
    /// Both sides' moves, space-separated.
    pub moves: String,
    /// Moves of the winning side.
    pub length: u32,
    /// Theme names, space-separated.
    pub themes: String,
    /// Rating to start from.
    pub rating: u32,
    /// The game it was mined from (empty when made by hand).
    pub game: String,
    /// Plies played in that game before the position.
    pub ply: u32,
    /// `yes`, `no` or empty.
    pub seen: String,
    /// Shown on request; empty for most.
    pub hint: String,
}

impl<V: Minable> Mined<V> {
    /// The puzzle as a file row, rated [`START_RATING`], with no hint.
    pub fn row(&self) -> Row {
        Row {
            id: puzzle_id::<V>(&self.start),
            variant: V::NAME.to_string(),
            fen: V::position_text(&self.start),
            moves: line_texts::<V>(&self.start, &self.proven.line).join(" "),
            length: self.proven.moves(),
            themes: self
                .themes
                .iter()
                .map(|t| t.name())
                .collect::<Vec<_>>()
                .join(" "),
            rating: START_RATING,
            game: self.origin.game.clone(),
            ply: self.origin.ply,
            seen: match self.origin.played {
                Some(true) => "yes",
                Some(false) => "no",
                None => "",
            }
            .to_string(),
            hint: String::new(),
        }
    }
}

/// The canonical texts of `line`'s moves, each in the position it is played from.
pub fn line_texts<V: Variant>(start: &V::Position, line: &[V::Move]) -> Vec<String> {
    let mut pos = start.clone();
    line.iter()
        .map(|mv| {
            let text = V::move_text(&pos, mv);
            pos = V::play_unchecked(&pos, mv);
            text
        })
        .collect()
}

/// Writes `rows` as a puzzle file (header first).
///
/// # Errors
/// What `out` answered.
pub fn write_rows<'a>(
    out: impl Write,
    rows: impl IntoIterator<Item = &'a Row>,
) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_writer(out);
    for row in rows {
        w.serialize(row)?;
    }
    w.flush()?;
    Ok(())
}

/// A puzzle read from a file and checked against the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePuzzle<V: Variant> {
    /// The row as written.
    pub row: Row,
    /// Its position.
    pub start: V::Position,
    /// Its moves.
    pub line: Vec<V::Move>,
    /// Its themes.
    pub themes: Vec<Theme>,
}

/// The columns of a puzzle file, in order.
pub const COLUMN_NAMES: [&str; 11] = [
    "id", "variant", "fen", "moves", "length", "themes", "rating", "game", "ply", "seen", "hint",
];

/// Whether `id` is a puzzle id the site serves: 1 to 64 of `[A-Za-z0-9_-]`.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// What is wrong with a puzzle file, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}{}: {message}", column.map(|c| format!(", column {c}")).unwrap_or_default())]
pub struct FileError {
    /// The file's line (1 is the header).
    pub line: u64,
    /// The column, when one is at fault.
    pub column: Option<&'static str>,
    /// What is wrong.
    pub message: String,
}

/// Reads every row of a puzzle file of game `V` and checks it: the game's name, the
/// position, each move legal in turn, the game won by the side to move at the end of the
/// moves and not before, the length, the themes. The solver is not run (see
/// [`crate::check`] for that).
///
/// # Errors
/// The first [`FileError`].
pub fn read_rows<V: Variant>(text: &str) -> Result<Vec<FilePuzzle<V>>, FileError> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader
        .byte_headers()
        .map_err(|e| FileError {
            line: 1,
            column: None,
            message: e.to_string(),
        })?
        .clone();
    let mut out = Vec::new();
    let mut record = csv::ByteRecord::new();
    loop {
        let read = reader
            .read_byte_record(&mut record)
            .map_err(|e| FileError {
                line: e.position().map_or(0, |p| p.line()),
                column: None,
                message: e.to_string(),
            })?;
        if !read {
            break;
        }
        let line = record.position().map_or(0, |p| p.line());
        let row: Row = record.deserialize(Some(&headers)).map_err(|e| {
            // The column by its header's name, not csv's 0-based field index.
            if let csv::ErrorKind::Deserialize { err, .. } = e.kind() {
                let name = err.field().and_then(|f| headers.get(f as usize));
                let column = name
                    .and_then(|name| COLUMN_NAMES.iter().copied().find(|c| c.as_bytes() == name));
                if column.is_some() {
                    return FileError {
                        line,
                        column,
                        message: err.kind().to_string(),
                    };
                }
            }
            FileError {
                line,
                column: None,
                message: e.to_string(),
            }
        })?;
        out.push(check_row::<V>(row, line)?);
    }
    Ok(out)
}

fn check_row<V: Variant>(row: Row, line: u64) -> Result<FilePuzzle<V>, FileError> {
    let fault = |column: &'static str, message: String| FileError {
        line,
        column: Some(column),
        message,
    };
    if !valid_id(&row.id) {
        return Err(fault(
            "id",
            format!(
                "'{}': an id is 1 to 64 letters, digits, '_' or '-' (the site serves no other)",
                game::excerpt(&row.id)
            ),
        ));
    }
    if row.variant != V::NAME {
        return Err(fault(
            "variant",
            format!("'{}' in a file of {} puzzles", row.variant, V::NAME),
        ));
    }
    let start = V::parse_position(&row.fen).map_err(|e| fault("fen", e.to_string()))?;
    let winner = V::side_to_move(&start);
    let mut pos = start.clone();
    let mut line_moves = Vec::new();
    for (i, text) in row.moves.split_whitespace().enumerate() {
        if V::outcome(&pos).is_some() {
            return Err(fault(
                "moves",
                format!("move {} ('{text}') comes after the end of the game", i + 1),
            ));
        }
        let mv = V::parse_move(&pos, text)
            .map_err(|e| fault("moves", format!("move {} ('{text}'): {e}", i + 1)))?;
        pos = V::play_unchecked(&pos, &mv);
        line_moves.push(mv);
    }
    match V::outcome(&pos) {
        Some(Outcome::Win { winner: w, .. }) if w == winner => {}
        _ => {
            return Err(fault(
                "moves",
                "the moves do not end the game with a win for the side to move".to_string(),
            ));
        }
    }
    let length = (line_moves.len() as u32).div_ceil(2);
    if row.length != length {
        return Err(fault(
            "length",
            format!("{} where the moves make {length}", row.length),
        ));
    }
    let themes = row
        .themes
        .split_whitespace()
        .map(|t| t.parse::<Theme>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| fault("themes", e.to_string()))?;
    if !matches!(row.seen.as_str(), "yes" | "no" | "") {
        return Err(fault("seen", format!("'{}' (yes, no or empty)", row.seen)));
    }
    Ok(FilePuzzle {
        row,
        start,
        line: line_moves,
        themes,
    })
}

/// [`PuzzleKey`] as the file's `id`.
pub fn puzzle_id<V: PuzzleKey>(pos: &V::Position) -> String {
    format!("{:016x}", V::puzzle_key(pos))
}
