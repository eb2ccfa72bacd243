//! The self-play data options that `icebound tune` and `icebound nnue` share: which game,
//! the data file, and the games that write it (`--games`, `--nodes`, `--random-plies`,
//! `--skip`, `--seed`).

use std::fs::File;
use std::path::PathBuf;

use clap::Args;
use games::GameKind;

/// The game, the data file and the self-play games that make it (flattened into
/// [`crate::tune_cmd::TuneArgs`] and [`crate::nnue_cmd::NnueArgs`]).
#[derive(Args)]
pub struct DataArgs {
    /// The game: antarctos or iceage.
    #[arg(long)]
    pub variant: GameKind,
    /// The data file: written by `--games`, read by `--fit` (tune) or `--train` (nnue).
    #[arg(long = "data", value_name = "DATA")]
    pub file: PathBuf,
    /// Play this many self-play games and write their positions to `--data` (replacing it).
    #[arg(long)]
    pub games: Option<u32>,
    /// Node limit per move of those games.
    #[arg(long, default_value_t = 5_000)]
    pub nodes: u64,
    /// Random legal plies at the start of each game (seeded).
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Positions before this ply are not kept (the random opening and the moves right
    /// after it).
    #[arg(long, default_value_t = 12)]
    pub skip: u32,
    /// Run seed of the games (and of `nnue --train`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl DataArgs {
    /// Creates (or empties) the data file; the error names it.
    pub fn create(&self) -> Result<File, String> {
        File::create(&self.file).map_err(|e| format!("cannot create {}: {e}", self.file.display()))
    }

    /// The data file's text; the error names it.
    pub fn read(&self) -> Result<String, String> {
        std::fs::read_to_string(&self.file)
            .map_err(|e| format!("cannot read {}: {e}", self.file.display()))
    }
}
