//! The `tournament_pairings` table (migration 23, issue 40): who plays whom in which round
//! of an event, their game, and its result.
//!
//! Exactly once, across processes and crashes:
//! - a round (or an arena wave) is stored with its games in one transaction that first moves
//!   the event's `round` on from the value its pairer read ([`Store::store_pairings`]): two
//!   pairers of the same round cannot both succeed, and a crash stores all or nothing;
//! - a result is written by the write that ends the game, in its transaction, only where none
//!   is ([`record_result`]); the standings are computed from these rows, never kept as totals.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::conn::commit;
use super::games::{GameRow, insert};
use super::notifications::{self, NewNotification};
use super::{Store, StoreError, corrupt};
use game::Color;
use site_model::state::{GameStatus, NoticeCode};
use site_model::tournament::PairingResult;

/// One pairing as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingRow {
    /// The event.
    pub tournament_id: String,
    /// The round (Swiss, round robin) or the arena wave, 1-based.
    pub round: i64,
    /// The board within the round, 1-based.
    pub board: i64,
    /// White's account id (a bye's player).
    pub white: String,
    /// Black's account id; `None` for a bye.
    pub black: Option<String>,
    /// The game; `None` for a bye or a pairing forfeited before its game was made.
    pub game_id: Option<String>,
    /// The result once known.
    pub result: Option<PairingResult>,
    /// The plies the game had at its end.
    pub plies: Option<i64>,
    /// Whether White went berserk.
    pub berserk_white: bool,
    /// Whether Black went berserk.
    pub berserk_black: bool,
    /// Unix ms.
    pub created_at: i64,
    /// Unix ms of the result.
    pub ended_at: Option<i64>,
}

/// A pairing to store, with the game it makes (none for a bye or a forfeit).
#[derive(Debug, Clone)]
pub struct NewPairing {
    /// The row (its `game_id` names `game`'s id when there is one).
    pub row: PairingRow,
    /// The game to store in the same transaction.
    pub game: Option<GameRow>,
}

const COLUMNS: &str = "tournament_id, round, board, white, black, game_id, result, plies, \
     berserk_white, berserk_black, created_at, ended_at";

fn from_row(row: &AnyRow) -> Result<PairingRow, sqlx::Error> {
    let result: Option<String> = row.try_get("result")?;
    Ok(PairingRow {
        tournament_id: row.try_get("tournament_id")?,
        round: row.try_get("round")?,
        board: row.try_get("board")?,
        white: row.try_get("white")?,
        black: row.try_get("black")?,
        game_id: row.try_get("game_id")?,
        result: result
            .map(|t| {
                PairingResult::parse(&t)
                    .ok_or_else(|| corrupt("result", format!("unknown value '{t}'")))
            })
            .transpose()?,
        plies: row.try_get("plies")?,
        berserk_white: row.try_get::<i64, _>("berserk_white")? != 0,
        berserk_black: row.try_get::<i64, _>("berserk_black")? != 0,
        created_at: row.try_get("created_at")?,
        ended_at: row.try_get("ended_at")?,
    })
}

/// The pairing result a game's end makes: a finished game's result; an aborted one (fewer
/// than two plies) is a forfeit of the side that called it off, or else of the side that was
/// to move (it never played its first move). `None` while the game goes on.
pub fn result_of(g: &GameRow) -> Option<PairingResult> {
    match g.status {
        GameStatus::Ongoing => None,
        GameStatus::Finished => Some(match g.winner {
            Some(Color::White) => PairingResult::WhiteWon,
            Some(Color::Black) => PairingResult::BlackWon,
            None => PairingResult::Draw,
        }),
        GameStatus::Aborted => {
            // The side that called it off, else (a missing first move) the side to move.
            let at_fault = match g.notice {
                Some(n) if n.code == NoticeCode::Aborted && n.by.is_some() => {
                    n.by.unwrap_or(g.turn)
                }
                _ => g.turn,
            };
            Some(match at_fault {
                Color::White => PairingResult::BlackForfeit,
                Color::Black => PairingResult::WhiteForfeit,
            })
        }
    }
}

