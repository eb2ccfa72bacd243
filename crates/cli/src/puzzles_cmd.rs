//! `icebound puzzles`: `mine` finds puzzles "X begins and wins" in games (a PDN/PGN file or
//! self-play) and writes them as a puzzle file; `check` proves every puzzle of a file again
//! (crate `puzzles`, issue 39).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use engine::{EngineConfig, EngineVariant};
use game::Variant;
use game::records::RecordRules;
use games::{GameKind, with_game};
use lab::selfplay::SelfplayOptions;
use puzzles::{Minable, MineOptions, Mined, Miner, Seen, Summary};

use crate::puzzles_site::SiteDatabase;
use crate::selfplay_cmd::{progress_bar, thread_count};

#[derive(Args)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    pub action: PuzzlesAction,
}

#[derive(Subcommand)]
pub enum PuzzlesAction {
    /// Find puzzles in games and write them to a puzzle file (CSV).
    Mine(MineArgs),
    /// Prove every puzzle of a puzzle file again with the solver.
    Check(CheckArgs),
    /// Take puzzles of a site's database out of service (or back, with --restore).
    Retire(RetireArgs),
}

#[derive(Args)]
pub struct RetireArgs {
    /// The site's database, as `icebound serve --database` takes it.
    #[arg(long)]
    pub database: String,
    /// Why (shown to players who open the puzzle's address).
    #[arg(long, default_value = "retired by the operator")]
    pub reason: String,
    /// Put the puzzles back in service instead.
    #[arg(long)]
    pub restore: bool,
    /// The puzzles' ids.
    #[arg(required = true)]
    pub ids: Vec<String>,
}

