//! The `games` table: seats, state and result of each game.

use game::{Color, EndReason, RecordResult};
use site_model::secrets::TokenHash;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::blocks::{Between, standing_between};
use super::conn::{commit, lock_players};
use super::notifications::{NewNotification, insert_many};
use super::{Store, StoreError, corrupt};
use site_model::clock::{Clock, Speed};
use site_model::ratings::{RatingChange, Unrated};
use site_model::state::{GameKind, GameStatus, Gone, Level, Notice, SeatKind};

/// One seat as stored: `level` is set for an engine, `token` (the SHA-256 of the holder's
/// player token, `secrets::PlayerToken::hash`) for a human.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    /// Who holds it.
    pub kind: SeatKind,
    /// Engine strength.
    pub level: Option<Level>,
    /// SHA-256 (hex) of the holder's player token: the token itself is never stored.
    pub token: Option<TokenHash>,
    /// The holder's account name when it sat down logged in (shown to everyone).
    pub name: Option<String>,
    /// The holder's rating in the game and speed, beside the name on the game page (issue 41;
    /// not a column: read with the game, `Store::load_game`); `None` without an account or for
    /// an unlimited game.
    pub rating: Option<site_model::ratings::PlayerRating>,
    /// The holder's account is a BOT account (issue 44: marked everywhere; not a column:
    /// read with the game, as `rating`).
    pub bot: bool,
}

/// One game as stored. `version` grows by one on every write (optimistic concurrency).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// Public id (8 letters and digits).
    pub id: String,
    /// The game.
    pub variant: GameKind,
    /// Position text at the start.
    pub start_fen: String,
    /// White's seat.
    pub white: SeatRow,
    /// Black's seat.
    pub black: SeatRow,
    /// SHA-256 (hex) of the secret invitation of a friend game (while a seat may be open).
    pub invite: Option<String>,
    /// Whether it goes on.
    pub status: GameStatus,
    /// `1-0`, `0-1`, `1/2-1/2` once finished.
    pub result: Option<RecordResult>,
    /// The winner of a won game, `None` for a draw or an unfinished game.
    pub winner: Option<Color>,
    /// Why it ended, once finished.
    pub reason: Option<EndReason>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// The side whose takeback offer stands (a friend game).
    pub takeback_offer: Option<Color>,
    /// The side whose rematch offer stands (a finished friend game).
    pub rematch_offer: Option<Color>,
    /// The last thing the players are told once (stored as JSON text).
    pub notice: Option<Notice>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this game.
    pub rematch: Option<String>,
    /// Moves played.
    pub ply: i64,
    /// Side to move.
    pub turn: Color,
    /// Write counter.
    pub version: i64,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds of the last change.
    pub updated_at: i64,
    /// The clock, `None` for an unlimited game (stored as JSON; its deadline is stored
    /// beside it for the timeout sweeper).
    pub clock: Option<Clock>,
    /// Whether the game counts for the players' ratings.
    pub rated: bool,
    /// A rated game's change of both ratings, once it is rated (`rating_diff`, JSON). Written
    /// only by the rating step of the write that ends the game (`store::ratings`), never by
    /// [`update`].
    pub ratings: Option<RatingChange>,
    /// Why a game played as rated did not count (`unrated`), set by the rating step of the
    /// write that ends it, never by [`update`].
    pub unrated: Option<Unrated>,
    /// A game played offline in the browser and uploaded (`POST /api/games/upload`, issue 42):
    /// the upload's key (SHA-256 hex of the player and the upload), unique, so that the same
    /// upload twice is one game. `None` for a game played on the site.
    pub upload_key: Option<String>,
    /// Notifications the write of this row makes, stored in its transaction (each once per
    /// owner and event: `store::notifications`); never read back (empty in a loaded row).
    pub outbox: Vec<NewNotification>,
    /// A real-time game's player whose pages all closed (stored as JSON).
    pub gone: Option<Gone>,
    /// The tournament that paired this game (issue 40), set when it is made.
    pub tournament: Option<String>,
}

impl GameRow {
    /// A game as it is stored when it starts: no move, no offer, no result, version 1,
    /// created and changed at `now` (Unix milliseconds), with `turn` to move in `start_fen`.
    /// No invitation, no clock and unrated: the caller sets those (`GameRow { clock, ..
    /// GameRow::new_game(..) }`). One constructor, so a field added later starts the same in
    /// a new game, a seek's game and a rematch; a new field that each of them must choose
    /// belongs in the arguments, since the struct update would fill it in silently.
    pub fn new_game(
        id: String,
        variant: GameKind,
        start_fen: String,
        white: SeatRow,
        black: SeatRow,
        turn: Color,
        now: i64,
    ) -> GameRow {
        GameRow {
            id,
            variant,
            start_fen,
            white,
            black,
            invite: None,
            status: GameStatus::Ongoing,
            result: None,
            winner: None,
            reason: None,
            draw_offer: None,
            takeback_offer: None,
            rematch_offer: None,
            notice: None,
            rematch_of: None,
            rematch: None,
            ply: 0,
            turn,
            version: 1,
            created_at: now,
            updated_at: now,
            clock: None,
            rated: false,
            ratings: None,
            unrated: None,
            upload_key: None,
            outbox: Vec::new(),
            gone: None,
            tournament: None,
        }
    }