/// Writes the result of game `g` into its pairing, if it has one without a result, and moves
/// the event's version on (a player who forfeited is paused in an arena, withdrawn in a Swiss
/// event): run by the write that
/// ends the game, in its transaction (`games::update`).
pub(super) async fn record_result(
    tx: &mut Transaction<'_, Any>,
    g: &GameRow,
) -> Result<(), StoreError> {
    let Some(result) = result_of(g) else {
        return Ok(());
    };
    let done = sqlx::query(
        "UPDATE tournament_pairings SET result = $1, plies = $2, ended_at = $3 \
         WHERE game_id = $4 AND result IS NULL",
    )
    .bind(result.as_str())
    .bind(g.ply)
    .bind(g.updated_at)
    .bind(&g.id)
    .execute(&mut **tx)
    .await?;
    if done.rows_affected() == 1 {
        sqlx::query(
            "UPDATE tournaments SET version = version + 1 WHERE id = \
             (SELECT tournament_id FROM tournament_pairings WHERE game_id = $1)",
        )
        .bind(&g.id)
        .execute(&mut **tx)
        .await?;
        if matches!(
            result,
            PairingResult::WhiteForfeit | PairingResult::BlackForfeit
        ) {
            // An arena player who never played their game is paused (as lichess does), not
            // paired again and again with players who wait for them; they come back with
            // `resume`.
            let absent = if result == PairingResult::WhiteForfeit {
                "black"
            } else {
                "white"
            };
            sqlx::query(&format!(
                "UPDATE tournament_players SET paused = 1 WHERE tournament_id = \
                 (SELECT tournament_id FROM tournament_pairings WHERE game_id = $1) AND \
                 account_id = (SELECT {absent} FROM tournament_pairings WHERE game_id = $1) AND \
                 EXISTS (SELECT 1 FROM tournaments t WHERE t.kind = 'arena' AND \
                 t.id = tournament_players.tournament_id)"
            ))
            .bind(&g.id)
            .execute(&mut **tx)
            .await?;
            // A Swiss player who never played is withdrawn (lichess removes them), not paired
            // round after round with opponents who wait for nothing; they may join again.
            sqlx::query(&format!(
                "UPDATE tournament_players SET withdrawn_at = $2 WHERE tournament_id = \
                 (SELECT tournament_id FROM tournament_pairings WHERE game_id = $1) AND \
                 account_id = (SELECT {absent} FROM tournament_pairings WHERE game_id = $1) AND \
                 withdrawn_at IS NULL AND EXISTS (SELECT 1 FROM tournaments t WHERE \
                 t.kind = 'swiss' AND t.id = tournament_players.tournament_id)"
            ))
            .bind(&g.id)
            .bind(g.updated_at)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(())
}

impl Store {
    /// Stores rounds `from + 1 ..= to` of event `id` (their pairings and games; one round,
    /// or a correspondence round robin's all at once) if the event is running and its
    /// pairing counter is still `from`, moving it to `to`, in one transaction; `false` when
    /// another pairer stored them first (nothing is written then).
    pub async fn store_pairings(
        &self,
        id: &str,
        from: i64,
        to: i64,
        pairings: &[NewPairing],
        notes: &[NewNotification],
        now: i64,
    ) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let moved = sqlx::query(
                        "UPDATE tournaments SET round = $2, version = version + 1 WHERE id = $1 \
                         AND round = $3 AND status = 'started'",
                    )
                    .bind(id)
                    .bind(to)
                    .bind(from)
                    .execute(&mut *tx)
                    .await?;
                    if moved.rows_affected() == 0 {
                        return Ok(false);
                    }
                    for p in pairings {
                        if let Some(game) = &p.game {
                            insert(&mut tx, game).await?;
                        }
                        insert_pairing(&mut tx, &p.row).await?;
                    }
                    notifications::insert_many(&mut tx, notes, now).await?;
                    commit(tx).await?;
                    Ok(true)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Every pairing of event `id`, by round and board.
    pub async fn tournament_pairings(&self, id: &str) -> Result<Vec<PairingRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(&format!(
                        "SELECT {COLUMNS} FROM tournament_pairings WHERE tournament_id = $1 \
                         ORDER BY round, board"
                    ))
                    .bind(id)
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

    /// The pairing of game `game`, if it is a tournament game.
    pub async fn pairing_of_game(&self, game: &str) -> Result<Option<PairingRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(&format!(
                        "SELECT {COLUMNS} FROM tournament_pairings WHERE game_id = $1"
                    ))
                    .bind(game)
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

    /// Writes `result` into pairing (`id`, `round`, `board`) if it has none (a forfeit of a
    /// withdrawn player's game), moving the event's version on: `false` when it had one.
    pub async fn forfeit_pairing(
        &self,
        id: &str,
        round: i64,
        board: i64,
        result: PairingResult,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let done = sqlx::query(
                        "UPDATE tournament_pairings SET result = $4, ended_at = $5 WHERE \
                         tournament_id = $1 AND round = $2 AND board = $3 AND result IS NULL",
                    )
                    .bind(id)
                    .bind(round)
                    .bind(board)
                    .bind(result.as_str())
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                    if done.rows_affected() == 0 {
                        return Ok(false);
                    }
                    super::tournaments::bump(&mut tx, id).await?;
                    commit(tx).await?;
                    Ok(true)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Marks `side` of game `game`'s pairing berserk (before its first move, which the caller
    /// checks): `false` when the game has no pairing.
    pub async fn set_berserk(&self, game: &str, side: Color) -> Result<bool, StoreError> {
        let column = match side {
            Color::White => "berserk_white",
            Color::Black => "berserk_black",
        };
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let done = sqlx::query(&format!(
                        "UPDATE tournament_pairings SET {column} = 1 WHERE game_id = $1"
                    ))
                    .bind(game)
                    .execute(&mut *tx)
                    .await?;
                    if done.rows_affected() == 0 {
                        return Ok(false);
                    }
                    sqlx::query(
                        "UPDATE tournaments SET version = version + 1 WHERE id = \
                         (SELECT tournament_id FROM tournament_pairings WHERE game_id = $1)",
                    )
                    .bind(game)
                    .execute(&mut *tx)
                    .await?;
                    commit(tx).await?;
                    Ok(true)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}

async fn insert_pairing(tx: &mut Transaction<'_, Any>, p: &PairingRow) -> Result<(), sqlx::Error> {
    sqlx::query(&format!(
        "INSERT INTO tournament_pairings ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, \
         $9, $10, $11, $12)"
    ))
    .bind(&p.tournament_id)
    .bind(p.round)
    .bind(p.board)
    .bind(&p.white)
    .bind(&p.black)
    .bind(&p.game_id)
    .bind(p.result.map(PairingResult::as_str))
    .bind(p.plies)
    .bind(i64::from(p.berserk_white))
    .bind(i64::from(p.berserk_black))
    .bind(p.created_at)
    .bind(p.ended_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
