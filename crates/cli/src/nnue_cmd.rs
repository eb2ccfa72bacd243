//! `icebound nnue`: data and training for the learned evaluation (`lab::nnue`, issue 43).
//! `--games N` plays N self-play games and writes their quiet positions with the search
//! score and the result to `--data`; `--train FILE` trains a network on `--data` and
//! writes it to FILE in the engine's weights format. `--label-depth D` labels the data
//! with a fixed-depth search of the hand-written evaluation instead of the self-play
//! score; `--probe FILE` prints a network's evaluation beside the hand-written one.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use lab::nnue::{DataOptions, TrainOptions};

use crate::data_args::DataArgs;
use games::with_game;

#[derive(Args)]
pub struct NnueArgs {
    /// The game, the data file and the self-play games that make it.
    #[command(flatten)]
    pub data: DataArgs,
    /// Threads for the games.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Train on `--data` and write the network here.
    #[arg(long)]
    pub train: Option<PathBuf>,
    /// Hidden neurons.
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// Passes over the data.
    #[arg(long, default_value_t = 20)]
    pub epochs: u32,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 0.001)]
    pub rate: f32,
    /// Weight of the search score in the target; the game result has the rest.
    #[arg(long, default_value_t = 0.75)]
    pub lambda: f32,
    /// Centi-units per unit of the network's output (the sigmoid's scale).
    #[arg(long, default_value_t = 400)]
    pub scale: i32,
    /// Search the start position for this many nodes, one thread, with and without the
    /// learned evaluation, and print the nodes per second of each.
    #[arg(long)]
    pub bench: Option<u64>,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 1024)]
    pub batch: usize,
    /// With `--games`: label each kept position with a search of this depth (hand-written
    /// evaluation; 1 is one ply and quiescence) instead of the self-play search's score,
    /// so that the games can be played at a small `--nodes` (distillation).
    #[arg(long)]
    pub label_depth: Option<u32>,
    /// Print, for each position text in this file (one a line; `#` starts a comment, text
    /// after ` # ` on a line is its label), the hand-written evaluation, the network's and
    /// a depth-1 search, from White's side.
    #[arg(long)]
    pub probe: Option<PathBuf>,
    /// The weights file `--probe` reads (default: the embedded network).
    #[arg(long)]
    pub net: Option<PathBuf>,
}

pub fn nnue(args: NnueArgs) -> Result<(), String> {
    if args.data.games.is_none()
        && args.train.is_none()
        && args.bench.is_none()
        && args.probe.is_none()
    {
        return Err(
            "nothing to do: give --games N (make data), --train FILE, --bench NODES, --probe FILE"
                .into(),
        );
    }
    if args.label_depth.is_some_and(|d| !(1..=20).contains(&d)) {
        return Err("--label-depth must be 1 to 20".into());
    }
    if !(1..=2048).contains(&args.hidden) {
        return Err("--hidden must be 1 to 2048".into());
    }
    with_game!(args.data.variant, V => run::<V>(&args))
}

fn run<V>(args: &NnueArgs) -> Result<(), String>
where
    V: engine::EngineVariant + engine::nnue::NnueGame<Pos = <V as game::Variant>::Position>,
{
    if let Some(nodes) = args.bench {
        let pos = V::start_position();
        for on in [false, true] {
            let mut searcher = engine::Searcher::<V>::new(64);
            searcher.set_options(engine::SearchOptions {
                nnue: on,
                ..V::OPTIONS
            });
            let limits = engine::Limits {
                nodes: Some(nodes),
                ..engine::Limits::default()
            };
            let r = searcher.search(&pos, &limits, |_| {});
            let secs = r.elapsed.as_secs_f64().max(1e-9);
            println!(
                "bench {} start position, nnue {}: {} nodes, depth {}, {:.2} s, {:.0} nodes/s",
                V::NAME,
                if on { "on" } else { "off" },
                r.nodes,
                r.depth,
                secs,
                r.nodes as f64 / secs
            );
        }
    }
    if let Some(file) = &args.probe {
        probe::<V>(args, file)?;
    }
    if let Some(games) = args.data.games {
        let opts = DataOptions {
            games,
            nodes: args.data.nodes,
            random_plies: args.data.random_plies,
            skip: args.data.skip,
            seed: args.data.seed,
            max_plies: lab::games::DEFAULT_MAX_PLIES,
            label_depth: args.label_depth,
        };
        let t = Instant::now();
        let lines = lab::nnue::generate::<V>(&opts, args.threads, |done, positions| {
            if done % 10 == 0 {
                eprintln!("{done}/{games} games, {positions} positions");
            }
        });
        let mut f = args.data.create()?;
        for l in &lines {
            writeln!(f, "{l}").map_err(|e| e.to_string())?;
        }
        let label = match args.label_depth {
            Some(d) => format!(", labels: depth {d}"),
            None => String::new(),
        };
        println!(
            "nnue data {}: {games} games at nodes={}{label}, {} random plies, from ply {}, seed {}: {} positions in {:.0} s",
            args.data.file.display(),
            args.data.nodes,
            args.data.random_plies,
            args.data.skip,
            args.data.seed,
            lines.len(),
            t.elapsed().as_secs_f64()
        );
    }
    if let Some(out) = &args.train {
        let text = args.data.read()?;
        let opts = TrainOptions {
            hidden: args.hidden,
            epochs: args.epochs,
            rate: args.rate,
            lambda: args.lambda,
            scale: args.scale,
            batch: args.batch,
            seed: args.data.seed,
            holdout: 20,
        };
        let t = Instant::now();
        let (net, report) = lab::nnue::train::<V>(&text, &opts, |epoch, loss| {
            println!(
                "epoch {epoch}: validation loss {loss:.6} ({:.0} s)",
                t.elapsed().as_secs_f64()
            );
        })?;
        let bytes = net.to_bytes();
        std::fs::write(out, &bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        println!(
            "trained {} positions ({} held out), hidden {}, lambda {}, scale {}, {} epochs in {:.0} s: validation loss {:.6} before, {:.6} after, {:.6} quantised; wrote {} (body hash {:016x})",
            report.train,
            report.validation,
            args.hidden,
            args.lambda,
            args.scale,
            args.epochs,
            t.elapsed().as_secs_f64(),
            report.losses[0],
            report.losses.last().copied().unwrap_or(f64::NAN),
            report.quantised_loss,
            out.display(),
            engine::nnue::fnv1a(&bytes[engine::nnue::HEADER_LEN..])
        );
    }
    Ok(())
}

/// `--probe FILE`: one line per position (see [`NnueArgs::probe`]).
fn probe<V>(args: &NnueArgs, file: &std::path::Path) -> Result<(), String>
where
    V: engine::EngineVariant + engine::nnue::NnueGame<Pos = <V as game::Variant>::Position>,
{
    let owned;
    let net = match &args.net {
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            owned = engine::nnue::Network::from_bytes::<V>(&bytes)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            &owned
        }
        None => V::network().ok_or("the game has no embedded network")?,
    };
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut labels = Vec::new();
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (pos, label) = line.split_once(" # ").unwrap_or((line, ""));
        positions.push(V::parse_position(pos.trim()).map_err(|e| format!("line {}: {e}", i + 1))?);
        labels.push(
            if label.is_empty() { pos } else { label }
                .trim()
                .to_string(),
        );
    }
    println!("probe (centi-units, White's side): hand-written, network, depth-1 search");
    for (label, p) in labels.iter().zip(lab::nnue::probe::<V>(net, &positions)) {
        println!("{:>6} {:>6} {:>6}  {label}", p.hand, p.net, p.search1);
    }
    Ok(())
}
