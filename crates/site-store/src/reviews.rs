//! The `reviews` table: the computer analysis of a finished or imported game (issue 14's
//! evaluation graph), one row per game, computed once. `evals` is a JSON array with one
//! evaluation per position analysed so far, in order from the start (site::review).

use sqlx::Row;
use sqlx::any::AnyRow;

use super::conn::commit;
use super::{Store, StoreError, corrupt};
use site_model::secrets::TokenHash;
use site_model::state::{GameKind, ReviewStatus};

/// One review as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewRow {
    /// `game/<id>` or `import/<id>`.
    pub subject: String,
    /// The game.
    pub variant: GameKind,
    /// The hash of the token of the player who asked (its engine-queue share).
    pub owner: TokenHash,
    /// Where it stands.
    pub status: ReviewStatus,
    /// Nodes searched per position.
    pub nodes: i64,
    /// Positions to analyse (moves + 1).
    pub total: i64,
    /// Positions analysed.
    pub done: i64,
    /// JSON array of `done` evaluations.
    pub evals: String,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds of the last progress.
    pub updated_at: i64,
}

const COLUMNS: &str =
    "subject, variant, owner, status, nodes, total, done, evals, created_at, updated_at";

fn from_row(r: &AnyRow) -> Result<ReviewRow, sqlx::Error> {
    let subject: String = r.try_get("subject")?;
    let variant: String = r.try_get("variant")?;
    let status: String = r.try_get("status")?;
    let status = ReviewStatus::parse(&status).ok_or_else(|| {
        corrupt(
            "status",
            format!("review {subject}: unknown status '{status}'"),
        )
    })?;
    Ok(ReviewRow {
        variant: GameKind::parse(&variant).ok_or_else(|| {
            corrupt(
                "variant",
                format!("review {subject}: unknown variant '{variant}'"),
            )
        })?,
        subject,
        owner: TokenHash::from_stored(r.try_get("owner")?),
        status,
        nodes: r.try_get("nodes")?,
        total: r.try_get("total")?,
        done: r.try_get("done")?,
        evals: r.try_get("evals")?,
        created_at: r.try_get("created_at")?,
        updated_at: r.try_get("updated_at")?,
    })
}

impl Store {
    /// The review of `subject`, if one was asked for.
    pub async fn load_review(&self, subject: &str) -> Result<Option<ReviewRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row =
                        sqlx::query(&format!("SELECT {COLUMNS} FROM reviews WHERE subject = $1"))
                            .bind(subject)
                            .fetch_optional(conn.raw())
                            .await?;
                    Ok(row.as_ref().map(from_row).transpose()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Stores `review` unless its subject has one, or replaces a `failed` one; returns the
    /// review now stored (another request's, when it came first).
    pub async fn start_review(&self, review: &ReviewRow) -> Result<ReviewRow, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    sqlx::query("DELETE FROM reviews WHERE subject = $1 AND status = 'failed'")
                        .bind(&review.subject)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(&format!(
                        "INSERT INTO reviews ({COLUMNS}) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
                         ON CONFLICT (subject) DO NOTHING"
                    ))
                    .bind(&review.subject)
                    .bind(review.variant.as_str())
                    .bind(review.owner.as_str())
                    .bind(review.status.as_str())
                    .bind(review.nodes)
                    .bind(review.total)
                    .bind(review.done)
                    .bind(&review.evals)
                    .bind(review.created_at)
                    .bind(review.updated_at)
                    .execute(&mut *tx)
                    .await?;
                    let row =
                        sqlx::query(&format!("SELECT {COLUMNS} FROM reviews WHERE subject = $1"))
                            .bind(&review.subject)
                            .fetch_one(&mut *tx)
                            .await?;
                    let stored = from_row(&row)?;
                    commit(tx).await?;
                    Ok(stored)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Saves the progress of a review whose stored `done` is still `from`: its evaluations,
    /// count and status. [`StoreError::Stale`] when another worker saved first.
    pub async fn save_review(&self, review: &ReviewRow, from: i64) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let n = sqlx::query(
                        "UPDATE reviews SET status = $1, done = $2, evals = $3, updated_at = $4 \
                         WHERE subject = $5 AND done = $6",
                    )
                    .bind(review.status.as_str())
                    .bind(review.done)
                    .bind(&review.evals)
                    .bind(review.updated_at)
                    .bind(&review.subject)
                    .bind(from)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                    if n != 1 {
                        return Err(StoreError::Stale { expected: from });
                    }
                    commit(tx).await
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The subjects of the reviews still running (to resume after a restart).
    pub async fn running_reviews(&self) -> Result<Vec<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT subject FROM reviews WHERE status = 'running' ORDER BY created_at",
                    )
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows
                        .iter()
                        .map(|r| r.try_get("subject"))
                        .collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
