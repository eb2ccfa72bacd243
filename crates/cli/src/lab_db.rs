//! `--database` of `icebound selfplay` and `icebound match`: the run's summary row goes to
//! the site's database (site_store::Store, table `lab_runs`), where `GET /api/stats` and the
//! statistics page show it. The database is opened before the run, so a bad URL fails at
//! once instead of after hours of games.

use std::time::Instant;

use clap::Args;
use server::Store;
use site_store::LabRun;

/// The `--database` flag shared by the lab commands.
#[derive(Args, Debug, Clone)]
pub struct DatabaseArg {
    /// Store the run's summary in this database, as `icebound serve --database` takes it:
    /// sqlite://icebound.db?mode=rwc (the default when the flag has no value), a bare file
    /// path, or postgres://user:password@host/database. Nothing is stored without the flag.
    #[arg(long, num_args = 0..=1, default_missing_value = "sqlite://icebound.db?mode=rwc")]
    pub database: Option<String>,
}

/// An open lab database: its URL (as printed: without a password), a small runtime for sqlx,
/// and the store.
pub struct LabDatabase {
    url: String,
    runtime: tokio::runtime::Runtime,
    store: Store,
}

impl LabDatabase {
    /// Opens (creating and migrating if needed) the database of `arg`; `None` without the flag.
    pub fn open(arg: &DatabaseArg) -> Result<Option<LabDatabase>, String> {
        let Some(url) = &arg.database else {
            return Ok(None);
        };
        let shown = site_store::redacted_url(url);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("tokio runtime: {e}"))?;
        let store = runtime
            .block_on(Store::open(url))
            .map_err(|e| format!("--database {shown}: {e}"))?;
        Ok(Some(LabDatabase {
            url: shown,
            runtime,
            store,
        }))
    }

    /// Stores `run` and prints where; the error names the database and says the run is lost
    /// there (its report is already printed).
    pub fn save(self, run: &LabRun) -> Result<(), String> {
        let LabDatabase {
            url,
            runtime,
            store,
        } = self;
        let saved = runtime.block_on(async {
            let saved = store.insert_lab_run(run).await;
            store.close().await;
            saved
        });
        match saved {
            Ok(()) => {
                println!("stored run {} in {url}", run.id);
                Ok(())
            }
            Err(e) => Err(format!(
                "--database {url}: the run was not stored ({e}); its report is above"
            )),
        }
    }
}

/// What every stored run records besides its results: the game, engine A's setting, the
/// seed, the opening plies and ply cap, the wall time since `started` (ms) and the binary.
pub fn run_setup(
    variant: games::GameKind,
    setting: String,
    seed: u64,
    random_plies: u32,
    max_plies: u32,
    started: Instant,
) -> crate::lab_rows::RunSetup {
    crate::lab_rows::RunSetup {
        variant,
        setting,
        seed,
        random_plies,
        max_plies,
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        version: version(),
    }
}

/// The binary that ran a lab run, as stored with it.
pub fn version() -> String {
    concat!("icebound ", env!("CARGO_PKG_VERSION")).to_string()
}

/// Both steps after a run ran; every error is kept.
pub fn both(records: Result<(), String>, stored: Result<(), String>) -> Result<(), String> {
    match (records, stored) {
        (Err(a), Err(b)) => Err(format!("{a}; {b}")),
        (a, b) => a.and(b),
    }
}
