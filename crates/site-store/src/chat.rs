//! Chat messages (issue 41, table `chat_messages`, migration 33): every room's messages, kept;
//! a player's chat setting (`accounts.chat_off`), and what a reader hides (their blocks).

use sqlx::Row;
use sqlx::any::AnyRow;

use super::conn::commit;
use super::{Store, StoreError};

/// What [`Store::insert_chat_within`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatInsert {
    /// Stored.
    Stored,
    /// Not stored: the author already sent the most allowed in the window; the oldest of
    /// those was sent at this Unix ms.
    TooFast {
        /// When the oldest message of the window was sent, Unix ms.
        oldest: i64,
    },
}

/// One stored chat message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatRow {
    /// Its id.
    pub id: String,
    /// Its room's key (`game:<id>:players`, `game:<id>:watchers`, `tournament:<id>`, `lobby`).
    pub room: String,
    /// The game of a game room's message.
    pub game_id: Option<String>,
    /// The author's account id; `None` for an anonymous player.
    pub author_id: Option<String>,
    /// The SHA-256 of the author's player token.
    pub author_hash: String,
    /// The author's account name when sent.
    pub author_name: Option<String>,
    /// Free text (checked by the site: at most 140 characters, no control characters).
    pub text: Option<String>,
    /// A canned phrase's code.
    pub phrase: Option<String>,
    /// Unix ms.
    pub created_at: i64,
    /// When a moderator removed it (Unix ms): no history shows it any more.
    pub removed_at: Option<i64>,
}

/// What a reader's own settings hide of chat.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChatReader {
    /// The reader turned chat off: they see none.
    pub chat_off: bool,
    /// The accounts the reader blocks (ids): their messages never reach the reader.
    pub blocked: Vec<String>,
    /// In a game's rooms: the players (token hashes) the reader muted in that game
    /// ([`Store::game_mutes`]; filled by the site, empty here).
    pub muted: Vec<String>,
}

const CHAT_COLUMNS: &str =
    "id, room, game_id, author_id, author_hash, author_name, text, phrase, created_at";

/// The columns read: the stored ones and the removal.
const CHAT_READ: &str = "m.id, m.room, m.game_id, m.author_id, m.author_hash, m.author_name, \
     m.text, m.phrase, m.created_at, m.removed_at";

/// The condition on a message `m` that histories show it: not removed by a moderator, and
/// not written by an account that is closed now (hostile finding 7).
const SHOWN: &str = "m.removed_at IS NULL AND NOT EXISTS (SELECT 1 FROM accounts a \
     WHERE a.id = m.author_id AND a.closed_at IS NOT NULL)";

fn chat_of(r: &AnyRow) -> Result<ChatRow, sqlx::Error> {
    Ok(ChatRow {
        id: r.try_get("id")?,
        room: r.try_get("room")?,
        game_id: r.try_get("game_id")?,
        author_id: r.try_get("author_id")?,
        author_hash: r.try_get("author_hash")?,
        author_name: r.try_get("author_name")?,
        text: r.try_get("text")?,
        phrase: r.try_get("phrase")?,
        created_at: r.try_get("created_at")?,
        removed_at: r.try_get("removed_at")?,
    })
}

/// The SQL condition on a games row `g` that it is a real finished game of the player whose
/// token hash is `hash` (an SQL expression): finished (not aborted, not going on), played on
/// the site (not uploaded), with at least 4 plies (2 by each side), against the engine or
/// another account (an account's name on the other seat, another token): not a one-screen
/// game against oneself, nor against an anonymous second browser (hostile finding 1).
pub(crate) fn real_finished_game(hash: &str) -> String {
    format!(
        "g.status = 'finished' AND g.upload_key IS NULL AND g.ply >= 4 AND (\
         (g.white_token = {hash} AND (g.black_kind = 'engine' OR (g.black_kind = 'human' \
         AND g.black_name IS NOT NULL AND g.black_token <> {hash}))) OR \
         (g.black_token = {hash} AND (g.white_kind = 'engine' OR (g.white_kind = 'human' \
         AND g.white_name IS NOT NULL AND g.white_token <> {hash}))))"
    )
}

