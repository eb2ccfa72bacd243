//! What a load run measured, in a form that one client process hands to another
//! (`--processes`): the counts, every latency, the slowest resume; merged by adding the counts
//! and joining the latencies, so that the merged percentiles are those of all the moves.

use std::net::SocketAddr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::game::{GameResult, Resumed};
use super::read_back::read_back_any;

/// The prefix of a worker's result line on its stdout (`load_worker {json}`).
pub(super) const WORKER_LINE: &str = "load_worker ";

/// The figures of one run (or of several merged).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub(super) struct Outcome {
    /// Tables (games at once).
    pub games: u64,
    /// Games both of whose players had the first state.
    pub played: u64,
    /// Games that ended with an error.
    pub failed: u64,
    /// Moves acknowledged.
    pub moves: u64,
    /// The run's wall-clock time, seconds (the longest, merged).
    pub wall_s: f64,
    /// Acknowledged moves not stored.
    pub lost: u64,
    /// Games whose stored ply could not be read back.
    pub unread: u64,
    /// Whether `--kill-one` killed its process.
    pub killed: bool,
    /// Games with a player that moved to another process.
    pub resumed_games: u64,
    /// The slowest of them, from the kill, seconds.
    pub resume_since_kill_s: f64,
    /// The slowest of them, from finding its server gone, seconds.
    pub resume_since_found_s: f64,
    /// Every move's latency, µs, in no order.
    pub latencies_us: Vec<u64>,
    /// When each of those moves was sent, ms since its client process's run began (the
    /// processes start within a few ms of each other), in the same order.
    pub sent_at_ms: Vec<u64>,
}

impl Outcome {
    /// The outcome of `results`, reading each created game back from `live` (the addresses
    /// still up; one that does not answer is dropped from it) and printing each failed game's
    /// error and each read-back error on stderr.
    pub(super) async fn of(
        games: u64,
        results: &[GameResult],
        wall: Duration,
        moves: u64,
        killed: bool,
        live: &mut Vec<SocketAddr>,
    ) -> Outcome {
        let mut out = Outcome {
            games,
            moves,
            wall_s: wall.as_secs_f64(),
            killed,
            ..Outcome::default()
        };
        let mut resume_max = Resumed::default();
        for r in results {
            if let Some(e) = &r.error {
                out.failed += 1;
                let name = if r.id.is_empty() {
                    "(not created)"
                } else {
                    r.id.as_str()
                };
                eprintln!("game {name}: {e}");
            }
            if let Some(d) = r.resumed {
                out.resumed_games += 1;
                resume_max = resume_max.max(d);
            }
            if r.id.is_empty() {
                continue;
            }
            match read_back_any(live, &r.id).await {
                Some(Ok(stored)) => out.lost += r.acked.saturating_sub(stored),
                Some(Err(e)) => {
                    eprintln!("{e}");
                    out.unread += 1;
                }
                None => out.unread += 1,
            }
        }
        if live.is_empty() && out.unread > 0 {
            eprintln!("reading games back: no address answers");
        }
        out.played = results.iter().filter(|r| r.started).count() as u64;
        out.resume_since_kill_s = resume_max.since_kill.as_secs_f64();
        out.resume_since_found_s = resume_max.since_found.as_secs_f64();
        let moves = || results.iter().flat_map(|r| r.latencies.iter());
        out.latencies_us = moves()
            .map(|(_, d)| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
            .collect();
        out.sent_at_ms = moves()
            .map(|(at, _)| u64::try_from(at.as_millis()).unwrap_or(u64::MAX))
            .collect();
        out
    }

    /// Adds `other`'s figures to these.
    pub(super) fn merge(&mut self, other: Outcome) {
        self.games += other.games;
        self.played += other.played;
        self.failed += other.failed;
        self.moves += other.moves;
        self.wall_s = self.wall_s.max(other.wall_s);
        self.lost += other.lost;
        self.unread += other.unread;
        self.killed |= other.killed;
        self.resumed_games += other.resumed_games;
        self.resume_since_kill_s = self.resume_since_kill_s.max(other.resume_since_kill_s);
        self.resume_since_found_s = self.resume_since_found_s.max(other.resume_since_found_s);
        self.latencies_us.extend(other.latencies_us);
        self.sent_at_ms.extend(other.sent_at_ms);
    }

    /// The worker's result line: [`WORKER_LINE`] and the JSON of these figures.
    pub(super) fn worker_line(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_else(|_| "{}".into());
        format!("{WORKER_LINE}{json}")
    }

    /// The figures of the result line in a worker's stdout; an error says what was there.
    pub(super) fn from_worker_output(stdout: &str) -> Result<Outcome, String> {
        let line = stdout
            .lines()
            .find_map(|l| l.strip_prefix(WORKER_LINE))
            .ok_or_else(|| {
                let tail: String = stdout.chars().take(300).collect();
                format!("no result line in its output: {tail:?}")
            })?;
        serde_json::from_str(line).map_err(|e| format!("its result line does not read: {e}"))
    }

    /// The summary's last line, for scripts:
    /// `moves_per_s R median_ms M p99_ms P max_ms X lost L`.
    pub(super) fn last_line(&self) -> String {
        let mut sorted = self.latencies_us.clone();
        sorted.sort_unstable();
        let rate = if self.wall_s > 0.0 {
            self.moves as f64 / self.wall_s
        } else {
            0.0
        };
        let ms = |us: u64| us as f64 / 1000.0;
        format!(
            "moves_per_s {:.0} median_ms {:.2} p99_ms {:.2} max_ms {:.2} lost {}",
            rate,
            ms(percentile(&sorted, 50.0)),
            ms(percentile(&sorted, 99.0)),
            ms(sorted.last().copied().unwrap_or_default()),
            self.lost
        )
    }
}

/// Width of the windows of [`Outcome::by_window`].
pub(super) const WINDOW_MS: u64 = 10_000;

impl Outcome {
    /// The moves sent in each [`WINDOW_MS`] of the run, as `(window start s, moves, p50 ms,
    /// p99 ms)`, in time order: where in the run the slow moves were (the opening burst of
    /// games, or the steady play).
    pub(super) fn by_window(&self) -> Vec<(u64, usize, f64, f64)> {
        let mut windows: std::collections::BTreeMap<u64, Vec<u64>> = Default::default();
        for (us, at) in self.latencies_us.iter().zip(&self.sent_at_ms) {
            windows.entry(at / WINDOW_MS).or_default().push(*us);
        }
        windows
            .into_iter()
            .map(|(w, mut v)| {
                v.sort_unstable();
                let ms = |us: u64| us as f64 / 1000.0;
                (
                    w * WINDOW_MS / 1000,
                    v.len(),
                    ms(percentile(&v, 50.0)),
                    ms(percentile(&v, 99.0)),
                )
            })
            .collect()
    }

