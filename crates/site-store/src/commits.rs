//! Group commit of moves (issue 12): the moves that arrive while a commit is under way, from
//! any games, wait for it and then go into one transaction together, so a burst of moves
//! costs one commit (one fsync) instead of one each. Nothing waits on a timer: a move that
//! finds the writer idle is written at once, alone.
//!
//! The promise of [`Store::save_move`] is unchanged: each move is answered `Ok` only after the
//! commit of its transaction returned OK, and each checks its own game's ply and version. A
//! move that fails that check wrote nothing and is refused alone; the others of its batch
//! still commit. Any other failure fails the whole batch: nothing of it is acknowledged, and a
//! storage fault is tried once more on a fresh connection like any write (`conn.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::{Any, Transaction};
use tokio::sync::{mpsc, oneshot};

use super::conn::commit;
use super::{GameRow, MoveRow, Store, StoreError};

/// Most moves in one transaction.
pub const MAX_BATCH: usize = 256;

/// Moves waiting for the writer before senders wait too (back-pressure).
const QUEUE: usize = 4 * MAX_BATCH;

/// One move to store: the game's state after it, the move, and who waits for the answer.
#[derive(Debug)]
pub(super) struct MoveJob {
    game: GameRow,
    mv: MoveRow,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

/// The sending end of the move writer (the writer ends when every sender is dropped) and
/// its counts.
#[derive(Debug, Clone)]
pub(super) struct Committer {
    queue: mpsc::Sender<MoveJob>,
    counts: Arc<Counts>,
}

/// Transactions and moves the writer committed.
#[derive(Debug, Default)]
struct Counts {
    transactions: AtomicU64,
    moves: AtomicU64,
}

/// What the move writer has committed since the store opened: `(transactions, moves)`.
/// Their ratio is the mean batch of the group commit.
pub type CommitCounts = (u64, u64);

impl Store {
    /// Starts the move writer of this store (a Tokio task) and returns its sender. The task
    /// holds a copy of the store without a sender, so it ends once the last store that
    /// sends to it is dropped.
    pub(super) fn start_committer(&self) -> Committer {
        let (queue, rx) = mpsc::channel(QUEUE);
        let counts = Arc::new(Counts::default());
        let writer = Store {
            committer: None,
            ..self.clone()
        };
        tokio::spawn(writer.write_batches(rx, counts.clone()));
        Committer { queue, counts }
    }

    /// What the move writer has committed since this store opened.
    pub fn commit_counts(&self) -> CommitCounts {
        self.committer.as_ref().map_or((0, 0), |c| {
            (
                c.counts.transactions.load(Ordering::Relaxed),
                c.counts.moves.load(Ordering::Relaxed),
            )
        })
    }

    /// Appends move `mv` (ply `g.ply`) and saves the game state after it, in a transaction
    /// that checks the stored game is at ply `g.ply - 1` and version `g.version - 1`. `Ok`
    /// only once the commit returned OK. Moves of other games may share the transaction.
    pub async fn save_move(&self, g: &GameRow, mv: &MoveRow) -> Result<(), StoreError> {
        let (job, answer) = job(g, mv);
        match &self.committer {
            Some(committer) => {
                if committer.queue.send(job).await.is_err() {
                    return Err(stopped());
                }
            }
            None => {
                self.write_batch(vec![job]).await;
            }
        }
        answer.await.unwrap_or_else(|_| Err(stopped()))
    }

    async fn write_batches(self, mut rx: mpsc::Receiver<MoveJob>, counts: Arc<Counts>) {
        let mut batch = Vec::with_capacity(MAX_BATCH);
        while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
            if let Some(stored) = self.write_batch(std::mem::take(&mut batch)).await {
                counts.transactions.fetch_add(1, Ordering::Relaxed);
                counts.moves.fetch_add(stored, Ordering::Relaxed);
            }
        }
    }