impl Store {
    /// Stores `msg` unless its author (`author_hash`) sent `max` messages or more in the
    /// `window_ms` before `msg.created_at`, in one transaction that first writes the author's
    /// `chat_senders` row: two sendings of one author, from any processes, wait for each
    /// other there (PostgreSQL's row lock, SQLite's write lock), so the count holds across
    /// processes.
    pub async fn insert_chat_within(
        &self,
        msg: &ChatRow,
        window_ms: i64,
        max: i64,
    ) -> Result<ChatInsert, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    sqlx::query(
                        "INSERT INTO chat_senders (author_hash, last_at) VALUES ($1, $2) \
                         ON CONFLICT (author_hash) DO UPDATE SET last_at = excluded.last_at",
                    )
                    .bind(&msg.author_hash)
                    .bind(msg.created_at)
                    .execute(&mut *tx)
                    .await?;
                    let since = msg.created_at - window_ms;
                    let rows = sqlx::query(
                        "SELECT created_at FROM chat_messages WHERE author_hash = $1 \
                         AND created_at > $2 ORDER BY created_at DESC LIMIT $3",
                    )
                    .bind(&msg.author_hash)
                    .bind(since)
                    .bind(max)
                    .fetch_all(&mut *tx)
                    .await?;
                    if rows.len() as i64 >= max {
                        let oldest: i64 = rows
                            .last()
                            .map(|r| r.try_get("created_at"))
                            .transpose()?
                            .unwrap_or(msg.created_at);
                        // Nothing written that matters: the sender's row is rolled back.
                        drop(tx);
                        return Ok(ChatInsert::TooFast { oldest });
                    }
                    sqlx::query(&format!(
                        "INSERT INTO chat_messages ({CHAT_COLUMNS}) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
                    ))
                    .bind(&msg.id)
                    .bind(&msg.room)
                    .bind(msg.game_id.as_deref())
                    .bind(msg.author_id.as_deref())
                    .bind(&msg.author_hash)
                    .bind(msg.author_name.as_deref())
                    .bind(msg.text.as_deref())
                    .bind(msg.phrase.as_deref())
                    .bind(msg.created_at)
                    .execute(&mut *tx)
                    .await?;
                    commit(tx).await?;
                    Ok(ChatInsert::Stored)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The newest `limit` messages of `room` that are shown (not removed, not of a closed
    /// account), oldest first.
    pub async fn chat_history(&self, room: &str, limit: i64) -> Result<Vec<ChatRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(&format!(
                        "SELECT {CHAT_READ} FROM chat_messages m WHERE m.room = $1 AND {SHOWN} \
                         ORDER BY m.created_at DESC, m.id DESC LIMIT $2"
                    ))
                    .bind(room)
                    .bind(limit)
                    .fetch_all(conn.raw())
                    .await?;
                    let mut out = rows.iter().map(chat_of).collect::<Result<Vec<_>, _>>()?;
                    out.reverse();
                    Ok(out)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The message `id`, if stored (removed ones too: see `removed_at`).
    pub async fn chat_message(&self, id: &str) -> Result<Option<ChatRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(&format!(
                        "SELECT {CHAT_READ} FROM chat_messages m WHERE m.id = $1"
                    ))
                    .bind(id)
                    .fetch_optional(conn.raw())
                    .await?;
                    Ok(row.as_ref().map(chat_of).transpose()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The messages around message `id` in its room, for a moderator reading a report: up to
    /// `each` before it, the message itself, and up to `each` after it, oldest first, in the
    /// rooms' order (`created_at`, then `id`). Removed messages and closed accounts' messages
    /// are included (see `removed_at`): a moderator judges what was said. Empty when no
    /// message has this id.
    pub async fn chat_around(&self, id: &str, each: i64) -> Result<Vec<ChatRow>, StoreError> {
        let Some(at) = self.chat_message(id).await? else {
            return Ok(Vec::new());
        };
        self.run(|mut conn| {
            let at = at.clone();
            Box::pin(async move {
                let result = async {
                    // The `each` nearest on either side in the room's order: before it
                    // (read newest first), then after it.
                    let mut sides = Vec::with_capacity(2);
                    for (cmp, order) in [("<", "DESC"), (">", "ASC")] {
                        let rows = sqlx::query(&format!(
                            "SELECT {CHAT_READ} FROM chat_messages m WHERE m.room = $1 AND \
                             (m.created_at {cmp} $2 OR (m.created_at = $2 AND m.id {cmp} $3)) \
                             ORDER BY m.created_at {order}, m.id {order} LIMIT $4"
                        ))
                        .bind(&at.room)
                        .bind(at.created_at)
                        .bind(&at.id)
                        .bind(each)
                        .fetch_all(conn.raw())
                        .await?;
                        sides.push(rows);
                    }
                    let (before, after) = (&sides[0], &sides[1]);
                    let mut out = before.iter().map(chat_of).collect::<Result<Vec<_>, _>>()?;
                    out.reverse();
                    out.push(at);
                    for r in after {
                        out.push(chat_of(r)?);
                    }
                    Ok(out)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// A moderator removes message `id` at `at` (Unix ms), writing `log` in the same
    /// transaction: the message as it was, or `None` when no message has this id or it was
    /// removed already (nothing logged).
    pub async fn remove_chat(
        &self,
        id: &str,
        at: i64,
        log: &super::ModLogEntry<'_>,
    ) -> Result<Option<ChatRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let done = sqlx::query(
                        "UPDATE chat_messages SET removed_at = $2 WHERE id = $1 \
                         AND removed_at IS NULL",
                    )
                    .bind(id)
                    .bind(at)
                    .execute(&mut *tx)
                    .await?;
                    if done.rows_affected() == 0 {
                        return Ok(None);
                    }
                    let row = sqlx::query(&format!(
                        "SELECT {CHAT_READ} FROM chat_messages m WHERE m.id = $1"
                    ))
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?;
                    let row = chat_of(&row)?;
                    super::moderation::log_line(&mut tx, log).await?;
                    commit(tx).await?;
                    Ok(Some(row))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// What account `reader` (id) hides of chat: everything when chat is off, and the
    /// messages of the accounts it blocks.
    pub async fn chat_reader(&self, reader: &str) -> Result<ChatReader, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let off: Option<i64> =
                        sqlx::query("SELECT chat_off FROM accounts WHERE id = $1")
                            .bind(reader)
                            .fetch_optional(conn.raw())
                            .await?
                            .map(|r| r.try_get("chat_off"))
                            .transpose()?;
                    let blocked =
                        sqlx::query("SELECT blocked_id FROM blocks WHERE blocker_id = $1")
                            .bind(reader)
                            .fetch_all(conn.raw())
                            .await?
                            .iter()
                            .map(|r| r.try_get("blocked_id"))
                            .collect::<Result<Vec<String>, _>>()?;
                    Ok(ChatReader {
                        chat_off: off.unwrap_or(0) != 0,
                        blocked,
                        muted: Vec::new(),
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Turns chat off (`off`) or on for account `id`.
    pub async fn set_chat_off(&self, id: &str, off: bool) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    sqlx::query("UPDATE accounts SET chat_off = $2 WHERE id = $1")
                        .bind(id)
                        .bind(i64::from(off))
                        .execute(conn.raw())
                        .await?;
                    Ok(())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Whether the player whose token hashes to `player_hash` has a real finished game
    /// ([`real_finished_game`]: free chat text and a new account's reports need one).
    pub async fn has_finished_game(&self, player_hash: &str) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    Ok(sqlx::query(&format!(
                        "SELECT 1 AS x FROM games g WHERE {} LIMIT 1",
                        real_finished_game("$1")
                    ))
                    .bind(player_hash)
                    .fetch_optional(conn.raw())
                    .await?
                    .is_some())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// In game `game`, the player `muter` (a token hash) mutes (`on`) or unmutes the chat of
    /// `muted` (a token hash); idempotent.
    pub async fn set_game_mute(
        &self,
        game: &str,
        muter: &str,
        muted: &str,
        on: bool,
    ) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let sql = if on {
                        "INSERT INTO chat_game_mutes (game_id, muter_hash, muted_hash) \
                         VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"
                    } else {
                        "DELETE FROM chat_game_mutes WHERE game_id = $1 AND muter_hash = $2 \
                         AND muted_hash = $3"
                    };
                    sqlx::query(sql)
                        .bind(game)
                        .bind(muter)
                        .bind(muted)
                        .execute(conn.raw())
                        .await?;
                    Ok(())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The token hashes `muter` (a token hash) muted in game `game`.
    pub async fn game_mutes(&self, game: &str, muter: &str) -> Result<Vec<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT muted_hash FROM chat_game_mutes WHERE game_id = $1 \
                         AND muter_hash = $2",
                    )
                    .bind(game)
                    .bind(muter)
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows
                        .iter()
                        .map(|r| r.try_get("muted_hash"))
                        .collect::<Result<Vec<String>, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
