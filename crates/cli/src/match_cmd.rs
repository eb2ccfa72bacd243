//! `icebound match`: Paired engine match with Elo and SPRT.

use clap::Args;

use crate::variant_arg::VariantName;

#[derive(Args)]
pub struct MatchArgs {
    #[arg(long)]
    pub variant: VariantName,
    #[arg(long)]
    pub engine_a: String,
    #[arg(long)]
    pub engine_b: String,
    #[arg(long)]
    pub games: u32,
    /// `elo0=0,elo1=10`
    #[arg(long)]
    pub sprt: Option<String>,
    #[arg(long)]
    pub threads: Option<usize>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn match_(args: MatchArgs) -> Result<(), String> {
    let _ = args.variant;
    Err("the engine is not built yet (issue 4)".into())
}
