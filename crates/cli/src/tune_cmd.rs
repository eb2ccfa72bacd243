//! `icebound tune`: tunes an evaluation's weights by Texel's method (`lab::tune`). With
//! `--games N` it first plays N self-play games and writes their quiet positions, labelled
//! by result, to `--data` (`lab::datagen`); with `--fit` it fits the weights to `--data`
//! and prints them beside the current ones, and with `--write FILE` also writes them as
//! the game's weights file (`crates/engine/src/eval/<game>_weights.rs`).

use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

use clap::Args;
use engine::EngineConfig;
use lab::selfplay::SelfplayOptions;
use lab::tune::Tunable;

use crate::data_args::DataArgs;
use crate::selfplay_cmd::{check_games, progress_bar, thread_count};
use games::with_game;

#[derive(Args)]
pub struct TuneArgs {
    /// The game, the data file and the self-play games that make it.
    #[command(flatten)]
    pub data: DataArgs,
    /// Worker threads for the games, 1 to 256.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Fit the weights to `--data`.
    #[arg(long)]
    pub fit: bool,
    /// Start the fit from the hand-set weights of before tuning instead of the current.
    #[arg(long, requires = "fit")]
    pub from_hand: bool,
    /// Terms whose weights the fit keeps as they start, comma-separated: whole names
    /// (`home guard`, that term alone) or first words (`advance` for `advance 1` to
    /// `advance 6`).
    #[arg(long, requires = "fit")]
    pub hold: Option<String>,
    /// Full passes over the data.
    #[arg(long, default_value_t = 2_000, requires = "fit")]
    pub epochs: u32,
    /// Adam's step size, in centi-units.
    #[arg(long, default_value_t = 1.0, requires = "fit", value_parser = parse_rate)]
    pub rate: f64,
    /// Write the fitted weights as a weights file to this path.
    #[arg(long, requires = "fit")]
    pub write: Option<PathBuf>,
}

pub fn tune(args: TuneArgs) -> Result<(), String> {
    with_game!(args.data.variant, V => run::<V>(&args))
}

fn run<V: Tunable>(args: &TuneArgs) -> Result<(), String> {
    if args.data.games.is_none() && !args.fit {
        return Err("nothing to do: give --games N (make data), --fit (fit to it), or both".into());
    }
    if let Some(games) = args.data.games {
        generate::<V>(args, games)?;
    }
    if args.fit {
        fit::<V>(args)?;
    }
    Ok(())
}

