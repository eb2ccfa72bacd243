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
    /// The address people reach the site at, e.g. https://play.example.org: only its pages may
    /// change games, and https makes the player cookie __Host- and Secure.
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// Behind a reverse proxy: trust X-Forwarded-For (client address, for rate limits) and
    /// X-Forwarded-Proto; the per-address connection cap is then the proxy's job.
    #[arg(long)]
    pub trust_proxy: bool,
    /// Most connections open at once (default: the descriptor limit less 64).
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Most connections from one client address; 0: no cap.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_connections_per_address: usize,
    /// No per-client rate limits (a load test from one address).
    #[arg(long)]
    pub no_rate_limits: bool,
    /// Redis for live play across several processes on one database, e.g.
    /// redis://127.0.0.1:6379: every stored change is announced there (docs/deploy.md).
    #[arg(long, value_name = "URL")]
    pub redis: Option<String>,
    /// Let Web Push go to http and private addresses too (a push service on a private
    /// network; tests). Without it, only https to public hosts (a player cannot make the
    /// server POST inside its network).
    #[arg(long)]
    pub push_allow_insecure: bool,
    /// The SMTP server mail leaves through, e.g. smtp://127.0.0.1:25 (a local relay, plain),
    /// smtps://user:password@mail.example.org (TLS). Without it the site sends no mail
    /// (address confirmations, password resets, digests) and says so once in the log.
    #[arg(long, value_name = "URL")]
    pub smtp: Option<String>,
    /// The sender of the site's mail, e.g. "icebound <noreply@play.example.org>".
    #[arg(long, value_name = "ADDRESS")]
    pub mail_from: Option<String>,
    /// A JSON file of the events the site makes itself, daily or weekly (docs/tournaments.md,
    /// "Scheduled events"), e.g. a daily Antarctos arena and a weekly Ice Age Chess Swiss.
    #[arg(long, value_name = "FILE")]
    pub tournaments_schedule: Option<std::path::PathBuf>,
}

/// The site's options from the command line.
fn options(args: &ServeArgs) -> Result<server::SiteOptions, String> {
    let public_url = args
        .public_url
        .as_deref()
        .map(server::options::PublicUrl::parse)
        .transpose()
        .map_err(|e| format!("--public-url: {e}"))?;
    let defaults = server::options::ConnectionLimits::default();
    let tournament_schedule = match &args.tournaments_schedule {
        None => Vec::new(),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--tournaments-schedule {}: {e}", path.display()))?;
            site::tournaments::schedule::parse(&text)
                .map_err(|e| format!("--tournaments-schedule {}: {e}", path.display()))?
        }
    };
    Ok(server::SiteOptions {
        public_url,
        trust_proxy: args.trust_proxy,
        connections: server::options::ConnectionLimits {
            total: args.max_connections,
            per_address: (args.max_connections_per_address > 0)
                .then_some(args.max_connections_per_address),
            ..defaults
        },
        rate_limits: if args.no_rate_limits {
            server::options::RateLimits::off()
        } else {
            server::options::RateLimits::default()
        },
        services: server::ServiceOptions {
            redis: args.redis.clone(),
            push_allow_insecure: args.push_allow_insecure,
            smtp: args.smtp.clone(),
            mail_from: args.mail_from.clone(),
            mail_base: Some(format!("http://{}", args.addr)),
            tournament_schedule,
            ..server::ServiceOptions::default()
        },
        ..server::SiteOptions::default()
    })
}

/// How many connections the kernel may hold accepted but not yet taken by the server
/// (`listen`'s backlog; Linux caps it at `net.core.somaxconn`, 4,096 by default). Tokio's
/// `TcpListener::bind` asks for 1,024: when 8,000 games open at once (issue 44), their 16,000
/// players' connections overflowed it, and each dropped handshake was retried by the client's
/// kernel only after 1 s, then 3 s, past the load client's 5 s.
const BACKLOG: u32 = 65_535;

/// A listener on `addr` (a name or an address with its port) with [`BACKLOG`], and, as
/// `TcpListener::bind` does, `SO_REUSEADDR` (a restarted server binds while its old
/// connections linger). The first of the name's addresses that binds.
async fn listen(addr: &str) -> std::io::Result<tokio::net::TcpListener> {
    let mut last = None;
    for a in tokio::net::lookup_host(addr).await? {
        let socket = if a.is_ipv4() {
            tokio::net::TcpSocket::new_v4()?
        } else {
            tokio::net::TcpSocket::new_v6()?
        };
        socket.set_reuseaddr(true)?;
        match socket.bind(a).and_then(|()| socket.listen(BACKLOG)) {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "the name has no address")
    }))
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
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
    let options = options(&args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_park(crate::allocator::collect_when_idle)
        .build()
        .map_err(|e| format!("tokio runtime: {e}"))?;
    let result = runtime.block_on(async {
        let site = server::Site::open_with(&args.database, options).await.map_err(|e| {
            format!(
                "database {}: {e}",
                site_store::redacted_url(&args.database)
            )
        })?;
        let listener = listen(&args.addr)
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
