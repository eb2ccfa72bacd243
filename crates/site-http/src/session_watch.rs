//! The end of the log-in a long response was opened under (a notification stream, the lobby
//! stream): a log-out, a new password or a moderator's close, in this process or, through the
//! bus, in another; and, whatever the bus says, a read of the session every
//! [`SESSION_RECHECK`]: without Redis, or while it is down, nothing else tells (hostile
//! findings 1 of round 4, 2 of round 5).

use std::sync::Arc;

use site::accounts::{Account, SESSION_RECHECK, Sessions};
use tokio::sync::broadcast::Receiver;
use tokio::time::Instant;

use tokio::sync::broadcast::error::RecvError;

/// A log-in to watch: its session (by hash), its account, and the ends of sessions heard.
pub(crate) struct SessionWatch {
    sessions: Arc<Sessions>,
    hash: String,
    account: String,
    ended: Receiver<String>,
    /// Whether `ended` can still tell (its channel is open).
    listening: bool,
    /// When the session is read again by itself.
    next_check: Instant,
    /// A read of the session is due (an end heard, or `next_check` passed).
    check_owed: bool,
    /// The log-in is a personal API token's (issue 44), not a session's: a revoke ends it.
    api_token: bool,
}

impl SessionWatch {
    /// The watch of `account`'s log-in; `None` for an anonymous request or a site without
    /// accounts.
    pub(crate) fn of(account: Option<Account>, sessions: Option<Arc<Sessions>>) -> Option<Self> {
        account.zip(sessions).map(|(a, s)| SessionWatch {
            ended: s.subscribe_ended(),
            sessions: s,
            hash: a.session_hash,
            account: a.id,
            listening: true,
            next_check: Instant::now() + SESSION_RECHECK,
            check_owed: false,
            api_token: false,
        })
    }

    /// The watch of a personal API token's log-in (`account.session_hash` is the token's
    /// hash): a revoke, or the account's close, ends it (bot client finding 2: a revoked
    /// token's open streams went on carrying challenges and moves).
    pub(crate) fn of_api_token(account: Account, sessions: Arc<Sessions>) -> Self {
        let mut watch = SessionWatch::of(Some(account), Some(sessions))
            .expect("an account and sessions make a watch");
        watch.api_token = true;
        watch
    }

    async fn has_ended(&self) -> bool {
        if self.api_token {
            self.sessions.api_token_ended(&self.hash).await
        } else {
            self.sessions.has_ended(&self.hash).await
        }
    }

    /// Resolves once the session has ended (the store says so; a store that cannot tell counts
    /// as live). Cancel-safe: a select may drop it and call it again; an end heard, or a
    /// re-check due, whose read was cut short is read again first.
    pub(crate) async fn until_ended(&mut self) {
        loop {
            if self.check_owed {
                if self.has_ended().await {
                    return;
                }
                self.check_owed = false;
                self.next_check = Instant::now() + SESSION_RECHECK;
            }
            tokio::select! {
                mine = next_end_of(&mut self.ended, &self.account), if self.listening => {
                    if mine {
                        self.check_owed = true;
                    } else {
                        self.listening = false;
                    }
                }
                () = tokio::time::sleep_until(self.next_check) => self.check_owed = true,
            }
        }
    }

    /// Whether the session is still live now (a store that cannot tell counts as live: a
    /// database outage must not log players out, hostile finding 1 of round 5).
    pub(crate) async fn is_live(&self) -> bool {
        !self.has_ended().await
    }
}

/// Waits for the end of `watch`'s log-in; never, without one.
pub(crate) async fn until_ended(watch: Option<&mut SessionWatch>) {
    match watch {
        Some(w) => w.until_ended().await,
        None => std::future::pending().await,
    }
}

/// Waits on `ended` for an end of sessions of `account` (`true`; also after a lag, which may
/// have hidden one); `false` when the channel is closed. Cancel-safe: ends of other accounts
/// are skipped inside.
pub(crate) async fn next_end_of(
    ended: &mut tokio::sync::broadcast::Receiver<String>,
    account: &str,
) -> bool {
    loop {
        match ended.recv().await {
            Ok(id) if id == account => return true,
            Ok(_) => {}
            Err(RecvError::Lagged(_)) => return true,
            Err(RecvError::Closed) => return false,
        }
    }
}
