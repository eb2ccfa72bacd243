//! `icebound solve`: prove a forced win or loss within a ply limit; prints
//! `win in <n> plies: <line>`, `loss in <n> plies: <line>` or
//! `no forced result within <P> plies` (see `engine::solve`). A time limit keeps a hopeless
//! request (twenty plies of chess from the start) from running for hours: when it ends the
//! search, `<P>` is the deepest ply count searched in full, and a note on stderr says so.

use std::time::{Duration, Instant};

use clap::Args;
use game::Variant;

use crate::analyze_cmd::check_threads;
use crate::rules_cmds::position;
use games::{GameKind, with_game};

/// The solver's ply limit may not exceed this (its tables are sized for it).
const MAX_PLIES: u32 = 100;

#[derive(Args)]
pub struct SolveArgs {
    #[arg(long)]
    pub variant: GameKind,
    /// Position text of the position to prove.
    #[arg(long)]
    pub fen: String,
    /// Longest line searched, in plies (1 to 100).
    #[arg(long, default_value_t = 20)]
    pub max_plies: u32,
    /// Time limit in milliseconds; when it runs out, the result covers the plies searched
    /// in full.
    #[arg(long, default_value_t = 60_000)]
    pub movetime: u64,
    /// Threads (1 to 256; Lazy SMP over one shared table). The proof is the same; more
    /// threads find it sooner.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

pub fn solve(args: SolveArgs) -> Result<(), String> {
    with_game!(args.variant, V => run::<V>(&args))
}

fn run<V: Variant>(args: &SolveArgs) -> Result<(), String> {
    if args.max_plies == 0 || args.max_plies > MAX_PLIES {
        return Err(format!(
            "--max-plies must be between 1 and {MAX_PLIES}, not {}",
            args.max_plies
        ));
    }
    if args.movetime == 0 {
        return Err("--movetime must be at least 1 (milliseconds)".into());
    }
    check_threads(args.threads)?;
    let pos = position::<V>(Some(&args.fen))?;
    if let Some(outcome) = V::outcome(&pos) {
        return Err(format!("the game is over in this position: {outcome}"));
    }
    let deadline = Instant::now().checked_add(Duration::from_millis(args.movetime));
    let solution = engine::solve::solve_threads::<V>(&pos, args.max_plies, deadline, args.threads);
    println!("{}", engine::solve::proof_text::<V>(&pos, &solution.proof));
    if solution.stopped {
        eprintln!(
            "note: the time limit of {} ms ended the search before --max-plies {}; the result \
             covers the plies searched in full (a longer --movetime searches deeper)",
            args.movetime, args.max_plies
        );
    }
    Ok(())
}
