//! The one way the store reaches the database: a pooled connection that is closed, never
//! returned to the pool, once it saw a storage error, and the transactions run on it.
//!
//! Why (issue 9): on `SQLITE_FULL` or an I/O error SQLite may roll a transaction back by
//! itself; the driver's own `ROLLBACK` then fails and the connection still counts an open
//! transaction. Back in the pool, its next "transaction" became a savepoint inside a
//! transaction that never ended: commits returned OK without reaching the file, and the
//! connection kept the write lock. A PostgreSQL connection whose backend died is no better.
//! So every error closes the connection, and a commit counts only when it returned OK.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

use futures_util::future::BoxFuture;
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, Connection, Row, Transaction};

use super::{Store, StoreError};

/// SQLite: pages in the write-ahead log after which a commit checkpoints it (`PRAGMA
/// wal_autocheckpoint`; SQLite's default is 1,000, 4 MiB). The log is written from its start
/// again after a checkpoint, so this bounds the room it takes: a quarter of the default.
pub(super) const WAL_AUTOCHECKPOINT_PAGES: u32 = 256;

/// SQLite: the bytes the write-ahead log file is cut back to when it starts over after a
/// checkpoint (`PRAGMA journal_size_limit`; SQLite's default keeps it at its largest, so one
/// burst, or a checkpoint held back by a long read, would keep its room for good).
pub(super) const WAL_SIZE_LIMIT: u64 = 1 << 20;

/// Least milliseconds between two tries of an owed checkpoint ([`Store::truncate_wal`]).
const WAL_RETRY_MS: i64 = 1000;

/// SQLite's write-ahead log checkpoints, shared by the copies of a store.
#[derive(Debug, Default)]
pub(super) struct WalCheckpoints {
    /// Whether a checkpoint is running.
    running: AtomicBool,
    /// Whether a truncating checkpoint is owed: a storage error was seen (or a checkpoint
    /// failed) and none succeeded since.
    owed: AtomicBool,
    /// When the last checkpoint began (ms since the epoch).
    last_try_ms: AtomicI64,
}

/// SQLite: when a connection last failed with `SQLITE_READONLY`. SQLite opens a file it
/// cannot write (an immutable or read-only file, a read-only mount) read-only without a word,
/// and such a connection stays read-only after the operator fixes the file; the pool kept
/// handing them out, so a move could meet two in a row after the fix and fail. Once one has
/// failed so, every connection opened before it is left out of the pool at its next
/// acquire, and the pool opens new ones (which can write again once the file can).
#[derive(Debug)]
pub(super) struct ReadOnlySeen {
    base: std::time::Instant,
    /// Microseconds after `base` of the last `SQLITE_READONLY`; 0 for none.
    at_us: std::sync::atomic::AtomicU64,
}

impl Default for ReadOnlySeen {
    fn default() -> Self {
        ReadOnlySeen {
            base: std::time::Instant::now(),
            at_us: Default::default(),
        }
    }
}

impl ReadOnlySeen {
    fn now_us(&self) -> u64 {
        u64::try_from(self.base.elapsed().as_micros()).unwrap_or(u64::MAX)
    }

    /// A connection failed with `SQLITE_READONLY` now.
    pub(super) fn mark(&self) {
        self.at_us.store(self.now_us().max(1), Ordering::SeqCst);
    }

    /// Whether a connection opened `age` ago was opened before the last `SQLITE_READONLY`
    /// (so it may be one of the read-only ones).
    pub(super) fn opened_before(&self, age: std::time::Duration) -> bool {
        let at = self.at_us.load(Ordering::SeqCst);
        let age_us = u64::try_from(age.as_micros()).unwrap_or(u64::MAX);
        at != 0 && self.now_us().saturating_sub(age_us) <= at
    }
}

/// Whether `e` is SQLite's `SQLITE_READONLY` (8) or one of its extended codes.
pub(super) fn is_sqlite_read_only(e: &StoreError) -> bool {
    let (StoreError::Database(e) | StoreError::Commit(e)) = e else {
        return false;
    };
    e.as_database_error()
        .and_then(|d| d.code())
        .and_then(|code| code.parse::<i64>().ok())
        .is_some_and(|code| code & 0xff == 8)
}

