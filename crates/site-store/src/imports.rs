//! The `imported_games` table: games imported into the analysis board (issue 14). They have
//! no seats and no place in the statistics or in anyone's games; each row keeps the game as
//! the rules crate's writer wrote it, which its reader reads back to the same record.

use sqlx::Row;

use super::conn::commit;
use super::{Store, StoreError, corrupt};
use site_model::state::GameKind;

/// One imported game as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportRow {
    /// Public id (10 letters and digits).
    pub id: String,
    /// The game.
    pub variant: GameKind,
    /// The record's `White` tag (`?` when missing).
    pub white: String,
    /// The record's `Black` tag.
    pub black: String,
    /// The record's `Event` tag (empty when missing).
    pub event: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`, as the record says.
    pub result: String,
    /// Moves of the main line.
    pub plies: i64,
    /// The game as PGN (Ice Age Chess) or PDN (Antarctos) text, with comments and variations.
    pub record: String,
    /// SHA-256 (hex) of the importing player's token.
    pub importer: String,
    /// Unix milliseconds.
    pub created_at: i64,
}

impl Store {
    /// Stores `rows` in one transaction: all or none.
    pub async fn insert_imports(&self, rows: &[ImportRow]) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    for r in rows {
                        sqlx::query(
                            "INSERT INTO imported_games (id, variant, white, black, event, \
                             result, plies, record, importer, created_at) \
                             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                        )
                        .bind(&r.id)
                        .bind(r.variant.as_str())
                        .bind(&r.white)
                        .bind(&r.black)
                        .bind(&r.event)
                        .bind(&r.result)
                        .bind(r.plies)
                        .bind(&r.record)
                        .bind(&r.importer)
                        .bind(r.created_at)
                        .execute(&mut *tx)
                        .await?;
                    }
                    commit(tx).await
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The imported game `id`, if stored.
    pub async fn load_import(&self, id: &str) -> Result<Option<ImportRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT id, variant, white, black, event, result, plies, record, \
                         importer, created_at FROM imported_games WHERE id = $1",
                    )
                    .bind(id)
                    .fetch_optional(conn.raw())
                    .await?;
                    let Some(r) = row else {
                        return Ok(None);
                    };
                    let id: String = r.try_get("id")?;
                    let variant: String = r.try_get("variant")?;
                    Ok(Some(ImportRow {
                        variant: GameKind::parse(&variant).ok_or_else(|| {
                            corrupt(
                                "variant",
                                format!("imported game {id}: unknown variant '{variant}'"),
                            )
                        })?,
                        id,
                        white: r.try_get("white")?,
                        black: r.try_get("black")?,
                        event: r.try_get("event")?,
                        result: r.try_get("result")?,
                        plies: r.try_get("plies")?,
                        record: r.try_get("record")?,
                        importer: r.try_get("importer")?,
                        created_at: r.try_get("created_at")?,
                    }))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
