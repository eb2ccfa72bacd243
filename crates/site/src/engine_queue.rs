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
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn spec(owner: &str, lane: Lane, budget_ms: u64) -> JobSpec {
        JobSpec {
            owner: Owner(owner.into()),
            lane,
            budget: Duration::from_millis(budget_ms),
            since_ms: now_ms(),
        }
    }

    /// Work that runs until stopped, counting checkpoints (as a search would).
    fn spin(flag: StopFlag) -> u64 {
        let mut checks = 0;
        while !flag.checkpoint() {
            checks += 1;
            std::thread::sleep(Duration::from_micros(200));
        }
        checks
    }

    /// A job holding the queue's only slot until the returned gate is resumed: its 1 ms
    /// budget ranks it before any other job, and its work ignores its own flag.
    fn hold_the_slot(q: &Arc<EngineQueue>) -> (StopFlag, JobHandle<()>) {
        let gate = StopFlag::new();
        gate.pause();
        let held = gate.clone();
        let hold = q.submit(spec("holder", Lane::Reply, 1), move |_| {
            held.checkpoint();
        });
        (gate, hold)
    }

    #[test]
    fn deadlines_count_from_the_stored_time() {
        let budget = Duration::from_millis(500);
        let fresh = deadline_of(now_ms(), budget);
        let left = fresh.saturating_duration_since(Instant::now());
        assert!(
            left <= budget && left >= Duration::from_millis(400),
            "{left:?}"
        );
        let old = deadline_of(now_ms() - 10_000, budget);
        assert!(old <= Instant::now());
        let skewed = deadline_of(now_ms() + 60_000, budget);
        assert!(skewed <= Instant::now() + budget);
        assert_eq!(
            late_slice(Duration::from_millis(2500)),
            Duration::from_millis(625)
        );
    }

    #[tokio::test]
    async fn an_urgent_job_preempts_long_ones_and_they_resume() {
        let q = EngineQueue::new(1);
        let long = q.submit(spec("flood", Lane::Reply, 2500), spin);
        let long2 = q.submit(spec("flood2", Lane::Reply, 2500), spin);
        let load = q.load();
        assert_eq!((load.running, load.waiting), (1, 1), "{load:?}");
        let t = Instant::now();
        let quick = q.submit(spec("victim", Lane::Reply, 50), |_| 7);
        assert_eq!(quick.result().await, Ok(7));
        assert!(
            t.elapsed() < Duration::from_millis(1000),
            "{:?}",
            t.elapsed()
        );
        // The long jobs still run to their stop time and return.
        assert!(long.result().await.is_ok_and(|checks| checks > 0));
        assert!(long2.result().await.is_ok());
    }

    #[tokio::test]
    async fn a_flood_of_analyses_never_locks_out_a_reply() {
        // Each analysis a new owner with a shorter budget than the last: each ranks ahead of
        // the ones before and pauses them, so started searches pile up.
        let q = EngineQueue::new(1);
        let flood: Vec<_> = (0..3 * MAX_STARTED_PER_SLOT)
            .map(|k| {
                let budget = 5_000 - 20 * k as u64;
                q.submit(spec(&format!("analyst {k}"), Lane::Analysis, budget), spin)
            })
            .collect();
        let load = q.load();
        assert!(
            load.running + load.paused <= MAX_STARTED_PER_SLOT / 2,
            "analyses hold at most half the started searches: {load:?}"
        );
        let t = Instant::now();
        let reply = q.submit(spec("player", Lane::Reply, 50), |_| 7);
        assert_eq!(reply.result().await, Ok(7));
        assert!(
            t.elapsed() < Duration::from_millis(1000),
            "the reply waited {:?}",
            t.elapsed()
        );
        drop(flood);
    }

    #[tokio::test]
    async fn a_result_abandoned_while_awaited_cancels_its_search() {
        // A client that goes away mid-search (POST /api/analysis) drops the awaiting future.
        let q = EngineQueue::new(1);
        let job = q.submit(spec("gone", Lane::Analysis, 60_000), spin);
        let waited = tokio::time::timeout(Duration::from_millis(100), job.result()).await;
        assert!(waited.is_err(), "still searching after 100 ms");
        let t = Instant::now();
        while q.load() != QueueLoad::default() {
            assert!(t.elapsed() < Duration::from_secs(5), "{:?}", q.load());
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    #[tokio::test]
    async fn one_owner_with_many_jobs_takes_turns_with_another() {
        let q = EngineQueue::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let (gate, hold) = hold_the_slot(&q);
        let mut handles = Vec::new();
        for (owner, n) in [("many", 4), ("few", 2)] {
            for k in 0..n {
                let order = order.clone();
                let tag = format!("{owner}{k}");
                handles.push(q.submit(spec(owner, Lane::Reply, 100), move |_| {
                    order.lock().expect("order").push(tag);
                }));
            }
        }
        gate.resume();
        hold.result().await.expect("holder");
        for h in handles {
            h.result().await.expect("job");
        }
        let order = order.lock().expect("order").clone();
        // `few` is not served after all of `many`: shares alternate.
        assert_eq!(order, ["many0", "few0", "many1", "few1", "many2", "many3"]);
    }

    #[tokio::test]
    async fn replies_go_before_analysis() {
        let q = EngineQueue::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let (gate, hold) = hold_the_slot(&q);
        let push = |tag: &'static str| {
            let order = order.clone();
            move |_| order.lock().expect("order").push(tag)
        };
        let a = q.submit(spec("student", Lane::Analysis, 10), push("analysis"));
        let r = q.submit(spec("player", Lane::Reply, 2500), push("reply"));
        gate.resume();
        hold.result().await.expect("holder");
        r.result().await.expect("reply");
        a.result().await.expect("analysis");
        assert_eq!(*order.lock().expect("order"), ["reply", "analysis"]);
    }

    #[tokio::test]
    async fn cancelling_stops_a_running_job_and_drops_a_waiting_one() {
        let q = EngineQueue::new(1);
        let ran = Arc::new(AtomicUsize::new(0));
        let running = q.submit(spec("a", Lane::Analysis, 60_000), spin);
        let waiting = {
            let ran = ran.clone();
            q.submit(spec("b", Lane::Analysis, 60_000), move |_| {
                ran.fetch_add(1, Ordering::SeqCst);
            })
        };
        drop(waiting);
        running.cancel();
        assert!(
            running.result().await.is_ok(),
            "a stopped search still returns"
        );
        assert_eq!(q.load(), QueueLoad::default());
        assert_eq!(
            ran.load(Ordering::SeqCst),
            0,
            "a cancelled waiting job never runs"
        );
    }

    #[tokio::test]
    async fn a_job_stops_at_its_deadline_and_a_late_one_gets_a_slice() {
        let q = EngineQueue::new(2);
        let t = Instant::now();
        q.submit(spec("a", Lane::Reply, 100), spin)
            .result()
            .await
            .expect("stops");
        let took = t.elapsed();
        assert!(took >= Duration::from_millis(90), "{took:?}");
        // Stored 10 s ago: the deadline is past, the job still searches a quarter budget.
        let late = JobSpec {
            since_ms: now_ms() - 10_000,
            ..spec("b", Lane::Reply, 400)
        };
        let t = Instant::now();
        q.submit(late, spin).result().await.expect("late job");
        assert!(
            t.elapsed() >= Duration::from_millis(90),
            "{:?}",
            t.elapsed()
        );
    }

    #[tokio::test]
    async fn closing_stops_everything_and_refuses_new_jobs() {
        let q = EngineQueue::new(1);
        let running = q.submit(spec("a", Lane::Reply, 60_000), spin);
        let waiting = q.submit(spec("b", Lane::Reply, 60_000), spin);
        q.close();
        assert!(
            running.result().await.is_ok(),
            "a stopped search still returns"
        );
        assert_eq!(waiting.result().await, Err(JobError::Cancelled));
        let late = q.submit(spec("c", Lane::Reply, 100), |_| 1);
        assert_eq!(late.result().await, Err(JobError::Cancelled));
        assert_eq!(q.load(), QueueLoad::default());
    }

    #[tokio::test]
    async fn a_panicking_search_is_reported_and_frees_its_slot() {
        let q = EngineQueue::new(1);
        let bad = q.submit(spec("a", Lane::Reply, 100), |_| -> u8 { panic!("boom") });
        assert_eq!(bad.result().await, Err(JobError::Panicked("boom".into())));
        assert_eq!(
            q.submit(spec("a", Lane::Reply, 100), |_| 1).result().await,
            Ok(1)
        );
    }
}
