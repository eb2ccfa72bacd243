//! `icebound`: the command line of the project. Every subcommand's output is a contract
//! (see README.md); errors go to stderr with exit status 1.

mod admin_cmd;
mod allocator;
mod analyze_cmd;
mod backup_cmd;
mod data_args;
mod lab_db;
mod lab_rows;
mod load_cmd;
mod match_cmd;
mod nnue_cmd;
mod play_cmd;
mod puzzles_cmd;
mod puzzles_site;
mod records_cmds;
mod rules_cmds;
mod selfplay_cmd;
mod serve_cmd;
mod solve_cmd;
mod suite_cmd;
mod tune_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use games::GameKind;

#[derive(Parser)]
#[command(
    name = "icebound",
    version,
    about = "Antarctos and Ice Age Chess: rules, engine, site"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (prints `nodes`, `time_ms`, `nps`).
    Perft {
        #[arg(long)]
        variant: GameKind,
        /// Position text; the start position when absent.
        #[arg(long)]
        fen: Option<String>,
        #[arg(long)]
        depth: u32,
        /// Print `<move> <count>` for every legal move first.
        #[arg(long)]
        divide: bool,
    },
    /// Print the legal moves in canonical text, one per line, sorted.
    Moves {
        #[arg(long)]
        variant: GameKind,
        #[arg(long)]
        fen: Option<String>,
    },
    /// Play moves and print the final position text and `result <text>`.
    Apply {
        #[arg(long)]
        variant: GameKind,
        #[arg(long)]
        fen: Option<String>,
        /// Moves in any accepted input form.
        #[arg(allow_hyphen_values = true)]
        moves: Vec<String>,
    },
    /// Read and replay every game of a PDN file (Antarctos).
    Pdn {
        #[arg(long, default_value = "antarctos")]
        variant: GameKind,
        file: std::path::PathBuf,
    },
    /// Read and replay every game of a PGN file (Ice Age Chess).
    Pgn {
        #[arg(long, default_value = "iceage")]
        variant: GameKind,
        file: std::path::PathBuf,
    },
    /// Write every game of a record file again in canonical form (to stdout; warnings and
    /// games that cannot be read to stderr).
    Convert {
        #[arg(long)]
        variant: GameKind,
        file: std::path::PathBuf,
    },
    /// Search a position and print one line per iteration, then `bestmove`.
    Analyze(analyze_cmd::AnalyzeArgs),
    /// Prove a forced win or loss within a ply limit.
    Solve(solve_cmd::SolveArgs),
    /// Play against the engine in the terminal.
    Play(play_cmd::PlayArgs),
    /// Engine self-play statistics.
    Selfplay(selfplay_cmd::SelfplayArgs),
    /// Paired match between two engine settings, with Elo and SPRT.
    Match(match_cmd::MatchArgs),
    /// Tune an evaluation's weights on self-play positions (Texel's method).
    Tune(tune_cmd::TuneArgs),
    /// Data and training for the learned evaluation (NNUE).
    Nnue(nnue_cmd::NnueArgs),
    /// Run a suite of chess positions (EPD) through icebound and optionally a UCI engine.
    Suite(suite_cmd::SuiteArgs),
    /// Puzzles "X begins and wins": mine them from games, check a puzzle file.
    Puzzles(puzzles_cmd::PuzzlesArgs),
    /// Run the web site.
    Serve(serve_cmd::ServeArgs),
    /// Write a consistent copy of the site's database while it runs.
    Backup(backup_cmd::BackupArgs),
    /// Play many friend games against running servers and measure moves/s and latency.
    Load(load_cmd::LoadArgs),
    /// The site's accounts: the moderator role (`admin grant-mod USER`, `admin revoke-mod USER`).
    Admin(admin_cmd::AdminArgs),
}

fn main() -> ExitCode {
    quiet_exit_on_closed_stdout();
    // README: errors go to stderr with exit status 1, usage errors included (clap's own
    // default is 2); `--help` and `--version` print to stdout and succeed.
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let result = match cli.command {
        Command::Perft {
            variant,
            fen,
            depth,
            divide,
        } => rules_cmds::perft(variant, fen.as_deref(), depth, divide),
        Command::Moves { variant, fen } => rules_cmds::moves(variant, fen.as_deref()),
        Command::Apply {
            variant,
            fen,
            moves,
        } => rules_cmds::apply(variant, fen.as_deref(), &moves),
        Command::Pdn { variant, file } | Command::Pgn { variant, file } => {
            records_cmds::records(variant, &file)
        }
        Command::Convert { variant, file } => records_cmds::convert(variant, &file),
        Command::Analyze(args) => analyze_cmd::analyze(args),
        Command::Solve(args) => solve_cmd::solve(args),
        Command::Play(args) => play_cmd::play(args),
        Command::Selfplay(args) => selfplay_cmd::selfplay(args),
        Command::Match(args) => match_cmd::match_(args),
        Command::Tune(args) => tune_cmd::tune(args),
        Command::Nnue(args) => nnue_cmd::nnue(args),
        Command::Suite(args) => suite_cmd::suite(args),
        Command::Puzzles(args) => puzzles_cmd::puzzles(args),
        Command::Serve(args) => serve_cmd::serve(args),
        Command::Backup(args) => backup_cmd::backup(args),
        Command::Load(args) => load_cmd::load(args),
        Command::Admin(args) => admin_cmd::admin(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// A reader that goes away (`icebound analyze ... | head -3`) ends the command quietly with
/// status 1. Rust ignores SIGPIPE, so the next `println!` panics with "failed printing to stdout:
/// Broken pipe"; this hook turns exactly that panic into a quiet exit, any other failure to
/// print to stdout (a full disk: `> /dev/full`) into one error line and status 1, and leaves
/// every other panic to the default hook.
fn quiet_exit_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(cause) = message.strip_prefix("failed printing to stdout") {
            // A full disk or another write error: say so in one line, as the commands that
            // write with `write!` do, instead of a panic and its backtrace.
            if !message.contains("Broken pipe") {
                let cause = cause.trim_start_matches(':').trim();
                eprintln!("error: cannot write the output: {cause}");
            }
            std::process::exit(1);
        }
        default(info);
    }));
}
