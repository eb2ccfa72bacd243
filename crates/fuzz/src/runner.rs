//! Runs a target: mutation from a growing corpus, panics caught, hangs stopped, findings
//! kept as files.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use crate::mutate::Mutator;
use crate::targets::Target;

/// Longest time one input may take before the run counts it as a hang (the slowest input
/// seen, a server request in a debug build on a loaded machine, takes well under a second).
pub const HANG_LIMIT: Duration = Duration::from_secs(20);

/// Most inputs kept to mutate from (accepted inputs join it).
const CORPUS_LIMIT: usize = 4000;

/// What went wrong with one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// `panic`, `round trip` or `hang`.
    pub kind: &'static str,
    /// The panic message or the broken round trip.
    pub message: String,
    /// The file that keeps the input.
    pub file: PathBuf,
}

/// What a run did.
#[derive(Debug, Clone)]
pub struct Report {
    /// The target's name.
    pub target: &'static str,
    /// Inputs run (seeds included).
    pub inputs: u64,
    /// Inputs the target accepted.
    pub accepted: u64,
    /// How long it ran.
    pub elapsed: Duration,
    /// Findings, each kept as a file.
    pub findings: Vec<Finding>,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "fuzz {}: {} inputs ({} accepted) in {:.1} s, {} finding(s)",
            self.target,
            self.inputs,
            self.accepted,
            self.elapsed.as_secs_f64(),
            self.findings.len()
        )?;
        for x in &self.findings {
            write!(f, "\n  {}: {} ({})", x.kind, x.message, x.file.display())?;
        }
        Ok(())
    }
}

thread_local! {
    /// Set while a fuzz input runs: the panic hook keeps the message here and prints nothing.
    static CAUGHT: RefCell<Option<String>> = const { RefCell::new(None) };
    static QUIET: RefCell<bool> = const { RefCell::new(false) };
}

/// Installs (once) a panic hook that is silent for fuzz inputs and the default otherwise.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(|q| *q.borrow()) {
                let message = info
                    .payload()
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                let place = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                CAUGHT.with(|c| *c.borrow_mut() = Some(format!("{message}{place}")));
            } else {
                default(info);
            }
        }));
    });
}

/// FNV-1a of the input: the finding's file name.
fn digest(input: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in input.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Keeps `input` as `<dir>/<kind>-<digest>.txt`.
fn keep(dir: &Path, kind: &str, input: &str) -> PathBuf {
    let _ = std::fs::create_dir_all(dir);
    let file = dir.join(format!("{kind}-{}.txt", digest(input)));
    let _ = std::fs::write(&file, input);
    file
}

/// Runs one input; a finding if it panics or breaks a round trip.
fn run_one(
    target: &dyn Target,
    input: &str,
    mutator: &mut Mutator,
) -> Result<bool, (&'static str, String)> {
    QUIET.with(|q| *q.borrow_mut() = true);
    let result = panic::catch_unwind(AssertUnwindSafe(|| target.run(input, mutator)));
    QUIET.with(|q| *q.borrow_mut() = false);
    match result {
        Ok(Ok(accepted)) => Ok(accepted),
        Ok(Err(message)) => Err(("round-trip", message)),
        Err(_) => Err((
            "panic",
            CAUGHT
                .with(|c| c.borrow_mut().take())
                .unwrap_or_else(|| "a panic".into()),
        )),
    }
}

/// A watchdog: when one input runs past [`HANG_LIMIT`], it keeps the input as a `hang`
/// file, says so and ends the process (a hang cannot be interrupted from inside).
struct Watchdog {
    started_ms: Arc<AtomicU64>,
    current: Arc<Mutex<String>>,
    done: Arc<AtomicBool>,
    clock: Instant,
}

impl Watchdog {
    fn start(dir: PathBuf, target: &'static str) -> Watchdog {
        let started_ms = Arc::new(AtomicU64::new(0));
        let current = Arc::new(Mutex::new(String::new()));
        let done = Arc::new(AtomicBool::new(false));
        let clock = Instant::now();
        let (s, c, d) = (started_ms.clone(), current.clone(), done.clone());
        std::thread::spawn(move || {
            while !d.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(250));
                let since = s.load(Ordering::Relaxed);
                let now = clock.elapsed().as_millis() as u64;
                if since > 0 && now.saturating_sub(since) > HANG_LIMIT.as_millis() as u64 {
                    let input = c.lock().map(|i| i.clone()).unwrap_or_default();
                    let file = keep(&dir, "hang", &input);
                    eprintln!(
                        "fuzz {target}: an input ran over {} s: kept as {}",
                        HANG_LIMIT.as_secs(),
                        file.display()
                    );
                    std::process::abort();
                }
            }
        });
        Watchdog {
            started_ms,
            current,
            done,
            clock,
        }
    }

    fn begin(&self, input: &str) {
        if let Ok(mut c) = self.current.lock() {
            c.clear();
            c.push_str(input);
        }
        let now = (self.clock.elapsed().as_millis() as u64).max(1);
        self.started_ms.store(now, Ordering::Relaxed);
    }

    fn end(&self) {
        self.started_ms.store(0, Ordering::Relaxed);
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
    }
}

