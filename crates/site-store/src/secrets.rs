//! Secrets at rest (issue 9, section 3): the site's signing secret (table `site_secrets`), the
//! hashes of player tokens issued before tokens were signed (table `legacy_players`), and the
//! migration that replaced stored tokens and invitations by their SHA-256 hashes.

use std::collections::BTreeSet;

use sqlx::{Any, Row, Transaction};

use super::{Store, StoreError};
use site_model::secrets::{invite_hash, migrated_token_hash, new_secret};

/// The name of the player-token signing secret in `site_secrets`.
const PLAYER_TOKEN_SECRET: &str = "player_token_hmac";

/// Migration 3's data step: every seat token and invitation stored in plain text becomes its
/// SHA-256 hash (hex), and every distinct seat token is listed in `legacy_players`, so the
/// players who hold them keep their seats although their tokens carry no signature.
pub(super) async fn hash_stored_secrets(tx: &mut Transaction<'_, Any>) -> Result<(), StoreError> {
    let rows = sqlx::query("SELECT id, white_token, black_token, invite FROM games")
        .fetch_all(&mut **tx)
        .await?;
    let mut legacy = BTreeSet::new();
    for row in &rows {
        let id: String = row.try_get("id")?;
        let white: Option<String> = row.try_get("white_token")?;
        let black: Option<String> = row.try_get("black_token")?;
        let invite: Option<String> = row.try_get("invite")?;
        let white = white.map(|t| {
            let h = migrated_token_hash(&t).into_string();
            legacy.insert(h.clone());
            h
        });
        let black = black.map(|t| {
            let h = migrated_token_hash(&t).into_string();
            legacy.insert(h.clone());
            h
        });
        sqlx::query(
            "UPDATE games SET white_token = $1, black_token = $2, invite = $3 WHERE id = $4",
        )
        .bind(white)
        .bind(black)
        .bind(invite.map(|i| invite_hash(&i)))
        .bind(&id)
        .execute(&mut **tx)
        .await?;
    }
    for h in &legacy {
        sqlx::query("INSERT INTO legacy_players (token_hash) VALUES ($1)")
            .bind(h)
            .execute(&mut **tx)
            .await?;
    }
    if !rows.is_empty() {
        tracing::info!(
            games = rows.len(),
            players = legacy.len(),
            "stored player tokens and invitations replaced by their SHA-256 hashes"
        );
    }
    Ok(())
}

impl Store {
    /// The site's secret for signing player tokens, created on first use. Every process on one
    /// database reads the same one (a racing creation loses to the first, `ON CONFLICT`).
    pub async fn player_token_secret(&self) -> Result<Vec<u8>, StoreError> {
        let fresh: String = new_secret().iter().map(|b| format!("{b:02x}")).collect();
        let stored = self.site_secret(PLAYER_TOKEN_SECRET, fresh).await?;
        let bytes: Option<Vec<u8>> = (0..stored.len())
            .step_by(2)
            .map(|i| {
                stored
                    .get(i..i + 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
            })
            .collect();
        match bytes {
            Some(b) if b.len() >= 16 => Ok(b),
            _ => Err(StoreError::Encode(format!(
                "site secret '{PLAYER_TOKEN_SECRET}' is not hex of at least 16 bytes"
            ))),
        }
    }

    /// The site secret `name` (text), stored as `fresh` on first use. Every process on one
    /// database reads the same one: a racing creation loses to the first (`ON CONFLICT`).
    pub async fn site_secret(&self, name: &str, fresh: String) -> Result<String, StoreError> {
        self.run(|mut conn| {
            let fresh = fresh.clone();
            Box::pin(async move {
                let result = async {
                    sqlx::query(
                        "INSERT INTO site_secrets (name, value) VALUES ($1, $2) \
                         ON CONFLICT (name) DO NOTHING",
                    )
                    .bind(name)
                    .bind(fresh)
                    .execute(conn.raw())
                    .await?;
                    Ok(
                        sqlx::query("SELECT value FROM site_secrets WHERE name = $1")
                            .bind(name)
                            .fetch_one(conn.raw())
                            .await?
                            .try_get("value")?,
                    )
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Hashes (hex) of the unsigned tokens that held seats when the database was migrated.
    pub async fn legacy_player_hashes(&self) -> Result<Vec<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query("SELECT token_hash FROM legacy_players")
                        .fetch_all(conn.raw())
                        .await?;
                    Ok(rows
                        .iter()
                        .map(|r| r.try_get("token_hash"))
                        .collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