    /// Writes `jobs` in one transaction and answers each; how many moves were stored, when
    /// the transaction committed.
    async fn write_batch(&self, jobs: Vec<MoveJob>) -> Option<u64> {
        let alone = jobs.len() == 1;
        let outcome = self
            .run(|mut conn| {
                let jobs = &jobs;
                Box::pin(async move {
                    let result = async {
                        let mut tx = conn.begin().await?;
                        let mut each = Vec::with_capacity(jobs.len());
                        for j in jobs {
                            each.push(if alone {
                                // Alone, any error rolls the whole transaction back.
                                update(&mut tx, j).await.map(|()| Ok(()))?
                            } else {
                                update_in_batch(&mut tx, j).await?
                            });
                        }
                        // The moves of the games that were updated, in few statements (each
                        // statement is a hand-off to the database's thread).
                        let rows: Vec<(&str, &MoveRow)> = jobs
                            .iter()
                            .zip(&each)
                            .filter(|(_, ok)| ok.is_ok())
                            .map(|(j, _)| (j.game.id.as_str(), &j.mv))
                            .collect();
                        MoveRow::insert_many(&mut tx, &rows).await?;
                        commit(tx).await?;
                        Ok(each)
                    }
                    .await;
                    (conn, result)
                })
            })
            .await;
        let (answers, committed): (Vec<Result<(), StoreError>>, _) = match outcome {
            Ok(each) => (each, true),
            Err(e) if alone => (vec![Err(e)], false),
            Err(e) => (jobs.iter().map(|_| Err(copy(&e))).collect(), false),
        };
        let stored = answers.iter().filter(|a| a.is_ok()).count() as u64;
        for (j, answer) in jobs.into_iter().zip(answers) {
            let _ = j.reply.send(answer);
        }
        committed.then_some(stored)
    }
}

fn job(g: &GameRow, mv: &MoveRow) -> (MoveJob, oneshot::Receiver<Result<(), StoreError>>) {
    let (reply, answer) = oneshot::channel();
    let job = MoveJob {
        game: g.clone(),
        mv: mv.clone(),
        reply,
    };
    (job, answer)
}

fn stopped() -> StoreError {
    StoreError::Database(sqlx::Error::PoolClosed)
}

/// The move's checked UPDATE of its game. The UPDATEs of a batch come first (each takes
/// SQLite's write lock at once, with no read-to-write upgrade); the moves' rows follow.
async fn update(tx: &mut Transaction<'_, Any>, j: &MoveJob) -> Result<(), StoreError> {
    super::games::update(tx, &j.game, j.game.ply - 1).await
}

/// [`update`] as one of a batch: the outer `Err` fails the batch, the inner one is this move's
/// own refusal. Only a stale game is refused alone: its checked UPDATE matched no row, so the
/// move wrote nothing and the batch goes on without it (no savepoint needed). Any other error
/// may leave a part written, so the whole batch fails and nothing of it is acknowledged.
async fn update_in_batch(
    tx: &mut Transaction<'_, Any>,
    j: &MoveJob,
) -> Result<Result<(), StoreError>, StoreError> {
    match update(tx, j).await {
        Ok(()) => Ok(Ok(())),
        Err(e @ StoreError::Stale { .. }) => Ok(Err(e)),
        Err(e) => Err(e),
    }
}

/// The same error for another job of a failed batch (`sqlx::Error` is not `Clone`; the kind
/// and the text are kept, which is all an answer uses).
fn copy(e: &StoreError) -> StoreError {
    let text = |x: &sqlx::Error| sqlx::Error::Protocol(x.to_string());
    match e {
        StoreError::Stale { expected } => StoreError::Stale {
            expected: *expected,
        },
        StoreError::Commit(x) => StoreError::Commit(text(x)),
        StoreError::Database(x) => StoreError::Database(text(x)),
        StoreError::ConnectTimeout => StoreError::ConnectTimeout,
        StoreError::Encode(what) => StoreError::Encode(what.clone()),
        other => StoreError::Database(sqlx::Error::Protocol(other.to_string())),
    }
}
