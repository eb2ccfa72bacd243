//! `icebound match`: a paired match between two engine settings (each opening played with
//! both colours), with A's score, the Elo difference of A over B with a 95 % error bar,
//! and an optional SPRT that stops the match when it decides; a summary row optionally goes to
//! the database (`--database`).

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use engine::EngineVariant;
use lab::games::DEFAULT_MAX_PLIES;
use lab::matches::{MatchOptions, MatchReport, PlayedPair, run_match};
use lab::setting::parse_setting;
use lab::setting::setting_name;
use lab::sprt::SprtParams;
use lab::stats::{Pentanomial, SelfplayStats};

use crate::lab_db::{DatabaseArg, LabDatabase};
use crate::selfplay_cmd::{RecordFile, check_games, check_plies, progress_bar, thread_count};
use games::{GameKind, with_game};

#[derive(Args)]
pub struct MatchArgs {
    #[arg(long)]
    pub variant: GameKind,
    /// Engine A, e.g. `level=5`, `nodes=20000`, `level=3,seed=7`.
    #[arg(long)]
    pub engine_a: String,
    /// Engine B, same form.
    #[arg(long)]
    pub engine_b: String,
    /// Maximum number of games (even, at most 1,000,000: openings are played in pairs).
    #[arg(long)]
    pub games: u32,
    /// `elo0=0,elo1=10` (optionally `alpha=..,beta=..`, default 0.05): stop when decided.
    #[arg(long)]
    pub sprt: Option<String>,
    /// With `--sprt`: the pairs of an earlier run of the same test, as its line "pairs by A's
    /// points" gives them, `N0,N0.5,N1,N1.5,N2` (five counts): the test goes on from them with
    /// this run's openings (give another `--seed`), as if that run's cap had been raised.
    #[arg(long, value_name = "COUNTS")]
    pub sprt_prior: Option<String>,
    /// Worker threads, 1 to 256 (default 1).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Run seed: the openings and the engines' choices derive from it, so a match reproduces.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random legal plies of each opening (seeded; both games of a pair share them).
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Balanced openings only: each pair's opening is drawn again until the frozen
    /// baseline engine, searching its last position for 100,000 nodes, scores it within
    /// this many centi-units of 0 (a man or a pawn is about 100); 0 to 10,000. After 200
    /// draws the closest is kept, and the report counts such pairs.
    #[arg(long, value_name = "CENTI_UNITS", allow_negative_numbers = true,
          value_parser = clap::value_parser!(i32).range(0..=10_000))]
    pub balanced: Option<i32>,
    /// Safety cap on plies per game; capped games score as draws and are counted.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    pub max_plies: u32,
    /// Write every game to this file (PDN / PGN).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Weights file (as `icebound nnue --train` writes it) that `on=nnue` uses in this match,
    /// in place of the game's embedded network: for measuring a network before it is
    /// embedded. Both engines see it; only a setting with `on=nnue` evaluates with it.
    #[arg(long, value_name = "FILE")]
    pub nnue: Option<PathBuf>,
    #[command(flatten)]
    pub db: DatabaseArg,
}

pub fn match_(args: MatchArgs) -> Result<(), String> {
    if let Some(path) = &args.nnue {
        install_network(args.variant, path)?;
    }
    with_game!(args.variant, V => run::<V>(&args))
}

/// Reads the weights file of `--nnue`, checks it is `game`'s, and installs it for this
/// process (`engine::nnue::install_network`); prints its body hash.
fn install_network(game: GameKind, path: &std::path::Path) -> Result<(), String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("--nnue: cannot read {}: {e}", path.display()))?;
    let net = match game {
        GameKind::Antarctos => engine::nnue::Network::from_bytes::<antarctos::Antarctos>(&bytes),
        GameKind::IceAge => engine::nnue::Network::from_bytes::<iceage::IceAge>(&bytes),
    }
    .map_err(|e| format!("--nnue: {}: {e}", path.display()))?;
    let hash = engine::nnue::fnv1a(bytes.get(engine::nnue::HEADER_LEN..).unwrap_or(&[]));
    if !engine::nnue::install_network(net) {
        return Err("--nnue: the network was already in use".into());
    }
    println!(
        "on=nnue uses {} (body hash {hash:016x}) in place of the embedded network",
        path.display()
    );
    Ok(())
}

