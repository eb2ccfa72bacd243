//! `icebound selfplay`: engine self-play statistics (results by colour with percentages,
//! White's score with a 95 % interval, end reasons, game lengths), records optionally
//! written to a PDN/PGN file and a summary row to the database (`--database`).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use engine::{EngineConfig, EngineVariant};
use indicatif::{ProgressBar, ProgressStyle};
use lab::games::{DEFAULT_MAX_PLIES, PlayedGame};
use lab::selfplay::SelfplayOptions;
use lab::setting::setting_name;
use lab::stats::SelfplayStats;

use crate::lab_db::{DatabaseArg, LabDatabase};
use games::{GameKind, with_game};

#[derive(Args)]
pub struct SelfplayArgs {
    #[arg(long)]
    pub variant: GameKind,
    /// Number of games (1 to 1,000,000).
    #[arg(long)]
    pub games: u32,
    /// Play only games K to `--games` (1-based, as the records' `Round` tags count): a run
    /// stopped early goes on with the same command and `--from-game` one past its last game.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub from_game: u32,
    /// Engine strength level (1-8) for both sides.
    #[arg(long, conflicts_with = "nodes")]
    pub level: Option<u8>,
    /// Node limit per move for both sides.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// `game`: each side keeps its transposition table from move to move over a game, as
    /// the site's level 8 does (the setting `table=game`); `move`: a fresh table each move.
    #[arg(long, value_enum, default_value_t = Table::Move)]
    pub table: Table,
    /// Worker threads, 1 to 256 (default 1).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Run seed: game i uses a seed derived from it and i, so a run reproduces.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random legal plies at the start of each game (seeded).
    #[arg(long, default_value_t = 0)]
    pub random_plies: u32,
    /// Safety cap on plies per game; a game that reaches it is reported as capped.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    pub max_plies: u32,
    /// Write every game to this file (PDN for Antarctos, PGN for Ice Age Chess).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub db: DatabaseArg,
}

/// Whether the engine keeps its table over a game (`EngineConfig::keep_table`).
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Table {
    /// A fresh table each move.
    Move,
    /// One table per side kept over the game.
    Game,
}

pub fn selfplay(args: SelfplayArgs) -> Result<(), String> {
    with_game!(args.variant, V => run::<V>(&args))
}

fn engine_config(args: &SelfplayArgs) -> Result<EngineConfig, String> {
    let config = match (args.level, args.nodes) {
        (Some(l), _) => match engine::level::Level::new(i64::from(l)) {
            Some(level) => Ok(EngineConfig::level(level.get())),
            None => Err(format!("--level {l}: levels go from 1 to 8")),
        },
        (None, Some(0)) => Err("--nodes 0: must be at least 1".into()),
        (None, Some(n)) => Ok(EngineConfig {
            nodes: Some(n),
            ..Default::default()
        }),
        (None, None) => Err("give the engine setting: --level L or --nodes N".into()),
    }?;
    Ok(EngineConfig {
        keep_table: args.table == Table::Game,
        ..config
    })
}

