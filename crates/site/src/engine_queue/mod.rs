//! The engine queue: every search the site runs (today each engine reply; later a player's
//! analysis, issue 14) goes through one [`EngineQueue`], which shares the machine fairly
//! among players and keeps short budgets from waiting behind long ones.
//!
//! Policy:
//! - **Per-owner fair share (virtual clock).** Each owner (a player) has a clock: a job's
//!   share finishes at `max(now, owner's clock) + budget`, and that becomes the owner's clock.
//!   A player with many games queued gets one budget's worth of turn after another, so another
//!   player's first job goes ahead of their second.
//! - **Most urgent first, with preemption.** At most `slots` searches run at once (one per
//!   core). The queue runs the jobs whose share finishes first; a started job keeps its stop
//!   time as its rank. A job that must wait is paused at its next check (every 1,024 nodes,
//!   about a millisecond) through its [`StopFlag`], not abandoned: pausing changes no node
//!   count, so a level plays as strong as on an idle machine whenever its search ends in time.
//! - **Wall-time budgets from the stored move.** A job's deadline is `since + budget`, where
//!   `since` is when the move it answers was stored: time spent queued is part of the budget.
//!   At the deadline the search stops and plays its best move so far. A job that could not
//!   start before its deadline still gets [`late_slice`] of its budget, so a late reply is
//!   weak, never random, and it is ranked by that slice's end, so late work never stalls an
//!   urgent reply (no domino of missed deadlines).
//! - **Lanes.** [`Lane::Reply`] (a game is waiting for the engine) always goes before
//!   [`Lane::Analysis`] (a player studying a position); each lane has its own clocks.
//! - **Bounded.** At most [`MAX_STARTED_PER_SLOT`] × `slots` searches exist at once (running or
//!   paused, each a thread with its tables); more wait unstarted. Every started search ends by
//!   its stop time, so the bound never blocks for longer than one budget.
//!
//! The seams for later work:
//! - Analysis (issue 14): submit with [`Lane::Analysis`], `budget` = the time cap; the work
//!   closure streams its iterations through a channel it captures; dropping or cancelling the
//!   [`JobHandle`] when the position changes or the page closes stops the search.
//! - Several processes (issue 12): the queue schedules work it is given and knows nothing of
//!   the store. A process first claims `(game, ply)` through a lease in the database, then
//!   submits; `since` comes from the stored row, so whichever process claims the move computes
//!   the same deadline.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use engine::StopFlag;
use tokio::sync::oneshot;

use site_store::now_ms;

/// Started searches allowed per slot (running or paused): bounds threads and tables.
pub const MAX_STARTED_PER_SLOT: usize = 8;

/// Which work a job is; replies always go first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lane {
    /// An engine seat's move: a player waits for it.
    Reply,
    /// A player's analysis of a position (no game waits for it).
    Analysis,
}

/// Who a job is for: a player (their token, or its stored hash). Fair shares are per owner.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Owner(pub String);

/// What to schedule.
#[derive(Debug, Clone)]
pub struct JobSpec {
    /// Whose share it uses.
    pub owner: Owner,
    /// Its lane.
    pub lane: Lane,
    /// Wall time allowed from `since_ms` (and the job's cost in its owner's share).
    pub budget: Duration,
    /// When the budget started, Unix milliseconds: the stored time of the move answered.
    pub since_ms: i64,
}

/// The part of a budget a job gets when it starts after its deadline (a quarter).
pub fn late_slice(budget: Duration) -> Duration {
    budget / 4
}

/// Why a job gave no result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JobError {
    /// Cancelled, or its thread could not start.
    #[error("the search was cancelled")]
    Cancelled,
    /// The work panicked; the message says how.
    #[error("the search panicked: {0}")]
    Panicked(String),
}

/// How busy the queue is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QueueLoad {
    /// Jobs not started yet.
    pub waiting: usize,
    /// Started jobs currently allowed to run.
    pub running: usize,
    /// Started jobs paused for more urgent ones.
    pub paused: usize,
}

/// A job's work: runs the search, then returns what delivers its result to the handle (called
/// once the queue has let the job go, so a caller that sees the result sees the slot free).
type Work = Box<dyn FnOnce(StopFlag) -> Deliver + Send>;
type Deliver = Box<dyn FnOnce() + Send>;

