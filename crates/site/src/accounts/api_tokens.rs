//! Personal API tokens (issue 44): made from a log-in session with scopes, listed and revoked
//! by their owner, and read back as the account a request with `Authorization: Bearer` acts
//! for. A token with `bot:play` makes its account a BOT account for good.

use serde::Serialize;

use super::{Account, Sessions};
use crate::play::{random_token, valid_id};
use site_model::api_tokens::{ApiToken, Scope, Scopes};
use site_model::error::{ErrorCode, SiteError};
use site_store::{ApiTokenRow, Store, StoreError, now_ms};

/// Most tokens one account may hold.
pub const MAX_TOKENS: usize = 20;

/// A token as its owner's list shows it (never its text): `{"id", "scopes", "created_at"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TokenInfo {
    /// Its id (`DELETE /api/tokens/{id}`).
    pub id: String,
    /// Its scopes' names.
    pub scopes: Vec<&'static str>,
    /// Unix ms.
    pub created_at: i64,
}

impl TokenInfo {
    fn of(row: &ApiTokenRow) -> TokenInfo {
        TokenInfo {
            id: row.id.clone(),
            scopes: Scopes::from_stored(&row.scopes).names(),
            created_at: row.created_at,
        }
    }
}

/// A request's log-in through an API token: the account and what the token may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenLogin {
    /// The account (its `session_hash` is the token's hash: no session ends it but a revoke).
    pub account: Account,
    /// The token's scopes.
    pub scopes: Scopes,
}

/// `POST /api/tokens` for `account` (logged in by a session): the new token, shown once.
/// 409 `conflict` past [`MAX_TOKENS`].
pub async fn create(
    store: &Store,
    account: &Account,
    scopes: Scopes,
) -> Result<(ApiToken, TokenInfo), SiteError> {
    let token = ApiToken::new();
    let row = ApiTokenRow {
        id: random_token(12),
        account_id: account.id.clone(),
        scopes: scopes.stored(),
        created_at: now_ms(),
    };
    if !store
        .insert_api_token(&row, &token.hash(), scopes.has(Scope::BotPlay), MAX_TOKENS)
        .await?
    {
        return Err(SiteError::new(
            ErrorCode::Conflict,
            format!("you hold {MAX_TOKENS} API tokens, the most allowed: revoke one first"),
        ));
    }
    tracing::info!(token = %row.id, "API token made");
    Ok((token, TokenInfo::of(&row)))
}

/// `GET /api/tokens`: `account`'s tokens, newest first.
pub async fn list(store: &Store, account: &Account) -> Result<Vec<TokenInfo>, SiteError> {
    Ok(store
        .api_tokens_of(&account.id)
        .await?
        .iter()
        .map(TokenInfo::of)
        .collect())
}

/// `DELETE /api/tokens/{id}`: 404 unless it is one of `account`'s tokens. The streams open
/// under it, in every process, read it again at once and end (through [`Sessions`]' ends of
/// log-ins; a process the bus does not reach reads it again within its re-check).
pub async fn revoke(sessions: &Sessions, account: &Account, id: &str) -> Result<(), SiteError> {
    if !valid_id(id) || !sessions.store().delete_api_token(&account.id, id).await? {
        return Err(SiteError::new(
            ErrorCode::NotFound,
            format!("you hold no API token of id '{}'", game::excerpt(id)),
        ));
    }
    sessions.forget_account(&account.id);
    Ok(())
}

impl Sessions {
    /// The account `token` acts for, with its scopes; `None` for an unknown or revoked token
    /// (or a closed account's). Read from the store each time, so a revoke takes effect at
    /// once everywhere.
    pub async fn account_of_api_token(
        &self,
        token: &ApiToken,
    ) -> Result<Option<TokenLogin>, StoreError> {
        let hash = token.hash();
        Ok(self
            .store
            .api_token_account(&hash)
            .await?
            .map(|t| TokenLogin {
                account: Account {
                    id: t.account_id,
                    username: t.username,
                    session_hash: hash.into_string(),
                },
                scopes: Scopes::from_stored(&t.scopes),
            }))
    }

    /// Whether the API token of hash `hash` is no longer one (revoked, or its account
    /// closed); `false` when the store cannot tell (a database outage ends no stream).
    pub async fn api_token_ended(&self, hash: &str) -> bool {
        let hash = site_model::secrets::TokenHash::from_stored(hash.to_string());
        matches!(self.store.api_token_account(&hash).await, Ok(None))
    }

    /// The store the sessions are kept in.
    pub fn store(&self) -> &Store {
        &self.store
    }
}
