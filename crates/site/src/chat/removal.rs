//! A moderator removes a chat message (issue 41, hostile finding 7): it leaves every history
//! (the store keeps it, marked, for the reports that quote it), the open pages of its room
//! drop it (a removal event on the room's channel: `chat_removed` on a game's socket and on
//! the tournament and lobby streams), other processes hear of it through the relay, and the
//! action goes to the mod log.

use serde::Serialize;
use site_model::error::{ErrorCode, SiteError};
use site_model::social::ModAction;
use site_store::{ModLogEntry, now_ms};

use super::{Chat, ChatEvent, Room};
use crate::play::random_token;
use crate::social::moderation::check_reason;

/// A removed message as `POST /api/mod/chat/{id}/remove` answers it and as the removal
/// event carries it (`{"type":"chat_removed", ...}` on a game's socket, the `chat_removed`
/// event of the tournament and lobby streams).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RemovedChat {
    /// The message's id.
    pub id: String,
    /// Its room: `players`, `watchers`, `tournament` or `lobby`.
    pub room: &'static str,
}

impl ChatEvent {
    /// Whether the event removes its message rather than brings it.
    pub fn is_removal(&self) -> bool {
        self.row.removed_at.is_some()
    }

    /// The removal as readers get it.
    pub fn removal(&self) -> RemovedChat {
        RemovedChat {
            id: self.row.id.clone(),
            room: self.room.name(),
        }
    }
}

impl Chat {
    /// `POST /api/mod/chat/{id}/remove`: moderator `moderator` (a name, checked by the
    /// caller) removes message `id` with `reason` (logged, with the author and the room).
    /// 400 for a bad id or reason, 404 for an unknown or already removed message.
    pub async fn remove(
        &self,
        moderator: &str,
        id: &str,
        reason: &str,
    ) -> Result<RemovedChat, SiteError> {
        let reason = check_reason(reason)?;
        if !(1..=32).contains(&id.len()) || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(SiteError::bad_request(
                "message: a message id is 1 to 32 letters and digits",
            ));
        }
        let missing = || {
            SiteError::new(
                ErrorCode::NotFound,
                format!("no chat message '{id}' (or it was removed already)"),
            )
        };
        let row = self.store.chat_message(id).await?.ok_or_else(missing)?;
        let target = row.author_name.clone().unwrap_or_else(|| row.id.clone());
        let details = format!("message {id} in {}: {reason}", row.room);
        let now = now_ms();
        let row = self
            .store
            .remove_chat(
                id,
                now,
                &ModLogEntry {
                    id: &random_token(12),
                    moderator,
                    action: ModAction::RemoveChat,
                    target: &target,
                    details: &details,
                    at: now,
                },
            )
            .await?
            .ok_or_else(missing)?;
        let room = Room::of_key(&row.room).ok_or_else(missing)?;
        tracing::info!(%moderator, message = %id, "chat message removed");
        let event = ChatEvent { row, room };
        let removed = event.removal();
        self.publish(event);
        if let Some(relay) = self.relay.get() {
            relay.relay_chat(id);
        }
        Ok(removed)
    }
}
