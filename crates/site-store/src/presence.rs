//! Who has a page of the site open (issue 41, browser finding 2: "online" meant "has the lobby
//! open"), table `site_presence`: every page of a logged-in player holds a notification stream,
//! which pushes the row's end on while it is open, in whichever process serves it. A player is
//! online while the end is ahead; a killed process's rows run out by themselves.

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// `player_hash` has a page open until `until` (Unix ms) at least.
    pub async fn refresh_site_presence(
        &self,
        player_hash: &str,
        until: i64,
    ) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = sqlx::query(
                    "INSERT INTO site_presence (player_hash, until_ms) VALUES ($1, $2) \
                     ON CONFLICT (player_hash) DO UPDATE SET until_ms = excluded.until_ms \
                     WHERE site_presence.until_ms < excluded.until_ms",
                )
                .bind(player_hash)
                .bind(until)
                .execute(conn.raw())
                .await
                .map(|_| ())
                .map_err(StoreError::from);
                (conn, result)
            })
        })
        .await
    }

    /// The last page of `player_hash` in this process closed: it is offline (a page open in
    /// another process puts the row back at its next refresh).
    pub async fn end_site_presence(&self, player_hash: &str) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = sqlx::query("DELETE FROM site_presence WHERE player_hash = $1")
                    .bind(player_hash)
                    .execute(conn.raw())
                    .await
                    .map(|_| ())
                    .map_err(StoreError::from);
                (conn, result)
            })
        })
        .await
    }

    /// Whether `player_hash` has a page of the site open at `now` (Unix ms).
    pub async fn site_present(&self, player_hash: &str, now: i64) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT COUNT(*) AS n FROM site_presence \
                         WHERE player_hash = $1 AND until_ms > $2",
                    )
                    .bind(player_hash)
                    .bind(now)
                    .fetch_one(conn.raw())
                    .await?;
                    Ok(row.try_get::<i64, _>("n")? > 0)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