    /// The seat of colour `c`.
    pub fn seat(&self, c: Color) -> &SeatRow {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// Whether a friend game's seat is still open.
    pub fn has_open_seat(&self) -> bool {
        self.white.kind == SeatKind::Open || self.black.kind == SeatKind::Open
    }

    /// The level of the engine seat to move, if the game goes on and an engine is to move.
    pub fn engine_to_move(&self) -> Option<Level> {
        let seat = self.seat(self.turn);
        (self.status == GameStatus::Ongoing && seat.kind == SeatKind::Engine)
            .then(|| seat.level.unwrap_or(Level::MIN))
    }
}

const COLUMNS: &str = "id, variant, start_fen, white_kind, white_level, white_token, \
     black_kind, black_level, black_token, invite, status, result, winner, reason, draw_offer, \
     rematch_of, rematch, ply, turn, version, created_at, updated_at, takeback_offer, \
     rematch_offer, notice, clock, clock_deadline, rated, white_name, black_name, upload_key, speed, gone, \
     tournament_id";

/// The columns [`from_row`] reads: the inserted ones, the rating change and why a game did
/// not count.
pub(super) fn select_columns() -> String {
    format!("{COLUMNS}, rating_diff, unrated")
}

/// Reads text column `column` as a `T` (`parse`); other text is an error, never a default.
pub(super) fn parse_column<T>(
    row: &AnyRow,
    column: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<T, sqlx::Error> {
    let text: String = row.try_get(column)?;
    parse(&text).ok_or_else(|| corrupt(column, format!("unknown value '{text}'")))
}

/// [`parse_column`] of a nullable column.
pub(super) fn parse_optional<T>(
    row: &AnyRow,
    column: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, sqlx::Error> {
    match row.try_get::<Option<String>, _>(column)? {
        None => Ok(None),
        Some(text) => parse(&text)
            .map(Some)
            .ok_or_else(|| corrupt(column, format!("unknown value '{text}'"))),
    }
}

fn seat_from_row(row: &AnyRow, side: &str) -> Result<SeatRow, sqlx::Error> {
    let level_column = format!("{side}_level");
    let level = match row.try_get::<Option<i64>, _>(level_column.as_str())? {
        None => None,
        Some(n) => Some(
            Level::new(n).ok_or_else(|| corrupt(&level_column, format!("level {n} is not 1-8")))?,
        ),
    };
    Ok(SeatRow {
        kind: parse_column(row, &format!("{side}_kind"), SeatKind::parse)?,
        level,
        token: row
            .try_get::<Option<String>, _>(format!("{side}_token").as_str())?
            .map(TokenHash::from_stored),
        name: row.try_get(format!("{side}_name").as_str())?,
        rating: None,
        bot: false,
    })
}

pub(super) fn from_row(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: row.try_get("id")?,
        variant: parse_column(row, "variant", GameKind::parse)?,
        start_fen: row.try_get("start_fen")?,
        white: seat_from_row(row, "white")?,
        black: seat_from_row(row, "black")?,
        invite: row.try_get("invite")?,
        status: parse_column(row, "status", GameStatus::parse)?,
        result: parse_optional(row, "result", RecordResult::parse)?,
        winner: parse_optional(row, "winner", Color::parse)?,
        reason: parse_optional(row, "reason", EndReason::parse)?,
        draw_offer: parse_optional(row, "draw_offer", Color::parse)?,
        takeback_offer: parse_optional(row, "takeback_offer", Color::parse)?,
        rematch_offer: parse_optional(row, "rematch_offer", Color::parse)?,
        notice: parse_optional(row, "notice", |t| serde_json::from_str(t).ok())?,
        rematch_of: row.try_get("rematch_of")?,
        rematch: row.try_get("rematch")?,
        ply: row.try_get("ply")?,
        turn: parse_column(row, "turn", Color::parse)?,
        version: row.try_get("version")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        clock: parse_optional(row, "clock", |t| serde_json::from_str(t).ok())?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        ratings: parse_optional(row, "rating_diff", |t| serde_json::from_str(t).ok())?,
        unrated: parse_optional(row, "unrated", Unrated::parse)?,
        upload_key: row.try_get("upload_key")?,
        outbox: Vec::new(),
        gone: parse_optional(row, "gone", |t| serde_json::from_str(t).ok())?,
        tournament: row.try_get("tournament_id")?,
    })
}

pub(super) async fn insert(tx: &mut Transaction<'_, Any>, g: &GameRow) -> Result<(), sqlx::Error> {
    sqlx::query(&format!(
        "INSERT INTO games ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, \
         $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, \
         $29, $30, $31, $32, $33, $34)"
    ))
    .bind(&g.id)
    .bind(g.variant.as_str())
    .bind(&g.start_fen)
    .bind(g.white.kind.as_str())
    .bind(g.white.level.map(i64::from))
    .bind(g.white.token.as_ref().map(TokenHash::as_str))
    .bind(g.black.kind.as_str())
    .bind(g.black.level.map(i64::from))
    .bind(g.black.token.as_ref().map(TokenHash::as_str))
    .bind(&g.invite)
    .bind(g.status.as_str())
    .bind(g.result.map(RecordResult::as_str))
    .bind(g.winner.map(Color::name))
    .bind(g.reason.map(EndReason::as_str))
    .bind(g.draw_offer.map(Color::name))
    .bind(&g.rematch_of)
    .bind(&g.rematch)
    .bind(g.ply)
    .bind(g.turn.name())
    .bind(g.version)
    .bind(g.created_at)
    .bind(g.updated_at)
    .bind(g.takeback_offer.map(Color::name))
    .bind(g.rematch_offer.map(Color::name))
    .bind(notice_text(g.notice))
    .bind(clock_text(&g.clock))
    .bind(g.clock.and_then(|c| c.deadline_ms()))
    .bind(i64::from(g.rated))
    .bind(&g.white.name)
    .bind(&g.black.name)
    .bind(&g.upload_key)
    .bind(speed_text(&g.clock))
    .bind(gone_text(g.gone))
    .bind(&g.tournament)
    .execute(&mut **tx)
    .await?;
    insert_many(tx, &g.outbox, g.updated_at).await?;
    Ok(())
}

/// A clock's speed class as stored (`speed`, migration 13); `None` unlimited.
pub(super) fn speed_text(c: &Option<Clock>) -> Option<&'static str> {
    (*c).and_then(|c| c.control().speed()).map(Speed::as_str)
}

