//! The `games` table: seats, state and result of each game.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{MoveRow, Store, StoreError};

/// One seat as stored: `kind` is `human`, `engine` or `open`; `level` is set for an engine,
/// `token` (the SHA-256 of the holder's player token, `secrets::hash_hex`) for a human.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    /// `human`, `engine` or `open`.
    pub kind: String,
    /// Engine strength 1-8.
    pub level: Option<i64>,
    /// SHA-256 (hex) of the holder's player token: the token itself is never stored.
    pub token: Option<String>,
}

/// One game as stored. `version` grows by one on every write (optimistic concurrency).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// Public id (8 letters and digits).
    pub id: String,
    /// `antarctos` or `iceage` (`Variant::NAME`).
    pub variant: String,
    /// Position text at the start.
    pub start_fen: String,
    /// White's seat.
    pub white: SeatRow,
    /// Black's seat.
    pub black: SeatRow,
    /// SHA-256 (hex) of the secret invitation of a friend game (while a seat may be open).
    pub invite: Option<String>,
    /// `ongoing` or `finished`.
    pub status: String,
    /// `1-0`, `0-1`, `1/2-1/2` once finished.
    pub result: Option<String>,
    /// `white` or `black` for a win, `None` for a draw or an unfinished game.
    pub winner: Option<String>,
    /// `EndReason::as_str` once finished.
    pub reason: Option<String>,
    /// `white`/`black` while that side's draw offer stands.
    pub draw_offer: Option<String>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this game.
    pub rematch: Option<String>,
    /// Moves played.
    pub ply: i64,
    /// Side to move: `white` or `black`.
    pub turn: String,
    /// Write counter.
    pub version: i64,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds of the last change.
    pub updated_at: i64,
}

/// Finished games per variant and winner (`None` = draw).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsRow {
    /// `Variant::NAME`.
    pub variant: String,
    /// `white`, `black` or `None` for draws.
    pub winner: Option<String>,
    /// Number of games.
    pub count: i64,
}

const COLUMNS: &str = "id, variant, start_fen, white_kind, white_level, white_token, \
     black_kind, black_level, black_token, invite, status, result, winner, reason, draw_offer, \
     rematch_of, rematch, ply, turn, version, created_at, updated_at";

fn from_row(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: row.try_get("id")?,
        variant: row.try_get("variant")?,
        start_fen: row.try_get("start_fen")?,
        white: SeatRow {
            kind: row.try_get("white_kind")?,
            level: row.try_get("white_level")?,
            token: row.try_get("white_token")?,
        },
        black: SeatRow {
            kind: row.try_get("black_kind")?,
            level: row.try_get("black_level")?,
            token: row.try_get("black_token")?,
        },
        invite: row.try_get("invite")?,
        status: row.try_get("status")?,
        result: row.try_get("result")?,
        winner: row.try_get("winner")?,
        reason: row.try_get("reason")?,
        draw_offer: row.try_get("draw_offer")?,
        rematch_of: row.try_get("rematch_of")?,
        rematch: row.try_get("rematch")?,
        ply: row.try_get("ply")?,
        turn: row.try_get("turn")?,
        version: row.try_get("version")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
    })
}