#[derive(Args)]
pub struct MineArgs {
    #[arg(long)]
    pub variant: GameKind,
    /// Where the games come from: a PDN (Antarctos) or PGN (Ice Age Chess) file,
    /// `selfplay:N` for N self-play games played for the purpose, or `site` for the finished
    /// games of the site's database (`--database`; `--limit-games` of them, oldest first).
    #[arg(long, value_name = "SOURCE")]
    pub from: String,
    /// The site's database, as `icebound serve --database` takes it: `--from site` reads
    /// its games, and the puzzles written to `--out` are also added to it (the trainer
    /// offers them at once; puzzles already there are left alone).
    #[arg(long)]
    pub database: Option<String>,
    /// `--from site`: the most games read.
    #[arg(long, default_value_t = 100_000)]
    pub limit_games: usize,
    /// The puzzle file to write (CSV; replaced).
    #[arg(long)]
    pub out: PathBuf,
    /// Stop once this many puzzles are kept.
    #[arg(long)]
    pub limit: Option<usize>,
    /// The longest win searched, in plies (default: Antarctos 15, Ice Age Chess 9).
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Milliseconds one position's proof may take.
    #[arg(long, default_value_t = 200)]
    pub ms_per_position: u64,
    /// The prefilter's node budget: the engine's quick search must see a win before the
    /// proof is tried (0: no prefilter; default: Antarctos 20,000, Ice Age Chess 5,000).
    #[arg(long)]
    pub prefilter_nodes: Option<u64>,
    /// The most puzzles of one move, in percent of those written (0-100; default: no cap).
    /// One-move puzzles beyond it (those found last) are left out, so that most
    /// puzzles take 2 to 4 moves as issue 39 asks (self-play in Ice Age Chess finds mates in
    /// one most often).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub one_move_share: Option<u8>,
    /// Antarctos: put the seeds' three worked examples first, as puzzles `seed-1` to
    /// `seed-3` with the seed's text as their hint (crate `puzzles`, module `seeds`).
    #[arg(long)]
    pub seeds: bool,
    /// Worker threads, 1 to 256 (default 1).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Self-play: the engine's level (1-8) for both sides.
    #[arg(long, default_value_t = 3)]
    pub level: u8,
    /// Self-play: random legal plies at the start of each game.
    #[arg(long, default_value_t = 6)]
    pub random_plies: u32,
    /// Self-play: the run's seed (game i's seed derives from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(Args)]
pub struct CheckArgs {
    #[arg(long)]
    pub variant: GameKind,
    /// The puzzle file.
    pub file: PathBuf,
    /// Milliseconds one puzzle's proof may take.
    #[arg(long, default_value_t = 10_000)]
    pub ms_per_puzzle: u64,
}

pub fn puzzles(args: PuzzlesArgs) -> Result<(), String> {
    match args.action {
        PuzzlesAction::Mine(args) => with_game!(args.variant, V => mine::<V>(&args)),
        PuzzlesAction::Check(args) => with_game!(args.variant, V => check::<V>(&args)),
        PuzzlesAction::Retire(args) => {
            let site = SiteDatabase::open(&args.database)?;
            let url = site.url().to_string();
            let unknown = site.retire(&args.ids, &args.reason, args.restore)?;
            let done = args.ids.len() - unknown.len();
            let what = if args.restore { "restored" } else { "retired" };
            println!("{what} {done} puzzles in {url}");
            if !unknown.is_empty() {
                return Err(format!("no such puzzle: {}", unknown.join(", ")));
            }
            Ok(())
        }
    }
}

/// The games to mine.
enum Source<V: Variant> {
    /// Games read from a file, with their names.
    Records(Vec<(String, V::Position, Vec<V::Move>)>),
    /// Self-play games 0..n.
    Selfplay(SelfplayOptions),
}

impl<V: Variant> Source<V> {
    fn len(&self) -> usize {
        match self {
            Source::Records(games) => games.len(),
            Source::Selfplay(opts) => opts.games as usize,
        }
    }
}

/// The games of `--from`; the games of a file that are not read are counted in `left_out`
/// by reason.
fn source<V: EngineVariant + RecordRules>(
    args: &MineArgs,
    site: Option<&SiteDatabase>,
    left_out: &mut BTreeMap<&'static str, u64>,
) -> Result<Source<V>, String> {
    if args.from == "site" {
        let site = site.ok_or("--from site: name the site's database with --database URL")?;
        let games = site.games::<V>(args.variant, args.limit_games)?;
        if games.is_empty() {
            return Err(format!("{}: no finished {} game", site.url(), V::TITLE));
        }
        return Ok(Source::Records(games));
    }
    if let Some(n) = args.from.strip_prefix("selfplay:") {
        let games: u32 = n
            .parse()
            .map_err(|_| format!("--from {}: N in selfplay:N is a number", args.from))?;
        crate::selfplay_cmd::check_games(games)?;
        let level = engine::level::Level::new(i64::from(args.level))
            .ok_or_else(|| format!("--level {}: levels go from 1 to 8", args.level))?;
        let mut opts = SelfplayOptions::new(games, EngineConfig::level(level.get()));
        opts.seed = args.seed;
        opts.random_plies = args.random_plies;
        return Ok(Source::Selfplay(opts));
    }
    let path = PathBuf::from(&args.from);
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let name = path
        .file_name()
        .map_or_else(|| args.from.clone(), |n| n.to_string_lossy().into_owned());
    let reading = game::records::read_bytes::<V>(&bytes);
    for w in &reading.warnings {
        eprintln!("warning: {w}");
    }
    let mut games = Vec::new();
    for (i, record) in reading.games.into_iter().enumerate() {
        match record {
            Ok(r) => games.push((format!("{name}#{}", i + 1), r.start, r.moves)),
            Err(e) => {
                eprintln!("{name}: game {} left out: {e}", i + 1);
                *left_out.entry(left_out_reason(&e)).or_insert(0) += 1;
            }
        }
    }
    if games.is_empty() {
        return Err(format!(
            "{}: no game could be read ({})",
            path.display(),
            counts(&*left_out)
        ));
    }
    Ok(Source::Records(games))
}

/// Why a game of a file is not mined, in a word for the summary.
fn left_out_reason(e: &game::records::RecordError) -> &'static str {
    if e.message.contains("icebound reads") || e.message.contains("is not read") {
        "another_game"
    } else if e.move_number.is_some() {
        "a_move_the_rules_refuse"
    } else {
        "unreadable"
    }
}

