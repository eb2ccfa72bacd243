//! What a message may say and how often: the mute, the text's characters and length, free
//! text's account conditions, the rate per author (counted in the store: across processes).

use site_model::chat::{CHAT_RATE_COUNT, CHAT_RATE_WINDOW_MS, Phrase, TextFault, clean_text};
use site_model::error::{ErrorCode, SiteError};
use site_store::{ChatInsert, ChatRow};

use super::{Chat, Content, Reader};
use crate::social::moderation::is_muted;

impl Chat {
    /// The text or phrase to store of `content` sent by `reader` at `now`: 403 `muted` while a
    /// moderator's mute lasts, 400 for a control or direction character or nothing, 413
    /// `too_large` for long text, 403 `chat_not_allowed` for free text from an anonymous
    /// player, an account younger than the least age or one with no finished game.
    pub(super) async fn check_content(
        &self,
        reader: &Reader,
        content: Content,
        now: i64,
    ) -> Result<(Option<String>, Option<Phrase>), SiteError> {
        if let Some(account) = &reader.account {
            self.mute_gate(&account.id, now, "chat").await?;
        }
        let text = match content {
            Content::Phrase(p) => return Ok((None, Some(p))),
            Content::Text(t) => clean_text(&t).map_err(|f| match f {
                TextFault::TooLong(_) => SiteError::new(ErrorCode::TooLarge, f.message()),
                _ => SiteError::bad_request(f.message()),
            })?,
        };
        let Some(account) = &reader.account else {
            return Err(SiteError::new(
                ErrorCode::ChatNotAllowed,
                "log in to write: anonymous players may send the canned phrases",
            ));
        };
        self.free_text_gate(
            account.created_at,
            reader.token.hash().as_str(),
            now,
            "write free text",
        )
        .await?;
        Ok((Some(text), None))
    }

    /// Free text's account conditions (403 `chat_not_allowed`): an account created at
    /// `created_at` at least the least age old at `now`, whose seats (`player_hash`) hold a
    /// finished real game. `what` names the act in the refusal.
    async fn free_text_gate(
        &self,
        created_at: i64,
        player_hash: &str,
        now: i64,
        what: &str,
    ) -> Result<(), SiteError> {
        let min_age = self.min_age_ms.load(std::sync::atomic::Ordering::Relaxed);
        if now - created_at < min_age {
            return Err(SiteError::new(
                ErrorCode::ChatNotAllowed,
                format!(
                    "your account is new: you may {what} after {} minutes",
                    min_age / 60_000
                ),
            ));
        }
        if !self.store.has_finished_game(player_hash).await? {
            return Err(SiteError::new(
                ErrorCode::ChatNotAllowed,
                format!("finish a game first to {what}"),
            ));
        }
        Ok(())
    }

    /// The mute of account `id` at `now`: 403 `muted` while a moderator's mute lasts, naming
    /// `what` it keeps from.
    pub async fn mute_gate(&self, id: &str, now: i64, what: &str) -> Result<(), SiteError> {
        if let Some(state) = self.store.mod_state_of(id).await?
            && is_muted(&state, now)
        {
            let until = state.muted_until.unwrap_or(now);
            return Err(SiteError::new(
                ErrorCode::Muted,
                format!(
                    "a moderator muted you: no {what} for {} more minutes (until Unix ms {until})",
                    (until - now + 59_999) / 60_000
                ),
            ));
        }
        Ok(())
    }

    /// Stores `row` unless its author sent [`CHAT_RATE_COUNT`] messages in the
    /// [`CHAT_RATE_WINDOW_MS`] before it (counted in the store, so across processes): 429
    /// `rate_limited` naming when the next may go.
    pub(super) async fn store_within_rate(&self, row: &ChatRow) -> Result<(), SiteError> {
        let max = i64::try_from(CHAT_RATE_COUNT).unwrap_or(i64::MAX);
        match self
            .store
            .insert_chat_within(row, CHAT_RATE_WINDOW_MS, max)
            .await?
        {
            ChatInsert::Stored => Ok(()),
            ChatInsert::TooFast { oldest } => {
                let wait_ms = oldest + CHAT_RATE_WINDOW_MS - row.created_at;
                let wait_s = u64::try_from((wait_ms + 999) / 1000).unwrap_or(1).max(1);
                let mut e = SiteError::new(
                    ErrorCode::RateLimited,
                    format!(
                        "too fast: at most {CHAT_RATE_COUNT} chat messages in {} s; wait {wait_s} s",
                        CHAT_RATE_WINDOW_MS / 1000
                    ),
                );
                e.retry_after_s = Some(wait_s);
                Err(e)
            }
        }
    }
}
