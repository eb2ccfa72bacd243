//! `icebound load --server-pid PID[,PID..]`: the servers' memory as the kernel counts it,
//! read from Linux's `/proc/PID/status` by the load command itself, before the games start
//! (idle), every quarter second during the run (peak), and after it (steady).

use std::time::Duration;

/// One reading of a process's `/proc/PID/status`, in KiB (the file's own unit, "kB").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Status {
    /// `VmRSS`: resident memory now.
    pub rss_kb: u64,
    /// `VmHWM`: the most resident memory the process ever had (the kernel's high-water mark).
    pub hwm_kb: u64,
}

/// `VmRSS` and `VmHWM` from the text of a `/proc/PID/status`. Errors name the missing or
/// unreadable field.
pub(super) fn parse_status(text: &str) -> Result<Status, String> {
    let field = |name: &str| -> Result<u64, String> {
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
            .ok_or_else(|| format!("no {name} line"))?;
        let mut words = line.split_whitespace();
        let value = words
            .next()
            .and_then(|v| v.parse::<u64>().ok())
            .ok_or_else(|| format!("{name} is not a number: {line:?}"))?;
        match words.next() {
            Some("kB") => Ok(value),
            other => Err(format!("{name} is not in kB: {other:?}")),
        }
    };
    Ok(Status {
        rss_kb: field("VmRSS")?,
        hwm_kb: field("VmHWM")?,
    })
}

/// Reads process `pid`'s `/proc/PID/status` (Linux only; elsewhere, or for a process that is
/// gone, an error saying so).
pub(super) fn read_status(pid: u32) -> Result<Status, String> {
    let path = format!("/proc/{pid}/status");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    parse_status(&text).map_err(|e| format!("{path}: {e}"))
}

/// How often the peak is sampled during the run.
pub(super) const SAMPLE_EVERY: Duration = Duration::from_millis(250);

/// What `--server-pid` measured of each server process.
#[derive(Debug, Clone)]
pub(super) struct Watch {
    pids: Vec<u32>,
    idle: Vec<Status>,
    /// The largest `VmRSS` sampled during the run.
    peak_kb: Vec<u64>,
    /// When the watch started.
    started: std::time::Instant,
    /// Every sample during the run: ms since the start and the processes' `VmRSS` summed.
    samples: Vec<(u64, u64)>,
    /// Read after the run, once its connections closed; `None` until then.
    steady: Option<Vec<Status>>,
}