/// A pooled connection that must be given back through [`Conn::settle`].
pub(super) struct Conn {
    inner: PoolConnection<Any>,
    store: Store,
}

impl Store {
    /// A connection from the pool.
    pub(super) async fn conn(&self) -> Result<Conn, StoreError> {
        Ok(Conn {
            inner: self.pool.acquire().await?,
            store: self.clone(),
        })
    }

    /// Runs `work` on a pooled connection and settles it. A storage fault before any commit
    /// (so nothing was stored) is tried once more on a fresh connection: the pool may hold
    /// connections that share the fault although it is gone (a SQLite file reopened read-only
    /// while it was read-only, a PostgreSQL backend killed while idle). A failed commit is
    /// never retried: it may have happened.
    pub(super) async fn run<'a, T>(
        &self,
        mut work: impl FnMut(Conn) -> BoxFuture<'a, (Conn, Result<T, StoreError>)>,
    ) -> Result<T, StoreError> {
        let mut retried = false;
        loop {
            let conn = self.conn().await?;
            let (conn, result) = work(conn).await;
            let again = !retried && matches!(result, Err(StoreError::Database(_)));
            let result = conn.settle(result);
            if !again {
                return result;
            }
            retried = true;
        }
    }

    /// SQLite: moves the write-ahead log into the file and truncates it, best effort. The log
    /// only shrinks at such a checkpoint (or, down to [`WAL_SIZE_LIMIT`], when it starts over
    /// after one): on a nearly full disk the log itself can hold the last free space, so this
    /// runs at start and after a storage error. While the disk is still full it fails too (its
    /// pages need room in the file), so it stays owed and is tried again after later
    /// statements that worked ([`Conn::settle`]) until it succeeds: the first read or
    /// `/healthz` after the operator freed space gives the log's room back.
    pub(super) async fn truncate_wal(&self) {
        if !self.sqlite || self.wal.running.swap(true, Ordering::SeqCst) {
            return;
        }
        self.wal
            .last_try_ms
            .store(super::now_ms(), Ordering::SeqCst);
        let result = match self.pool.acquire().await {
            Ok(mut conn) => {
                let r = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                    .fetch_one(&mut *conn)
                    .await;
                if r.is_err() {
                    conn.close_on_drop();
                }
                // Its first column is 1 when a reader or writer kept it from finishing: the
                // log was not truncated.
                r.and_then(|row| row.try_get::<i64, _>(0))
                    .map(|busy| busy == 0)
            }
            Err(e) => Err(e),
        };
        let owed = self.wal.owed.load(Ordering::SeqCst);
        match result {
            Ok(true) => {
                self.wal.owed.store(false, Ordering::SeqCst);
                if owed {
                    tracing::info!("write-ahead log truncated after the storage error");
                }
            }
            Ok(false) => {
                self.wal.owed.store(true, Ordering::SeqCst);
                tracing::debug!("write-ahead log checkpoint busy; tried again later");
            }
            Err(e) => {
                self.wal.owed.store(true, Ordering::SeqCst);
                tracing::warn!(error = %e, "write-ahead log checkpoint failed; tried again later");
            }
        }
        self.wal.running.store(false, Ordering::SeqCst);
    }

    /// SQLite: whether the write-ahead log is checkpointed, for `GET /healthz`. When a storage
    /// error left a checkpoint owed, it is tried now: a file-size limit or a full disk can let
    /// a small write (the health probe's) through while every checkpoint fails and the next
    /// moves fail with it, so the probe's write alone would call such a database healthy.
    /// `Err` says why not, in words. PostgreSQL: always `Ok`.
    pub async fn checkpoint_health(&self) -> Result<(), String> {
        if !self.sqlite || !self.wal.owed.load(Ordering::SeqCst) {
            return Ok(());
        }
        self.truncate_wal().await;
        if self.wal.owed.load(Ordering::SeqCst) {
            Err(
                "the write-ahead log cannot be checkpointed since a storage error (see the \
                 server's log)"
                    .to_string(),
            )
        } else {
            Ok(())
        }
    }

    /// Tries a checkpoint that is owed ([`Store::truncate_wal`]) again, at most every
    /// [`WAL_RETRY_MS`]: while the disk stays full each try fails, and the site may run many
    /// statements a second.
    fn retry_owed_checkpoint(&self) {
        if !self.sqlite
            || !self.wal.owed.load(Ordering::SeqCst)
            || super::now_ms() - self.wal.last_try_ms.load(Ordering::SeqCst) < WAL_RETRY_MS
        {
            return;
        }
        let store = self.clone();
        tokio::spawn(async move { store.truncate_wal().await });
    }
}

