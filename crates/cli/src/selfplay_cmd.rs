//! `icebound selfplay`: Engine self-play statistics.

use clap::Args;

use crate::variant_arg::VariantName;

#[derive(Args)]
pub struct SelfplayArgs {
    #[arg(long)]
    pub variant: VariantName,
    #[arg(long)]
    pub games: u32,
    #[arg(long)]
    pub level: Option<u8>,
    #[arg(long)]
    pub nodes: Option<u64>,
    #[arg(long)]
    pub threads: Option<usize>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 0)]
    pub random_plies: u32,
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
}

pub fn selfplay(args: SelfplayArgs) -> Result<(), String> {
    let _ = args.variant;
    Err("the engine is not built yet (issue 4)".into())
}
