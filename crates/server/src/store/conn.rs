//! The one way the store reaches the database: a pooled connection that is closed, never
//! returned to the pool, once it saw a storage error, and the transactions run on it.
//!
//! Why (issue 9): on `SQLITE_FULL` or an I/O error SQLite may roll a transaction back by
//! itself; the driver's own `ROLLBACK` then fails and the connection still counts an open
//! transaction. Back in the pool, its next "transaction" became a savepoint inside a
//! transaction that never ended: commits returned OK without reaching the file, and the
//! connection kept the write lock. A PostgreSQL connection whose backend died is no better.
//! So every error closes the connection, and a commit counts only when it returned OK.

use futures_util::future::BoxFuture;
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, Connection, Transaction};

use super::{Store, StoreError};

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
    /// only shrinks at such a checkpoint, and the automatic one waits for 1,000 pages (4 MiB):
    /// on a nearly full disk the log itself can hold the last free space, so this runs at
    /// start and after a storage error.
    pub(super) async fn truncate_wal(&self) {
        if !self.sqlite
            || self
                .checkpointing
                .swap(true, std::sync::atomic::Ordering::SeqCst)
        {
            return;
        }
        let result = match self.pool.acquire().await {
            Ok(mut conn) => {
                let r = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                    .execute(&mut *conn)
                    .await;
                if r.is_err() {
                    conn.close_on_drop();
                }
                r.map(|_| ())
            }
            Err(e) => Err(e),
        };
        if let Err(e) = result {
            tracing::warn!(error = %e, "write-ahead log checkpoint failed");
        }
        self.checkpointing
            .store(false, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Conn {
    /// The connection, for a statement outside a transaction.
    pub(super) fn raw(&mut self) -> &mut AnyConnection {
        &mut self.inner
    }

    /// A write transaction (SQLite: deferred; the first `UPDATE` takes the write lock).
    pub(super) async fn begin(&mut self) -> Result<Transaction<'_, Any>, StoreError> {
        Ok(self.inner.begin().await?)
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
            if self.store.sqlite {
                let store = self.store.clone();
                tokio::spawn(async move { store.truncate_wal().await });
            }
        }
        result
    }
}

/// Commits `tx`; only an OK from the database counts as stored.
pub(super) async fn commit(tx: Transaction<'_, Any>) -> Result<(), StoreError> {
    tx.commit().await.map_err(StoreError::Commit)
}