impl Conn {
    /// The connection, for a statement outside a transaction.
    pub(super) fn raw(&mut self) -> &mut AnyConnection {
        &mut self.inner
    }

    /// A write transaction. SQLite: `BEGIN IMMEDIATE`, the write lock from the start. A
    /// deferred one that reads first and writes then cannot wait for a writer that came
    /// between (`SQLITE_BUSY` at once, the busy timeout never asked): two requests at the same
    /// moment made a 500 of one of them (a tester's verify links and vacations). Now the
    /// second waits up to the busy timeout.
    pub(super) async fn begin(&mut self) -> Result<Transaction<'_, Any>, StoreError> {
        Ok(if self.store.sqlite {
            self.inner.begin_with("BEGIN IMMEDIATE").await?
        } else {
            self.inner.begin().await?
        })
    }

    /// A read-only transaction whose statements all see one snapshot of the database.
    /// SQLite: a deferred transaction in WAL mode reads one snapshot from its first `SELECT`
    /// on. PostgreSQL: `READ COMMITTED`, its default, takes a new snapshot per statement, so
    /// the transaction asks for `REPEATABLE READ`.
    pub(super) async fn begin_snapshot(
        &mut self,
        sqlite: bool,
    ) -> Result<Transaction<'_, Any>, StoreError> {
        Ok(if sqlite {
            self.inner.begin().await?
        } else {
            self.inner
                .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                .await?
        })
    }

    /// Hands back the connection with the result of what ran on it: after a storage error the
    /// connection is closed, never returned to the pool. [`StoreError::Stale`] is no storage
    /// error (the statements ran; the game had changed).
    pub(super) fn settle<T>(mut self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        if let Err(e) = &result
            && e.is_storage_fault()
        {
            tracing::warn!(error = %e, "closing a database connection after a storage error");
            self.inner.close_on_drop();
            if self.store.sqlite && is_sqlite_read_only(e) {
                self.store.read_only.mark();
            }
            if self.store.sqlite {
                let store = self.store.clone();
                tokio::spawn(async move { store.truncate_wal().await });
            }
        } else {
            self.store.retry_owed_checkpoint();
        }
        result
    }
}

/// Commits `tx`; only an OK from the database counts as stored.
pub(super) async fn commit(tx: Transaction<'_, Any>) -> Result<(), StoreError> {
    tx.commit().await.map_err(StoreError::Commit)
}

/// Holds, until `tx` ends, the lobby lock of each player in `players` (token hashes), taken
/// in sorted order so two holders never wait on each other. Challenges, seeks, blocks and a
/// moderator's close take it for the players they touch, so a check made inside one of them
/// (a block, a closed account, a count) stays true until it commits (issue 41, hostile
/// findings 4 and 5 of round 6). PostgreSQL: `pg_advisory_xact_lock`; SQLite needs none (its
/// write transactions are `BEGIN IMMEDIATE`, one at a time across processes).
pub(super) async fn lock_players(
    tx: &mut Transaction<'_, Any>,
    sqlite: bool,
    players: &[&str],
) -> Result<(), StoreError> {
    if sqlite {
        return Ok(());
    }
    let mut keys: Vec<&str> = players.to_vec();
    keys.sort_unstable();
    keys.dedup();
    for key in keys {
        sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))")
            .bind(format!("player:{key}"))
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}