fn run<V: EngineVariant>(args: &MatchArgs) -> Result<(), String> {
    let a = parse_setting(&args.engine_a).map_err(|e| format!("--engine-a: {e}"))?;
    let b = parse_setting(&args.engine_b).map_err(|e| format!("--engine-b: {e}"))?;
    for (flag, config) in [("--engine-a", &a), ("--engine-b", &b)] {
        config.check_weights::<V>().map_err(|e| {
            let given: Vec<String> = config
                .weights
                .iter()
                .flat_map(|w| w.iter().map(i32::to_string))
                .collect();
            format!("{flag}: weights={}: {e}", given.join("/"))
        })?;
    }
    let sprt = match &args.sprt {
        Some(text) => Some(SprtParams::parse(text).map_err(|e| format!("--sprt: {e}"))?),
        None => None,
    };
    let sprt_prior = match (&args.sprt_prior, &sprt) {
        (None, _) => Pentanomial::default(),
        (Some(_), None) => return Err("--sprt-prior goes on with an SPRT: give --sprt too".into()),
        (Some(text), Some(_)) => parse_prior(text).map_err(|e| format!("--sprt-prior: {e}"))?,
    };
    let threads = thread_count(args.threads)?;
    check_plies(args.random_plies, args.max_plies)?;
    if args.balanced.is_some() && args.db.database.is_some() {
        return Err("--balanced with --database: a stored run has no field for the opening bound yet, so it could not be repeated from the store; run it without --database".into());
    }
    if args.balanced.is_some() && args.random_plies == 0 {
        return Err(
            "--balanced needs random openings to choose from: give --random-plies 1 or more".into(),
        );
    }
    let opts = MatchOptions {
        a,
        b,
        games: args.games,
        threads,
        seed: args.seed,
        random_plies: args.random_plies,
        balanced: args.balanced,
        max_plies: args.max_plies,
        sprt,
        sprt_prior,
    };
    if opts.games < 2 || !opts.games.is_multiple_of(2) {
        return Err(lab::matches::MatchError::OddGames(opts.games).to_string());
    }
    check_games(opts.games)?;
    let mut out = match &args.out {
        Some(path) => Some(RecordFile::create(path)?),
        None => None,
    };
    let db = LabDatabase::open(&args.db)?;
    let started = Instant::now();
    // Every game by colour, for the stored end reasons and lengths.
    let mut tally = SelfplayStats::default();
    println!(
        "match {}: A {} vs B {}, up to {} games ({} pairs), {} random plies, seed {}, ply cap {}, threads {}",
        V::TITLE,
        setting_name(&opts.a),
        setting_name(&opts.b),
        opts.games,
        opts.games / 2,
        opts.random_plies,
        opts.seed,
        opts.max_plies,
        opts.threads
    );
    if let Some(b) = opts.balanced {
        println!(
            "balanced openings: the baseline at {} nodes scores each within ±{b} (up to {} drawn per pair, else the closest)",
            lab::openings::JUDGE_NODES,
            lab::openings::MAX_DRAWS
        );
    }
    if opts.sprt_prior.pairs() > 0 {
        println!(
            "the SPRT goes on from {} earlier pairs (by A's points {})",
            opts.sprt_prior.pairs(),
            pairs_text(&opts.sprt_prior)
        );
    }
    let bar = progress_bar(u64::from(opts.games));
    // Pairs whose opening stayed past the bound after every draw.
    let mut past_bound = 0u32;
    // Pairs whose first random opening was judged past the bound.
    let mut redrawn = 0u32;
    let (_, report) = run_match::<V>(&opts, |i, pair: &PlayedPair<V>, report: &MatchReport| {
        if let Some(file) = out.as_mut() {
            for g in &pair.games {
                file.write(&V::write_record(&g.record));
            }
        }
        for g in &pair.games {
            tally.add(g.end, u64::from(g.plies));
        }
        if pair.opening_balanced == Some(false) {
            past_bound += 1;
        }
        if pair.opening_draws > 1 {
            redrawn += 1;
        }
        bar.inc(2);
        if bar.is_hidden() && (i + 1).is_multiple_of(25) {
            let llr = report
                .sprt
                .map(|s| format!(" llr {:.3}", s.llr))
                .unwrap_or_default();
            eprintln!(
                "pairs {}: A +{} ={} -{}{llr}",
                i + 1,
                report.games.wins,
                report.games.draws,
                report.games.losses
            );
        }
        if out.as_ref().is_some_and(RecordFile::failed) {
            // The records can no longer be kept: stop rather than play on for nothing.
            eprintln!(
                "the match stops after {} pairs: its records cannot be written",
                i + 1
            );
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    })
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    print_report(&report, opts.games);
    if let Some(b) = opts.balanced {
        println!(
            "openings drawn again (the first past ±{b} or over before the engines move): {redrawn} of {} pairs; not balanced after {} draws: {past_bound} (their records' Opening tags say why)",
            report.pairs.pairs(),
            lab::openings::MAX_DRAWS
        );
    }
    if report.sprt.is_some() && opts.sprt_prior.pairs() > 0 {
        println!(
            "sprt over both runs: {} pairs (by A's points {})",
            report.pairs.plus(&opts.sprt_prior).pairs(),
            pairs_text(&report.pairs.plus(&opts.sprt_prior))
        );
    }
    let records = RecordFile::finish_reported(out);
    let stored = match db {
        Some(db) => {
            let setup = crate::lab_db::run_setup(
                args.variant,
                setting_name(&opts.a),
                opts.seed,
                opts.random_plies,
                opts.max_plies,
                started,
            );
            let b = setting_name(&opts.b);
            db.save(&crate::lab_rows::match_run(
                &setup,
                &b,
                &tally,
                &report,
                opts.sprt.as_ref(),
            ))
        }
        None => Ok(()),
    };
    crate::lab_db::both(records, stored)
}

fn print_report(report: &MatchReport, max_games: u32) {
    let g = &report.games;
    let n = g.games();
    println!("games {n} ({} pairs)", report.pairs.pairs());
    println!(
        "A wins {} draws {} losses {} (capped {}, scored as draws)",
        g.wins, g.draws, g.losses, report.capped
    );
    if let Some(score) = g.score() {
        println!("score A {score:.4} ({:.1}/{n})", g.points());
    }
    if let Some(elo) = report.pairs.elo()
        && !elo.elo.is_finite()
    {
        // A score of exactly 0 or 1 has no finite logistic Elo, nor an error bar.
        let side = if elo.elo > 0.0 { "every" } else { "no" };
        println!(
            "elo A-B {} (A scored {side} point: no finite estimate; play more games)",
            if elo.elo > 0.0 { "+inf" } else { "-inf" }
        );
    } else if let Some(elo) = report.pairs.elo() {
        println!(
            "elo A-B {} (95 %, pentanomial; 95 % interval {:.1} to {:.1})",
            elo.display(),
            // `+ 0.0` turns a -0.0 (an all-even match) into 0.0.
            elo.lower + 0.0,
            elo.upper + 0.0
        );
    }
    println!("pairs by A's points {}", pairs_text(&report.pairs));
    let w = &report.white;
    if let Some(ws) = w.score() {
        println!(
            "white wins {} draws {} losses {} (white score {ws:.4})",
            w.wins, w.draws, w.losses
        );
    }
    if let Some(s) = &report.sprt {
        let stopped = if n < u64::from(max_games) {
            format!(", stopped after {n} games")
        } else {
            String::new()
        };
        println!(
            "sprt llr {:.3} bounds {:.3} {:.3} verdict {}{stopped}",
            s.llr,
            s.lower,
            s.upper,
            s.verdict.as_str()
        );
    }
}

/// `N0,N0.5,N1,N1.5,N2`: five pair counts.
/// Most earlier pairs `--sprt-prior` takes: far beyond any run, and small enough that no sum
/// of counts overflows.
const MAX_PRIOR_PAIRS: u64 = 1_000_000_000_000;

fn parse_prior(text: &str) -> Result<Pentanomial, String> {
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    if items.len() != 5 {
        return Err(format!(
            "'{text}': five counts, the pairs in which A scored 0, 0.5, 1, 1.5 and 2 points \
             (e.g. 332,159,937,170,402), not {}",
            items.len()
        ));
    }
    let mut counts = [0u64; 5];
    for (slot, item) in counts.iter_mut().zip(&items) {
        *slot = item
            .parse()
            .map_err(|_| format!("'{item}' is not a count of pairs (a non-negative integer)"))?;
    }
    // Sums of counts must not wrap (they did with 2^64 - 1, and the LLR was nonsense).
    let total: u128 = counts.iter().map(|&c| u128::from(c)).sum();
    if total > u128::from(MAX_PRIOR_PAIRS) {
        return Err(format!(
            "'{text}': {total} pairs in all; at most {MAX_PRIOR_PAIRS} earlier pairs"
        ));
    }
    Ok(Pentanomial::new(counts))
}

/// `0:N 0.5:N 1:N 1.5:N 2:N`, the form `--sprt-prior` reads back without its labels.
fn pairs_text(p: &Pentanomial) -> String {
    let labels = ["0", "0.5", "1", "1.5", "2"];
    labels
        .iter()
        .zip(p.counts)
        .map(|(l, c)| format!("{l}:{c}"))
        .collect::<Vec<_>>()
        .join(" ")
}
