//! Storage through sqlx's `Any` driver: a SQLite file (`sqlite://icebound.db?mode=rwc`, the
//! default) or PostgreSQL (`postgres://user:pass@host/db`), with the same SQL (`$1` parameters,
//! `TEXT`/`BIGINT` columns). Tables: `games` (one row per game: seats, state, result), `moves`
//! (one row per move, keyed by game and ply), `lab_runs` (one row per finished engine
//! self-play or match run of the CLI), `imported_games` (records imported into the analysis
//! board) and `reviews` (the computer analysis of a game).
//!
//! Durability: a move is acknowledged only after [`Store::save_move`]'s commit returned OK; it
//! checks the expected ply and version in the same transaction, so two writers can never both
//! append ply n. A connection that saw a storage error is closed, never reused (`conn.rs`), so
//! the store recovers by itself once the disk has room again or the database server is back.
//! Related rows (a game and its moves) are read from one snapshot.

mod accounts;
mod api_tokens;
mod backup;
mod blocks;
mod challenges;
mod chat;
mod clocks;
mod commits;
mod conditional;
mod conn;
mod db_url;
mod emails;
mod follows;
mod game_reads;
mod game_search;
mod games;
mod imports;
mod lab_runs;
mod leases;
mod login_guard;
mod migrations;
mod moderation;
mod move_update;
mod moves;
mod notifications;
mod players;
mod presence;
mod profiles;
mod push;
mod puzzle_upkeep;
mod puzzles;
mod ratings;
mod reports;
mod reviews;
mod sandbag;
mod schema;
mod secrets;
mod seeks;
mod site_error;
mod tournament_entries;
mod tournament_moderation;
mod tournament_pairings;
mod tournaments;
mod tv;
pub use site_error::{tournament_error, upload_error};
mod uploads;
mod vacations;

use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyConnection, AnyPool, Connection};

pub use accounts::{AccountRow, NameClash};
pub use api_tokens::{ApiTokenRow, TokenAccount};
pub use backup::BackupSummary;
pub use blocks::{Between, MAX_BLOCKS};
pub use challenges::{ChallengeEnd, ChallengeLimits, ChallengeRefusal, ChallengeRow};
pub use chat::{ChatInsert, ChatReader, ChatRow};
pub use commits::{CommitCounts, MAX_BATCH};
pub use conditional::{ConditionalRow, LineMove};
pub use db_url::redacted_url;
use db_url::{is_read_only, normalize_url, private_sqlite_file, read_only_or, sqlite_open_problem};
pub use emails::{DigestTarget, EmailRow, MAX_LIVE_RESETS, WaitingGame};
pub use follows::{FollowOutcome, MAX_FOLLOWING, SocialRow};
pub use game_reads::StatsRow;
pub use game_search::{FoundGame, FoundPage, FoundSeat, GameFilter};
pub use games::{GameRow, SeatRow};
pub use imports::ImportRow;
pub use lab_runs::{LabKind, LabRun, MatchFigures, SprtFigures};
pub use leases::{LeaseTake, OUTAGE_MS, SWEEPER_LEASE};
pub use login_guard::{Admission, LoginPace};
pub use moderation::{ModChange, ModLogEntry, ModLogRow, ModState, Refund};
pub use moves::MoveRow;
pub use notifications::{NewNotification, NotificationRow, ReadMark};
pub use players::{PlayerGames, PlayerRecord, ProfileAccount};
pub use push::{PushJob, PushSubscriptionRow};
pub use puzzle_upkeep::PuzzleText;
pub use puzzles::{AttemptRow, AttemptStored, NewPuzzle, PuzzleRatingRow, PuzzleRow, ThemeRecord};
pub use ratings::{BoardRow, HistoryRow, RatingRow};
pub use reports::{NewReport, ReportRefusal, ReportRow, ReportedMessage};
pub use reviews::ReviewRow;
pub use seeks::{AcceptOutcome, SeekRefusal, SeekRow, Terms};
pub use tournament_entries::{EntryRow, JoinOutcome};
pub use tournament_pairings::{NewPairing, PairingRow, result_of as pairing_result_of};
pub use tournaments::TournamentRow;
pub use tv::TvGame;
pub use vacations::{VacationRefusal, VacationRow};

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed (connection, SQL, constraint, full disk, I/O).
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The commit itself failed: the change was not acknowledged. (A PostgreSQL connection
    /// lost during its `COMMIT` leaves unknown whether the server committed; whoever reads
    /// the game next sees which.)
    #[error("commit failed: {0}")]
    Commit(sqlx::Error),
    /// The game changed since it was read (another request or process wrote first).
    #[error("the game changed meanwhile (expected version {expected})")]
    Stale {
        /// The version the writer expected.
        expected: i64,
    },
    /// The database URL is neither `sqlite:` nor `postgres:`.
    #[error("unsupported database URL '{0}' (use sqlite://FILE or postgres://...)")]
    BadUrl(String),
    /// A backup could not be made (the reason says which step failed).
    #[error("backup failed: {0}")]
    Backup(String),
    /// A value could not be turned into its stored text (e.g. JSON).
    #[error("cannot encode {0}")]
    Encode(String),
    /// No connection to a PostgreSQL server within [`CONNECT_TIMEOUT`] (host down or dropping
    /// packets).
    #[error("no connection to the database server within {} s", CONNECT_TIMEOUT.as_secs())]
    ConnectTimeout,
    /// A loss on time refused: the timeout sweeper's lease lapsed `lapse_ms` ago, so the
    /// database was out of reach (or every process down) and that time is owed to the running
    /// clocks first (site::timeouts).
    #[error("the clocks are owed an outage of {lapse_ms} ms; no flag until it is given back")]
    ClocksOwed {
        /// How long ago the lease expired, ms.
        lapse_ms: i64,
    },
    /// A SQLite file that cannot be opened, and why (SQLite itself says only "unable to open
    /// database file").
    #[error("cannot open the SQLite file '{path}': {reason}")]
    SqliteFile {
        /// The file as the URL names it.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A SQLite file that cannot be written, and why (SQLite says "unable to open database
    /// file" or "attempt to write a readonly database", without the file or the cause).
    #[error("cannot write to the SQLite file '{path}': {reason} (SQLite: {sqlite}); {hint}")]
    SqliteReadOnly {
        /// The file as the URL names it.
        path: String,
        /// What is read-only: the URL's mode, the file, or its directory.
        reason: String,
        /// SQLite's own message.
        sqlite: String,
        /// What to do about it.
        hint: &'static str,
    },
}

impl StoreError {
    /// Whether the database itself failed (so the connection that saw it must not be reused),
    /// as opposed to a stale game or a value that could not be encoded.
    pub fn is_storage_fault(&self) -> bool {
        matches!(
            self,
            StoreError::Database(_) | StoreError::Commit(_) | StoreError::ConnectTimeout
        )
    }
}

/// How long opening a database waits for its first connection.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Settings of [`Store::open_with`] beyond the URL.
#[derive(Debug, Clone, Default)]
pub struct StoreOptions {
    /// SQLite only: the most pages (4 KiB each by default) the file may hold, set as
    /// `PRAGMA max_page_count` on every connection. A write past it fails with `SQLITE_FULL`,
    /// as on a full disk: a quota for operators, and how the tests fill the "disk".
    pub sqlite_max_pages: Option<u64>,
}

/// The database: a connection pool plus the queries of the site.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    sqlite: bool,
    url: DbUrl,
    /// SQLite's write-ahead log checkpoints (`conn.rs`).
    wal: std::sync::Arc<conn::WalCheckpoints>,
    /// SQLite: when a connection last failed as read-only (`conn.rs`).
    read_only: std::sync::Arc<conn::ReadOnlySeen>,
    /// The move writer's queue (`commits.rs`); `None` in the writer's own copy.
    committer: Option<commits::Committer>,
}

