//! Helpers shared by the CLI test modules: the built `icebound` (only this crate's tests can
//! name it) on top of `test-support`.
#![allow(dead_code)]

use test_support::Binary;

/// The built `icebound` binary.
pub fn bin() -> Binary {
    Binary::new(env!("CARGO_BIN_EXE_icebound"))
}

/// Runs the built `icebound` with `args`: (success, stdout, stderr).
pub fn icebound(args: &[&str]) -> (bool, String, String) {
    let out = bin().run(args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `icebound serve` as a child process on a free loopback port.
pub mod serve {
    use std::collections::HashMap;
    use std::net::SocketAddr;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use serde_json::json;
    use server::client::ApiClient;
    pub use test_support::{Spawned, free_addr, temp_dir};

    /// Starts `icebound serve --addr ADDR --database URL EXTRA...`.
    /// The process is killed when the returned guard is dropped.
    pub fn start(url: &str, addr: SocketAddr, extra: &[&str]) -> Spawned {
        let child = super::bin()
            .command()
            .args(["serve", "--addr", &addr.to_string(), "--database", url])
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .expect("icebound starts");
        Spawned::new(child)
    }

    /// Waits until `child`, serving `addr`, answers (30 s at most); fails at once, with its
    /// exit status, when it has exited instead (its stderr is the test's).
    pub async fn wait_ready(child: &mut Spawned, addr: SocketAddr) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if ApiClient::new(addr).get("/api/stats").await.is_ok() {
                return;
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!("icebound serve on {addr} exited before answering: {status}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("icebound serve did not answer on {addr} within 30 s");
    }

    /// The acknowledged move texts of each game.
    pub type Acked = Arc<Mutex<HashMap<String, Vec<String>>>>;

    /// A new account `name` registered through `addr`, as a browser holding its session.
    pub async fn register(addr: SocketAddr, name: &str) -> ApiClient {
        let mut c = ApiClient::new(addr);
        let r = c
            .post(
                "/api/accounts",
                json!({"username": name, "password": "correct horse"}),
            )
            .await
            .expect("register");
        assert_eq!(r.status, 201, "{}", r.text);
        c
    }

    /// Waits until `addr` says its bus is up (`/healthz` 200; 30 s at most).
    pub async fn bus_up(addr: SocketAddr) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(a) = ApiClient::new(addr).get("/healthz").await
                && a.status == 200
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the bus of {addr} is not up within 30 s");
    }

    /// Creates `n` local games (Antarctos and Ice Age Chess in turn); returns their ids.
    pub async fn local_games(c: &mut ApiClient, n: usize) -> Vec<String> {
        let mut ids = Vec::new();
        for i in 0..n {
            let variant = if i % 2 == 0 { "antarctos" } else { "iceage" };
            let g = c
                .post(
                    "/api/games",
                    json!({"variant": variant, "opponent": "local"}),
                )
                .await
                .expect("create");
            assert_eq!(g.status, 201, "{}", g.text);
            ids.push(g.body["id"].as_str().expect("id").to_string());
        }
        ids
    }

    /// Plays the first legal move again and again in game `id`, recording each acknowledged
    /// move, until the server goes away, the game ends, or `stop` is set.
    pub async fn keep_playing(
        mut c: ApiClient,
        id: String,
        acked: Acked,
        count: Arc<AtomicUsize>,
        stop: Arc<AtomicBool>,
    ) {
        let Ok(mut view) = c.get(&format!("/api/games/{id}")).await.map(|a| a.body) else {
            return;
        };
        while !stop.load(Ordering::SeqCst) {
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

    /// The move texts of game `id` as the server at `c` shows them.
    pub async fn stored_moves(c: &mut ApiClient, id: &str) -> Vec<String> {
        let v = c.get(&format!("/api/games/{id}")).await.expect("get");
        assert_eq!(v.status, 200, "{}", v.text);
        v.body["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .filter_map(|m| m["text"].as_str().map(str::to_string))
            .collect()
    }
}
