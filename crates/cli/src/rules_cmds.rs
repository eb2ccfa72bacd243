//! The rules commands: `perft`, `moves`, `apply`. Generic over the game.

use std::io::{self, Write};
use std::time::Instant;

use game::Variant;

use games::{GameKind, with_game};

/// Why a rules command stopped: a message for the user, or stdout failing.
pub(crate) enum Failure {
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
pub(crate) fn finish(result: Result<(), Failure>) -> Result<(), String> {
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

pub fn perft(variant: GameKind, fen: Option<&str>, depth: u32, divide: bool) -> Result<(), String> {
    finish(with_game!(variant, V => perft_of::<V>(fen, depth, divide)))
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

pub fn moves(variant: GameKind, fen: Option<&str>) -> Result<(), String> {
    finish(with_game!(variant, V => moves_of::<V>(fen)))
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

pub fn apply(variant: GameKind, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
    finish(with_game!(variant, V => apply_of::<V>(fen, moves)))
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
