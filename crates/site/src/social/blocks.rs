//! Blocks: `POST`/`DELETE /api/players/{username}/block` and `GET /api/me/blocked`. The
//! blocked account is never told: its challenges are refused as by a player who takes none
//! (`lobby::challenges`), the lobby never pairs the two (`lobby::seeks`), and its follow of
//! the blocker stays (store `block`).

use serde::Serialize;
use site_model::error::{ErrorCode, SiteError};
use site_model::social::ChallengesFrom;
use site_store::{MAX_BLOCKS, now_ms};

use super::{Social, need_account, not_yourself};
use crate::accounts::Account;

/// One blocked account in `GET /api/me/blocked`: `{"username", "since"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockedEntry {
    /// The account's name.
    pub username: String,
    /// When it was blocked, Unix ms.
    pub since: i64,
}

/// `GET`/`POST /api/me/challenges-from`: `{"from": "everyone"|"following"|"nobody"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ChallengesSetting {
    /// Whom the account takes challenges from.
    pub from: ChallengesFrom,
}

impl Social {
    /// `GET /api/me/challenges-from`: the account's setting (401 when anonymous).
    pub async fn challenges_from(
        &self,
        me: Option<&Account>,
    ) -> Result<ChallengesSetting, SiteError> {
        let me = need_account(me, "a challenges setting")?;
        Ok(ChallengesSetting {
            from: self.store.challenges_from(&me.id).await?,
        })
    }

    /// `POST /api/me/challenges-from`: sets whom the account takes challenges from; a
    /// refused challenge answers 403 `not_accepted`, as a block does.
    pub async fn set_challenges_from(
        &self,
        me: Option<&Account>,
        from: ChallengesFrom,
    ) -> Result<ChallengesSetting, SiteError> {
        let me = need_account(me, "a challenges setting")?;
        self.store.set_challenges_from(&me.id, from).await?;
        Ok(ChallengesSetting { from })
    }

    /// `POST /api/players/{username}/block`: 204. 401 without an account, 404 for an unknown
    /// player, 400 for oneself, 429 `rate_limited` past [`MAX_BLOCKS`].
    pub async fn block(&self, me: Option<&Account>, username: &str) -> Result<(), SiteError> {
        let me = need_account(me, "blocking a player")?;
        let target = self.target(username, "username").await?;
        not_yourself(me, &target, "block")?;
        if !self.store.block(&me.id, &target.id, now_ms()).await? {
            return Err(SiteError::new(
                ErrorCode::RateLimited,
                format!("you already block {MAX_BLOCKS} players (the most allowed)"),
            ));
        }
        self.lobby.touch();
        Ok(())
    }

    /// `DELETE /api/players/{username}/block`: 204 (also when not blocked).
    pub async fn unblock(&self, me: Option<&Account>, username: &str) -> Result<(), SiteError> {
        let me = need_account(me, "blocking a player")?;
        let target = self.target_of(username, "username", true).await?;
        self.store.unblock(&me.id, &target.id).await?;
        self.lobby.touch();
        Ok(())
    }

    /// `GET /api/me/blocked`: by name.
    pub async fn my_blocked(&self, me: Option<&Account>) -> Result<Vec<BlockedEntry>, SiteError> {
        let me = need_account(me, "a block list")?;
        Ok(self
            .store
            .blocked_by(&me.id)
            .await?
            .into_iter()
            .map(|r| BlockedEntry {
                username: r.username,
                since: r.since,
            })
            .collect())
    }
}