/// A database URL whose `Debug` hides the password.
#[derive(Clone)]
struct DbUrl(String);

impl DbUrl {
    fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for DbUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&redacted_url(&self.0))
    }
}

impl Store {
    /// Connects to `url` and migrates the schema. A SQLite file is created if missing (give
    /// `?mode=rwc`, or a bare path which gets it) and put in WAL mode.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Self::open_with(url, &StoreOptions::default()).await
    }

    /// [`Store::open`] with `options`.
    pub async fn open_with(url: &str, options: &StoreOptions) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let url = normalize_url(url)?;
        let sqlite = url.starts_with("sqlite:");
        if sqlite {
            private_sqlite_file(&url);
        }
        if !sqlite {
            // The pool retries a refused connection until its acquire timeout, then reports
            // only "pool timed out": one direct attempt first fails at once with the cause.
            let conn = tokio::time::timeout(CONNECT_TIMEOUT, AnyConnection::connect(&url))
                .await
                .map_err(|_| StoreError::ConnectTimeout)??;
            conn.close().await?;
        }
        let max_pages = options.sqlite_max_pages.filter(|_| sqlite);
        let read_only = std::sync::Arc::new(conn::ReadOnlySeen::default());
        let seen = read_only.clone();
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 8 } else { 16 })
            .acquire_timeout(CONNECT_TIMEOUT)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // A small write-ahead log (conn.rs): on a nearly full disk a log of
                        // the default 4 MiB can take all the room there is. Durability is
                        // unchanged: a commit still syncs as `synchronous` says.
                        sqlx::query(&format!(
                            "PRAGMA wal_autocheckpoint = {}",
                            conn::WAL_AUTOCHECKPOINT_PAGES
                        ))
                        .execute(&mut *conn)
                        .await?;
                        sqlx::query(&format!(
                            "PRAGMA journal_size_limit = {}",
                            conn::WAL_SIZE_LIMIT
                        ))
                        .execute(&mut *conn)
                        .await?;
                    }
                    if let Some(pages) = max_pages {
                        sqlx::query(&format!("PRAGMA max_page_count = {pages}"))
                            .execute(conn)
                            .await?;
                    }
                    Ok(())
                })
            })
            // A connection that still counts an open transaction (its rollback failed, or its
            // task was cancelled mid-transaction) is closed instead of handed out (conn.rs).
            // One opened before the last read-only failure may be read-only itself (conn.rs).
            .before_acquire(move |conn, meta| {
                let usable = !conn.is_in_transaction() && !seen.opened_before(meta.age);
                Box::pin(async move { Ok(usable) })
            })
            .connect(&url)
            .await
            .map_err(
                |e| match sqlite.then(|| sqlite_open_problem(&url)).flatten() {
                    Some(problem) => problem,
                    None => read_only_or(&url, e.into()),
                },
            )?;
        if sqlite {
            // WAL: readers do not block the writer; survives a kill like the default journal.
            // Switching a new file needs it alone: another process switching or migrating it
            // at the same instant answers "database is locked" without waiting, so retry.
            let mut attempt = 0;
            while let Err(e) = sqlx::query("PRAGMA journal_mode=WAL").execute(&pool).await {
                attempt += 1;
                if attempt >= 50 {
                    return Err(read_only_or(&url, e.into()));
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        // Several processes (or tests) may start on one database at once: a losing concurrent
        // CREATE or version insert rolls back (on SQLite, "database is locked"), and the next
        // attempt sees it done. Five failures in a row with no migration recorded meanwhile by
        // anyone is a fault, not a race; while others progress (eleven migrations, three
        // processes) a process may lose more often than that.
        let mut attempt = 0;
        let mut recorded = schema::recorded(&pool).await;
        while let Err(e) = schema::migrate(&pool).await {
            let now = schema::recorded(&pool).await;
            if now > recorded {
                recorded = now;
                attempt = 0;
            }
            attempt += 1;
            if attempt >= 5 {
                return Err(read_only_or(&url, e));
            }
            tracing::warn!(error = %e, attempt, "schema migration failed; retrying, in case another process is migrating");
            tokio::time::sleep(Duration::from_millis(50 * attempt)).await;
        }
        let mut store = Store {
            pool,
            sqlite,
            url: DbUrl(url),
            wal: Default::default(),
            read_only,
            committer: None,
        };
        store.committer = Some(store.start_committer());
        store.truncate_wal().await;
        Ok(store)
    }

    /// Whether the database answers a query now (`GET /healthz`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = sqlx::query("SELECT 1")
                    .execute(conn.raw())
                    .await
                    .map(|_| ())
                    .map_err(StoreError::from);
                (conn, result)
            })
        })
        .await
    }

    /// Fails with [`StoreError::SqliteReadOnly`] when a SQLite database opened but cannot be
    /// written (`mode=ro`, or a read-only file SQLite fell back to reading): a site that
    /// starts so would refuse every move. Other failures of the check are only logged. Tried as a table created and rolled back, the
    /// smallest write SQLite checks (`BEGIN IMMEDIATE` passes on a read-only connection).
    /// PostgreSQL: nothing is checked.
    pub async fn check_writable(&self) -> Result<(), StoreError> {
        if !self.sqlite {
            return Ok(());
        }
        let result = self
            .run(|mut conn| {
                Box::pin(async move {
                    let result = async {
                        let mut tx = conn.begin().await?;
                        sqlx::query("CREATE TABLE icebound_write_check (x INTEGER)")
                            .execute(&mut *tx)
                            .await?;
                        tx.rollback().await?;
                        Ok::<(), StoreError>(())
                    }
                    .await;
                    (conn, result)
                })
            })
            .await;
        match result {
            Err(e) if is_read_only(&e) => Err(read_only_or(self.url.as_str(), e)),
            // A full disk or a long write lock elsewhere may pass: the site starts, and its
            // storage faults are handled as while it runs (docs/operations.md).
            Err(e) => {
                tracing::warn!(error = %e, "could not check that the database takes writes");
                Ok(())
            }
            Ok(()) => Ok(()),
        }
    }

    /// Whether the database is a SQLite file (else PostgreSQL).
    pub fn is_sqlite(&self) -> bool {
        self.sqlite
    }

    /// Closes every connection (pending queries finish first).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// A value the database holds that this code cannot read back (unknown text, a level out of
/// range): an error naming the column, never a silent default.
fn corrupt(column: &str, message: String) -> sqlx::Error {
    sqlx::Error::ColumnDecode {
        index: column.to_string(),
        source: message.into(),
    }
}

/// Milliseconds since the Unix epoch by the system's clock (leases, stamps; the game clocks
/// read `site_model::time::WallTime`).
pub fn now_ms() -> i64 {
    site_model::time::system_now_ms()
}
