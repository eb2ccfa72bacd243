//! `icebound serve`: the web site (docs/api.md) on `--addr`, storing games in `--database`
//! (a SQLite file created if missing, or PostgreSQL). Logs with tracing (`RUST_LOG` filters);
//! Ctrl-C or SIGTERM stops it gracefully.

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
        site.serve(listener, shutdown_signal())
            .await
            .map_err(|e| e.to_string())
    });
    // Engine searches run on blocking threads with a time budget; do not wait for them long.
    runtime.shutdown_timeout(Duration::from_secs(3));
    result
}
