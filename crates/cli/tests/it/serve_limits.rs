//! The descriptor probe of issue 9 (section 4) on the real binary: `icebound serve` started by
//! `prlimit --nofile=120:120`, 130 silent sockets from one client (127.0.0.1), and another client
//! (127.0.0.2) must still be served. Run twice: with the default cap (the limit less 64 reserved
//! descriptors: the silent sockets past it are answered 503 or give way), and with a cap above the
//! limit, where `accept` itself runs out of descriptors and the oldest idle socket is closed.

use crate::common;
use std::net::{IpAddr, SocketAddr};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use test_support::{free_port, temp_dir};

use serde_json::json;
use server::client::ApiClient;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn have_prlimit() -> bool {
    Command::new("prlimit")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
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

/// What became of the attacker's sockets: answered 503, closed without an answer, still open.
#[derive(Debug, Default)]
struct Fate {
    refused_503: usize,
    closed: usize,
    open: usize,
}

async fn fate_of(sockets: Vec<TcpStream>) -> Fate {
    let mut f = Fate::default();
    for mut s in sockets {
        let mut buf = [0u8; 64];
        match tokio::time::timeout(Duration::from_millis(20), s.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 && buf.starts_with(b"HTTP/1.1 503") => f.refused_503 += 1,
            Ok(_) => f.closed += 1,
            Err(_) => f.open += 1,
        }
    }
    f
}

async fn probe(extra: &[&str]) -> (Fate, Duration) {
    let dir_tmp = temp_dir("fds");
    let dir = dir_tmp.path();
    let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().expect("addr");
    let log = dir.join("server.log");
    let server = Command::new("prlimit")
        .arg("--nofile=120:120")
        .arg(common::bin().path())
        .args(["serve", "--addr", &addr.to_string(), "--database"])
        .arg(format!(
            "sqlite://{}?mode=rwc",
            dir.join("fds.db").display()
        ))
        .args(extra)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("log file"))
        .spawn()
        .expect("prlimit icebound serve starts");
    let _server = Server(server);
    wait_ready(addr).await;
    // The attacker: 130 sockets that never send a byte.
    let mut silent = Vec::new();
    for _ in 0..130 {
        match TcpStream::connect(addr).await {
            Ok(s) => silent.push(s),
            Err(e) => panic!("connect: {e}"),
        }
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    // Another client, from another address, plays a game meanwhile.
    let start = Instant::now();
    let mut other = ApiClient::new(addr).from_local("127.0.0.2".parse::<IpAddr>().expect("ip"));
    let g = other
        .post(
            "/api/games",
            json!({"variant": "antarctos", "opponent": "local"}),
        )
        .await
        .unwrap_or_else(|e| panic!("the other client is not served: {e}"));
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.body["id"].as_str().expect("id").to_string();
    for (ply, mv) in ["c3-d4", "f6-e5", "d4xf6"].iter().enumerate() {
        let a = other
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": mv, "ply": ply}),
            )
            .await
            .expect("move");
        assert_eq!(a.status, 200, "{mv}: {}", a.text);
    }
    let served = start.elapsed();
    let fate = fate_of(silent).await;
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        text.contains("Some(120)"),
        "the server saw the 120 limit:\n{text}"
    );
    (fate, served)
}

#[tokio::test]
async fn silent_sockets_cannot_starve_other_clients_of_descriptors() {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    if !have_prlimit() {
        assert!(!ci, "prlimit (util-linux) is needed under CI");
        eprintln!("SKIPPED: prlimit (util-linux) is missing");
        return;
    }
    let (fate, served) = probe(&[]).await;
    println!(
        "120 descriptors, cap 56: 130 silent sockets -> {} answered 503, {} closed, {} open; \
         the other client's game and 3 moves took {} ms",
        fate.refused_503,
        fate.closed,
        fate.open,
        served.as_millis()
    );
    assert!(fate.open <= 56, "{fate:?}");
    // Each socket over the cap was answered 503 or, once idle, shed to make room.
    assert!(fate.refused_503 + fate.closed >= 130 - 56, "{fate:?}");
    assert!(fate.refused_503 >= 1, "{fate:?}");

    // A cap above the descriptor limit: accept runs out of descriptors, and the server closes
    // the oldest idle connection to keep serving.
    let (fate, served) = probe(&[
        "--max-connections",
        "1000",
        "--max-connections-per-address",
        "0",
    ])
    .await;
    println!(
        "120 descriptors, cap 1000: 130 silent sockets -> {} answered 503, {} closed, {} open; \
         the other client's game and 3 moves took {} ms",
        fate.refused_503,
        fate.closed,
        fate.open,
        served.as_millis()
    );
    assert!(fate.closed >= 1, "idle sockets were closed: {fate:?}");
}
