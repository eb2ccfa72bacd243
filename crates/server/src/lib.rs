//! The icebound site: the JSON API and WebSocket of `docs/api.md` (axum), storage through sqlx
//! (a SQLite file or PostgreSQL), engine opponents, and the page's embedded assets.
//!
//! ```no_run
//! # async fn run() -> Result<(), server::ServerError> {
//! let site = server::Site::open("sqlite://icebound.db?mode=rwc").await?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! site.serve(listener, async { let _ = tokio::signal::ctrl_c().await; }).await?;
//! # Ok(()) }
//! ```

pub mod backup;
pub mod client;
pub mod mailer;
pub mod pubsub;
pub mod push_sender;

use std::future::Future;
use std::sync::Arc;

use tokio::net::TcpListener;

pub use site::options::ServiceOptions;
pub use site::{GameService, Services};
pub use site_http::options::{self, SiteOptions};
pub use site_store::{Store, StoreError, StoreOptions};

/// Why the site could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The database could not be opened or migrated.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The listener failed.
    #[error("network error: {0}")]
    Io(#[from] std::io::Error),
    /// An option cannot be used as given (a `--redis` URL that does not parse).
    #[error("{0}")]
    Options(String),
}

/// Past a file-size limit (`ulimit -f`, `prlimit --fsize`, systemd `LimitFSIZE=`) a write
/// raises SIGXFSZ, whose default action kills the process in the middle of a request or a
/// migration. With a handler installed (before the database is opened; tokio keeps it for the
/// life of the process) the write fails with EFBIG instead: a storage error, as a full disk.
#[cfg(unix)]
fn survive_file_size_limit() {
    use tokio::signal::unix::{SignalKind, signal};
    let xfsz = SignalKind::from_raw(rustix::process::Signal::XFSZ.as_raw());
    if let Err(e) = signal(xfsz) {
        tracing::warn!(error = %e, "cannot handle SIGXFSZ: a file-size limit stops the server");
    }
}

#[cfg(not(unix))]
fn survive_file_size_limit() {}

/// A site ready to serve: its games and storage, and how it meets the network.
#[derive(Clone)]
pub struct Site {
    services: Arc<Services>,
    options: SiteOptions,
    security: site_http::security::SecurityState,
}

impl Site {
    /// Opens (creating and migrating if needed) the database at `url`: `sqlite://FILE?mode=rwc`,
    /// a bare file path, or `postgres://...`; with the default [`SiteOptions`].
    pub async fn open(url: &str) -> Result<Site, ServerError> {
        Site::open_with(url, SiteOptions::default()).await
    }

    /// [`Site::open`] with `options` (public URL, proxy, timeouts, caps, rate limits).
    pub async fn open_with(url: &str, options: SiteOptions) -> Result<Site, ServerError> {
        survive_file_size_limit();
        let store = Store::open_with(url, &options.services.store).await?;
        // Now, not at the first move: a site on a read-only database would refuse them all.
        store.check_writable().await?;
        let keys = site_model::secrets::TokenKeys::new(
            store.player_token_secret().await?,
            store.legacy_player_hashes().await?,
        );
        let filled = store
            .fill_player_hashes(&|id| keys.account_token(id).hash())
            .await?;
        if filled > 0 {
            tracing::info!(accounts = filled, "accounts linked to their seats");
        }
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        let services = Services::new(store, threads, options.services.time.clone());
        // Games go on without puzzles: a failed import is logged, and tried at the next start.
        match services.puzzles.import_shipped().await {
            Ok(0) => {}
            Ok(added) => tracing::info!(puzzles = added, "shipped puzzles added"),
            Err(e) => tracing::error!(error = %e, "the shipped puzzles were not added"),
        }
        // A stored puzzle that does not read is retired, named, and the others served.
        match services.puzzles.check_stored().await {
            Ok(retired) => {
                for (id, why) in &retired {
                    tracing::error!(puzzle = %id, fault = %why, "a stored puzzle does not read: retired");
                }
            }
            Err(e) => tracing::error!(error = %e, "the stored puzzles could not be checked"),
        }
        services.reviews.set_nodes(
            options
                .services
                .review_nodes
                .unwrap_or(site::review::REVIEW_NODES),
        );
        if let Some(presence) = options.services.lobby_presence {
            services.lobby.set_presence(presence);
        }
        let vapid = site::notifications::push::VapidKey::load(services.play.store())
            .await
            .map_err(|e| ServerError::Options(e.message))?;
        let policy = site::notifications::push::EndpointPolicy {
            allow_insecure: options.services.push_allow_insecure,
        };
        let sender = push_sender::HttpsSender::new(policy).map_err(ServerError::Options)?;
        services
            .notifications
            .set_push(Arc::new(site::notifications::push::Push::new(
                vapid,
                sender,
                push_sender::contact(options.public_url.as_ref()),
                policy,
            )));
        match &options.services.smtp {
            Some(url) => {
                let from = options
                    .services
                    .mail_from
                    .clone()
                    .unwrap_or_else(|| "icebound <noreply@icebound.invalid>".to_string());
                let mailer = mailer::SmtpMailer::new(url, &from).map_err(ServerError::Options)?;
                let base = options
                    .public_url
                    .as_ref()
                    .map(|p| p.origin().to_string())
                    .or_else(|| options.services.mail_base.clone())
                    .unwrap_or_else(|| "http://localhost:8080".to_string());
                services.mail.set_mailer(mailer, &base);
                tracing::info!(smtp = %site_store::redacted_url(url), "mail on");
            }
            None => tracing::info!("no mail is sent: no --smtp"),
        }
        let sessions = site::accounts::Sessions::new(
            services.play.store().clone(),
            options.services.time.clone(),
        );
        Ok(Site {
            services,
            security: site_http::security::Security::with_sessions(&options, keys, sessions),
            options,
        })
    }