/// `name n, name n` of a count map.
fn counts<K: std::fmt::Display>(map: &BTreeMap<K, u64>) -> String {
    map.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn mine<V: EngineVariant + Minable + RecordRules>(args: &MineArgs) -> Result<(), String> {
    let threads = thread_count(args.threads)?;
    let site = args
        .database
        .as_deref()
        .map(SiteDatabase::open)
        .transpose()?;
    let mut left_out = BTreeMap::new();
    let source = source::<V>(args, site.as_ref(), &mut left_out)?;
    // The site's puzzles: a mined one must not repeat or overlap them.
    let stored = match &site {
        Some(site) => site.puzzles::<V>(args.variant)?,
        None => Vec::new(),
    };
    let mut options = MineOptions::new::<V>();
    if let Some(p) = args.max_plies {
        if p == 0 || p > 31 {
            return Err(format!("--max-plies {p}: 1 to 31"));
        }
        options.max_plies = p;
    }
    if args.ms_per_position == 0 {
        return Err("--ms-per-position 0: must be at least 1".into());
    }
    options.per_position = Duration::from_millis(args.ms_per_position);
    if let Some(n) = args.prefilter_nodes {
        options.prefilter_nodes = n;
    }
    if args.seeds && V::NAME != antarctos::Antarctos::NAME {
        return Err("--seeds: the seeds' worked examples are Antarctos puzzles".into());
    }
    // Created before the work, so that a wrong path fails at once.
    let out = File::create(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    println!(
        "mining {} puzzles from {} ({} games), wins of up to {} plies, {} ms a position, prefilter {} nodes, {threads} threads",
        V::TITLE,
        args.from,
        source.len(),
        options.max_plies,
        args.ms_per_position,
        options.prefilter_nodes
    );
    let started = Instant::now();
    let bar = progress_bar(source.len() as u64);
    let next = AtomicUsize::new(0);
    // Microseconds the workers spent playing self-play games (not mining).
    let playing = AtomicU64::new(0);
    let enough = AtomicBool::new(false);
    let found: Mutex<Vec<(usize, Mined<V>)>> = Mutex::new(Vec::new());
    let total = Mutex::new(Summary::default());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut miner = Miner::<V>::new(options);
                for (_, start, line) in &stored {
                    miner.know(start, line);
                }
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= source.len() || enough.load(Ordering::Relaxed) {
                        break;
                    }
                    let kept = match &source {
                        Source::Records(games) => {
                            let (name, start, moves) = &games[i];
                            miner.mine_game(name, start, moves)
                        }
                        Source::Selfplay(opts) => {
                            let play_started = Instant::now();
                            let game = lab::selfplay::selfplay_game::<V, _>(
                                opts,
                                i as u32,
                                &lab::games::EngineChooser,
                            );
                            playing.fetch_add(
                                play_started.elapsed().as_micros() as u64,
                                Ordering::Relaxed,
                            );
                            let name = format!("selfplay:{}:{}", opts.seed, i + 1);
                            miner.mine_game(&name, &game.record.start, &game.record.moves)
                        }
                    };
                    let mut all = found.lock().unwrap_or_else(|e| e.into_inner());
                    all.extend(kept.into_iter().map(|m| (i, m)));
                    if args.limit.is_some_and(|l| all.len() >= l) {
                        enough.store(true, Ordering::Relaxed);
                    }
                    drop(all);
                    bar.inc(1);
                }
                total
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .add(&miner.summary);
            });
        }
    });
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let mut found = found.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut summary = total.into_inner().unwrap_or_else(|e| e.into_inner());
    // In game order; a position two workers both kept is one puzzle.
    found.sort_by_key(|(i, m)| (*i, m.origin.ply));
    let mut seen = Seen::new();
    let mut rows = Vec::new();
    if args.seeds {
        for row in puzzles::seed_rows() {
            let pos = V::parse_position(&row.fen).map_err(|e| format!("a seed: {e}"))?;
            let texts: Vec<String> = row.moves.split_whitespace().map(str::to_string).collect();
            let line =
                puzzles::parse_moves::<V>(&pos, &texts).map_err(|e| format!("a seed: {e}"))?;
            seen.admit::<V>(&pos, &line)
                .map_err(|c| format!("a seed: {}", c.name()))?;
            rows.push(row);
        }
    }
    let seeds = rows.len();
    for (_, start, line) in &stored {
        // Stored puzzles that clash among themselves were kept by the site: not ours to drop.
        let _ = seen.admit::<V>(start, line);
    }
    // The summary then counts what is written, themes and lengths included.
    let mut chosen: Vec<&Mined<V>> = Vec::new();
    for (_, m) in &found {
        match seen.admit::<V>(&m.start, &m.proven.line) {
            Ok(()) => chosen.push(m),
            Err(clash) => summary.unkeep(m, clash.name()),
        }
    }
    if let Some(share) = args.one_move_share {
        let longer = chosen.iter().filter(|m| m.proven.moves() > 1).count();
        let cap = match share {
            100.. => usize::MAX,
            _ => longer * share as usize / (100 - share as usize),
        };
        let mut ones = 0;
        chosen.retain(|m| {
            if m.proven.moves() == 1 {
                ones += 1;
                if ones > cap {
                    summary.unkeep(*m, "beyond_one_move_share");
                    return false;
                }
            }
            true
        });
    }
    if let Some(limit) = args.limit {
        for m in chosen.drain(limit.min(chosen.len())..) {
            summary.unkeep(m, "beyond_limit");
        }
    }
    rows.extend(chosen.iter().map(|m| m.row()));
    puzzles::write_rows(BufWriter::new(out), &rows)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    let playing = Duration::from_micros(playing.into_inner());
    print_summary(&summary, rows.len(), seeds, elapsed, playing, threads);
    if !left_out.is_empty() {
        println!(
            "games left out: {} ({})",
            left_out.values().sum::<u64>(),
            counts(&left_out)
        );
    }
    println!("wrote {} puzzles to {}", rows.len(), args.out.display());
    if let Some(site) = site {
        let csv = std::fs::read_to_string(&args.out)
            .map_err(|e| format!("cannot read {} back: {e}", args.out.display()))?;
        let url = site.url().to_string();
        let added = site.store::<V>(args.variant, &csv)?;
        println!("added {added} new puzzles to {url}");
    }
    Ok(())
}