struct Waiting {
    id: u64,
    lane: Lane,
    /// When the owner's share of this job ends (its rank while waiting, at the earliest).
    share_end: Instant,
    deadline: Instant,
    budget: Duration,
    flag: StopFlag,
    work: Work,
}

struct Started {
    id: u64,
    lane: Lane,
    stop_at: Instant,
    flag: StopFlag,
}

#[derive(Default)]
struct State {
    clocks: HashMap<(Lane, Owner), Instant>,
    waiting: Vec<Waiting>,
    started: Vec<Started>,
    next_id: u64,
    closed: bool,
}

/// The site's engine queue (see the module doc). Cheap to share: `Arc<EngineQueue>`.
pub struct EngineQueue {
    slots: usize,
    max_started: usize,
    state: Mutex<State>,
}

/// A submitted job: await [`JobHandle::result`]; dropping it unfinished cancels the job.
pub struct JobHandle<R> {
    id: u64,
    queue: Arc<EngineQueue>,
    rx: Option<oneshot::Receiver<Result<R, JobError>>>,
}

impl<R> JobHandle<R> {
    /// The work's result once it ran. Dropping this future before it is ready (the client
    /// went away) cancels the job, as dropping the handle does.
    pub async fn result(mut self) -> Result<R, JobError> {
        let out = match self.rx.as_mut() {
            Some(rx) => rx.await.unwrap_or(Err(JobError::Cancelled)),
            None => Err(JobError::Cancelled),
        };
        // Delivered: nothing left to cancel.
        self.rx = None;
        out
    }

    /// Cancels the job: a waiting job never starts, a running search stops at its next check.
    pub fn cancel(&self) {
        self.queue.cancel(self.id);
    }
}

impl<R> Drop for JobHandle<R> {
    fn drop(&mut self) {
        if self.rx.is_some() {
            self.queue.cancel(self.id);
        }
    }
}

/// `since_ms + budget` as an instant of this process's clock.
fn deadline_of(since_ms: i64, budget: Duration) -> Instant {
    let now = Instant::now();
    let budget_ms = i64::try_from(budget.as_millis()).unwrap_or(i64::MAX);
    // At most a budget ahead, whatever another process's clock wrote.
    let left_ms = since_ms
        .saturating_add(budget_ms)
        .saturating_sub(now_ms())
        .min(budget_ms);
    let left = Duration::from_millis(left_ms.unsigned_abs());
    if left_ms >= 0 {
        now + left
    } else {
        now.checked_sub(left).unwrap_or(now)
    }
}

impl EngineQueue {
    /// A queue running at most `slots` searches at once (at least one).
    pub fn new(slots: usize) -> Arc<EngineQueue> {
        let slots = slots.max(1);
        Arc::new(EngineQueue {
            slots,
            max_started: slots * MAX_STARTED_PER_SLOT,
            state: Mutex::new(State::default()),
        })
    }

