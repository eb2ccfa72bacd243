//! Chat messages (issue 41, table `chat_messages`, migration 33): every room's messages, kept;
//! a player's chat setting (`accounts.chat_off`), and what a reader hides (their blocks).

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Store, StoreError};

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
}

/// What a reader's own settings hide of chat.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChatReader {
    /// The reader turned chat off: they see none.
    pub chat_off: bool,
    /// The accounts the reader blocks (ids): their messages never reach the reader.
    pub blocked: Vec<String>,
}

const CHAT_COLUMNS: &str =
    "id, room, game_id, author_id, author_hash, author_name, text, phrase, created_at";

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
    })
}

impl Store {
    /// Stores `msg`.
    pub async fn insert_chat(&self, msg: &ChatRow) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
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

    /// The newest `limit` messages of `room`, oldest first.
    pub async fn chat_history(&self, room: &str, limit: i64) -> Result<Vec<ChatRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(&format!(
                        "SELECT {CHAT_COLUMNS} FROM chat_messages WHERE room = $1 \
                         ORDER BY created_at DESC, id DESC LIMIT $2"
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

    /// The message `id`, if stored.
    pub async fn chat_message(&self, id: &str) -> Result<Option<ChatRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(&format!(
                        "SELECT {CHAT_COLUMNS} FROM chat_messages WHERE id = $1"
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

    /// Whether the player whose token hashes to `player_hash` has a finished game (free chat
    /// text needs one).
    pub async fn has_finished_game(&self, player_hash: &str) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    Ok(sqlx::query(
                        "SELECT 1 AS x FROM games WHERE status = 'finished' AND \
                         (white_token = $1 OR black_token = $1) LIMIT 1",
                    )
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
}
