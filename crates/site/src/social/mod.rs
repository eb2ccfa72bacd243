//! The social half of issue 41: follows (public), blocks (the blocker's alone), reports of
//! players and the moderators' actions on them. Lobby pairings and challenges read the
//! blocks from the store themselves (`lobby`), so this module sits above the lobby and
//! reads its presence for the "following" list's online status.

pub mod blocks;
pub mod follows;
pub mod moderation;
pub mod reports;
pub mod search;

use std::sync::Arc;

use site_model::error::{ErrorCode, SiteError};
use site_store::{ModState, Store};

use crate::accounts::{Account, valid_username};
use crate::lobby::Lobby;

/// Follows, blocks, reports and moderation of one site process.
pub struct Social {
    store: Store,
    lobby: Arc<Lobby>,
}

impl Social {
    /// The social services on the lobby's store (its presence tells who is online).
    pub fn new(lobby: Arc<Lobby>) -> Arc<Social> {
        Arc::new(Social {
            store: lobby.play().store().clone(),
            lobby,
        })
    }

    /// The account named `username`: 400 for a name no account can have, 404 for an unknown
    /// or closed account (`field` names the input in the message).
    async fn target(&self, username: &str, field: &str) -> Result<ModState, SiteError> {
        self.target_of(username, field, false).await
    }

    /// As [`Social::target`], closed accounts included when `closed` (an unfollow or an
    /// unblock of a closed account must still work).
    async fn target_of(
        &self,
        username: &str,
        field: &str,
        closed: bool,
    ) -> Result<ModState, SiteError> {
        if !valid_username(username) {
            return Err(SiteError::bad_request(format!(
                "{field}: a username is 3 to 20 letters (A-Z, a-z), digits, '_' or '-'"
            )));
        }
        self.store
            .mod_state(username)
            .await?
            .filter(|s| closed || s.closed_at.is_none())
            .ok_or_else(|| {
                SiteError::new(
                    ErrorCode::NotFound,
                    format!("no player is named '{username}'"),
                )
            })
    }
}

/// The logged-in account, or 401 `not_logged_in` naming `what` needs one.
pub fn need_account<'a>(
    account: Option<&'a Account>,
    what: &str,
) -> Result<&'a Account, SiteError> {
    account.ok_or_else(|| {
        SiteError::new(
            ErrorCode::NotLoggedIn,
            format!("log in first: {what} is an account's"),
        )
    })
}

/// 400 when `me` names itself as the target of `what`.
fn not_yourself(me: &Account, target: &ModState, what: &str) -> Result<(), SiteError> {
    if me.id == target.id {
        return Err(SiteError::bad_request(format!(
            "username: you cannot {what} yourself"
        )));
    }
    Ok(())
}
