//! The store's test fixtures (feature `store`): a fresh SQLite file or PostgreSQL database per
//! test, the process-wide hold on the shared PostgreSQL server, a game row to store, and
//! [`crate::both_databases!`], which makes a SQLite and a PostgreSQL test of one function.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// A fresh SQLite database file URL, in a temporary directory kept after the test (a server
/// may still have its files open when the test's last line runs).
pub fn sqlite_url(tag: &str) -> String {
    crate::services::sqlite_url(&crate::temp_dir(tag).keep(), "test.db")
}

/// The test PostgreSQL server, shared by the tests of this process: each PostgreSQL test holds
/// it shared (through [`postgres_url`]), and the tests that restart or stop it hold it alone
/// ([`postgres_url_alone`]), so that no other test sees its database go away.
static POSTGRES_SERVER: RwLock<()> = RwLock::new(());

/// How a test holds the PostgreSQL server.
#[allow(dead_code, reason = "the guards are held for their drop, never read")]
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
    let base = crate::services::postgres_url()?;
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
            rating: None,
            bot: false,
        },
        site_store::SeatRow {
            kind: site_model::state::SeatKind::Human,
            level: None,
            token: Some(site_model::secrets::TokenHash::from_stored(
                "t0k3nt0k3nt0k3nt0k3n".into(),
            )),
            name: Some("Ann".into()),
            rating: None,
            bot: false,
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
/// `multi_thread;` before the `fn` runs both on a two-thread runtime. The calling crate needs
/// tokio (for `#[tokio::test]`).
#[macro_export]
macro_rules! both_databases {
    (multi_thread; $(#[$attr:meta])* async fn $name:ident($url:ident: &str) $body:block) => {
        $crate::both_databases!(@tests (flavor = "multi_thread", worker_threads = 2);
            $(#[$attr])* async fn $name($url: &str) $body);
    };
    ($(#[$attr:meta])* async fn $name:ident($url:ident: &str) $body:block) => {
        $crate::both_databases!(@tests (flavor = "current_thread");
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
                run(&$crate::store::sqlite_url(stringify!($name))).await;
            }

            #[tokio::test($($flavor)*)]
            async fn postgres() {
                match $crate::store::postgres_url() {
                    Some(url) => run(&url).await,
                    None => $crate::store::postgres_skipped(module_path!()),
                }
            }
        }
    };
}
