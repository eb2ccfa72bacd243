//! Shared test harness: a real server on a loopback port (in-process), fresh databases, and
//! helpers to read WebSocket states.
#![allow(dead_code)]

pub mod disk;
pub mod lobby;
pub mod tournaments;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};
use server::client::{ApiClient, WsStream, next_json};
use server::{Site, SiteOptions};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A server running in this process.
pub struct TestServer {
    pub addr: SocketAddr,
    pub site: Site,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl TestServer {
    /// Starts a server on `url` at a free loopback port, with the default options.
    pub async fn start(url: &str) -> TestServer {
        TestServer::start_with(url, SiteOptions::default()).await
    }

    /// Starts a server on `url` with `options` (limits a test sets for itself).
    pub async fn start_with(url: &str, options: SiteOptions) -> TestServer {
        let site = Site::open_with(url, options).await.expect("database opens");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (tx, rx) = oneshot::channel::<()>();
        let serving = site.clone();
        let task = tokio::spawn(async move {
            let _ = serving
                .serve(listener, async move {
                    let _ = rx.await;
                })
                .await;
        });
        TestServer {
            addr,
            site,
            stop: Some(tx),
            task,
        }
    }

    /// A new browser (no token yet).
    pub fn client(&self) -> ApiClient {
        ApiClient::new(self.addr)
    }

    /// Drops the server abruptly, as a crash would (no graceful shutdown), and stops its
    /// background work (timeout sweeper, engines): a dead process does nothing more.
    pub async fn crash(mut self) {
        self.stop.take();
        self.task.abort();
        let _ = self.task.await;
        self.site.service().begin_shutdown();
    }

    /// Graceful stop.
    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        let _ = tokio::time::timeout(Duration::from_secs(10), self.task).await;
    }
}

/// A fresh, empty directory under the system's temp dir (test-support's), kept after the test:
/// a server may still have its files open when the test's last line runs.
pub fn temp_dir(tag: &str) -> PathBuf {
    test_support::temp_dir(tag).keep()
}

#[allow(unused_imports)]
pub use test_support::both_databases;
#[allow(unused_imports)]
pub use test_support::store::{
    PostgresUrl, engine_white_row, postgres_skipped, postgres_url, postgres_url_alone, sqlite_url,
};

/// Reads WebSocket messages until a state with `pred` true arrives (10 s at most).
pub async fn wait_state(ws: &mut WsStream, pred: impl Fn(&Value) -> bool) -> Value {
    let deadline = Duration::from_secs(10);
    tokio::time::timeout(deadline, async {
        loop {
            let msg = next_json(ws).await.expect("websocket open");
            if msg["type"] == "state" && pred(&msg["game"]) {
                return msg["game"].clone();
            }
        }
    })
    .await
    .expect("state arrives within 10 s")
}

/// The first message of a new socket, which must be a state (within 5 s); its game.
pub async fn first_state(ws: &mut WsStream) -> Value {
    let first = tokio::time::timeout(Duration::from_secs(5), next_json(ws))
        .await
        .expect("a first state within 5 s")
        .expect("a message");
    assert_eq!(
        first["type"], "state",
        "the first message is a state: {first}"
    );
    first["game"].clone()
}

/// Reads WebSocket messages until an error arrives.
pub async fn wait_error(ws: &mut WsStream) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let msg = next_json(ws).await.expect("websocket open");
            if msg["type"] == "error" {
                return msg["error"].clone();
            }
        }
    })
    .await
    .expect("error arrives within 10 s")
}

/// Creates a game; asserts 201.
pub async fn create(c: &mut ApiClient, body: Value) -> Value {
    let a = c.post("/api/games", body).await.expect("request");
    assert_eq!(a.status, 201, "create: {}", a.text);
    a.body
}

/// A friend game created by `creator` with `body` and joined by `joiner` through its
/// invitation; asserts 201 and 200 and returns the created view (before the join).
pub async fn create_and_join(
    creator: &mut ApiClient,
    joiner: &mut ApiClient,
    body: Value,
) -> Value {
    let g = create(creator, body).await;
    let invite = g["invite_url"].as_str().expect("an invitation").to_string();
    let joined = joiner
        .post(&format!("/api{invite}"), json!({}))
        .await
        .expect("request");
    assert_eq!(joined.status, 200, "join: {}", joined.text);
    g
}

/// Plays `mv` in game `id` at its current ply (read first); asserts 200 and returns the view.
pub async fn play(c: &mut ApiClient, id: &str, mv: &str) -> Value {
    let ply = c.get(&format!("/api/games/{id}")).await.expect("get").body["ply"].clone();
    let a = c
        .post(
            &format!("/api/games/{id}/moves"),
            json!({ "move": mv, "ply": ply }),
        )
        .await
        .expect("request");
    assert_eq!(a.status, 200, "move {mv}: {}", a.text);
    a.body
}

/// Asserts an API error answer.
pub fn assert_error(a: &server::client::Answer, status: u16, code: &str) {
    assert_eq!(a.status, status, "{}", a.text);
    assert_eq!(a.body["error"]["code"], code, "{}", a.text);
    assert!(
        a.body["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "error has a message: {}",
        a.text
    );
}

/// A name of this run's own (a PostgreSQL database outlives the run).
pub fn unique(prefix: &str) -> String {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() % 1_000_000_000)
        .unwrap_or(0);
    format!("{prefix}{n}")
}

/// A fresh browser registered as account `name` (201).
pub async fn register(srv: &TestServer, name: &str) -> ApiClient {
    let mut c = srv.client();
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
