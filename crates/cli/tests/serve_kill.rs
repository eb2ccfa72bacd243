//! `icebound serve` killed with SIGKILL while moves are being played loses no acknowledged
//! move: the real binary, a SQLite file, several games moving at once, then a restart on the
//! same file.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use server::client::ApiClient;

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn start(db: &Path, addr: SocketAddr) -> Child {
    Command::new(env!("CARGO_BIN_EXE_icebound"))
        .args(["serve", "--addr", &addr.to_string(), "--database"])
        .arg(format!("sqlite://{}?mode=rwc", db.display()))
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("icebound starts")
}

async fn wait_ready(addr: SocketAddr) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if ApiClient::new(addr).get("/api/stats").await.is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("icebound serve did not answer on {addr} within 30 s");
}

fn temp_db() -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("icebound-kill-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("kill.db")
}

type Acked = Arc<Mutex<HashMap<String, Vec<String>>>>;

/// Plays the first legal move again and again in game `id`, recording each acknowledged
/// move, until the server goes away or the game ends.
async fn keep_playing(mut c: ApiClient, id: String, acked: Acked, count: Arc<AtomicUsize>) {
    let Ok(mut view) = c.get(&format!("/api/games/{id}")).await.map(|a| a.body) else {
        return;
    };
    loop {
        let Some(mv) = view["legal"][0]["id"].as_str().map(str::to_string) else {
            return;
        };
        let ply = view["ply"].clone();
        let Ok(a) = c
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": mv, "ply": ply}),
            )
            .await
        else {
            return; // killed
        };
        if a.status != 200 {
            return;
        }
        view = a.body;
        let text = view["moves"][view["ply"].as_u64().unwrap_or(1) as usize - 1]["text"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        acked
            .lock()
            .expect("lock")
            .entry(id.clone())
            .or_default()
            .push(text);
        count.fetch_add(1, Ordering::SeqCst);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_move() {
    let db = temp_db();
    let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().expect("addr");
    let mut child = start(&db, addr);
    wait_ready(addr).await;

    let mut me = ApiClient::new(addr);
    let acked: Acked = Arc::default();
    let count = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for i in 0..6u32 {
        let variant = if i.is_multiple_of(2) {
            "antarctos"
        } else {
            "iceage"
        };
        let g = me
            .post(
                "/api/games",
                json!({"variant": variant, "opponent": "local"}),
            )
            .await
            .expect("create");
        assert_eq!(g.status, 201, "{}", g.text);
        let id = g.body["id"].as_str().expect("id").to_string();
        acked.lock().expect("lock").insert(id.clone(), Vec::new());
        tasks.push(tokio::spawn(keep_playing(
            me.clone(),
            id,
            acked.clone(),
            count.clone(),
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

    let mut child = start(&db, addr);
    wait_ready(addr).await;
    for (id, moves) in &acked {
        let v = me.get(&format!("/api/games/{id}")).await.expect("get");
        assert_eq!(v.status, 200, "{}", v.text);
        let stored: Vec<&str> = v.body["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .filter_map(|m| m["text"].as_str())
            .collect();
        assert!(
            stored.len() >= moves.len(),
            "game {id}: {} moves acknowledged, {} stored",
            moves.len(),
            stored.len()
        );
        assert_eq!(&stored[..moves.len()], moves.as_slice(), "game {id}");
        assert_eq!(v.body["you"], "both", "the seat survives too");
    }
    child.kill().expect("stop");
    let _ = child.wait();
    if let Some(dir) = db.parent() {
        let _ = std::fs::remove_dir_all(dir);
    }
}
