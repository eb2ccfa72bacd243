//! Group commit of moves (issue 12), and of new games and other state changes (issue 44): the
//! writes that arrive while a commit is under way, from any games, wait for it and then go
//! into one transaction together, so a burst of writes costs one commit (one fsync) instead of
//! one each, and a burst of 8,000 new games does not queue 8,000 transactions for SQLite's
//! single write lock ahead of the moves. Nothing waits on a timer: a write that finds the
//! writer idle is written at once, alone.
//!
//! The promises of [`Store::save_move`], [`Store::save_state`] and [`Store::insert_game`] are
//! unchanged: each write is answered `Ok` only after the commit of its transaction returned
//! OK, and each move or state change checks its own game's ply and version. One that fails
//! that check wrote nothing and is refused alone; the others of its batch still commit. Any
//! other failure (a new game's row refused by the database included) fails the whole batch:
//! nothing of it is acknowledged, and a storage fault is tried once more on a fresh connection
//! like any write (`conn.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::{Any, Transaction};
use tokio::sync::{mpsc, oneshot};

use super::conn::commit;
use super::{GameRow, MoveRow, Store, StoreError};

/// Most writes in one transaction.
pub const MAX_BATCH: usize = 256;

/// Writes waiting for the writer before senders wait too (back-pressure).
const QUEUE: usize = 4 * MAX_BATCH;

/// One write to store, and who waits for the answer.
#[derive(Debug)]
pub(super) struct MoveJob {
    write: Write,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

/// What a job writes.
#[derive(Debug)]
enum Write {
    /// A move: the game's state after it (ply `game.ply`), and the move.
    Move { game: GameRow, mv: MoveRow },
    /// A change of the game's row that is not a move (a seat taken, a resignation): the
    /// stored game must be at ply `game.ply`.
    State { game: GameRow },
    /// A new game.
    Insert { game: GameRow },
}

/// The sending end of the move writer (the writer ends when every sender is dropped) and
/// its counts.
#[derive(Debug, Clone)]
pub(super) struct Committer {
    queue: mpsc::Sender<MoveJob>,
    counts: Arc<Counts>,
}

/// Transactions and moves the writer committed (new games and state changes count in the
/// transactions only).
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
        self.write(Write::Move {
            game: g.clone(),
            mv: mv.clone(),
        })
        .await
    }

    /// Saves a state change that is not a move (seat taken, resignation, draw offer):
    /// `g.version` must be the stored version plus one, and the stored ply `g.ply`. `Ok` only
    /// once the commit returned OK. Other games' writes may share the transaction.
    pub async fn save_state(&self, g: &GameRow) -> Result<(), StoreError> {
        self.write(Write::State { game: g.clone() }).await
    }

    /// Stores a new game. `Ok` only once the commit returned OK. Other games' writes may share
    /// the transaction.
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        self.write(Write::Insert { game: g.clone() }).await
    }

    /// Queues `write` for the writer (or, in a store without one, writes it alone) and waits
    /// for its answer.
    async fn write(&self, write: Write) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        let job = MoveJob { write, reply };
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
        let mut timing = BatchTiming::default();
        while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
            let started = std::time::Instant::now();
            let jobs = batch.len();
            if let Some(stored) = self.write_batch(std::mem::take(&mut batch)).await {
                counts.transactions.fetch_add(1, Ordering::Relaxed);
                counts.moves.fetch_add(stored, Ordering::Relaxed);
            }
            timing.add(jobs, started.elapsed());
        }
    }

    /// Writes `jobs` in one transaction and answers each; how many moves were stored, when
    /// the transaction committed. New games and state changes come in the order they arrived,
    /// with the moves' checked UPDATEs; the moves' rows follow.
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
                            .filter_map(|(j, _)| match &j.write {
                                Write::Move { game, mv } => Some((game.id.as_str(), mv)),
                                _ => None,
                            })
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
        let stored = jobs
            .iter()
            .zip(&answers)
            .filter(|(j, a)| a.is_ok() && matches!(j.write, Write::Move { .. }))
            .count() as u64;
        for (j, answer) in jobs.into_iter().zip(answers) {
            let _ = j.reply.send(answer);
        }
        committed.then_some(stored)
    }
}

/// The writer's batches over the last [`BatchTiming::EVERY`], logged at debug level
/// (`RUST_LOG=site_store::commits=debug`): how many, their mean size, and their mean and
/// longest time from the first statement to the commit's answer. Under load the latency of a
/// write is about one and a half batch times (it waits for the batch under way, then its own).
#[derive(Debug)]
struct BatchTiming {
    since: std::time::Instant,
    batches: u64,
    jobs: u64,
    total: std::time::Duration,
    longest: std::time::Duration,
}

impl Default for BatchTiming {
    fn default() -> Self {
        BatchTiming {
            since: std::time::Instant::now(),
            batches: 0,
            jobs: 0,
            total: Default::default(),
            longest: Default::default(),
        }
    }
}

impl BatchTiming {
    const EVERY: std::time::Duration = std::time::Duration::from_secs(10);

    fn add(&mut self, jobs: usize, took: std::time::Duration) {
        self.batches += 1;
        self.jobs += jobs as u64;
        self.total += took;
        self.longest = self.longest.max(took);
        if self.since.elapsed() >= Self::EVERY {
            let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
            tracing::debug!(
                batches = self.batches,
                writes = self.jobs,
                mean_batch = self.jobs as f64 / self.batches as f64,
                mean_ms = ms(self.total) / self.batches as f64,
                longest_ms = ms(self.longest),
                "group commit"
            );
            *self = BatchTiming::default();
        }
    }
}

fn stopped() -> StoreError {
    StoreError::Database(sqlx::Error::PoolClosed)
}

/// The job's write of its game's row: a move's or a state change's checked UPDATE, or a new
/// game's INSERT. These come first in a batch (each takes SQLite's write lock at once, with no
/// read-to-write upgrade); the moves' rows follow.
async fn update(tx: &mut Transaction<'_, Any>, j: &MoveJob) -> Result<(), StoreError> {
    match &j.write {
        Write::Move { game, .. } => super::move_update::update_after_move(tx, game).await,
        Write::State { game } => super::games::update(tx, game, game.ply).await,
        Write::Insert { game } => Ok(super::games::insert(tx, game).await?),
    }
}

/// [`update`] as one of a batch: the outer `Err` fails the batch, the inner one is this job's
/// own refusal. Only a stale game is refused alone: its checked UPDATE matched no row, so the
/// job wrote nothing and the batch goes on without it (no savepoint needed). Any other error
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