/// How long a run goes on.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Stop after this many mutated inputs.
    pub inputs: u64,
    /// Stop after this long.
    pub time: Duration,
}

/// Runs `target`: its seeds, then mutants of the corpus until the budget is spent. Each
/// finding is kept in `dir`.
pub fn fuzz(target: &dyn Target, budget: Budget, seed: u64, dir: &Path) -> Report {
    install_hook();
    let watchdog = Watchdog::start(dir.to_path_buf(), target.name());
    let start = Instant::now();
    let mut mutator = Mutator::new(seed);
    let mut corpus = target.seeds();
    let mut report = Report {
        target: target.name(),
        inputs: 0,
        accepted: 0,
        elapsed: Duration::ZERO,
        findings: Vec::new(),
    };
    let mut check = |input: String, mutator: &mut Mutator, corpus: &mut Vec<String>| {
        watchdog.begin(&input);
        let outcome = run_one(target, &input, mutator);
        watchdog.end();
        report.inputs += 1;
        match outcome {
            Ok(true) => {
                report.accepted += 1;
                if corpus.len() < CORPUS_LIMIT {
                    corpus.push(input);
                } else {
                    let i = mutator.below(corpus.len());
                    corpus[i] = input;
                }
            }
            Ok(false) => {}
            Err((kind, message)) => {
                let file = keep(dir, kind, &input);
                if !report.findings.iter().any(|f| f.file == file) {
                    report.findings.push(Finding {
                        kind,
                        message,
                        file,
                    });
                }
            }
        }
    };
    for input in corpus.clone() {
        check(input, &mut mutator, &mut corpus);
    }
    let mut mutated = 0;
    while mutated < budget.inputs && start.elapsed() < budget.time {
        let base = corpus[mutator.below(corpus.len())].clone();
        let input = mutator.mutate(&base, target.dictionary(), &corpus);
        check(input, &mut mutator, &mut corpus);
        mutated += 1;
    }
    report.elapsed = start.elapsed();
    report
}

/// Replays every kept input of `dir` (findings of earlier runs and hand-written cases):
/// each must now run without a finding. The inputs replayed and the findings.
pub fn replay(target: &dyn Target, dir: &Path) -> (usize, Vec<Finding>) {
    install_hook();
    let mut mutator = Mutator::new(0);
    let mut count = 0;
    let mut findings = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    for file in files {
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        let input = String::from_utf8_lossy(&bytes).into_owned();
        count += 1;
        if let Err((kind, message)) = run_one(target, &input, &mut mutator) {
            findings.push(Finding {
                kind,
                message,
                file,
            });
        }
    }
    (count, findings)
}
