//! The lab's thread pool: independent jobs (games, pairs) on worker threads, their results
//! handed back in index order.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// A lab job that panicked (a rules or engine bug, not bad input): which one and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("lab game {index} panicked: {message}")]
pub struct JobPanicked {
    /// 0-based index of the job (game or pair).
    pub index: usize,
    /// The panic message, when it was a string.
    pub message: String,
}

/// Runs `job(0..count)` on `threads` worker threads (at least one), handing each result to
/// `on_result` on the calling thread **in index order**. When `on_result` returns
/// `Break`, no new job starts, and the results up to and including that index are
/// returned (jobs already running are finished and dropped), so the returned prefix does
/// not depend on the thread count. A panicking job stops the run with [`JobPanicked`].
pub fn run_parallel<T, F, R>(
    count: usize,
    threads: usize,
    job: F,
    mut on_result: R,
) -> Result<Vec<T>, JobPanicked>
where
    T: Send,
    F: Fn(usize) -> T + Sync,
    R: FnMut(usize, &T) -> ControlFlow<()>,
{
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let threads = threads.clamp(1, count.max(1));
    let mut done = Vec::with_capacity(count);
    let panicked: Mutex<Option<JobPanicked>> = Mutex::new(None);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, T)>();
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop, job, panicked) = (&next, &stop, &job, &panicked);
            scope.spawn(move || {
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(i))) {
                        Ok(value) => {
                            if tx.send((i, value)).is_err() {
                                break;
                            }
                        }
                        Err(payload) => {
                            let message = payload
                                .downcast_ref::<&str>()
                                .map(|s| s.to_string())
                                .or_else(|| payload.downcast_ref::<String>().cloned())
                                .unwrap_or_else(|| "(no message)".to_string());
                            if let Ok(mut p) = panicked.lock()
                                && p.is_none()
                            {
                                *p = Some(JobPanicked { index: i, message });
                            }
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, T> = BTreeMap::new();
        let mut expected = 0;
        'recv: for (i, value) in rx {
            pending.insert(i, value);
            while let Some(value) = pending.remove(&expected) {
                let flow = on_result(expected, &value);
                done.push(value);
                expected += 1;
                if flow.is_break() {
                    stop.store(true, Ordering::Relaxed);
                    break 'recv;
                }
            }
        }
    });
    match panicked.into_inner() {
        Ok(None) => Ok(done),
        Ok(Some(p)) => Err(p),
        Err(_) => Err(JobPanicked {
            index: 0,
            message: "lock poisoned".to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_parallel_keeps_order_and_stops() {
        let out = run_parallel(50, 3, |i| i * i, |_, _| ControlFlow::Continue(())).unwrap();
        assert_eq!(out, (0..50).map(|i| i * i).collect::<Vec<_>>());
        let mut seen = Vec::new();
        let out = run_parallel(
            50,
            4,
            |i| i,
            |i, _| {
                seen.push(i);
                if i == 9 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        )
        .unwrap();
        assert_eq!(out, (0..10).collect::<Vec<_>>());
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
        assert!(
            run_parallel(0, 2, |i| i, |_, _| ControlFlow::Continue(()))
                .unwrap()
                .is_empty()
        );
        let err = run_parallel(
            5,
            2,
            |i| {
                if i == 3 {
                    panic!("boom");
                }
                i
            },
            |_, _| ControlFlow::Continue(()),
        )
        .unwrap_err();
        assert_eq!(err.index, 3);
        assert_eq!(err.message, "boom");
    }
}
