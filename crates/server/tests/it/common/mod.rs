//! Shared test harness: a real server on a loopback port (in-process), fresh databases, and
//! helpers to read WebSocket states.
#![allow(dead_code)]

pub mod disk;
pub mod lobby;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};
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

/// A fresh SQLite database file URL.
pub fn sqlite_url(tag: &str) -> String {
    test_support::services::sqlite_url(&temp_dir(tag), "test.db")
}

/// The test PostgreSQL server, shared by the tests of this process: each PostgreSQL test holds
/// it shared (through [`postgres_url`]), and the tests that restart or stop it hold it alone
/// ([`postgres_url_alone`]), so that no other test sees its database go away.
static POSTGRES_SERVER: RwLock<()> = RwLock::new(());

/// How a test holds the PostgreSQL server.
enum Hold {
    Shared(RwLockReadGuard<'static, ()>),
    Alone(RwLockWriteGuard<'static, ()>),
}

/// A fresh PostgreSQL database's URL (it derefs to `&str`), and the test's hold on the server
/// while it lives.
pub struct PostgresUrl {
    url: String,
    _hold: Hold,
}

impl std::ops::Deref for PostgresUrl {
    type Target = str;

    fn deref(&self) -> &str {
        &self.url
    }
}

impl std::fmt::Display for PostgresUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.url)
    }
}

/// A fresh, empty PostgreSQL database on the server of `.ci/setup-postgres.sh` (its URL with
/// the database name replaced), the server held shared; under `CI=true` its absence is a
/// failure.
///
/// Each call makes its own database (`icebound_t_<pid>_<n>`): tests run at once, and site-wide
/// state (the clock sweeper's lease and its outage credit, seeks, engine leases) must not leak
/// from one test's site into another's. Databases of test processes no longer alive are dropped
/// at the first call.
pub fn postgres_url() -> Option<PostgresUrl> {
    let hold = Hold::Shared(POSTGRES_SERVER.read().unwrap_or_else(|p| p.into_inner()));
    fresh_database(hold)
}

/// [`postgres_url`] with the server held alone, for a test that restarts or stops it.
pub fn postgres_url_alone() -> Option<PostgresUrl> {
    let hold = Hold::Alone(POSTGRES_SERVER.write().unwrap_or_else(|p| p.into_inner()));
    fresh_database(hold)
}

fn fresh_database(hold: Hold) -> Option<PostgresUrl> {
    let base = test_support::services::postgres_url()?;
    static N: AtomicUsize = AtomicUsize::new(0);
    let name = format!(
        "icebound_t_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    );
    let (head, tail) = base.rsplit_once('/').expect("a database URL ends in /name");
    let query = tail.find('?').map(|i| &tail[i..]).unwrap_or("");
    let url = format!("{head}/{name}{query}");
    // A thread of its own: the callers are inside a Tokio runtime, which cannot block on one.
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
            .block_on(create_database(&base, &name))
    })
    .join()
    .expect("create the test database");
    Some(PostgresUrl { url, _hold: hold })
}

async fn create_database(base: &str, name: &str) {
    use sqlx::{Connection, Row};
    static SWEPT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    sqlx::any::install_default_drivers();
    let mut admin = sqlx::AnyConnection::connect(base)
        .await
        .expect("connect to the test PostgreSQL");
    if !SWEPT.swap(true, Ordering::SeqCst) {
        let rows =
            sqlx::query("SELECT datname::text FROM pg_database WHERE datname LIKE 'icebound_t_%'")
                .fetch_all(&mut admin)
                .await
                .expect("list test databases");
        for row in rows {
            let old: String = row.try_get(0).expect("datname");
            let pid = old.split('_').nth(2).unwrap_or("");
            let alive = pid.parse::<u32>().is_ok_and(|pid| {
                pid == std::process::id() || std::path::Path::new(&format!("/proc/{pid}")).exists()
            });
            if !alive {
                let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS \"{old}\""))
                    .execute(&mut admin)
                    .await;
            }
        }
    }
    sqlx::query(&format!("CREATE DATABASE \"{name}\""))
        .execute(&mut admin)
        .await
        .expect("create a test database (the role needs CREATEDB: .ci/setup-postgres.sh)");
    let _ = admin.close().await;
}

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

/// A new Antarctos game `id` as stored: the engine (level 1) White, "Ann" Black, no move yet.
pub fn engine_white_row(id: &str) -> site_store::GameRow {
    site_store::GameRow::new_game(
        id.to_string(),
        site_model::state::GameKind::Antarctos,
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8".into(),
        site_store::SeatRow {
            kind: site_model::state::SeatKind::Engine,
            level: Some(site_model::state::Level::MIN),
            token: None,
            name: None,
        },
        site_store::SeatRow {
            kind: site_model::state::SeatKind::Human,
            level: None,
            token: Some("t0k3nt0k3nt0k3nt0k3n".into()),
            name: Some("Ann".into()),
        },
        game::Color::White,
        1,
    )
}

/// Says that a PostgreSQL twin did not run, on the real stderr (not captured by the test
/// harness, so that a plain `cargo test` shows it). [`postgres_url`] fails instead under
/// `CI=true`.
pub fn postgres_skipped(test: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "{test}: skipped: no PostgreSQL (set ICEBOUND_TEST_POSTGRES_URL / run .ci/setup-postgres.sh)"
    );
}

/// Two tests from one `async fn name(url: &str)`: `name::sqlite` on a fresh SQLite file and
/// `name::postgres` on a fresh PostgreSQL database ([`postgres_url`], the server held shared).
/// Without a PostgreSQL URL the second says it is skipped, and under `CI=true` it fails.
/// `multi_thread;` before the `fn` runs both on a two-thread runtime. (Unused in the flood's
/// binary, which shares this module.)
#[allow(unused_macros)]
macro_rules! both_databases {
    (multi_thread; $(#[$attr:meta])* async fn $name:ident($url:ident: &str) $body:block) => {
        both_databases!(@tests (flavor = "multi_thread", worker_threads = 2);
            $(#[$attr])* async fn $name($url: &str) $body);
    };
    ($(#[$attr:meta])* async fn $name:ident($url:ident: &str) $body:block) => {
        both_databases!(@tests (flavor = "current_thread");
            $(#[$attr])* async fn $name($url: &str) $body);
    };
    (@tests ($($flavor:tt)*); $(#[$attr:meta])* async fn $name:ident($url:ident: &str) $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            $(#[$attr])*
            async fn run($url: &str) $body

            #[tokio::test($($flavor)*)]
            async fn sqlite() {
                run(&$crate::common::sqlite_url(stringify!($name))).await;
            }

            #[tokio::test($($flavor)*)]
            async fn postgres() {
                match $crate::common::postgres_url() {
                    Some(url) => run(&url).await,
                    None => $crate::common::postgres_skipped(module_path!()),
                }
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use both_databases;

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