    /// The options the site runs with.
    pub fn options(&self) -> &SiteOptions {
        &self.options
    }

    /// Signs and checks player tokens (tests issue tokens with it).
    pub fn token_keys(&self) -> &site_model::secrets::TokenKeys {
        &self.security.keys
    }

    /// The game service (for tests and tools in-process).
    pub fn service(&self) -> &Arc<GameService> {
        &self.services.play
    }

    /// Every service of the site: games, lobby, analyses, reviews (tests, tools).
    pub fn services(&self) -> &Arc<Services> {
        &self.services
    }

    /// The axum router of the whole site.
    pub fn router(&self) -> axum::Router {
        site_http::routes::router(self.services.clone(), self.security.clone(), &self.options)
    }

    /// Serves on `listener` until `shutdown` completes, then closes live connections and waits
    /// for requests in flight. Engine moves due from before a restart, and computer analyses
    /// left running, are started first.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        match self.services.play.resume_engines().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(games = n, "engines resumed"),
            Err(e) => tracing::error!(error = %e, "cannot resume engine games"),
        }
        match site::review::resume_all(&self.services.reviews).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(reviews = n, "computer analyses resumed"),
            Err(e) => tracing::error!(error = %e, "cannot resume computer analyses"),
        }
        if let Some(url) = &self.options.services.redis {
            match pubsub::Bus::start(
                url,
                &self.services.play,
                &self.services.chat,
                self.security.sessions.as_ref(),
                self.services.play.shutdown_signal(),
            ) {
                Ok(bus) => {
                    if let Some(sessions) = &self.security.sessions {
                        sessions.set_relay(bus.clone());
                    }
                    self.services.notifications.set_relay(bus.clone());
                    self.services.chat.set_relay(bus.clone());
                    self.services.play.set_bus(bus);
                }
                Err(e) => return Err(ServerError::Options(e.to_string())),
            }
        }
        tokio::spawn(site::timeouts::run(
            self.services.play.clone(),
            self.services.play.shutdown_signal(),
        ));
        self.services
            .tournaments
            .set_schedule(self.options.services.tournament_schedule.clone());
        tokio::spawn(site::tournaments::director::run(
            self.services.tournaments.clone(),
            self.services.play.shutdown_signal(),
        ));
        tokio::spawn(site::engine_player::supervise(
            self.services.play.clone(),
            self.services.play.shutdown_signal(),
        ));
        tokio::spawn(site::notifications::push::run(
            self.services.notifications.clone(),
            self.services.play.shutdown_signal(),
        ));
        tokio::spawn(site::mail::digest::run(
            self.services.mail.clone(),
            self.services.play.time().clone(),
            self.services.play.shutdown_signal(),
        ));
        tokio::spawn(site::notifications::reminders::run(
            self.services.notifications.clone(),
            self.services.play.time().clone(),
            self.services.play.shutdown_signal(),
        ));
        if let Ok(addr) = listener.local_addr() {
            tracing::info!("icebound serving on http://{addr}");
        }
        let service = self.services.play.clone();
        let notifications = self.services.notifications.clone();
        // The players whose pages this process serves when the stop begins: their presence
        // ends with it (hostile finding 9 of round 4), not a TTL later.
        let present = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = present.clone();
        let app = self.router();
        let settings = site_http::conn::ConnSettings {
            timeouts: self.options.timeouts,
            limits: self.options.connections,
            trust_proxy: self.options.trust_proxy,
        };
        site_http::conn::serve(listener, app, settings, async move {
            shutdown.await;
            tracing::info!("shutting down");
            *seen.lock().unwrap_or_else(|p| p.into_inner()) = notifications.stream_owners();
            service.begin_shutdown();
        })
        .await;
        let present = std::mem::take(&mut *present.lock().unwrap_or_else(|p| p.into_inner()));
        let _ = tokio::time::timeout(
            std::time::Duration::from_secs(5),
            self.services.notifications.end_presence(&present),
        )
        .await;
        self.services.play.store().close().await;
        Ok(())
    }
}
