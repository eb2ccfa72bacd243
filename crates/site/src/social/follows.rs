//! Follows: `POST`/`DELETE /api/players/{username}/follow`, the public lists
//! (`/api/players/{username}/following`, `/followers`) and the follower's own list with
//! online status and games in play (`GET /api/me/following`).

use serde::Serialize;
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::TokenHash;
use site_model::social::ModMark;
use site_store::{FollowOutcome, MAX_FOLLOWING, now_ms};

use super::{Social, need_account, not_yourself};
use crate::accounts::Account;

/// One account of a public follow list: `{"username", "since"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FollowEntry {
    /// The account's name.
    pub username: String,
    /// When the follow was made, Unix ms.
    pub since: i64,
}

/// `GET /api/players/{username}/following` and `/followers`:
/// `{"username", "count", "players": [FollowEntry]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FollowList {
    /// Whose list.
    pub username: String,
    /// How many.
    pub count: usize,
    /// By name.
    pub players: Vec<FollowEntry>,
}

/// One followed account in `GET /api/me/following`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FollowingEntry {
    /// The account's name.
    pub username: String,
    /// Whether it is online: a page of the site open in any process (its notification
    /// stream, browser finding 2), a lobby page open on this server, or a real-time game in
    /// play (not a correspondence one);
    /// never for a closed account nor one that blocks the follower.
    pub online: bool,
    /// Its games in play (ids), newest first, at most 10 (none for a closed account or one
    /// that blocks the follower).
    pub playing: Vec<String>,
    /// When the follow was made, Unix ms.
    pub since: i64,
}

/// `GET /api/players/{username}/social`: the profile's social figures, and the asking
/// account's relation to the player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SocialView {
    /// The name as registered.
    pub username: String,
    /// How many accounts it follows.
    pub following: i64,
    /// How many accounts follow it.
    pub followers: i64,
    /// A moderator's mark: `booster` or `cheater`; null when none.
    pub mark: Option<ModMark>,
    /// Closed by a moderator (no log-in, no play; its games stay).
    pub closed: bool,
    /// Whether the asking account follows it (false when anonymous).
    pub you_follow: bool,
    /// Whether the asking account blocks it (false when anonymous).
    pub you_block: bool,
}

impl Social {
    /// `POST /api/players/{username}/follow`: 204. 401 without an account, 404 for an unknown
    /// player, 400 for oneself, 429 `rate_limited` past [`MAX_FOLLOWING`]. A follow of an
    /// account that blocks the follower is stored as any (the follower is not told of the
    /// block; a follow reaches nothing).
    pub async fn follow(&self, me: Option<&Account>, username: &str) -> Result<(), SiteError> {
        let me = need_account(me, "following a player")?;
        let target = self.target(username, "username").await?;
        not_yourself(me, &target, "follow")?;
        match self.store.follow(&me.id, &target.id, now_ms()).await? {
            FollowOutcome::Following => Ok(()),
            FollowOutcome::TooMany => Err(SiteError::new(
                ErrorCode::RateLimited,
                format!(
                    "you already follow {MAX_FOLLOWING} players (the most allowed): unfollow one first"
                ),
            )),
        }
    }

    /// `DELETE /api/players/{username}/follow`: 204 (also when not following).
    pub async fn unfollow(&self, me: Option<&Account>, username: &str) -> Result<(), SiteError> {
        let me = need_account(me, "following a player")?;
        let target = self.target_of(username, "username", true).await?;
        self.store.unfollow(&me.id, &target.id).await?;
        Ok(())
    }

    /// `GET /api/players/{username}/following` (`followers`: false) or `/followers`: public,
    /// without closed accounts or followers the player blocks (but for `me` itself).
    pub async fn follow_list(
        &self,
        me: Option<&Account>,
        username: &str,
        followers: bool,
    ) -> Result<FollowList, SiteError> {
        let target = self.target(username, "username").await?;
        let viewer = me.map(|a| a.id.as_str());
        let rows = self
            .store
            .public_follow_list(&target.id, followers, viewer)
            .await?;
        Ok(FollowList {
            username: target.username,
            count: rows.len(),
            players: rows
                .into_iter()
                .map(|r| FollowEntry {
                    username: r.username,
                    since: r.since,
                })
                .collect(),
        })
    }

    /// `GET /api/me/following`: the accounts the asking account follows, online ones first.
    pub async fn my_following(
        &self,
        me: Option<&Account>,
    ) -> Result<Vec<FollowingEntry>, SiteError> {
        let me = need_account(me, "a following list")?;
        let rows = self.store.follow_list(&me.id, false).await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            // A closed account is offline, whatever its lobby presence (it cannot log in; its
            // games in play ended with the close). So is an account that blocks the follower:
            // the follow stays (its end would tell of the block) but carries nothing, read
            // against the blocks of now, so no follow made at the moment of a block ever
            // does (issue 41, finding 17).
            let inert = r.closed || self.store.blocks(&r.id, &me.id).await?;
            let playing = match &r.player_hash {
                Some(h) if !inert => self.store.games_in_play(h).await?,
                _ => Vec::new(),
            };
            // Online: a page open (a lobby here, any page in any process), or a real-time
            // game in play; a correspondence game of days is no presence.
            let present = match &r.player_hash {
                Some(h) if !inert => {
                    self.lobby.is_present(h)
                        || self
                            .lobby
                            .play()
                            .notifications()
                            .is_online(&TokenHash::from_stored(h.clone()))
                            .await?
                        || (!playing.is_empty() && self.store.playing_realtime(h).await?)
                }
                _ => false,
            };
            out.push(FollowingEntry {
                username: r.username,
                online: present,
                playing,
                since: r.since,
            });
        }
        out.sort_by_key(|e| !e.online);
        Ok(out)
    }

    /// `GET /api/players/{username}/social` (also of a closed account: `closed` says so, its
    /// games stay listed on its profile).
    pub async fn social_view(
        &self,
        me: Option<&Account>,
        username: &str,
    ) -> Result<SocialView, SiteError> {
        if !crate::accounts::valid_username(username) {
            return Err(SiteError::bad_request(
                "username: a username is 3 to 20 letters (A-Z, a-z), digits, '_' or '-'",
            ));
        }
        let target = self.store.mod_state(username).await?.ok_or_else(|| {
            SiteError::new(
                ErrorCode::NotFound,
                format!("no player is named '{username}'"),
            )
        })?;
        let (following, followers) = self
            .store
            .follow_counts(&target.id, me.map(|a| a.id.as_str()))
            .await?;
        let (you_follow, you_block) = match me {
            Some(me) => (
                self.store.follows(&me.id, &target.id).await?,
                self.store.blocks(&me.id, &target.id).await?,
            ),
            None => (false, false),
        };
        Ok(SocialView {
            closed: target.closed_at.is_some(),
            username: target.username,
            following,
            followers,
            mark: target.mark,
            you_follow,
            you_block,
        })
    }
}
