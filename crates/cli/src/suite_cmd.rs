//! `icebound suite`: runs a test suite of chess positions (EPD, `lab::suite`) through
//! icebound's Ice Age Chess engine and, with `--stockfish PATH`, through a UCI engine at
//! the same time per position; prints one line per position and the totals.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use engine::{Limits, Searcher};
use game::Variant;
use iceage::{IceAge, Move};
use lab::suite::{Problem, parse_epd};
use lab::uci::UciEngine;

use crate::analyze_cmd::check_threads;

#[derive(Args)]
pub struct SuiteArgs {
    /// The EPD file (e.g. testdata/epd/wac.epd).
    #[arg(long)]
    pub epd: PathBuf,
    /// Thinking time per position, milliseconds (the same for every engine).
    #[arg(long, default_value_t = 1_000)]
    pub movetime: u64,
    /// Only the first N positions.
    #[arg(long)]
    pub first: Option<usize>,
    /// `current` (default) or `baseline`: the frozen engine of before issue 15.
    #[arg(long, default_value = "current")]
    pub engine: String,
    /// icebound's search threads (1 to 256; `current` only).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB, for icebound and the UCI engine alike.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// A UCI engine to run on the same positions (e.g. /usr/games/stockfish), with one
    /// thread and `--hash` MiB.
    #[arg(long)]
    pub stockfish: Option<PathBuf>,
}

pub fn suite(args: SuiteArgs) -> Result<(), String> {
    if args.movetime == 0 {
        return Err("--movetime must be at least 1 (milliseconds)".into());
    }
    check_threads(args.threads)?;
    if !(1..=4096).contains(&args.hash) {
        return Err(format!("--hash must be 1 to 4096 (MiB), not {}", args.hash));
    }
    let baseline = match args.engine.as_str() {
        "current" => false,
        "baseline" if args.threads == 1 => true,
        "baseline" => return Err("--engine baseline has one thread only (--threads 1)".into()),
        other => {
            return Err(format!(
                "--engine must be current or baseline, not '{other}'"
            ));
        }
    };
    let text = std::fs::read_to_string(&args.epd)
        .map_err(|e| format!("cannot read {}: {e}", args.epd.display()))?;
    let entries = parse_epd(&text).map_err(|e| format!("{}: {e}", args.epd.display()))?;
    let problems = entries
        .iter()
        .take(args.first.unwrap_or(usize::MAX))
        .map(Problem::new)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{}: {e}", args.epd.display()))?;
    let mut uci = match &args.stockfish {
        Some(path) => Some(
            UciEngine::start(
                path,
                &[
                    ("Threads", "1".to_string()),
                    ("Hash", args.hash.to_string()),
                ],
            )
            .map_err(|e| e.to_string())?,
        ),
        None => None,
    };
    println!(
        "suite {}: {} positions, {} ms each, icebound ({}, {} thread{}){}",
        args.epd.display(),
        problems.len(),
        args.movetime,
        args.engine,
        args.threads,
        if args.threads == 1 { "" } else { "s" },
        uci.as_ref()
            .map(|u| format!(" and {}", u.name))
            .unwrap_or_default()
    );
    let limits = Limits {
        movetime: Some(Duration::from_millis(args.movetime)),
        ..Limits::default()
    };
    let (mut ours, mut theirs, mut both) = (0usize, 0usize, 0usize);
    for p in &problems {
        let mv = if baseline {
            engine::baseline::Searcher::<IceAge>::new(args.hash)
                .search(&p.position, &limits, |_| {})
                .best
        } else {
            let table = engine::tt::Table::try_new(args.hash).map_err(|e| e.to_string())?;
            let table = Arc::new(table);
            Searcher::<IceAge>::with_table(table, args.threads)
                .search(&p.position, &limits, |_| {})
                .best
        };
        let ok = mv.as_ref().is_some_and(|m| p.solved_by(m));
        ours += usize::from(ok);
        let mut line = format!(
            "{} {} | icebound {} {}",
            p.entry.id,
            p.target(),
            text_of(p, mv.as_ref()),
            verdict(ok)
        );
        if let Some(engine) = uci.as_mut() {
            let text = engine
                .best_move(&p.fen(), args.movetime)
                .map_err(|e| e.to_string())?;
            let theirs_mv = IceAge::parse_move(&p.position, &text).ok();
            let sf_ok = theirs_mv.as_ref().is_some_and(|m| p.solved_by(m));
            theirs += usize::from(sf_ok);
            both += usize::from(ok && sf_ok);
            line.push_str(&format!(
                " | {} {} {}",
                engine.name,
                text_of(p, theirs_mv.as_ref()),
                verdict(sf_ok)
            ));
        }
        println!("{line}");
    }
    println!("icebound solved {ours} of {}", problems.len());
    if let Some(engine) = &uci {
        println!("{} solved {theirs} of {}", engine.name, problems.len());
        println!(
            "both {both}, icebound only {}, {} only {}",
            ours - both,
            engine.name,
            theirs - both
        );
    }
    Ok(())
}

fn text_of(p: &Problem, mv: Option<&Move>) -> String {
    mv.map_or("(none)".to_string(), |m| IceAge::move_text(&p.position, m))
}

fn verdict(ok: bool) -> &'static str {
    if ok { "ok" } else { "miss" }
}