async fn insert(tx: &mut Transaction<'_, Any>, g: &GameRow) -> Result<(), sqlx::Error> {
    sqlx::query(&format!(
        "INSERT INTO games ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, \
         $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)"
    ))
    .bind(&g.id)
    .bind(&g.variant)
    .bind(&g.start_fen)
    .bind(&g.white.kind)
    .bind(g.white.level)
    .bind(&g.white.token)
    .bind(&g.black.kind)
    .bind(g.black.level)
    .bind(&g.black.token)
    .bind(&g.invite)
    .bind(&g.status)
    .bind(&g.result)
    .bind(&g.winner)
    .bind(&g.reason)
    .bind(&g.draw_offer)
    .bind(&g.rematch_of)
    .bind(&g.rematch)
    .bind(g.ply)
    .bind(&g.turn)
    .bind(g.version)
    .bind(g.created_at)
    .bind(g.updated_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Writes every mutable column of `g` where the stored row still has version
/// `g.version - 1` and ply `expected_ply`; `Stale` otherwise.
async fn update(
    tx: &mut Transaction<'_, Any>,
    g: &GameRow,
    expected_ply: i64,
) -> Result<(), StoreError> {
    let done = sqlx::query(
        "UPDATE games SET white_kind = $1, white_level = $2, white_token = $3, black_kind = $4, \
         black_level = $5, black_token = $6, invite = $7, status = $8, result = $9, winner = $10, \
         reason = $11, draw_offer = $12, rematch = $13, ply = $14, turn = $15, version = $16, \
         updated_at = $17 WHERE id = $18 AND version = $19 AND ply = $20",
    )
    .bind(&g.white.kind)
    .bind(g.white.level)
    .bind(&g.white.token)
    .bind(&g.black.kind)
    .bind(g.black.level)
    .bind(&g.black.token)
    .bind(&g.invite)
    .bind(&g.status)
    .bind(&g.result)
    .bind(&g.winner)
    .bind(&g.reason)
    .bind(&g.draw_offer)
    .bind(&g.rematch)
    .bind(g.ply)
    .bind(&g.turn)
    .bind(g.version)
    .bind(g.updated_at)
    .bind(&g.id)
    .bind(g.version - 1)
    .bind(expected_ply)
    .execute(&mut **tx)
    .await?;
    if done.rows_affected() != 1 {
        return Err(StoreError::Stale {
            expected: g.version - 1,
        });
    }
    Ok(())
}

impl Store {
    /// Stores a new game.
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        insert(&mut tx, g).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores a rematch `new` of `old` in one transaction: `old` (already carrying
    /// `rematch = new.id` and a bumped version) is updated only if it was not changed meanwhile.
    pub async fn insert_rematch(&self, old: &GameRow, new: &GameRow) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        update(&mut tx, old, old.ply).await?;
        insert(&mut tx, new).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Saves a state change that is not a move (seat taken, resignation, draw offer):
    /// `g.version` must be the stored version plus one.
    pub async fn save_state(&self, g: &GameRow) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        update(&mut tx, g, g.ply).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Appends move `mv` (ply `g.ply`) and saves the game state after it, in one transaction
    /// that checks the stored game is at ply `g.ply - 1` and version `g.version - 1`.
    pub async fn save_move(&self, g: &GameRow, mv: &MoveRow) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        // The UPDATE first: it takes the write lock at once (no read-to-write upgrade in SQLite).
        update(&mut tx, g, g.ply - 1).await?;
        mv.insert(&mut tx, &g.id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The game `id` and its moves in ply order, if it exists.
    pub async fn load_game(&self, id: &str) -> Result<Option<(GameRow, Vec<MoveRow>)>, StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let game = from_row(&row)?;
        let moves = MoveRow::load_all(&self.pool, id).await?;
        Ok(Some((game, moves)))
    }

    /// The stored version of game `id` (a cheap freshness check for a copy in memory).
    pub async fn version_of(&self, id: &str) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT version FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some(r.try_get("version")?),
            None => None,
        })
    }

    /// The id of the game whose invitation hashes to `invite` (`secrets::hash_hex`).
    pub async fn game_id_by_invite(&self, invite: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT id FROM games WHERE invite = $1")
            .bind(invite)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some(r.try_get("id")?),
            None => None,
        })
    }

    /// The games where the token hashing to `token` holds a seat: unfinished first, then most
    /// recently changed.
    pub async fn games_of(&self, token: &str, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM games WHERE white_token = $1 OR black_token = $1 \
             ORDER BY CASE WHEN status = 'ongoing' THEN 0 ELSE 1 END, updated_at DESC, id \
             LIMIT $2"
        ))
        .bind(token)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(from_row).collect::<Result<_, _>>()?)
    }

    /// Finished games counted per variant and winner.
    pub async fn stats(&self) -> Result<Vec<StatsRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT variant, winner, COUNT(*) AS n FROM games WHERE status = 'finished' \
             GROUP BY variant, winner",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            out.push(StatsRow {
                variant: r.try_get("variant")?,
                winner: r.try_get("winner")?,
                count: r.try_get("n")?,
            });
        }
        Ok(out)
    }

    /// Ids of unfinished games where an engine seat is to move (resumed at start).
    pub async fn engine_turn_games(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'ongoing' AND \
             ((turn = 'white' AND white_kind = 'engine') OR (turn = 'black' AND black_kind = 'engine'))",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, _>>()?)
    }
}