    /// Searches run at once.
    pub fn slots(&self) -> usize {
        self.slots
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state is consistent after every call; a panic elsewhere does not break it.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues `work`, which runs on a thread of its own with the job's [`StopFlag`] (pass it
    /// to the search: the queue pauses, resumes and stops the search through it).
    pub fn submit<R, F>(self: &Arc<Self>, spec: JobSpec, work: F) -> JobHandle<R>
    where
        R: Send + 'static,
        F: FnOnce(StopFlag) -> R + Send + 'static,
    {
        let (tx, rx) = oneshot::channel();
        let work: Work = Box::new(move |flag| {
            let out = catch_unwind(AssertUnwindSafe(|| work(flag))).map_err(|panic| {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown panic".into());
                JobError::Panicked(message)
            });
            Box::new(move || {
                let _ = tx.send(out);
            })
        });
        let now = Instant::now();
        let deadline = deadline_of(spec.since_ms, spec.budget);
        let flag = StopFlag::new();
        flag.set_deadline(deadline);
        let mut st = self.lock();
        let id = st.next_id;
        st.next_id += 1;
        if st.closed {
            // Dropping the work drops its sender: the handle sees `Cancelled`.
            return JobHandle {
                id,
                queue: self.clone(),
                rx: Some(rx),
            };
        }
        let clock = st.clocks.entry((spec.lane, spec.owner)).or_insert(now);
        let share_end = (*clock).max(now) + spec.budget;
        *clock = share_end;
        st.waiting.push(Waiting {
            id,
            lane: spec.lane,
            share_end,
            deadline,
            budget: spec.budget,
            flag,
            work,
        });
        self.reschedule(&mut st);
        JobHandle {
            id,
            queue: self.clone(),
            rx: Some(rx),
        }
    }

    /// How many jobs wait, run and are paused now.
    pub fn load(&self) -> QueueLoad {
        let st = self.lock();
        let paused = st.started.iter().filter(|s| s.flag.is_paused()).count();
        QueueLoad {
            waiting: st.waiting.len(),
            running: st.started.len() - paused,
            paused,
        }
    }

    /// Stops every started search, drops every waiting job and refuses new ones (their
    /// handles see [`JobError::Cancelled`]): the server is shutting down.
    pub fn close(&self) {
        let mut st = self.lock();
        st.closed = true;
        st.waiting.clear();
        for s in &st.started {
            s.flag.stop();
        }
    }

    fn cancel(self: &Arc<Self>, id: u64) {
        let mut st = self.lock();
        if let Some(i) = st.waiting.iter().position(|w| w.id == id) {
            // Dropping the work drops its sender: the handle sees `Cancelled`.
            st.waiting.swap_remove(i);
        } else if let Some(s) = st.started.iter().find(|s| s.id == id) {
            s.flag.stop();
        }
        self.reschedule(&mut st);
    }

    fn finished(self: &Arc<Self>, id: u64) {
        let mut st = self.lock();
        st.started.retain(|s| s.id != id);
        if st.waiting.is_empty() && st.started.is_empty() && st.clocks.len() > 1024 {
            // Idle: every clock is in the past, so forgetting them changes no order.
            st.clocks.clear();
        }
        self.reschedule(&mut st);
    }

    /// Picks the `slots` most urgent jobs (lane, then rank), resumes or starts them and
    /// pauses every other started job.
    fn reschedule(self: &Arc<Self>, st: &mut State) {
        let now = Instant::now();
        // (lane, rank, id, index into `waiting`, or None for a started job).
        let mut ranked: Vec<(Lane, Instant, u64, Option<usize>)> = st
            .started
            .iter()
            .map(|s| (s.lane, s.stop_at, s.id, None))
            .chain(st.waiting.iter().enumerate().map(|(i, w)| {
                let rank = w.share_end.max(now + late_slice(w.budget));
                (w.lane, rank, w.id, Some(i))
            }))
            .collect();
        ranked.sort_unstable_by_key(|&(lane, rank, id, _)| (lane, rank, id));
        let mut run = Vec::with_capacity(self.slots);
        let mut start = Vec::new();
        let mut started = st.started.len();
        // Analyses may hold at most half of the started searches: the other half is always
        // free for replies, which a flood of analyses (each a new owner, each ranked ahead of
        // the last and so pausing it) would otherwise lock out.
        let mut analyses = st
            .started
            .iter()
            .filter(|s| s.lane == Lane::Analysis)
            .count();
        for (lane, _, id, waiting) in ranked {
            if run.len() == self.slots {
                break;
            }
            match waiting {
                None => run.push(id),
                Some(i)
                    if started < self.max_started
                        && (lane == Lane::Reply || analyses < self.max_started / 2) =>
                {
                    run.push(id);
                    start.push(i);
                    started += 1;
                    if lane == Lane::Analysis {
                        analyses += 1;
                    }
                }
                Some(_) => {}
            }
        }
        for s in &st.started {
            if run.contains(&s.id) {
                s.flag.resume();
            } else {
                s.flag.pause();
            }
        }
        start.sort_unstable_by(|a, b| b.cmp(a));
        for i in start {
            let job = st.waiting.swap_remove(i);
            let stop_at = job.deadline.max(now + late_slice(job.budget));
            job.flag.set_deadline(stop_at);
            st.started.push(Started {
                id: job.id,
                lane: job.lane,
                stop_at,
                flag: job.flag.clone(),
            });
            let queue = self.clone();
            let (id, flag, work) = (job.id, job.flag, job.work);
            let spawned = std::thread::Builder::new()
                .name("icebound-search".into())
                .spawn(move || {
                    let deliver = work(flag);
                    queue.finished(id);
                    deliver();
                });
            if let Err(e) = spawned {
                // The work (and its result sender) is gone: the handle sees `Cancelled`.
                tracing::error!(error = %e, "cannot start a search thread");
                st.started.retain(|s| s.id != id);
            }
        }
    }
}

#[cfg(test)]
mod tests;
