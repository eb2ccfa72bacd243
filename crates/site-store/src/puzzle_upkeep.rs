//! Puzzles out of service (issue 39): an operator retires a puzzle found wrong or unwanted
//! (`icebound puzzles retire`), and the site's start-up check retires a row it cannot read.
//! A retired puzzle is offered nowhere (next, daily, streak, themes, by id) but stays
//! stored: its attempts keep their puzzle, and the shipped file does not add it again.

use sqlx::Row;

use super::{Store, StoreError};

/// A stored puzzle as raw text, for the start-up check: every column it reads, numbers
/// included, so that a row whose values are not what the schema says is named, not failed
/// on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleText {
    /// The id.
    pub id: String,
    /// The game's name as stored.
    pub variant: String,
    /// The position.
    pub fen: String,
    /// Both sides' moves, space-separated.
    pub moves: String,
    /// The length in moves, as text.
    pub length: String,
    /// Theme names, space-separated.
    pub themes: String,
    /// Rating, deviation and volatility, as text.
    pub rating: [String; 3],
}

impl Store {
    /// Every puzzle in service, as text (the start-up check).
    pub async fn puzzle_texts(&self) -> Result<Vec<PuzzleText>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT id, variant, fen, moves, CAST(length AS TEXT) AS length, themes, \
                         CAST(rating AS TEXT) AS rating, CAST(rd AS TEXT) AS rd, \
                         CAST(volatility AS TEXT) AS volatility FROM puzzles WHERE retired = '' \
                         ORDER BY variant, ordinal",
                    )
                    .fetch_all(conn.raw())
                    .await?;
                    let text = |r: &sqlx::any::AnyRow, c: &str| -> Result<String, sqlx::Error> {
                        Ok(r.try_get::<Option<String>, _>(c)?.unwrap_or_default())
                    };
                    rows.iter()
                        .map(|r| {
                            Ok(PuzzleText {
                                id: text(r, "id")?,
                                variant: text(r, "variant")?,
                                fen: text(r, "fen")?,
                                moves: text(r, "moves")?,
                                length: text(r, "length")?,
                                themes: text(r, "themes")?,
                                rating: [
                                    text(r, "rating")?,
                                    text(r, "rd")?,
                                    text(r, "volatility")?,
                                ],
                            })
                        })
                        .collect::<Result<Vec<_>, sqlx::Error>>()
                        .map_err(StoreError::from)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Takes puzzle `id` out of service, saying `why` (not empty). False when there is no
    /// such puzzle; retiring a retired one again replaces its reason.
    pub async fn retire_puzzle(&self, id: &str, why: &str) -> Result<bool, StoreError> {
        let why = if why.trim().is_empty() {
            "retired"
        } else {
            why.trim()
        };
        self.set_retired(id, why).await
    }

    /// Puts a retired puzzle back in service. False when there is no such puzzle.
    pub async fn restore_puzzle(&self, id: &str) -> Result<bool, StoreError> {
        self.set_retired(id, "").await
    }

    async fn set_retired(&self, id: &str, why: &str) -> Result<bool, StoreError> {
        let (id, why) = (id.to_string(), why.to_string());
        self.run(|mut conn| {
            let (id, why) = (id.clone(), why.clone());
            Box::pin(async move {
                let result = sqlx::query("UPDATE puzzles SET retired = $1 WHERE id = $2")
                    .bind(why)
                    .bind(id)
                    .execute(conn.raw())
                    .await
                    .map(|done| done.rows_affected() > 0)
                    .map_err(StoreError::from);
                (conn, result)
            })
        })
        .await
    }

    /// The game's puzzle in service at place `n` (from 0) in import order: the daily
    /// puzzle, which a retired or missing row must not turn into a 404.
    pub async fn puzzle_nth(
        &self,
        variant: site_model::state::GameKind,
        n: i64,
    ) -> Result<Option<super::PuzzleRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(&format!(
                        "SELECT {} FROM puzzles p WHERE p.variant = $1 AND p.retired = '' \
                         ORDER BY p.ordinal LIMIT 1 OFFSET $2",
                        super::puzzles::COLUMNS
                    ))
                    .bind(variant.as_str())
                    .bind(n)
                    .fetch_optional(conn.raw())
                    .await?;
                    Ok(row.as_ref().map(super::puzzles::puzzle_of).transpose()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
