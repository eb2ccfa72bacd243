//! The puzzles a fresh site starts with: `testdata/puzzles/<game>.csv`, made by `icebound
//! puzzles mine` (its README gives the commands), embedded in the binary and added to the
//! database at every start (a puzzle already stored is left alone).

use game::Variant;
use puzzles::{FileError, read_rows};
use site_model::state::GameKind;
use site_store::NewPuzzle;

/// The Antarctos puzzle file.
pub const ANTARCTOS: &str = include_str!("../../../../testdata/puzzles/antarctos.csv");
/// The Ice Age Chess puzzle file.
pub const ICE_AGE: &str = include_str!("../../../../testdata/puzzles/iceage.csv");

/// The rows of puzzle file `text` of game `V`, as the store imports them.
///
/// # Errors
/// The file's first [`FileError`] (its line and column).
pub fn rows<V: Variant>(variant: GameKind, text: &str) -> Result<Vec<NewPuzzle>, FileError> {
    Ok(read_rows::<V>(text)?
        .into_iter()
        .map(|p| NewPuzzle {
            id: p.row.id,
            variant,
            fen: p.row.fen,
            moves: p.row.moves.split_whitespace().map(str::to_string).collect(),
            length: i64::from(p.row.length),
            themes: p.themes.iter().map(|t| t.name().to_string()).collect(),
            rating: f64::from(p.row.rating),
            game: p.row.game,
            ply: i64::from(p.row.ply),
            seen: p.row.seen,
            hint: p.row.hint,
        })
        .collect())
}

/// Both games' shipped puzzles, Antarctos first.
///
/// # Errors
/// A message naming the file, line and column of a shipped file that does not read (a
/// defect of the build: `crates/site/tests` reads both).
pub fn all() -> Result<Vec<NewPuzzle>, String> {
    let mut out = rows::<antarctos::Antarctos>(GameKind::Antarctos, ANTARCTOS)
        .map_err(|e| format!("testdata/puzzles/antarctos.csv: {e}"))?;
    out.extend(
        rows::<iceage::IceAge>(GameKind::IceAge, ICE_AGE)
            .map_err(|e| format!("testdata/puzzles/iceage.csv: {e}"))?,
    );
    Ok(out)
}
