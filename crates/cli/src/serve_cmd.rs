//! `icebound serve`: the web site (docs/api.md) on `--addr`, storing games in `--database`
//! (a SQLite file created if missing, or PostgreSQL). Logs with tracing (`RUST_LOG` filters);
//! Ctrl-C or SIGTERM stops it gracefully.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use tracing_subscriber::EnvFilter;

#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// sqlite://icebound.db?mode=rwc (default: the file icebound.db here, created if missing),
    /// a bare file path, or postgres://user:password@host/database.
    #[arg(long, default_value = "sqlite://icebound.db?mode=rwc")]
    pub database: String,
    /// Take a backup at start and then every interval (`1h`, `30m`, `1d`; at least `1s`),
    /// into --backup-dir.
    #[arg(long, value_parser = humantime::parse_duration, requires = "backup_dir")]
    pub backup_every: Option<Duration>,
    /// Folder of the scheduled backups (`icebound-<UTC time>.db` or `.pgdump`).
    #[arg(long, requires = "backup_every")]
    pub backup_dir: Option<PathBuf>,
    /// How many scheduled backups to keep (the newest; older ones are removed).
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u32).range(1..))]
    pub backup_keep: u32,
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}

pub fn serve(args: ServeArgs) -> Result<(), String> {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=warn"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).try_init();
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("tokio runtime: {e}"))?;
    let result = runtime.block_on(async {
        let site = server::Site::open(&args.database).await.map_err(|e| {
            format!(
                "database {}: {e}",
                server::store::redacted_url(&args.database)
            )
        })?;
        let listener = tokio::net::TcpListener::bind(&args.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?;
        let backups = match (args.backup_every, args.backup_dir) {
            (Some(every), Some(dir)) => {
                tracing::info!(every = %humantime::format_duration(every), dir = %dir.display(), keep = args.backup_keep, "scheduled backups");
                Some(tokio::spawn(server::backup::run_schedule(
                    site.service().store().clone(),
                    server::backup::BackupSchedule {
                        every,
                        dir,
                        keep: args.backup_keep as usize,
                    },
                )))
            }
            _ => None,
        };
        let served = site
            .serve(listener, shutdown_signal())
            .await
            .map_err(|e| e.to_string());
        if let Some(task) = backups {
            task.abort();
        }
        served
    });
    // Engine searches run on blocking threads with a time budget; do not wait for them long.
    runtime.shutdown_timeout(Duration::from_secs(3));
    result
}