fn generate<V: Tunable>(args: &TuneArgs, games: u32) -> Result<(), String> {
    // Before the data file is replaced: `--games 0` is refused here.
    check_games(games)?;
    if args.data.nodes == 0 {
        return Err("--nodes 0: must be at least 1".into());
    }
    let opts = SelfplayOptions {
        games,
        threads: thread_count(args.threads)?,
        seed: args.data.seed,
        random_plies: args.data.random_plies,
        ..SelfplayOptions::new(
            games,
            EngineConfig {
                nodes: Some(args.data.nodes),
                ..EngineConfig::default()
            },
        )
    };
    let file = args.data.create()?;
    let mut out = BufWriter::new(file);
    println!(
        "tune data {}: {} self-play games at nodes={}, {} random plies, positions from ply {}, seed {}",
        V::TITLE,
        games,
        args.data.nodes,
        args.data.random_plies,
        args.data.skip,
        args.data.seed
    );
    let bar = progress_bar(u64::from(games));
    let mut positions = 0u64;
    let mut error: Option<std::io::Error> = None;
    lab::selfplay::selfplay::<V>(&opts, |_, game| {
        for line in lab::datagen::game_positions(game, args.data.skip) {
            if error.is_none()
                && let Err(e) = writeln!(out, "{line}")
            {
                error = Some(e);
            }
            positions += 1;
        }
        bar.inc(1);
        // A failed write (a full disk) ends the data step: the rest would be lost too.
        if error.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    if let Some(e) = error {
        return Err(format!("cannot write {}: {e}", args.data.file.display()));
    }
    out.flush()
        .map_err(|e| format!("cannot write {}: {e}", args.data.file.display()))?;
    println!(
        "positions {positions} written to {}",
        args.data.file.display()
    );
    Ok(())
}

fn fit<V: Tunable>(args: &TuneArgs) -> Result<(), String> {
    let held = match args.hold.as_deref() {
        Some(h) => {
            if !recordable(h) {
                return Err("--hold: control characters and backticks cannot be recorded in the weights file's header".into());
            }
            lab::tune::held_terms::<V>(h).map_err(|e| format!("--hold: {e}"))?
        }
        None => Vec::new(),
    };
    if let Some(path) = &args.write {
        check_writable(path, &args.data.file)?;
    }
    let text = args.data.read()?;
    let data = lab::tune::read_data::<V>(&text)
        .map_err(|e| format!("{}: {e}", args.data.file.display()))?;
    let start = if args.from_hand {
        V::hand_weights()
    } else {
        V::weights()
    };
    println!(
        "tune fit {}: {} positions, {} terms, {} epochs, rate {}",
        V::TITLE,
        data.len(),
        data.terms,
        args.epochs,
        args.rate
    );
    let fit = lab::tune::fit::<V>(
        &data,
        &start,
        &held,
        args.epochs,
        args.rate,
        |epoch, error| {
            if epoch % 500 == 0 {
                eprintln!("epoch {epoch}: error {error:.6}");
            }
        },
    );
    if !fit.error_after.is_finite() {
        return Err(format!(
            "the fit diverged (error {} after); try a smaller --rate",
            fit.error_after
        ));
    }
    println!("K {:.4}", fit.k);
    println!(
        "error {:.6} before, {:.6} after ({:.6} rounded)",
        fit.error_before, fit.error_after, fit.error_rounded
    );
    let hand = V::hand_weights();
    println!(
        "{:<20} {:>7} {:>7} {:>7}",
        "term", "hand", "start", "fitted"
    );
    for (i, name) in V::TERM_NAMES.iter().enumerate() {
        let mark = if V::FIXED.contains(&i) {
            "  fixed (the unit)"
        } else if held.contains(&i) {
            "  held"
        } else {
            ""
        };
        println!(
            "{:<20} {:>7} {:>7} {:>7}{mark}",
            name, hand[i], start[i], fit.weights[i]
        );
    }
    let setting: Vec<String> = fit.weights.iter().map(i32::to_string).collect();
    // The same weights as an engine setting, for a match against the kept ones first.
    println!("as an engine setting: weights={}", setting.join("/"));
    if let Some(path) = &args.write {
        let command = format!(
            "icebound tune --variant {} --data {} --fit{}{} --epochs {} --rate {} --write {}",
            V::NAME,
            shell_quote(&args.data.file.display().to_string()),
            if args.from_hand { " --from-hand" } else { "" },
            match &args.hold {
                Some(h) => format!(" --hold {}", shell_quote(h)),
                None => String::new(),
            },
            args.epochs,
            args.rate,
            shell_quote(&path.display().to_string())
        );
        let from = if args.from_hand {
            "the hand-set weights"
        } else {
            "the weights this file replaced"
        };
        let text = lab::tune::weights_file::<V>(&fit.weights, &command, from);
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("weights written to {}", path.display());
    }
    Ok(())
}

/// Adam's step size: a finite number above 0.
fn parse_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if r.is_finite() && r > 0.0 && r <= 1e6 => Ok(r),
        Ok(_) => Err(format!("{text}: must be above 0 and at most 1000000")),
        Err(_) => Err(format!("{text}: not a number")),
    }
}

/// Whether `text` fits in the one-line comment of a weights file's header.
fn recordable(text: &str) -> bool {
    !text.chars().any(|c| c.is_control() || c == '`')
}

/// Refuses, before a long fit, a `--write` path that cannot be written (a directory, a
/// missing parent) and a data path the header cannot record.
fn check_writable(path: &std::path::Path, data: &std::path::Path) -> Result<(), String> {
    if !recordable(&data.display().to_string()) || !recordable(&path.display().to_string()) {
        return Err("--write: a path with control characters or backticks cannot be recorded in the weights file's header".into());
    }
    if path.is_dir() {
        return Err(format!("--write {}: is a directory", path.display()));
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    if !parent.is_dir() {
        return Err(format!(
            "--write {}: no directory {}",
            path.display(),
            parent.display()
        ));
    }
    Ok(())
}

/// `text` as one word of a POSIX shell: unchanged when it holds only characters no shell
/// treats specially, else in single quotes (a quote inside written `'\''`).
fn shell_quote(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./,=:+@%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::shell_quote;

    #[test]
    fn shell_words_are_quoted_only_when_needed() {
        assert_eq!(shell_quote("antarctos_data.txt"), "antarctos_data.txt");
        assert_eq!(shell_quote("advance,home guard"), "'advance,home guard'");
        assert_eq!(shell_quote("it's $x"), "'it'\\''s $x'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn rates_are_finite_and_positive() {
        assert_eq!(super::parse_rate("2.5"), Ok(2.5));
        for bad in ["0", "-1", "NaN", "inf", "1e300", "x"] {
            assert!(super::parse_rate(bad).is_err(), "{bad}");
        }
        assert!(!super::recordable("a\nb") && !super::recordable("a`b"));
        assert!(super::recordable("advance,home guard"));
    }
}
