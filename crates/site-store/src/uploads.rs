//! Games played offline in the browser and uploaded (issue 42, `site::upload`): a finished
//! game and its moves stored in one transaction under the upload's unique key, so that the
//! same upload twice is one game.

use sqlx::Row;

use super::conn::commit;
use super::games::insert;
use super::{GameRow, MoveRow, Store, StoreError};

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

impl Store {
    /// Stores `game` (its `upload_key` set) with `moves` in one transaction and returns its
    /// id, or, when a game with the same `upload_key` is stored already (an upload sent
    /// twice, even at the same time), that game's id and nothing is written. `game` must be
    /// unrated: an upload never changes a rating.
    pub async fn insert_upload(
        &self,
        game: &GameRow,
        moves: &[MoveRow],
    ) -> Result<String, StoreError> {
        let Some(key) = game.upload_key.as_deref() else {
            return Err(StoreError::Encode(
                "an uploaded game without its upload key".into(),
            ));
        };
        let stored = self
            .run(|mut conn| {
                Box::pin(async move {
                    let result = async {
                        let mut tx = conn.begin().await?;
                        // The write first, with no look before it: on SQLite a read that
                        // turns into a write in a deferred transaction fails at once with
                        // "database is locked" when another write is under way, where a
                        // first write waits for the lock. A stored upload shows as the key's
                        // unique violation, answered below.
                        insert(&mut tx, game).await?;
                        let rows: Vec<(&str, &MoveRow)> =
                            moves.iter().map(|m| (game.id.as_str(), m)).collect();
                        MoveRow::insert_many(&mut tx, &rows).await?;
                        commit(tx).await?;
                        Ok(())
                    }
                    .await;
                    (conn, result)
                })
            })
            .await;
        match stored {
            Ok(()) => Ok(game.id.clone()),
            // The same upload stored before, or by another request at the same time.
            Err(StoreError::Database(e) | StoreError::Commit(e)) if is_unique_violation(&e) => {
                match self.upload_of(key).await? {
                    Some(id) => Ok(id),
                    None => Err(StoreError::Database(e)),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// The id of the game uploaded under `key`, if stored.
    pub async fn upload_of(&self, key: &str) -> Result<Option<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let id = uploaded(&mut tx, key).await?;
                    commit(tx).await?;
                    Ok(id)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}

async fn uploaded(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    key: &str,
) -> Result<Option<String>, sqlx::Error> {
    let row = sqlx::query("SELECT id FROM games WHERE upload_key = $1")
        .bind(key)
        .fetch_optional(&mut **tx)
        .await?;
    row.map(|r| r.try_get("id")).transpose()
}
