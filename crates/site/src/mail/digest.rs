//! The daily digest (issue 38): once a UTC day, from [`DIGEST_HOUR`] on, each verified address
//! that takes it gets one mail listing the correspondence games waiting for its account's move
//! (none when nothing waits), never one mail per move. Every process looks every
//! [`POLL`]; the day's row in `digest_claims` (a unique key, claimed before the mail is sent)
//! makes it once across processes; a digest the mail server refused gives its claim back, to
//! go at a later look. A process killed between the claim and the send loses that day's
//! digest rather than sending it twice.

use std::sync::Arc;
use std::time::Duration;

use chrono::{TimeZone, Timelike, Utc};
use tokio::sync::watch;

use super::{Mail, MailService};
use site_model::error::SiteError;

/// The UTC hour from which a day's digest goes.
pub const DIGEST_HOUR: u32 = 7;
/// How often each process looks for digests to send.
pub const POLL: Duration = Duration::from_secs(600);

/// The UTC day (`YYYY-MM-DD`) of `ms` and whether its digest hour has come.
fn day_of(ms: i64) -> (String, bool) {
    let t = Utc.timestamp_millis_opt(ms).single().unwrap_or_default();
    (t.format("%Y-%m-%d").to_string(), t.hour() >= DIGEST_HOUR)
}

impl MailService {
    /// Sends the digests of the day of `now_ms` not yet sent (by any process), if its hour
    /// has come; how many this call sent.
    pub async fn send_digests(&self, now_ms: i64) -> Result<u64, SiteError> {
        if !self.is_on() {
            return Ok(0);
        }
        let (day, due) = day_of(now_ms);
        if !due || self.store.outage_owed().await? {
            // Before its hour; or the clocks are owed an outage, and the hours left read now
            // would be short by it.
            return Ok(0);
        }
        let mut sent = 0;
        for target in self.store.digest_targets(&day).await? {
            let games = self.store.games_waiting_for(&target.username).await?;
            if games.is_empty() {
                continue;
            }
            if !self
                .store
                .claim_digest(&target.account_id, &day, now_ms)
                .await?
            {
                continue;
            }
            let lines: Vec<String> = games
                .iter()
                .map(|g| {
                    let title = g
                        .variant
                        .parse::<site_model::state::GameKind>()
                        .map_or(g.variant.clone(), |k| k.title().to_string());
                    let left = g.deadline.map_or(String::new(), |d| {
                        let h = ((d - now_ms).max(0) + 3_599_999) / 3_600_000;
                        format!(" ({h} h left)")
                    });
                    format!("- {title}{left}: {{base}}/game/{}", g.id)
                })
                .collect();
            let n = games.len();
            let ok = self
                .send_now(Mail {
                    to: target.email,
                    subject: format!(
                        "icebound: {n} game{} waiting for your move",
                        if n == 1 { "" } else { "s" }
                    ),
                    text: format!(
                        "Hello {},\n\nYour move in:\n\n{}\n",
                        target.username,
                        lines.join("\n")
                    ),
                    unsubscribe: Some(format!(
                        "{{base}}/api/email/unsubscribe?token={}&kind=digest",
                        target.unsubscribe
                    )),
                })
                .await;
            if !ok {
                // Not sent (the mail server is down): the claim goes back, and a later look
                // of any process sends the day's digest.
                self.store.release_digest(&target.account_id, &day).await?;
            }
            sent += u64::from(ok);
        }
        Ok(sent)
    }
}

/// Sends the digests until shutdown (every process; see the module's note).
pub async fn run(
    mail: Arc<MailService>,
    time: site_model::time::WallTime,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        match mail.send_digests(time.now_ms()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(digests = n, "daily digests sent"),
            Err(e) => tracing::warn!(error = %e, "cannot send the daily digests"),
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
