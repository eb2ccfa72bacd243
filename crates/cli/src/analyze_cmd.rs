//! `icebound analyze`: search a position and print one line per iteration,
//! `depth <d> score <s> nodes <n> time <ms> nps <r> pv <moves>`, then `bestmove <move>`. Scores are
//! from the side to move, in centi-units, or `win <n>` / `loss <n>` (plies to the end).

use std::time::Duration;

use clap::Args;
use engine::score::ScoreText;
use engine::search::{MAX_PLY, MAX_THREADS};
use engine::{EngineVariant, Iteration, Limits, SearchResult, Searcher};
use game::Variant;

use crate::rules_cmds::position;
use games::{GameKind, with_game};

/// Node budget when no limit is given.
const DEFAULT_NODES: u64 = 1_000_000;

/// Largest transposition table `--hash` may ask for, in MiB.
const MAX_HASH_MIB: usize = 4096;

#[derive(Args)]
pub struct AnalyzeArgs {
    #[arg(long)]
    pub variant: GameKind,
    /// Position text; the start position when absent.
    #[arg(long)]
    pub fen: Option<String>,
    /// Deepest iteration, in plies (1 to 127).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Node budget (1,000,000 when no limit is given).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Time budget in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Transposition table size in MiB (1 to 4096).
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Search threads (1 to 256; Lazy SMP over the one table). With more than one, the
    /// node limit counts every thread's nodes and the result depends on timing.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// `current` (default), `previous` (the frozen engine of 2026-12-07, `engine::previous`)
    /// or `baseline` (the frozen engine of before issue 15, `engine::baseline`, one thread),
    /// for before/after measurements.
    #[arg(long, default_value = "current")]
    pub engine: String,
}

/// Checks a `--threads` value: 1 to [`MAX_THREADS`].
pub fn check_threads(threads: usize) -> Result<(), String> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(())
    } else {
        Err(format!(
            "--threads must be 1 to {MAX_THREADS}, not {threads}"
        ))
    }
}

pub fn analyze(args: AnalyzeArgs) -> Result<(), String> {
    with_game!(args.variant, V => run::<V>(&args))
}

fn run<V: EngineVariant>(args: &AnalyzeArgs) -> Result<(), String> {
    let pos = position::<V>(args.fen.as_deref())?;
    if let Some(outcome) = V::outcome(&pos) {
        return Err(format!("the game is over in this position: {outcome}"));
    }
    if let Some(depth) = args.depth
        && !(1..MAX_PLY).contains(&depth)
    {
        return Err(format!("--depth must be 1 to {}, not {depth}", MAX_PLY - 1));
    }
    if args.nodes == Some(0) {
        return Err("--nodes must be at least 1".into());
    }
    if args.movetime == Some(0) {
        return Err("--movetime must be at least 1 (milliseconds)".into());
    }
    if !(1..=MAX_HASH_MIB).contains(&args.hash) {
        return Err(format!(
            "--hash must be 1 to {MAX_HASH_MIB} (MiB), not {}",
            args.hash
        ));
    }
    let mut limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        stop: None,
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        limits.nodes = Some(DEFAULT_NODES);
    }
    check_threads(args.threads)?;
    let print = |it: &Iteration<V>| {
        println!(
            "depth {} score {} nodes {} time {} nps {} pv {}",
            it.depth,
            ScoreText(it.score),
            it.nodes,
            it.elapsed.as_millis(),
            it.nps(),
            line_text::<V>(&pos, &it.pv)
        );
    };
    let result: SearchResult<V> = match args.engine.as_str() {
        "current" => {
            let table = engine::tt::Table::try_new(args.hash).map_err(|e| e.to_string())?;
            let table = std::sync::Arc::new(table);
            Searcher::<V>::with_table(table, args.threads).search(&pos, &limits, print)
        }
        "previous" => {
            let table =
                engine::previous::tt::Table::try_new(args.hash).map_err(|e| e.to_string())?;
            let table = std::sync::Arc::new(table);
            engine::previous::Searcher::<V>::with_table(table, args.threads)
                .search(&pos, &limits, print)
        }
        "baseline" => {
            if args.threads != 1 {
                return Err("--engine baseline has one thread only (--threads 1)".into());
            }
            engine::baseline::Searcher::<V>::new(args.hash).search(&pos, &limits, print)
        }
        other => {
            return Err(format!(
                "--engine must be current, previous or baseline, not '{other}'"
            ));
        }
    };
    let best = result
        .best
        .ok_or_else(|| "no legal move in this position".to_string())?;
    println!("bestmove {}", V::move_text(&pos, &best));
    Ok(())
}

/// Moves in canonical text, separated by spaces, each in the position it is played in.
fn line_text<V: Variant>(start: &V::Position, line: &[V::Move]) -> String {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(line.len());
    for mv in line {
        out.push(V::move_text(&pos, mv));
        match V::play(&pos, mv) {
            Ok(next) => pos = next,
            Err(_) => break,
        }
    }
    out.join(" ")
}
