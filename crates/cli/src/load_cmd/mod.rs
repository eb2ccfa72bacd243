//! `icebound load` (issue 12): the load harness. Plays `--games` friend games at once against
//! running `icebound serve` processes (a finished game is replaced by a new one at its table,
//! so the load stays), each player's WebSocket on a different process from its
//! opponent's (white on address i mod K, black on i+1 mod K), with `--think-ms` before each
//! move, for `--seconds`; then reads every game back and counts the acknowledged moves that
//! are not stored (`lost`). The games' first moves are spread over one think time (players
//! do not all move at once). Latency is from a move's submission (`POST .../moves`) to the
//! opponent's WebSocket receiving the state after it. `--kill-one` sends SIGKILL, halfway
//! through, to the process listening on the first address (found through Linux's /proc):
//! its clients move to the next address, and the time they take to resume is reported.
//!
//! Every request and WebSocket handshake gives up after [`REQUEST_TIMEOUT`]: a process that
//! accepts connections but does not answer (stopped, hung) is down as a killed one is, and its
//! players fail over the same way. The games still in play are cut off [`FINISH_GRACE`] after
//! `--seconds`, and the read back asks each address at most once after it failed, so a run
//! always ends, with its summary and the errors of what failed.
//!
//! `--server-pid PID[,PID..]` reads those server processes' memory (Linux `/proc/PID/status`)
//! before the games start, during the run (its peak) and after it, and prints it with the KB
//! per game (`memory.rs`). `--processes N` plays from N client processes (this binary run
//! again, each with a share of the tables, `workers.rs`), so that one process's descriptors
//! do not cap the run; their figures are merged (`outcome.rs`).
//!
//! Its last line is for scripts:
//! `moves_per_s R median_ms M p99_ms P max_ms X lost L`.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

mod game;
mod memory;
mod outcome;
mod processes;
mod read_back;
mod workers;
use game::{Shared, one_table};
use memory::{SAMPLE_EVERY, Watch};
use outcome::Outcome;
use processes::{distinct, listener_pid};

/// How long a request or a WebSocket handshake waits for its server. Without a limit, a
/// server that accepted the connection and then said nothing (SIGSTOP, a hung process) held
/// its players, and the run, without end; a few seconds is far above any answer measured
/// under load (docs/deploy.md: 1.7 s at most, saturated).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// How long after `--seconds` the games in play may take to finish the move they are in: the
/// rest are cut off then (their acknowledged moves still read back), so the run ends near
/// `--seconds` whatever its servers do.
const FINISH_GRACE: Duration = Duration::from_secs(5);

/// `icebound load` arguments.
#[derive(Debug, Args)]
pub struct LoadArgs {
    /// Server addresses, comma-separated (`127.0.0.1:8080,127.0.0.1:8081`).
    #[arg(long, value_delimiter = ',', required = true)]
    pub addr: Vec<SocketAddr>,
    /// Games played at once (1 to 20,000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=20_000))]
    pub games: u64,
    /// A player's thinking time before each move, ms.
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// How long to play, seconds (1 to 3,600).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3_600))]
    pub seconds: u64,
    /// Kill (SIGKILL) the process listening on the first address halfway through.
    #[arg(long)]
    pub kill_one: bool,
    /// How players send their moves: `http` (`POST /api/games/{id}/moves` on a kept-alive
    /// connection, answered with the move) or `socket` (a `move` message on the game's
    /// WebSocket, acknowledged by the state after it; a player then holds one connection).
    #[arg(long, value_enum, default_value_t = MovesOver::Http)]
    pub moves: MovesOver,
    /// Server processes whose memory to report, comma-separated pids (Linux: read from
    /// `/proc/PID/status` before, during and after the run).
    #[arg(long, value_delimiter = ',')]
    pub server_pid: Vec<u32>,
    /// Client processes to play from (1 to 64), each with a share of the games, so that one
    /// process's descriptor limit does not cap the run.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub processes: u64,
    /// Internal: this process is one of `--processes`' workers, playing the tables from this
    /// index on and printing its figures as one line for the process that started it.
    #[arg(long, hide = true)]
    pub worker_first_table: Option<u64>,
}

