//! A game socket's chat frames against a rate of their own, counted in memory before any
//! check that reaches the store (hostile finding 8: refused chat frames cost the server its
//! lookups with no limit). Each socket has a token bucket: [`CHAT_FRAME_BURST`] frames at
//! once, then one every [`CHAT_FRAME_EVERY`]; a frame past it is answered 429 `rate_limited`
//! without reading anything. Every refused chat frame (by this rate or by the chat's own
//! checks) adds a strike, and strikes fade one every [`STRIKE_FADES`]; a socket past
//! [`CHAT_STRIKES`] is closed with 1008 (policy violation, RFC 6455 section 7.4.1).

use std::time::Duration;

use site_model::error::{ErrorCode, SiteError};
use tokio::time::Instant;

/// Chat frames a socket may send at once.
pub const CHAT_FRAME_BURST: f64 = 20.0;

/// After the burst, one chat frame per this time.
pub const CHAT_FRAME_EVERY: Duration = Duration::from_secs(1);

/// Refused chat frames (net of the faded ones) that close the socket.
pub const CHAT_STRIKES: f64 = 30.0;

/// One strike fades per this time.
pub const STRIKE_FADES: Duration = Duration::from_secs(10);

/// What [`ChatFrames::take`] says of a chat frame.
#[derive(Debug)]
pub enum ChatGate {
    /// Within the rate: the chat checks it.
    Pass,
    /// Over the rate: answered with this error, nothing read.
    Refuse(SiteError),
    /// Too many refused frames: the socket is closed.
    Close,
}

/// One socket's chat frames: its token bucket and its strikes.
#[derive(Debug)]
pub struct ChatFrames {
    tokens: f64,
    strikes: f64,
    at: Instant,
}

impl ChatFrames {
    /// A full bucket, no strike, at `now`.
    pub fn new(now: Instant) -> ChatFrames {
        ChatFrames {
            tokens: CHAT_FRAME_BURST,
            strikes: 0.0,
            at: now,
        }
    }

    fn catch_up(&mut self, now: Instant) {
        let gone = now.saturating_duration_since(self.at).as_secs_f64();
        self.at = now;
        self.tokens = (self.tokens + gone / CHAT_FRAME_EVERY.as_secs_f64()).min(CHAT_FRAME_BURST);
        self.strikes = (self.strikes - gone / STRIKE_FADES.as_secs_f64()).max(0.0);
    }

    /// A chat frame arrives at `now`.
    pub fn take(&mut self, now: Instant) -> ChatGate {
        self.catch_up(now);
        if self.strikes >= CHAT_STRIKES {
            return ChatGate::Close;
        }
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            return ChatGate::Pass;
        }
        self.strike();
        if self.strikes >= CHAT_STRIKES {
            return ChatGate::Close;
        }
        let wait_s = ((1.0 - self.tokens) * CHAT_FRAME_EVERY.as_secs_f64()).ceil();
        let mut e = SiteError::new(
            ErrorCode::RateLimited,
            format!(
                "too many chat messages on this connection: wait {wait_s} s (more refused \
                 messages close it)"
            ),
        );
        e.retry_after_s = Some(wait_s as u64);
        ChatGate::Refuse(e)
    }

    /// The chat refused a frame that passed the rate (a room, text or mute check).
    pub fn strike(&mut self) {
        self.strikes += 1.0;
    }

    /// Whether the strikes close the socket.
    pub fn closes(&self) -> bool {
        self.strikes >= CHAT_STRIKES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_refusals_then_the_close() {
        let now = Instant::now();
        let mut f = ChatFrames::new(now);
        for _ in 0..20 {
            assert!(matches!(f.take(now), ChatGate::Pass));
        }
        for _ in 0..29 {
            assert!(matches!(f.take(now), ChatGate::Refuse(_)));
        }
        assert!(matches!(f.take(now), ChatGate::Close));
    }

    #[test]
    fn tokens_come_back_and_strikes_fade() {
        let now = Instant::now();
        let mut f = ChatFrames::new(now);
        for _ in 0..20 {
            f.take(now);
        }
        assert!(matches!(f.take(now), ChatGate::Refuse(_)));
        let later = now + Duration::from_secs(20);
        assert!(matches!(f.take(later), ChatGate::Pass));
        assert!(f.strikes < 1.0);
    }
}
