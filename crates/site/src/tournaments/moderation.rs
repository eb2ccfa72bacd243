//! A moderator renames an event whose name abuses (issue 41, hostile finding 2) to the
//! default name of its kind, game and clock; logged.

use site_model::error::SiteError;
use site_model::social::ModAction;
use site_store::{ModLogEntry, now_ms};

use super::request::default_name;
use super::{Tournaments, no_tournament};
use crate::play::random_token;
use crate::social::moderation::check_reason;

impl Tournaments {
    /// `POST /api/mod/tournaments/{id}/rename`: moderator `moderator` (a name, checked by the
    /// caller) gives event `id` its default name with `reason` (logged with the old name).
    /// The new name; 400 without a reason, 404 for an unknown event.
    pub async fn rename_to_default(
        &self,
        moderator: &str,
        id: &str,
        reason: &str,
    ) -> Result<String, SiteError> {
        let reason = check_reason(reason)?;
        let row = self.row(id).await?;
        let name = default_name(row.kind, row.variant, row.control);
        let now = now_ms();
        let details = format!("was '{}': {reason}", row.name);
        let done = self
            .store()
            .rename_tournament(
                &row.id,
                &name,
                &ModLogEntry {
                    id: &random_token(12),
                    moderator,
                    action: ModAction::RenameTournament,
                    target: &row.id,
                    details: &details,
                    at: now,
                },
            )
            .await?;
        if !done {
            return Err(no_tournament(id));
        }
        tracing::info!(%moderator, tournament = %row.id, "tournament renamed");
        self.touch();
        Ok(name)
    }
}
