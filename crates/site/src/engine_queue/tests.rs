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
