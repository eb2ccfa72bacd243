//! The `moves` table: one row per move, keyed by `(game_id, ply)`, so a ply can be stored once.

use sqlx::{Any, Row, Transaction};

/// One stored move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRow {
    /// 1 for the first move of the game.
    pub ply: i64,
    /// Machine form (`Variant::move_id`: A16 text, chess UCI); replayed on load.
    pub move_id: String,
    /// Canonical text (`Variant::move_text`: A16 text, SAN).
    pub move_text: String,
    /// Position text after the move.
    pub fen: String,
    /// What happened besides the move (Ice Age Chess: the Ice Age comment).
    pub event: Option<String>,
    /// Unix milliseconds.
    pub created_at: i64,
}

impl MoveRow {
    pub(super) async fn insert(
        &self,
        tx: &mut Transaction<'_, Any>,
        game_id: &str,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO moves (game_id, ply, move_id, move_text, fen, event, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(game_id)
        .bind(self.ply)
        .bind(&self.move_id)
        .bind(&self.move_text)
        .bind(&self.fen)
        .bind(&self.event)
        .bind(self.created_at)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    pub(super) async fn load_all(
        tx: &mut Transaction<'_, Any>,
        game_id: &str,
    ) -> Result<Vec<MoveRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT ply, move_id, move_text, fen, event, created_at FROM moves \
             WHERE game_id = $1 ORDER BY ply",
        )
        .bind(game_id)
        .fetch_all(&mut **tx)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(MoveRow {
                    ply: r.try_get("ply")?,
                    move_id: r.try_get("move_id")?,
                    move_text: r.try_get("move_text")?,
                    fen: r.try_get("fen")?,
                    event: r.try_get("event")?,
                    created_at: r.try_get("created_at")?,
                })
            })
            .collect()
    }
}