/// How the load's players send their moves (`--moves`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MovesOver {
    /// `POST /api/games/{id}/moves`.
    Http,
    /// A `move` message on the game's WebSocket.
    Socket,
}

impl MovesOver {
    /// The value's name on the command line.
    pub(super) fn name(self) -> &'static str {
        match self {
            MovesOver::Http => "http",
            MovesOver::Socket => "socket",
        }
    }
}

/// How long after the run the servers' steady memory is read: the players' connections have
/// closed and the servers' idle workers have given freed memory back (at most once a second,
/// `allocator::collect_when_idle`).
const STEADY_AFTER: Duration = Duration::from_secs(3);

pub fn load(args: LoadArgs) -> Result<(), String> {
    let addrs = distinct(&args.addr);
    if args.kill_one && args.processes > 1 {
        return Err(
            "--kill-one runs from one client process: leave out --processes, or use 1".into(),
        );
    }
    // Counted by process, not by name: `--addr A,A` killed the only process, and the run
    // ended reading its games back from it, without a summary.
    if args.kill_one && addrs.len() < 2 {
        return Err(format!(
            "--kill-one needs at least two different server addresses (processes) to fail over \
             to, got only {}",
            addrs[0]
        ));
    }
    let victim = if args.kill_one {
        let pid = listener_pid(args.addr[0])?;
        // Another name of the same process (127.0.0.2 for a server on 0.0.0.0) is no survivor.
        if addrs[1..]
            .iter()
            .all(|a| listener_pid(*a).is_ok_and(|p| p == pid))
        {
            return Err(format!(
                "--kill-one needs a second server process to fail over to: every address is \
                 served by the process on {} (pid {pid})",
                args.addr[0]
            ));
        }
        Some(pid)
    } else {
        None
    };
    if let Some(first) = args.worker_first_table {
        let out = run_here(&args, &addrs, None, first, None)?;
        println!("{}", out.worker_line());
        return Ok(());
    }
    let mut watch = if args.server_pid.is_empty() {
        None
    } else {
        Some(Watch::start(&args.server_pid)?)
    };
    let out = if args.processes > 1 {
        workers::run(&args, watch.as_mut())?
    } else {
        run_here(&args, &addrs, victim, 0, watch.as_mut())?
    };
    let clients = if args.processes > 1 {
        format!(" from {} client processes", args.processes)
    } else {
        String::new()
    };
    println!(
        "games {} at once on {} process(es){clients}, think {} ms, moves over {}: {} games played, {} moves in {:.1} s, {} games failed",
        args.games,
        addrs.len(),
        args.think_ms,
        args.moves.name(),
        out.played,
        out.moves,
        out.wall_s,
        out.failed
    );
    if out.killed {
        println!(
            "after the kill: {} games had a player move to another process, \
             the slowest was served again {:.2} s after the kill; each was served again \
             within {:.2} s of finding its server gone (a thinking player finds it at its \
             next move)",
            out.resumed_games, out.resume_since_kill_s, out.resume_since_found_s
        );
    }
    if let Some(w) = watch.as_mut() {
        std::thread::sleep(STEADY_AFTER);
        w.finish();
        for line in w.report(args.games) {
            println!("{line}");
        }
    }
    println!("{}", out.window_line());
    println!("{}", out.last_line());
    if out.lost > 0 {
        return Err(format!("{} acknowledged moves are not stored", out.lost));
    }
    if out.unread > 0 {
        return Err(format!(
            "{} games could not be read back: their lost moves are not known",
            out.unread
        ));
    }
    if measured_nothing(out.failed, out.moves, args.think_ms, args.seconds) {
        return Err(format!(
            "{} of {} games failed and {} moves were played: see the lines above",
            out.failed, args.games, out.moves
        ));
    }
    Ok(())
}

