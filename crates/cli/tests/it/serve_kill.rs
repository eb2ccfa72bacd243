//! `icebound serve` killed with SIGKILL while moves are being played loses no acknowledged
//! move: the real binary, a SQLite file, several games moving at once, then a restart on the
//! same file.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::serve::*;
use server::client::ApiClient;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_move() {
    let tmp = temp_dir("kill");
    let dir = tmp.path();
    let url = format!("sqlite://{}?mode=rwc", dir.join("kill.db").display());
    let addr = free_addr();
    let mut child = start(&url, addr, &[]);
    wait_ready(&mut child, addr).await;

    let mut me = ApiClient::new(addr);
    let acked: Acked = Arc::default();
    let count = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for id in local_games(&mut me, 6).await {
        acked.lock().expect("lock").insert(id.clone(), Vec::new());
        tasks.push(tokio::spawn(keep_playing(
            me.clone(),
            id,
            acked.clone(),
            count.clone(),
            stop.clone(),
        )));
    }
    // Kill while moves are in flight.
    let deadline = Instant::now() + Duration::from_secs(30);
    while count.load(Ordering::SeqCst) < 40 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    for t in tasks {
        let _ = t.await;
    }
    let acked = acked.lock().expect("lock").clone();
    let total: usize = acked.values().map(Vec::len).sum();
    assert!(
        total >= 40,
        "only {total} moves acknowledged before the kill"
    );

    let mut child = start(&url, addr, &[]);
    wait_ready(&mut child, addr).await;
    for (id, moves) in &acked {
        let stored = stored_moves(&mut me, id).await;
        assert!(
            stored.len() >= moves.len(),
            "game {id}: {} moves acknowledged, {} stored",
            moves.len(),
            stored.len()
        );
        assert_eq!(&stored[..moves.len()], moves.as_slice(), "game {id}");
        let v = me.get(&format!("/api/games/{id}")).await.expect("get");
        assert_eq!(v.body["you"], "both", "the seat survives too");
    }
    child.kill().expect("stop");
    let _ = child.wait();
}