/// `playing`: the workers' time in self-play games, added over the threads.
fn print_summary(
    s: &Summary,
    written: usize,
    seeds: usize,
    elapsed: Duration,
    playing: Duration,
    threads: usize,
) {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let mining = (secs * threads as f64 - playing.as_secs_f64()).max(1e-9);
    println!(
        "games {}  positions {}  kept {} ({:.2} %)  written {written}{}  time {:.1} s  {:.1} positions/s/core",
        s.games,
        s.positions,
        s.kept,
        100.0 * s.kept as f64 / s.positions.max(1) as f64,
        if seeds > 0 {
            format!(" ({seeds} seeds)")
        } else {
            String::new()
        },
        secs,
        s.positions as f64 / secs / threads as f64,
    );
    println!(
        "of which self-play {:.1} core-s, mining {:.1} core-s: {:.1} positions/s/core mined",
        playing.as_secs_f64(),
        mining,
        s.positions as f64 / mining,
    );
    println!("rejected: {}", counts(&s.rejected));
    println!("themes: {}", counts(&s.themes));
    let lengths: Vec<String> = s
        .lengths
        .iter()
        .map(|(k, v)| format!("{k} moves {v}"))
        .collect();
    println!("lengths: {}", lengths.join(", "));
    println!(
        "the game's player played the win: {}, missed it: {}",
        s.seen_by_player, s.missed_by_player
    );
}

fn check<V: Minable>(args: &CheckArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    let file =
        puzzles::read_rows::<V>(&text).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let mut prover = engine::solve::Prover::<V>::new(16);
    let mut wrong = 0;
    let mut seen = Seen::new();
    for p in &file {
        let deadline = engine::clock::Instant::now() + Duration::from_millis(args.ms_per_puzzle);
        let fault = match puzzles::verify_line(&mut prover, &p.start, &p.line, Some(deadline)) {
            Err(e) => Some(e.to_string()),
            Ok(()) => match seen.admit::<V>(&p.start, &p.line) {
                Err(puzzles::Clash::Duplicate) => Some("a duplicate".to_string()),
                Err(puzzles::Clash::Overlap) => Some(
                    "overlaps an earlier puzzle of the file (one's line passes through the \
                     other's position)"
                        .to_string(),
                ),
                Ok(()) => None,
            },
        };
        if let Some(fault) = fault {
            wrong += 1;
            println!("{} ({}): {fault}", p.row.id, p.row.fen);
        }
    }
    println!("{} puzzles, {wrong} wrong", file.len());
    if file.is_empty() {
        return Err(format!("{}: no puzzle in the file", args.file.display()));
    }
    if wrong > 0 {
        return Err(format!(
            "{wrong} puzzles of {} are wrong",
            args.file.display()
        ));
    }
    Ok(())
}
