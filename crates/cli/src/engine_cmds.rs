//! The engine commands: `analyze`, `solve`, `play`, `selfplay`, `match`.

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

#[derive(Args)]
pub struct SolveArgs {
    #[arg(long)]
    pub variant: VariantName,
    #[arg(long)]
    pub fen: String,
    #[arg(long, default_value_t = 20)]
    pub max_plies: u32,
}

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

const NOT_YET: &str = "the engine is not built yet (issue 4)";

pub fn analyze(_args: AnalyzeArgs) -> Result<(), String> {
    Err(NOT_YET.into())
}
pub fn solve(_args: SolveArgs) -> Result<(), String> {
    Err(NOT_YET.into())
}
pub fn play(_args: PlayArgs) -> Result<(), String> {
    Err(NOT_YET.into())
}
pub fn selfplay(_args: SelfplayArgs) -> Result<(), String> {
    Err(NOT_YET.into())
}
pub fn match_(_args: MatchArgs) -> Result<(), String> {
    Err(NOT_YET.into())
}
