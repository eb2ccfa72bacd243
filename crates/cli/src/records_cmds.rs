//! The record commands: `pdn`/`pgn` (replay every game of a file, one line each) and
//! `convert` (write every game again in canonical form). Both read the file's bytes
//! through `game::records` (UTF-8, or a legacy encoding named in a warning) and print the
//! reader's warnings to stderr.

use std::io::{self, Write};
use std::path::Path;

use game::records::{self, Reading, RecordRules};

use crate::rules_cmds::{Failure, finish};
use games::{GameKind, with_game};

/// `icebound pdn` / `icebound pgn`.
pub fn records(variant: GameKind, file: &Path) -> Result<(), String> {
    let bytes = read(file)?;
    finish(with_game!(variant, V => list::<V>(file, &bytes)))
        .map_err(|e| with_hint(variant, &bytes, e))
}

/// `icebound convert`.
pub fn convert(variant: GameKind, file: &Path) -> Result<(), String> {
    let bytes = read(file)?;
    finish(with_game!(variant, V => convert_of::<V>(file, &bytes)))
        .map_err(|e| with_hint(variant, &bytes, e))
}

/// The file's bytes (a read error is the command's error).
fn read(file: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))
}

/// The error, followed by which command reads the file when it is tagged as the other
/// game.
fn with_hint(variant: GameKind, bytes: &[u8], error: String) -> String {
    match other_variant_hint(variant, bytes) {
        Some(hint) => format!("{error}; {hint}"),
        None => error,
    }
}

/// Reads every game, prints the warnings to stderr; an empty file is an error.
fn read_games<V: RecordRules>(file: &Path, bytes: &[u8]) -> Result<Reading<V>, Failure> {
    let reading = records::read_bytes::<V>(bytes);
    let mut err = io::stderr().lock();
    for w in &reading.warnings {
        let _ = writeln!(err, "warning: {w}");
    }
    if reading.games.is_empty() {
        return Err(format!("{}: no games found", file.display()).into());
    }
    Ok(reading)
}

/// One line per game: its number, players, event, moves, the result written in the record
/// and the result reached on the board; or the first error of the game. Exit status 1 when
/// any game failed.
fn list<V: RecordRules>(file: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let reading = read_games::<V>(file, bytes)?;
    let games = &reading.games;
    let mut out = io::stdout().lock();
    let mut failed = 0;
    for (i, game) in games.iter().enumerate() {
        match game {
            Ok(record) => {
                let tag = |name: &str| record.tag(name).unwrap_or("?").to_string();
                let board = match record.final_position() {
                    Ok(pos) => match V::outcome(&pos) {
                        Some(o) => o.to_string(),
                        None => "ongoing".to_string(),
                    },
                    Err((ply, e)) => format!("illegal at ply {ply}: {e}"),
                };
                writeln!(
                    out,
                    "game {}: {} - {} | {} | {} {} | result {} | board {}",
                    i + 1,
                    tag("White"),
                    tag("Black"),
                    tag("Event"),
                    record.moves.len(),
                    if record.moves.len() == 1 {
                        "ply"
                    } else {
                        "plies"
                    },
                    record.result,
                    board
                )?;
            }
            Err(e) => {
                failed += 1;
                writeln!(out, "{e}")?;
            }
        }
    }
    out.flush()?;
    if failed > 0 {
        return Err(format!("{failed} of {} games could not be replayed", games.len()).into());
    }
    Ok(())
}

/// Every readable game written again (canonical move text, the format's tags, comments,
/// NAGs and variations kept), separated by blank lines, to stdout; each game that cannot
/// be read is reported on stderr and left out. Exit status 1 when any game was left out.
fn convert_of<V: RecordRules>(file: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let reading = read_games::<V>(file, bytes)?;
    let mut out = io::stdout().lock();
    let mut failed = 0;
    let mut first = true;
    for game in &reading.games {
        match game {
            Ok(record) => {
                if !first {
                    writeln!(out)?;
                }
                first = false;
                out.write_all(records::write(record).as_bytes())?;
            }
            Err(e) => {
                failed += 1;
                let _ = writeln!(io::stderr().lock(), "error: {e}");
            }
        }
    }
    out.flush()?;
    if failed > 0 {
        return Err(format!(
            "{failed} of {} games could not be read and were left out",
            reading.games.len()
        )
        .into());
    }
    Ok(())
}

/// When a file that failed is tagged as the other game (`[Variant "Ice Age"]`, C14;
/// `[GameType "Antarctos"]`, A19), says which command reads it.
fn other_variant_hint(variant: GameKind, bytes: &[u8]) -> Option<String> {
    let text = records::decode(bytes).text.to_ascii_lowercase();
    let tagged = |tag: &str, value: &str| {
        text.lines().any(|l| {
            let l: String = l.chars().filter(|c| !records::is_space(*c)).collect();
            l.starts_with(&format!("[{tag}\"{value}"))
        })
    };
    match variant {
        GameKind::Antarctos if tagged("variant", "iceage") => Some(
            "the file's tags say Ice Age Chess: read it with `icebound pgn --variant iceage`"
                .into(),
        ),
        GameKind::IceAge if tagged("gametype", "antarctos") => Some(
            "the file's tags say Antarctos: read it with `icebound pdn --variant antarctos`".into(),
        ),
        _ => None,
    }
}