fn run<V: EngineVariant>(args: &SelfplayArgs) -> Result<(), String> {
    check_games(args.games)?;
    check_plies(args.random_plies, args.max_plies)?;
    let engine = engine_config(args)?;
    let threads = thread_count(args.threads)?;
    if args.from_game == 0 || args.from_game > args.games {
        return Err(format!(
            "--from-game {}: must be 1 to --games ({})",
            args.from_game, args.games
        ));
    }
    let opts = SelfplayOptions {
        games: args.games,
        first_game: args.from_game - 1,
        threads,
        seed: args.seed,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        engine,
    };
    let mut out = match &args.out {
        Some(path) => Some(RecordFile::create(path)?),
        None => None,
    };
    let db = LabDatabase::open(&args.db)?;
    let started = Instant::now();
    let from = if opts.first_game > 0 {
        format!(" (from game {})", opts.first_game + 1)
    } else {
        String::new()
    };
    println!(
        "selfplay {}: {} games{from}, engine {}, {} random plies, seed {}, ply cap {}, threads {}",
        V::TITLE,
        opts.games,
        setting_name(&opts.engine),
        opts.random_plies,
        opts.seed,
        opts.max_plies,
        opts.threads
    );
    let bar = progress_bar(u64::from(opts.games - opts.first_game));
    let mut running = SelfplayStats::default();
    let (_, stats) = lab::selfplay::selfplay::<V>(&opts, |i, game: &PlayedGame<V>| {
        if let Some(file) = out.as_mut() {
            file.write(&V::write_record(&game.record));
        }
        running.add(game.end, u64::from(game.plies));
        bar.inc(1);
        if bar.is_hidden() && (i + 1).is_multiple_of(50) {
            // No terminal (e.g. a nohup log): a line now and then instead of the bar.
            eprintln!(
                "games {}/{}: white {} black {} draws {} capped {}",
                i + 1,
                opts.games,
                running.white_wins,
                running.black_wins,
                running.draws,
                running.capped
            );
        }
        if out.as_ref().is_some_and(RecordFile::failed) {
            // The records can no longer be kept: stop rather than play on for nothing.
            eprintln!(
                "selfplay stops after game {}: its records cannot be written",
                i + 1
            );
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    })
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    print_stats(&stats);
    let records = RecordFile::finish_reported(out);
    let stored = match db {
        Some(db) => {
            let setup = crate::lab_db::run_setup(
                args.variant,
                setting_name(&opts.engine),
                opts.seed,
                opts.random_plies,
                opts.max_plies,
                started,
            );
            db.save(&crate::lab_rows::selfplay_run(&setup, &stats))
        }
        None => Ok(()),
    };
    crate::lab_db::both(records, stored)
}

/// Most worker threads `--threads` may ask for: every thread holds an engine with its own
/// transposition table (up to 16 MiB), so a mistyped count must not exhaust the memory.
pub const MAX_THREADS: usize = 256;

/// Most games one run may ask for: every game's record is kept until the run ends.
pub const MAX_GAMES: u32 = 1_000_000;

/// `--games` from 1 to [`MAX_GAMES`] (a mistyped count used to abort on a failed allocation;
/// `tune` checks it before it replaces its data file).
pub fn check_games(games: u32) -> Result<(), String> {
    if games == 0 {
        return Err("--games 0: nothing to play".into());
    }
    if games > MAX_GAMES {
        return Err(format!("--games {games}: at most {MAX_GAMES}"));
    }
    Ok(())
}

/// `--max-plies` at least 1 and above `--random-plies`, so that the engine plays each game.
pub fn check_plies(random_plies: u32, max_plies: u32) -> Result<(), String> {
    if max_plies == 0 {
        return Err("--max-plies 0: must be at least 1".into());
    }
    if random_plies >= max_plies {
        return Err(format!(
            "--random-plies {random_plies} must be less than --max-plies {max_plies}"
        ));
    }
    Ok(())
}

/// The `--threads` value (1 when absent), checked to be 1 to [`MAX_THREADS`].
pub fn thread_count(threads: Option<usize>) -> Result<usize, String> {
    match threads.unwrap_or(1) {
        0 => Err("--threads 0: must be at least 1".into()),
        t if t > MAX_THREADS => Err(format!("--threads {t}: at most {MAX_THREADS}")),
        t => Ok(t),
    }
}

/// A progress bar on stderr (hidden when stderr is not a terminal).
pub fn progress_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})")
    {
        bar.set_style(style);
    }
    bar
}

/// Records appended one game at a time, so a run stopped early keeps its finished games.
pub struct RecordFile {
    writer: BufWriter<File>,
    path: PathBuf,
    games: u64,
    error: Option<String>,
}

impl RecordFile {
    /// Creates (truncates) `path`.
    pub fn create(path: &Path) -> Result<Self, String> {
        let file = File::create(path)
            .map_err(|e| format!("cannot create --out file {}: {e}", path.display()))?;
        Ok(RecordFile {
            writer: BufWriter::new(file),
            path: path.to_path_buf(),
            games: 0,
            error: None,
        })
    }

    /// Appends one record; the first error is kept for [`RecordFile::finish`].
    pub fn write(&mut self, text: &str) {
        if self.error.is_some() {
            return;
        }
        let sep = if self.games > 0 { "\n" } else { "" };
        match write!(self.writer, "{sep}{text}").and_then(|_| self.writer.flush()) {
            Ok(()) => self.games += 1,
            Err(e) => {
                self.error = Some(format!(
                    "writing {}: {e} (after {} whole games)",
                    self.path.display(),
                    self.games
                ))
            }
        }
    }

    /// Whether a write failed (the file then keeps the games before the failure).
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// Finishes `out` if the run has one and says how many games it holds (the line that
    /// `selfplay` and `match` print after their report).
    pub fn finish_reported(out: Option<RecordFile>) -> Result<(), String> {
        let Some(file) = out else {
            return Ok(());
        };
        let path = file.path.clone();
        let written = file.finish()?;
        println!("records {written} games written to {}", path.display());
        Ok(())
    }

    /// Flushes; the number of games written, or the first write error.
    pub fn finish(mut self) -> Result<u64, String> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.writer
            .flush()
            .map_err(|e| format!("writing {}: {e}", self.path.display()))?;
        Ok(self.games)
    }
}

fn print_stats(stats: &SelfplayStats) {
    let n = stats.games();
    println!("games {n}");
    for (label, count) in [
        ("white wins", stats.white_wins),
        ("black wins", stats.black_wins),
        ("draws", stats.draws),
        ("capped", stats.capped),
    ] {
        println!("{label:<11}{count:>8}  ({:.2} %)", stats.percent(count));
    }
    let white = stats.white();
    match (white.score(), white.wilson(), white.elo()) {
        (Some(score), Some(interval), Some(elo)) => println!(
            "white score {score:.4} (95 % Wilson interval {:.4} to {:.4}) over {} finished games, Elo {}",
            interval.lower,
            interval.upper,
            white.games(),
            elo.display()
        ),
        _ => println!("white score n/a (no finished games)"),
    }
    println!("end reasons");
    for (reason, count) in &stats.reasons {
        println!("  {reason:<18}{count:>8}  ({:.2} %)", stats.percent(*count));
    }
    if let Some(mean) = stats.mean_plies() {
        println!(
            "length mean {mean:.1} plies, longest {} plies",
            stats.longest
        );
    }
}
