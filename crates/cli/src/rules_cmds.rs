//! The rules commands: `perft`, `moves`, `apply`, `pdn`/`pgn`. Generic over the game.

use std::io::{self, Write};
use std::path::Path;
use std::time::Instant;

use game::Variant;

use crate::variant_arg::VariantName;
use crate::with_variant;

/// Why a rules command stopped: a message for the user, or stdout failing.
enum Failure {
    Message(String),
    Output(io::Error),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Message(message)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Output(e)
    }
}

/// The command's result as `main` reports it. A closed stdout (`icebound perft ... | head
/// -1`) ends the command quietly, as in other Unix tools, instead of panicking the way
/// `println!` does; any other write error is reported.
fn finish(result: Result<(), Failure>) -> Result<(), String> {
    match result {
        Ok(()) => Ok(()),
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(Failure::Output(e)) => Err(format!("cannot write the output: {e}")),
        Err(Failure::Message(m)) => Err(m),
    }
}

/// Reads `--fen`, or the start position when absent.
pub fn position<V: Variant>(fen: Option<&str>) -> Result<V::Position, String> {
    match fen {
        None => Ok(V::start_position()),
        Some(text) => V::parse_position(text)
            .map_err(|e| format!("bad position '{}': {e}", game::excerpt(text))),
    }
}

pub fn perft(
    variant: VariantName,
    fen: Option<&str>,
    depth: u32,
    divide: bool,
) -> Result<(), String> {
    finish(with_variant!(variant, V => perft_of::<V>(fen, depth, divide)))
}

fn perft_of<V: Variant>(fen: Option<&str>, depth: u32, divide: bool) -> Result<(), Failure> {
    let pos = position::<V>(fen)?;
    let mut out = io::stdout().lock();
    let start = Instant::now();
    let nodes = if divide && depth > 0 {
        let mut total = 0;
        let mut lines = game::perft_divide::<V>(&pos, depth);
        lines.sort();
        for (mv, count) in lines {
            writeln!(out, "{mv} {count}")?;
            total += count;
        }
        total
    } else {
        V::perft(&pos, depth)
    };
    let elapsed = start.elapsed();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "nodes {nodes}")?;
    writeln!(out, "time_ms {}", elapsed.as_millis())?;
    writeln!(out, "nps {nps}")?;
    out.flush()?;
    Ok(())
}

pub fn moves(variant: VariantName, fen: Option<&str>) -> Result<(), String> {
    finish(with_variant!(variant, V => moves_of::<V>(fen)))
}

fn moves_of<V: Variant>(fen: Option<&str>) -> Result<(), Failure> {
    let pos = position::<V>(fen)?;
    let mut out = io::stdout().lock();
    for t in game::sorted_move_texts::<V>(&pos) {
        writeln!(out, "{t}")?;
    }
    out.flush()?;
    Ok(())
}

pub fn apply(variant: VariantName, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
    finish(with_variant!(variant, V => apply_of::<V>(fen, moves)))
}

fn apply_of<V: Variant>(fen: Option<&str>, moves: &[String]) -> Result<(), Failure> {
    let mut pos = position::<V>(fen)?;
    for (i, full) in moves.iter().enumerate() {
        let number = i + 1;
        let text = game::excerpt(full);
        if let Some(outcome) = V::outcome(&pos) {
            return Err(Failure::Message(format!(
                "move {number} '{text}': the game is over ({outcome})"
            )));
        }
        let mv = V::parse_move(&pos, full).map_err(|e| format!("move {number} '{text}': {e}"))?;
        pos = V::play(&pos, &mv).map_err(|e| format!("move {number} '{text}': {e}"))?;
    }
    let mut out = io::stdout().lock();
    writeln!(out, "{}", V::position_text(&pos))?;
    match V::outcome(&pos) {
        Some(outcome) => writeln!(out, "result {outcome}")?,
        None => writeln!(out, "result ongoing")?,
    }
    out.flush()?;
    Ok(())
}

pub fn records(variant: VariantName, file: &Path) -> Result<(), String> {
    finish(with_variant!(variant, V => records_of::<V>(file))).map_err(
        |e| match other_variant_hint(variant, file) {
            Some(hint) => format!("{e}; {hint}"),
            None => e,
        },
    )
}

/// When a file that failed to replay is tagged as the other game (`[Variant "Ice Age"]`,
/// C14; `[GameType "Antarctos"]`, A19), says which command reads it: otherwise the user
/// only sees "unknown token 'Nxa3'" for every game.
fn other_variant_hint(variant: VariantName, file: &Path) -> Option<String> {
    let text = String::from_utf8_lossy(&std::fs::read(file).ok()?).to_ascii_lowercase();
    let tagged = |tag: &str, value: &str| {
        text.lines().any(|l| {
            let l: String = l.chars().filter(|c| !c.is_whitespace()).collect();
            l.starts_with(&format!("[{tag}\"{value}\""))
        })
    };
    match variant {
        VariantName::Antarctos if tagged("variant", "iceage") => Some(
            "the file's tags say Ice Age Chess: read it with `icebound pgn --variant iceage`"
                .into(),
        ),
        VariantName::Iceage if tagged("gametype", "antarctos") => Some(
            "the file's tags say Antarctos: read it with `icebound pdn --variant antarctos`".into(),
        ),
        _ => None,
    }
}

/// One line per game: its number, players, event, moves, the result written in the record
/// and the result reached on the board; or the first error of the game. Exit status 1 when
/// any game failed.
fn records_of<V: Variant>(file: &Path) -> Result<(), Failure> {
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let games = V::read_records(&text);
    if games.is_empty() {
        return Err(format!("{}: no games found", file.display()).into());
    }
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
