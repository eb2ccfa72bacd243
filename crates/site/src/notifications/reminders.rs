//! The low-time reminders of correspondence games (issue 38: at 24 h and at 1 h left for a
//! move). Every process looks every [`POLL`] at the correspondence games whose clock runs out
//! within 24 h; a reminder is stored once by its event key (`low:<game>:<ply>:<24h|1h>`), so
//! several processes, or one restarted, never send it twice, and a process that was down
//! sends the one still due when it is back.

use std::sync::Arc;
use std::time::Duration;

use site_model::error::SiteError;
use site_model::notifications::LowTime;
use site_model::time::WallTime;
use tokio::sync::watch;

use super::{Notifications, events};

/// Time between two looks.
pub const POLL: Duration = Duration::from_secs(60);
/// Most games looked at in one look (the earliest deadlines first).
const BATCH: i64 = 1_000;

impl Notifications {
    /// One look at `now` (Unix ms, the game clocks' time): stores the reminders due and not
    /// yet made. How many were made.
    pub async fn remind(&self, now: i64) -> Result<u64, SiteError> {
        if self.store.outage_owed().await? {
            // Every process was down: the clocks are owed that time, and a deadline read
            // before the give-back would remind early (and spend the reminder's key).
            return Ok(0);
        }
        let games = self
            .store
            .correspondence_due(now, LowTime::Day.left_ms(), BATCH)
            .await?;
        let mut made = 0;
        for row in games {
            let Some(note) = events::low_time(&row, now) else {
                continue;
            };
            if self
                .store
                .has_notification(&note.owner, &note.event_key)
                .await?
            {
                continue;
            }
            let new = self.store(vec![note.clone()]).await?;
            made += new;
            // Made here, once (the unique key): mailed here, once, in the background (a slow
            // mail server holds up no reminder). A process that dies in between loses the
            // mail, never sends it twice.
            if new > 0
                && let Some(mail) = self.mail.get()
            {
                mail.low_time(note).await;
            }
        }
        Ok(made)
    }
}

/// Looks every [`POLL`] until `shutdown` turns true.
pub async fn run(
    notifications: Arc<Notifications>,
    time: WallTime,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        match notifications.remind(time.now_ms()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(reminders = n, "low-time reminders made"),
            Err(e) => tracing::warn!(error = %e, "cannot make the low-time reminders"),
        }
        tokio::select! {
            _ = tokio::time::sleep(POLL) => {}
            _ = shutdown.changed() => return,
        }
        if *shutdown.borrow() {
            return;
        }
    }
}
