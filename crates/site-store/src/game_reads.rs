//! Reads of the `games` table: one game with its moves, a player's games, the statistics,
//! and the games the engine owes a move.

use game::Color;
use site_model::secrets::TokenHash;
use site_model::state::{GameKind, GameStatus};
use sqlx::Row;

use super::conn::commit;
use super::games::{from_row, parse_column, parse_optional, select_columns};
use super::{GameRow, MoveRow, Store, StoreError};

/// Finished games per variant and winner (`None` = draw).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsRow {
    /// The game.
    pub variant: GameKind,
    /// The winner, `None` for draws.
    pub winner: Option<Color>,
    /// Number of games.
    pub count: i64,
}

impl Store {
    /// The game `id` and its moves in ply order, if it exists, read from one snapshot (another
    /// process may be appending a move meanwhile: the row and the moves always agree).
    pub async fn load_game(&self, id: &str) -> Result<Option<(GameRow, Vec<MoveRow>)>, StoreError> {
        let sqlite = self.sqlite;
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin_snapshot(sqlite).await?;
                    let row = sqlx::query(&format!(
                        "SELECT {} FROM games WHERE id = $1",
                        select_columns()
                    ))
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?;
                    let loaded = match row {
                        Some(row) => {
                            let game = from_row(&row)?;
                            let moves = MoveRow::load_all(&mut tx, id).await?;
                            Some((game, moves))
                        }
                        None => None,
                    };
                    commit(tx).await?;
                    Ok(loaded)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The stored version of game `id` (a cheap freshness check for a copy in memory).
    pub async fn version_of(&self, id: &str) -> Result<Option<i64>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query("SELECT version FROM games WHERE id = $1")
                        .bind(id)
                        .fetch_optional(conn.raw())
                        .await?;
                    Ok(match row {
                        Some(r) => Some(r.try_get("version")?),
                        None => None,
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The id of the game whose invitation hashes to `invite` (`secrets::invite_hash`).
    pub async fn game_id_by_invite(&self, invite: &str) -> Result<Option<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query("SELECT id FROM games WHERE invite = $1")
                        .bind(invite)
                        .fetch_optional(conn.raw())
                        .await?;
                    Ok(match row {
                        Some(r) => Some(r.try_get("id")?),
                        None => None,
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The ids of game `variant`'s finished games (an aborted game is not finished), oldest first, at most
    /// `limit`: what `icebound puzzles mine --from site` mines.
    pub async fn finished_game_ids(
        &self,
        variant: GameKind,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT id FROM games WHERE variant = $1 AND status = $2 \
                         ORDER BY created_at, id LIMIT $3",
                    )
                    .bind(variant.as_str())
                    .bind(GameStatus::Finished.as_str())
                    .bind(limit)
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows
                        .iter()
                        .map(|r| r.try_get("id"))
                        .collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The games where the token hashing to `token` holds a seat: unfinished first, then most
    /// recently changed.
    pub async fn games_of(
        &self,
        token: &TokenHash,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let token = token.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(&format!(
                        "SELECT {} FROM games WHERE white_token = $1 OR black_token = $1 \
                 ORDER BY CASE WHEN status = 'ongoing' THEN 0 ELSE 1 END, updated_at DESC, id \
                 LIMIT $2",
                        select_columns()
                    ))
                    .bind(token)
                    .bind(limit)
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows.iter().map(from_row).collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Finished games counted per variant and winner. A game with a seat nobody took is not
    /// counted (older versions let its creator resign it), nor is an aborted one.
    pub async fn stats(&self) -> Result<Vec<StatsRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                    "SELECT variant, winner, COUNT(*) AS n FROM games WHERE status = 'finished' \
                 AND white_kind <> 'open' AND black_kind <> 'open' AND upload_key IS NULL \
                 GROUP BY variant, winner",
                )
                .fetch_all(conn.raw())
                .await?;
                    let mut out = Vec::with_capacity(rows.len());
                    for r in &rows {
                        out.push(StatsRow {
                            variant: parse_column(r, "variant", GameKind::parse)?,
                            winner: parse_optional(r, "winner", Color::parse)?,
                            count: r.try_get("n")?,
                        });
                    }
                    Ok(out)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Unfinished games where the seat token hashed to `token_hash` (hex SHA-256, as stored)
    /// plays against an engine seat.
    pub async fn unfinished_engine_games(&self, token_hash: &TokenHash) -> Result<i64, StoreError> {
        let token_hash = token_hash.as_str();
        let token = token_hash.to_string();
        self.run(|mut conn| {
            let token = token.clone();
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT COUNT(*) AS n FROM games WHERE status = 'ongoing' AND \
                         ((white_token = $1 AND black_kind = 'engine') OR \
                          (black_token = $1 AND white_kind = 'engine'))",
                    )
                    .bind(token)
                    .fetch_one(conn.raw())
                    .await?;
                    Ok(row.try_get("n")?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Ids of unfinished games where an engine seat is to move (resumed at start).
    pub async fn engine_turn_games(&self) -> Result<Vec<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
            let rows = sqlx::query(
                "SELECT id FROM games WHERE status = 'ongoing' AND \
                 ((turn = 'white' AND white_kind = 'engine') OR (turn = 'black' AND black_kind = 'engine'))",
            )
            .fetch_all(conn.raw())
            .await?;
            Ok(rows
                .iter()
                .map(|r| r.try_get("id"))
                .collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