impl Watch {
    /// Reads every process once, before the games start: an error names the pid that cannot
    /// be read (a wrong pid, a process on another machine).
    pub(super) fn start(pids: &[u32]) -> Result<Watch, String> {
        let idle = pids
            .iter()
            .map(|&p| read_status(p).map_err(|e| format!("--server-pid {p}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Watch {
            pids: pids.to_vec(),
            peak_kb: idle.iter().map(|s| s.rss_kb).collect(),
            started: std::time::Instant::now(),
            samples: Vec::new(),
            idle,
            steady: None,
        })
    }

    /// One sample during the run: raises each process's peak. A process that cannot be read
    /// any more (killed) keeps the peak it had.
    pub(super) fn sample(&mut self) {
        let mut sum = 0;
        for (pid, peak) in self.pids.iter().zip(&mut self.peak_kb) {
            if let Ok(s) = read_status(*pid) {
                *peak = (*peak).max(s.rss_kb);
                sum += s.rss_kb;
            }
        }
        let at = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.samples.push((at, sum));
    }

    /// The reading after the run (a process gone reads as zero).
    pub(super) fn finish(&mut self) {
        self.steady = Some(
            self.pids
                .iter()
                .map(|&p| read_status(p).unwrap_or_default())
                .collect(),
        );
    }

    /// The lines to print: each process's idle, peak, high-water mark and steady figures, in
    /// MB (10^6 bytes), and KB (10^3 bytes) per game of the peak above idle and of the steady
    /// figure above idle, for `games` games.
    pub(super) fn report(&self, games: u64) -> Vec<String> {
        let mb = |kb: u64| kb as f64 * 1024.0 / 1e6;
        let steady = self.steady.clone().unwrap_or_default();
        let mut lines = Vec::new();
        for (i, pid) in self.pids.iter().enumerate() {
            let after = steady.get(i).copied().unwrap_or_default();
            lines.push(format!(
                "server pid {pid}: idle {:.1} MB, peak {:.1} MB (VmHWM {:.1} MB), after the run \
                 {:.1} MB",
                mb(self.idle[i].rss_kb),
                mb(self.peak_kb[i]),
                mb(after.hwm_kb),
                mb(after.rss_kb),
            ));
        }
        let idle: u64 = self.idle.iter().map(|s| s.rss_kb).sum();
        let peak: u64 = self.peak_kb.iter().sum();
        let after: u64 = steady.iter().map(|s| s.rss_kb).sum();
        let per_game = |kb: u64| kb.saturating_sub(idle) as f64 * 1024.0 / 1e3 / games as f64;
        let play = play_kb(&self.samples);
        let windows: Vec<String> = by_window(&self.samples)
            .into_iter()
            .map(|(s, kb)| format!("{s} s {:.0}", mb(kb)))
            .collect();
        lines.push(format!(
            "memory_by_10s_mb (largest sample): {}",
            windows.join(" | ")
        ));
        lines.push(format!(
            "memory_play_mb {:.1} kb_per_game_play {:.1} (median sample of the run's second half)",
            mb(play),
            per_game(play)
        ));
        lines.push(format!(
            "memory_idle_mb {:.1} memory_peak_mb {:.1} memory_steady_mb {:.1} \
             kb_per_game_peak {:.1} kb_per_game_steady {:.1}",
            mb(idle),
            mb(peak),
            mb(after),
            per_game(peak),
            per_game(after),
        ));
        lines
    }
}

/// The median of the samples taken in the second half of the sampled time: the memory of
/// the play once the opening burst of games is over. 0 for no samples.
pub(super) fn play_kb(samples: &[(u64, u64)]) -> u64 {
    let Some(&(last, _)) = samples.last() else {
        return 0;
    };
    let mut late: Vec<u64> = samples
        .iter()
        .filter(|(at, _)| *at >= last / 2)
        .map(|(_, kb)| *kb)
        .collect();
    late.sort_unstable();
    late[late.len() / 2]
}

/// The largest sample in each 10 s of the run, as `(window start s, KiB)`, in time order.
pub(super) fn by_window(samples: &[(u64, u64)]) -> Vec<(u64, u64)> {
    let mut windows: std::collections::BTreeMap<u64, u64> = Default::default();
    for (at, kb) in samples {
        let w = windows.entry(at / 10_000 * 10).or_default();
        *w = (*w).max(*kb);
    }
    windows.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_play_figure_is_the_median_of_the_second_half_and_windows_take_their_largest() {
        let samples = [
            (0, 100),
            (5_000, 900),
            (12_000, 300),
            (16_000, 200),
            (20_000, 250),
        ];
        assert_eq!(play_kb(&samples), 250, "of 300, 200, 250");
        assert_eq!(by_window(&samples), vec![(0, 900), (10, 300), (20, 250)]);
        assert_eq!(play_kb(&[]), 0);
    }

    const STATUS: &str = "Name:\ticebound\nUmask:\t0022\nState:\tS (sleeping)\n\
        VmPeak:\t 1234568 kB\nVmSize:\t 1200000 kB\nVmHWM:\t  456789 kB\nVmRSS:\t  123456 kB\n\
        RssAnon:\t  100000 kB\nThreads:\t12\n";

    #[test]
    fn a_status_text_gives_its_resident_and_high_water_figures() {
        assert_eq!(
            parse_status(STATUS),
            Ok(Status {
                rss_kb: 123_456,
                hwm_kb: 456_789
            })
        );
    }

    #[test]
    fn a_status_without_the_fields_is_an_error_naming_them() {
        let e = parse_status("Name:\tkthreadd\nState:\tS (sleeping)\n").unwrap_err();
        assert!(e.contains("VmRSS"), "{e}");
        let e = parse_status("VmRSS:\t12 MB\nVmHWM:\t 13 kB\n").unwrap_err();
        assert!(e.contains("not in kB"), "{e}");
        let e = parse_status("VmRSS:\tmany kB\nVmHWM:\t 13 kB\n").unwrap_err();
        assert!(e.contains("not a number"), "{e}");
    }

    /// The same function the command uses, on this test's own process.
    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_reads_its_own_status() {
        let held = vec![1u8; 8 << 20];
        let s = read_status(std::process::id()).expect("own /proc status");
        assert!(s.rss_kb >= 8 * 1024, "8 MiB touched, {s:?}");
        assert!(s.hwm_kb >= s.rss_kb, "{s:?}");
        assert!(held.iter().all(|&b| b == 1));
        let mut w = Watch::start(&[std::process::id()]).expect("watch");
        w.sample();
        w.finish();
        let lines = w.report(10);
        assert!(lines[0].starts_with("server pid "), "{lines:?}");
        for start in ["memory_by_10s_mb ", "memory_play_mb ", "memory_idle_mb "] {
            assert!(
                lines.iter().any(|l| l.starts_with(start)),
                "{start}: {lines:?}"
            );
        }
    }

    #[test]
    fn a_pid_that_is_not_there_is_named() {
        let e = Watch::start(&[u32::MAX]).unwrap_err();
        assert!(e.contains(&format!("--server-pid {}", u32::MAX)), "{e}");
    }
}
