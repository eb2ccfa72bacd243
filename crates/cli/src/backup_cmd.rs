//! `icebound backup --database URL --out FILE`: a consistent copy of the site's database while
//! `serve` runs (SQLite: `VACUUM INTO`, read back and checked; PostgreSQL: `pg_dump`).
//! Restoring: docs/operations.md.

use std::path::PathBuf;

use clap::Args;

#[derive(Args)]
pub struct BackupArgs {
    /// The database, as `serve --database` takes it: sqlite://FILE?mode=rwc, a bare file
    /// path, or postgres://user:password@host/database.
    #[arg(long, default_value = "sqlite://icebound.db?mode=rwc")]
    pub database: String,
    /// The backup file to write; it must not exist yet.
    #[arg(long)]
    pub out: PathBuf,
}

/// The file of a SQLite `database` argument (`sqlite://FILE?...`, `sqlite:FILE`, a bare
/// path); `None` for PostgreSQL or an in-memory database.
pub(crate) fn sqlite_file(database: &str) -> Option<PathBuf> {
    if database.starts_with("postgres:") || database.starts_with("postgresql:") {
        return None;
    }
    let rest = database.strip_prefix("sqlite:").unwrap_or(database);
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let path = rest.split('?').next().unwrap_or(rest);
    (!path.is_empty() && path != ":memory:").then(|| PathBuf::from(path))
}

pub fn backup(args: BackupArgs) -> Result<(), String> {
    // Opening a SQLite URL with mode=rwc creates the file: a mistyped path would be "backed
    // up" as a new empty database. A backup reads an existing database only.
    if let Some(file) = sqlite_file(&args.database)
        && !file.is_file()
    {
        return Err(format!(
            "no database file at {}: give the --database that `serve` uses",
            file.display()
        ));
    }
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("tokio runtime: {e}"))?;
    let shown = site_store::redacted_url(&args.database);
    runtime.block_on(async {
        let store = server::Store::open(&args.database)
            .await
            .map_err(|e| format!("database {shown}: {e}"))?;
        let started = std::time::Instant::now();
        let result = store.backup_to(&args.out).await;
        store.close().await;
        let summary = result.map_err(|e| format!("database {shown}: {e}"))?;
        println!(
            "backup of {shown} written to {}: {} bytes, {} games, {} moves, {} ms",
            summary.file.display(),
            summary.bytes,
            summary.games,
            summary.moves,
            started.elapsed().as_millis()
        );
        Ok(())
    })
}
