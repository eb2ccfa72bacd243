//! `icebound solve`: Prove a forced win or loss within a ply limit.

use clap::Args;

use crate::variant_arg::VariantName;

#[derive(Args)]
pub struct SolveArgs {
    #[arg(long)]
    pub variant: VariantName,
    #[arg(long)]
    pub fen: String,
    #[arg(long, default_value_t = 20)]
    pub max_plies: u32,
}

pub fn solve(args: SolveArgs) -> Result<(), String> {
    let _ = args.variant;
    Err("the engine is not built yet (issue 4)".into())
}
