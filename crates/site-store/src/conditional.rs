//! Conditional premoves (migration 15, issue 38, site::play::conditional): per game and side,
//! a line of moves entered on the opponent's turn ("if they play X, I play Y, then if Z, W"),
//! and the ply the game stood at then.

use game::Color;
use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::{Store, StoreError, corrupt};

/// One move of a line: its id and text as the game stores them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineMove {
    /// Machine form (A16 text, UCI).
    pub id: String,
    /// Canonical notation.
    pub text: String,
}

/// A side's conditional line in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionalRow {
    /// The game.
    pub game_id: String,
    /// The side whose replies it holds.
    pub side: Color,
    /// The game's ply when the line starts: its first move is the opponent's move `after_ply
    /// + 1`.
    pub after_ply: i64,
    /// The opponent's move, the reply, and so on (an even number).
    pub line: Vec<LineMove>,
    /// Unix ms.
    pub created_at: i64,
}

impl Store {
    /// Stores `c`, replacing the side's line in that game.
    pub async fn set_conditional(&self, c: &ConditionalRow) -> Result<(), StoreError> {
        let line = serde_json::to_string(&c.line).map_err(|e| StoreError::Encode(e.to_string()))?;
        self.run(|mut conn| {
            let line = line.clone();
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    sqlx::query("DELETE FROM conditional_moves WHERE game_id = $1 AND side = $2")
                        .bind(&c.game_id)
                        .bind(c.side.name())
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(
                        "INSERT INTO conditional_moves (game_id, side, after_ply, line, \
                         created_at) VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(&c.game_id)
                    .bind(c.side.name())
                    .bind(c.after_ply)
                    .bind(line)
                    .bind(c.created_at)
                    .execute(&mut *tx)
                    .await?;
                    super::conn::commit(tx).await
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The line of `side` in game `game_id`, if any.
    pub async fn conditional(
        &self,
        game_id: &str,
        side: Color,
    ) -> Result<Option<ConditionalRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let Some(row) = sqlx::query(
                        "SELECT after_ply, line, created_at FROM conditional_moves \
                         WHERE game_id = $1 AND side = $2",
                    )
                    .bind(game_id)
                    .bind(side.name())
                    .fetch_optional(conn.raw())
                    .await?
                    else {
                        return Ok(None);
                    };
                    let text: String = row.try_get("line")?;
                    let line = serde_json::from_str(&text)
                        .map_err(|e| corrupt("line", format!("'{text}': {e}")))?;
                    Ok(Some(ConditionalRow {
                        game_id: game_id.to_string(),
                        side,
                        after_ply: row.try_get("after_ply")?,
                        line,
                        created_at: row.try_get("created_at")?,
                    }))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Deletes the line of `side` in game `game_id`; whether there was one.
    pub async fn delete_conditional(&self, game_id: &str, side: Color) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let done = sqlx::query(
                        "DELETE FROM conditional_moves WHERE game_id = $1 AND side = $2",
                    )
                    .bind(game_id)
                    .bind(side.name())
                    .execute(conn.raw())
                    .await?;
                    Ok(done.rows_affected() > 0)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
