//! The player search (`GET /api/players/search?q=`): open accounts by the start of their name.

use serde::Serialize;
use site_model::error::SiteError;

use super::Social;

/// The most names one search gives.
pub const MAX_FOUND: i64 = 10;
/// The fewest characters a search takes.
pub const MIN_QUERY: usize = 2;

/// One account found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FoundPlayer {
    /// The account's name, as registered.
    pub username: String,
}

/// A search's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerSearch {
    /// At most [`MAX_FOUND`] open accounts whose name starts with the query (any case), in
    /// name order.
    pub players: Vec<FoundPlayer>,
}

impl Social {
    /// Open accounts whose name starts with `q` (any case). 400 naming `q` when it is shorter
    /// than [`MIN_QUERY`], longer than a name (20) or holds a character no name has.
    pub async fn search_players(&self, q: &str) -> Result<PlayerSearch, SiteError> {
        let ok_chars = q
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !(MIN_QUERY..=20).contains(&q.len()) || !ok_chars {
            return Err(SiteError::bad_request(
                "q: the start of a username, 2 to 20 letters (A-Z, a-z), digits, '_' or '-'",
            ));
        }
        let names = self
            .store
            .names_with_prefix(&q.to_lowercase(), MAX_FOUND)
            .await?;
        Ok(PlayerSearch {
            players: names
                .into_iter()
                .map(|username| FoundPlayer { username })
                .collect(),
        })
    }
}