/// Plays `args.games` tables (numbered from `first_table`) from this process against `addrs`,
/// killing `victim` halfway through, sampling `watch` meanwhile; a worker (`first_table`
/// given by `--worker-first-table`) shows no progress bar.
fn run_here(
    args: &LoadArgs,
    addrs: &[SocketAddr],
    victim: Option<u32>,
    first_table: u64,
    mut watch: Option<&mut Watch>,
) -> Result<Outcome, String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("tokio runtime: {e}"))?;
    runtime.block_on(async move {
        let started = Instant::now();
        let run_for = Duration::from_secs(args.seconds);
        let deadline = started + run_for;
        let shared = Arc::new(Shared {
            // Each process once: a repeated address would put a table's players on the
            // killed process again after `--kill-one`.
            addrs: addrs.to_vec(),
            started,
            deadline,
            think: Duration::from_millis(args.think_ms),
            moves: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            killed_at: Arc::new(OnceLock::new()),
            moves_over_socket: args.moves == MovesOver::Socket,
        });
        let bar = if args.worker_first_table.is_some() {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(args.seconds)
        };
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} s  {msg}")
                .map_err(|e| e.to_string())?,
        );
        let tasks: Vec<_> = (first_table..first_table + args.games)
            .map(|i| tokio::spawn(one_table(i, shared.clone())))
            .collect();
        let mut killed = false;
        while Instant::now() < deadline {
            tokio::time::sleep(SAMPLE_EVERY).await;
            if let Some(w) = watch.as_deref_mut() {
                w.sample();
            }
            let elapsed = started.elapsed();
            bar.set_position(elapsed.as_secs().min(args.seconds));
            bar.set_message(format!("{} moves", shared.moves.load(Ordering::Relaxed)));
            if let Some(pid) = victim
                && !killed
                && elapsed >= run_for / 2
            {
                killed = true;
                let _ = shared.killed_at.set(Instant::now());
                // As an operator would: the system's kill, SIGKILL (no graceful shutdown).
                let status = std::process::Command::new("kill")
                    .args(["-9", &pid.to_string()])
                    .status()
                    .map_err(|e| format!("kill: {e}"))?;
                if !status.success() {
                    return Err(format!("kill -9 {pid} failed ({status})"));
                }
                bar.suspend(|| {
                    println!(
                        "killed the process on {} (pid {pid}) with SIGKILL",
                        args.addr[0]
                    );
                });
            }
        }
        shared.stop.store(true, Ordering::SeqCst);
        bar.finish_and_clear();
        let mut results = Vec::new();
        let mut sampled = Instant::now();
        for t in tasks {
            // The games still finishing their move raise the peak too.
            if let Some(w) = watch.as_deref_mut()
                && sampled.elapsed() >= SAMPLE_EVERY
            {
                w.sample();
                sampled = Instant::now();
            }
            results.extend(t.await.map_err(|e| format!("a table's task failed: {e}"))?);
        }
        let wall = started.elapsed();
        // Every acknowledged move must be stored: read each game back from a live process.
        let mut live: Vec<SocketAddr> = addrs
            .iter()
            .copied()
            .filter(|a| !killed || *a != args.addr[0])
            .collect();
        let moves = shared.moves.load(Ordering::Relaxed);
        Ok(Outcome::of(args.games, &results, wall, moves, killed, &mut live).await)
    })
}

/// Whether a run measured nothing worth a number: games failed, or nothing was played although
/// the players had time to move. A think time as long as the run (the memory measure of
/// docs/performance.md holds games open and moves nothing) expects no move.
fn measured_nothing(failed: u64, moves: u64, think_ms: u64, seconds: u64) -> bool {
    failed > 0 || (moves == 0 && think_ms < seconds.saturating_mul(1000))
}

#[cfg(test)]
mod measured_nothing_tests {
    use super::measured_nothing;

    #[test]
    fn a_run_that_only_holds_games_open_measured_something() {
        assert!(!measured_nothing(0, 0, 3_600_000, 50), "the memory measure");
        assert!(
            measured_nothing(0, 0, 3_000, 30),
            "players who could move did not"
        );
        assert!(measured_nothing(1, 500, 0, 20), "a failed game");
        assert!(!measured_nothing(0, 500, 0, 20));
    }
}
