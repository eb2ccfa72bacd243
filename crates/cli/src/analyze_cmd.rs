//! `icebound analyze`: Search a position: one line per iteration, then `bestmove`.

use clap::Args;

use crate::variant_arg::VariantName;

#[derive(Args)]
pub struct AnalyzeArgs {
    #[arg(long)]
    pub variant: VariantName,
    #[arg(long)]
    pub fen: Option<String>,
    #[arg(long)]
    pub depth: Option<u32>,
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
}

pub fn analyze(args: AnalyzeArgs) -> Result<(), String> {
    let _ = args.variant;
    Err("the engine is not built yet (issue 4)".into())
}