/// Migration 13's data step: the speed class of every game stored with a clock before it.
pub(super) async fn fill_speeds(tx: &mut Transaction<'_, Any>) -> Result<(), StoreError> {
    let rows = sqlx::query("SELECT id, clock FROM games WHERE clock IS NOT NULL")
        .fetch_all(&mut **tx)
        .await?;
    for row in rows {
        let id: String = row.try_get("id")?;
        let text: String = row.try_get("clock")?;
        let Ok(clock) = serde_json::from_str::<Clock>(&text) else {
            // Unreadable clocks fail where the game is read, with the column named.
            continue;
        };
        sqlx::query("UPDATE games SET speed = $1 WHERE id = $2")
            .bind(speed_text(&Some(clock)))
            .bind(&id)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// A clock as stored: its JSON text.
pub(super) fn clock_text(c: &Option<Clock>) -> Option<String> {
    c.as_ref().and_then(|c| serde_json::to_string(c).ok())
}

/// A gone player as stored: its JSON text.
pub(super) fn gone_text(g: Option<Gone>) -> Option<String> {
    g.and_then(|g| serde_json::to_string(&g).ok())
}

/// A notice as stored: its JSON text.
pub(super) fn notice_text(n: Option<Notice>) -> Option<String> {
    n.and_then(|n| serde_json::to_string(&n).ok())
}

/// Writes every mutable column of `g` where the stored row still has version
/// `g.version - 1` and ply `expected_ply`; `Stale` otherwise.
pub(super) async fn update(
    tx: &mut Transaction<'_, Any>,
    g: &GameRow,
    expected_ply: i64,
) -> Result<(), StoreError> {
    let done = sqlx::query(
        "UPDATE games SET white_kind = $1, white_level = $2, white_token = $3, black_kind = $4, \
         black_level = $5, black_token = $6, invite = $7, status = $8, result = $9, winner = $10, \
         reason = $11, draw_offer = $12, rematch = $13, ply = $14, turn = $15, version = $16, \
         updated_at = $17, takeback_offer = $18, rematch_offer = $19, notice = $20, \
         clock = $21, clock_deadline = $22, rated = $23, white_name = $24, black_name = $25, \
         speed = $29, gone = $30 WHERE id = $26 AND version = $27 AND ply = $28",
    )
    .bind(g.white.kind.as_str())
    .bind(g.white.level.map(i64::from))
    .bind(g.white.token.as_ref().map(TokenHash::as_str))
    .bind(g.black.kind.as_str())
    .bind(g.black.level.map(i64::from))
    .bind(g.black.token.as_ref().map(TokenHash::as_str))
    .bind(&g.invite)
    .bind(g.status.as_str())
    .bind(g.result.map(RecordResult::as_str))
    .bind(g.winner.map(Color::name))
    .bind(g.reason.map(EndReason::as_str))
    .bind(g.draw_offer.map(Color::name))
    .bind(&g.rematch)
    .bind(g.ply)
    .bind(g.turn.name())
    .bind(g.version)
    .bind(g.updated_at)
    .bind(g.takeback_offer.map(Color::name))
    .bind(g.rematch_offer.map(Color::name))
    .bind(notice_text(g.notice))
    .bind(clock_text(&g.clock))
    .bind(g.clock.and_then(|c| c.deadline_ms()))
    .bind(i64::from(g.rated))
    .bind(&g.white.name)
    .bind(&g.black.name)
    .bind(&g.id)
    .bind(g.version - 1)
    .bind(expected_ply)
    .bind(speed_text(&g.clock))
    .bind(gone_text(g.gone))
    .execute(&mut **tx)
    .await?;
    if done.rows_affected() != 1 {
        return Err(StoreError::Stale {
            expected: g.version - 1,
        });
    }
    after_update(tx, g).await
}

/// What the write of a changed row brings with it in its transaction: its notifications, its
/// rating and its tournament result.
pub(super) async fn after_update(
    tx: &mut Transaction<'_, Any>,
    g: &GameRow,
) -> Result<(), StoreError> {
    insert_many(tx, &g.outbox, g.updated_at).await?;
    // A rated game is rated in the transaction of the write that ends it (issue 13), and a
    // tournament game's result enters its pairing there too (issue 40).
    super::ratings::rate_if_over(tx, g).await?;
    super::tournament_pairings::record_result(tx, g).await
}

impl Store {
    /// Stores a rematch `new` of `old` in one transaction: `old` (already carrying
    /// `rematch = new.id` and a bumped version) is updated only if it was not changed meanwhile.
    ///
    /// `players`, the two accounts' token hashes (the one who starts it first), are checked
    /// under their lobby locks: nothing is stored when one blocks the other or an account was
    /// closed meanwhile (hostile finding 3 of round 7).
    pub async fn insert_rematch(
        &self,
        old: &GameRow,
        new: &GameRow,
        players: Option<(&str, &str)>,
    ) -> Result<Result<(), Between>, StoreError> {
        let sqlite = self.sqlite;
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    if let Some((a, b)) = players {
                        lock_players(&mut tx, sqlite, &[a, b]).await?;
                        if let Some(between) = standing_between(&mut tx, a, b).await? {
                            return Ok(Err(between));
                        }
                    }
                    update(&mut tx, old, old.ply).await?;
                    insert(&mut tx, new).await?;
                    commit(tx).await?;
                    Ok(Ok(()))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// [`Store::save_state`] of a loss on time, refused with [`StoreError::ClocksOwed`] when
    /// lease `lease` (the timeout sweeper's) expired more than `max_lapse_ms` before the
    /// transaction could read it: nobody could reach the database meanwhile, and that time is
    /// owed to the clocks before anyone is flagged (site::timeouts). `now` is taken after the
    /// write has its lock, so a flag that waited out the outage sees it.
    pub async fn save_flag(
        &self,
        g: &GameRow,
        lease: &str,
        max_lapse_ms: i64,
    ) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    // The write first: it waits for the database's write lock (SQLite) or the
                    // game's row (PostgreSQL), so the lease is read and `now` taken after any
                    // wait, and no renewal can slip in before the commit (SQLite).
                    update(&mut tx, g, g.ply).await?;
                    let expires: Option<i64> =
                        sqlx::query("SELECT expires_at FROM leases WHERE name = $1")
                            .bind(lease)
                            .fetch_optional(&mut *tx)
                            .await?
                            .map(|r| r.try_get("expires_at"))
                            .transpose()?;
                    if let Some(expires) = expires {
                        let lapse = super::now_ms() - expires;
                        if lapse > max_lapse_ms {
                            return Err(StoreError::ClocksOwed { lapse_ms: lapse });
                        }
                    }
                    commit(tx).await
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Takes moves back: deletes the moves after ply `g.ply` and the game's conditional lines,
    /// and saves the game state `g`, in one transaction that checks the stored game is at ply
    /// `from_ply` and version `g.version - 1`. `Ok` only once the commit returned OK. A line is
    /// keyed by its ply alone, so one kept across a takeback would answer moves it never saw.
    pub async fn save_takeback(&self, g: &GameRow, from_ply: i64) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    update(&mut tx, g, from_ply).await?;
                    sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply > $2")
                        .bind(&g.id)
                        .bind(g.ply)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query("DELETE FROM conditional_moves WHERE game_id = $1")
                        .bind(&g.id)
                        .execute(&mut *tx)
                        .await?;
                    commit(tx).await
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