    /// [`Outcome::by_window`] as one line: `latency_by_10s: 0 s n 1234 p50 2.1 p99 30.5 | ..`.
    pub(super) fn window_line(&self) -> String {
        let parts: Vec<String> = self
            .by_window()
            .into_iter()
            .map(|(s, n, p50, p99)| format!("{s} s n {n} p50 {p50:.1} p99 {p99:.1}"))
            .collect();
        format!("latency_by_10s_ms: {}", parts.join(" | "))
    }
}

/// The `p`-th percentile of `sorted` (nearest rank); 0 for none.
pub(super) fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_outcomes_add_their_counts_and_take_percentiles_of_all_moves() {
        let mut a = Outcome {
            games: 2,
            played: 2,
            moves: 3,
            wall_s: 10.0,
            latencies_us: vec![1_000, 2_000, 3_000],
            sent_at_ms: vec![100, 9_999, 10_000],
            ..Outcome::default()
        };
        let b = Outcome {
            games: 3,
            played: 2,
            failed: 1,
            moves: 1,
            wall_s: 10.5,
            lost: 1,
            latencies_us: vec![100_000],
            sent_at_ms: vec![25_000],
            ..Outcome::default()
        };
        a.merge(b);
        assert_eq!(
            a.by_window(),
            vec![(0, 2, 1.0, 2.0), (10, 1, 3.0, 3.0), (20, 1, 100.0, 100.0)]
        );
        assert_eq!(
            a.window_line(),
            "latency_by_10s_ms: 0 s n 2 p50 1.0 p99 2.0 | 10 s n 1 p50 3.0 p99 3.0 | \
             20 s n 1 p50 100.0 p99 100.0"
        );
        assert_eq!((a.games, a.played, a.failed, a.moves), (5, 4, 1, 4));
        assert_eq!((a.lost, a.wall_s), (1, 10.5));
        assert_eq!(
            a.last_line(),
            "moves_per_s 0 median_ms 2.00 p99_ms 100.00 max_ms 100.00 lost 1"
        );
    }

    #[test]
    fn a_worker_line_reads_back_as_the_same_figures() {
        let a = Outcome {
            games: 7,
            moves: 40,
            wall_s: 3.25,
            latencies_us: vec![5, 7],
            sent_at_ms: vec![1, 2],
            ..Outcome::default()
        };
        let out = format!("something else\n{}\n", a.worker_line());
        assert_eq!(Outcome::from_worker_output(&out), Ok(a));
        let e = Outcome::from_worker_output("error: no server\n").unwrap_err();
        assert!(e.contains("no result line"), "{e}");
    }

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&v, 50.0), 50);
        assert_eq!(percentile(&v, 99.0), 99);
        assert_eq!(percentile(&[], 99.0), 0);
    }
}
