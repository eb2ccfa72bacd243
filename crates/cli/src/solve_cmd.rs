//! `icebound solve`: prove a forced win or loss within a ply limit; prints
//! `win in <n> plies: <line>`, `loss in <n> plies: <line>` or
//! `no forced result within <P> plies` (see `engine::solve`).

use clap::Args;
use game::Variant;

use crate::rules_cmds::position;
use crate::variant_arg::VariantName;
use crate::with_variant;

/// The solver's ply limit may not exceed this (its tables are sized for it).
const MAX_PLIES: u32 = 100;

#[derive(Args)]
pub struct SolveArgs {
    #[arg(long)]
    pub variant: VariantName,
    #[arg(long)]
    pub fen: String,
    /// Longest line searched, in plies.
    #[arg(long, default_value_t = 20)]
    pub max_plies: u32,
}

pub fn solve(args: SolveArgs) -> Result<(), String> {
    with_variant!(args.variant, V => run::<V>(&args))
}

fn run<V: Variant>(args: &SolveArgs) -> Result<(), String> {
    if args.max_plies == 0 || args.max_plies > MAX_PLIES {
        return Err(format!(
            "--max-plies must be between 1 and {MAX_PLIES}, not {}",
            args.max_plies
        ));
    }
    let pos = position::<V>(Some(&args.fen))?;
    if let Some(outcome) = V::outcome(&pos) {
        return Err(format!("the game is over in this position: {outcome}"));
    }
    let solution = engine::solve::solve::<V>(&pos, args.max_plies);
    println!("{}", engine::solve::proof_text::<V>(&pos, &solution.proof));
    Ok(())
}
