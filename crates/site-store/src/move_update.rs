//! A move's write of its game's row (issue 44): only the columns a move in play changes.
//!
//! The full checked UPDATE (`games::update`) names every mutable column, and SQLite rewrites
//! the entries of every index over a column named in SET, changed or not: ten index entries a
//! move (the seats' tokens, the status, the search indexes, the upload key), at 8,000 live
//! games each on a page of its own. A move that leaves the game in play changes none of those
//! columns, so this UPDATE names only what a move changes and leaves the indexes but the two
//! over `clock_deadline` alone. It still checks the row's version and ply, and also that every
//! column it does not write already holds the row's value; where any differs (a caller that
//! changed a seat with a move) or the game ends, the full UPDATE writes the row instead, so no
//! change is ever dropped.

use sqlx::{Any, Transaction};

use super::StoreError;
use super::games::{GameRow, after_update, clock_text, gone_text, notice_text, speed_text, update};
use site_model::secrets::TokenHash;
use site_model::state::GameStatus;

/// Writes the row `g` after its move `g.ply` where the stored row has version
/// `g.version - 1` and ply `g.ply - 1`; `Stale` otherwise. With its notifications, rating and
/// tournament result, as `games::update`.
pub(super) async fn update_after_move(
    tx: &mut Transaction<'_, Any>,
    g: &GameRow,
) -> Result<(), StoreError> {
    if g.status == GameStatus::Ongoing && narrow(tx, g).await? {
        return after_update(tx, g).await;
    }
    update(tx, g, g.ply - 1).await
}

/// The UPDATE of the columns a move changes; `false` when it matched no row (stale, or a
/// column it does not write differs).
async fn narrow(tx: &mut Transaction<'_, Any>, g: &GameRow) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET draw_offer = $1, ply = $2, turn = $3, version = $4, updated_at = $5, \
         takeback_offer = $6, rematch_offer = $7, notice = $8, clock = $9, \
         clock_deadline = $10, gone = $11 \
         WHERE id = $12 AND version = $13 AND ply = $14 AND status = $15 \
         AND white_kind = $16 AND white_level IS NOT DISTINCT FROM $17 \
         AND white_token IS NOT DISTINCT FROM $18 AND black_kind = $19 \
         AND black_level IS NOT DISTINCT FROM $20 AND black_token IS NOT DISTINCT FROM $21 \
         AND invite IS NOT DISTINCT FROM $22 AND result IS NULL AND winner IS NULL \
         AND reason IS NULL AND rematch IS NOT DISTINCT FROM $23 AND rated = $24 \
         AND white_name IS NOT DISTINCT FROM $25 AND black_name IS NOT DISTINCT FROM $26 \
         AND speed IS NOT DISTINCT FROM $27",
    )
    .bind(g.draw_offer.map(game::Color::name))
    .bind(g.ply)
    .bind(g.turn.name())
    .bind(g.version)
    .bind(g.updated_at)
    .bind(g.takeback_offer.map(game::Color::name))
    .bind(g.rematch_offer.map(game::Color::name))
    .bind(notice_text(g.notice))
    .bind(clock_text(&g.clock))
    .bind(g.clock.and_then(|c| c.deadline_ms()))
    .bind(gone_text(g.gone))
    .bind(&g.id)
    .bind(g.version - 1)
    .bind(g.ply - 1)
    .bind(g.status.as_str())
    .bind(g.white.kind.as_str())
    .bind(g.white.level.map(i64::from))
    .bind(g.white.token.as_ref().map(TokenHash::as_str))
    .bind(g.black.kind.as_str())
    .bind(g.black.level.map(i64::from))
    .bind(g.black.token.as_ref().map(TokenHash::as_str))
    .bind(&g.invite)
    .bind(&g.rematch)
    .bind(i64::from(g.rated))
    .bind(&g.white.name)
    .bind(&g.black.name)
    .bind(speed_text(&g.clock))
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}
