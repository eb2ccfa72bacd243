//! `icebound load --processes N`: the run played from N client processes. Each is this binary
//! run again as `icebound load --worker-first-table K` with a share of the tables (numbered
//! from K, so that every table keeps its own addresses and random moves), the same addresses,
//! think time and length; it prints its figures as one line ([`Outcome::worker_line`]) and
//! this process merges them. Each worker has its own descriptor limit (inherited from this
//! one), so the players' connections are spread over N limits instead of one. A worker's
//! stderr (its failed games) goes to this process's stderr.

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use super::LoadArgs;
use super::memory::{SAMPLE_EVERY, Watch};
use super::outcome::Outcome;

/// One running worker: the process, the thread reading its stdout, its first table.
struct Worker {
    child: Child,
    stdout: JoinHandle<String>,
    first: u64,
}

/// The share of `games` tables that worker `k` of `n` plays: equal shares, the first
/// `games % n` workers one more.
pub(super) fn share(games: u64, n: u64, k: u64) -> u64 {
    games / n + u64::from(k < games % n)
}

/// Runs the workers, sampling `watch` while they play, and merges their figures. An error
/// names a worker that could not start or printed no figures (its stderr says why).
pub(super) fn run(args: &LoadArgs, mut watch: Option<&mut Watch>) -> Result<Outcome, String> {
    let exe = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let addrs = args
        .addr
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let mut workers = Vec::new();
    let mut first = 0;
    for k in 0..args.processes {
        let games = share(args.games, args.processes, k);
        if games == 0 {
            continue;
        }
        let mut child = Command::new(&exe)
            .arg("load")
            .args(["--addr", &addrs])
            .args(["--games", &games.to_string()])
            .args(["--think-ms", &args.think_ms.to_string()])
            .args(["--seconds", &args.seconds.to_string()])
            .args(["--moves", args.moves.name()])
            .args(["--worker-first-table", &first.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("starting client process {}: {e}", k + 1))?;
        // Read at once, so that a long result line never fills the pipe and blocks the worker.
        let mut out = child.stdout.take().ok_or("a worker without its stdout")?;
        let stdout = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = out.read_to_string(&mut text);
            text
        });
        workers.push(Worker {
            child,
            stdout,
            first,
        });
        first += games;
    }
    let bar = ProgressBar::new(args.seconds);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} s  {msg}").map_err(|e| e.to_string())?,
    );
    bar.set_message(format!("{} client processes", workers.len()));
    let started = Instant::now();
    loop {
        let mut running = 0;
        for w in &mut workers {
            if matches!(w.child.try_wait(), Ok(None)) {
                running += 1;
            }
        }
        if running == 0 {
            break;
        }
        if let Some(w) = watch.as_deref_mut() {
            w.sample();
        }
        bar.set_position(started.elapsed().as_secs().min(args.seconds));
        std::thread::sleep(SAMPLE_EVERY);
    }
    bar.finish_and_clear();
    let mut merged: Option<Outcome> = None;
    for mut w in workers {
        let status = w
            .child
            .wait()
            .map_err(|e| format!("a client process: {e}"))?;
        let text = w.stdout.join().unwrap_or_default();
        let out = Outcome::from_worker_output(&text).map_err(|e| {
            format!(
                "the client process of tables {}.. ({status}) gave no figures: {e}",
                w.first
            )
        })?;
        match merged.as_mut() {
            Some(m) => m.merge(out),
            None => merged = Some(out),
        }
    }
    merged.ok_or_else(|| "no client process ran".into())
}

#[cfg(test)]
mod tests {
    use super::share;

    #[test]
    fn shares_cover_every_table_once() {
        for (games, n) in [(8000, 4), (10, 3), (2, 5), (1, 1)] {
            let shares: Vec<u64> = (0..n).map(|k| share(games, n, k)).collect();
            assert_eq!(shares.iter().sum::<u64>(), games, "{shares:?}");
            let (lo, hi) = (shares.iter().min(), shares.iter().max());
            assert!(hi.zip(lo).is_some_and(|(h, l)| h - l <= 1), "{shares:?}");
        }
    }
}
