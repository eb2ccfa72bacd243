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
    /// Inserts `rows` (game id, move) with as few statements as the sizes allow: runs of 64,
    /// 32, ... 1 rows, so that at most seven statement texts are prepared and cached.
    pub(super) async fn insert_many(
        tx: &mut Transaction<'_, Any>,
        rows: &[(&str, &MoveRow)],
    ) -> Result<(), sqlx::Error> {
        let mut rest = rows;
        while !rest.is_empty() {
            let n = [64, 32, 16, 8, 4, 2, 1]
                .into_iter()
                .find(|&n| n <= rest.len())
                .unwrap_or(1);
            let (run, tail) = rest.split_at(n);
            let mut sql = String::from(
                "INSERT INTO moves (game_id, ply, move_id, move_text, fen, event, created_at) VALUES ",
            );
            for i in 0..n {
                let b = i * 7;
                if i > 0 {
                    sql.push_str(", ");
                }
                sql.push_str(&format!(
                    "(${}, ${}, ${}, ${}, ${}, ${}, ${})",
                    b + 1,
                    b + 2,
                    b + 3,
                    b + 4,
                    b + 5,
                    b + 6,
                    b + 7
                ));
            }
            let mut query = sqlx::query(&sql);
            for (game_id, m) in run {
                query = query
                    .bind(*game_id)
                    .bind(m.ply)
                    .bind(&m.move_id)
                    .bind(&m.move_text)
                    .bind(&m.fen)
                    .bind(&m.event)
                    .bind(m.created_at);
            }
            query.execute(&mut **tx).await?;
            rest = tail;
        }
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
