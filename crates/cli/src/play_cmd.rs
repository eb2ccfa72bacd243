//! `icebound play`: A game against the engine in the terminal.

use clap::Args;

use crate::variant_arg::VariantName;

#[derive(Args)]
pub struct PlayArgs {
    #[arg(long)]
    pub variant: VariantName,
    #[arg(long, default_value_t = 4)]
    pub level: u8,
    #[arg(long, default_value = "white")]
    pub color: String,
    #[arg(long)]
    pub fen: Option<String>,
}

pub fn play(args: PlayArgs) -> Result<(), String> {
    let _ = args.variant;
    Err("the engine is not built yet (issue 4)".into())
}
