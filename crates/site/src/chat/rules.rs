//! What a message may say and how often: the mute, the text's characters and length, free
//! text's account conditions, the rate per author.

use site_model::chat::{CHAT_RATE_COUNT, CHAT_RATE_WINDOW_MS, Phrase, TextFault, clean_text};
use site_model::error::{ErrorCode, SiteError};

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
        if let Some(account) = &reader.account
            && let Some(state) = self.store.mod_state_of(&account.id).await?
            && is_muted(&state, now)
        {
            let until = state.muted_until.unwrap_or(now);
            return Err(SiteError::new(
                ErrorCode::Muted,
                format!(
                    "a moderator muted you: no chat for {} more minutes (until Unix ms {until})",
                    (until - now + 59_999) / 60_000
                ),
            ));
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
        let min_age = self.min_age_ms.load(std::sync::atomic::Ordering::Relaxed);
        if now - account.created_at < min_age {
            return Err(SiteError::new(
                ErrorCode::ChatNotAllowed,
                format!(
                    "your account is new: free text after {} minutes (the canned phrases now)",
                    min_age / 60_000
                ),
            ));
        }
        if !self
            .store
            .has_finished_game(reader.token.hash().as_str())
            .await?
        {
            return Err(SiteError::new(
                ErrorCode::ChatNotAllowed,
                "finish a game first to write: the canned phrases until then",
            ));
        }
        Ok((Some(text), None))
    }

    /// Counts a message of `author` (a token hash) at `now`: 429 `rate_limited` past
    /// [`CHAT_RATE_COUNT`] in [`CHAT_RATE_WINDOW_MS`], naming when the next may go.
    pub(super) fn check_rate(&self, author: &str, now: i64) -> Result<(), SiteError> {
        let mut sent = self
            .sent
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if sent.len() > 10_000 {
            sent.retain(|_, times| times.back().is_some_and(|t| now - t < CHAT_RATE_WINDOW_MS));
        }
        let times = sent.entry(author.to_string()).or_default();
        while times
            .front()
            .is_some_and(|t| now - t >= CHAT_RATE_WINDOW_MS)
        {
            times.pop_front();
        }
        if times.len() >= CHAT_RATE_COUNT {
            let wait_ms = times.front().map_or(0, |t| t + CHAT_RATE_WINDOW_MS - now);
            let wait_s = u64::try_from((wait_ms + 999) / 1000).unwrap_or(1).max(1);
            let mut e = SiteError::new(
                ErrorCode::RateLimited,
                format!(
                    "too fast: at most {CHAT_RATE_COUNT} chat messages in {} s; wait {wait_s} s",
                    CHAT_RATE_WINDOW_MS / 1000
                ),
            );
            e.retry_after_s = Some(wait_s);
            return Err(e);
        }
        times.push_back(now);
        Ok(())
    }
}
