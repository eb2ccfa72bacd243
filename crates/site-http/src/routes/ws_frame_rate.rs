//! A game socket's frames against rates of their own, counted in memory before any check that
//! reaches the store (hostile finding 8 of round 2 for chat, finding 1 of round 3 for every
//! other frame: refused moves and resignations cost the server its lookups with no limit).
//! Each socket has two token buckets: chat frames, [`CHAT_FRAME_BURST`] at once then one every
//! [`CHAT_FRAME_EVERY`]; every other frame (moves, offers, resignations, pings, unreadable
//! ones), [`PLAY_FRAME_BURST`] at once then [`PLAY_FRAMES_PER_S`] a second, which premoves,
//! bullet play and a page's pings stay well under. A frame past its bucket is answered 429
//! `rate_limited` without reading anything. Every refused frame (by a rate or by the game's or
//! the chat's own checks) adds a strike, and strikes fade one every [`STRIKE_FADES`]; a socket
//! past [`STRIKES`] is closed with 1008 (policy violation, RFC 6455 section 7.4.1).

use std::time::Duration;

use site_model::error::{ErrorCode, SiteError};
use tokio::time::Instant;

/// Chat frames a socket may send at once.
pub const CHAT_FRAME_BURST: f64 = 20.0;

/// After the burst, one chat frame per this time.
pub const CHAT_FRAME_EVERY: Duration = Duration::from_secs(1);

/// Other frames (moves, offers, pings) a socket may send at once.
pub const PLAY_FRAME_BURST: f64 = 60.0;

/// After the burst, other frames a second: a bullet player's moves (a few a second with
/// premoves), their retries and the page's pings fit many times over.
pub const PLAY_FRAMES_PER_S: f64 = 10.0;

/// Refused frames (net of the faded ones) that close the socket.
pub const STRIKES: f64 = 30.0;

/// One strike fades per this time.
pub const STRIKE_FADES: Duration = Duration::from_secs(10);

/// Which bucket a frame draws on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    /// A chat message.
    Chat,
    /// Anything else: a move, an offer or answer, a resignation, a ping, an unreadable frame.
    Play,
}

/// What [`SocketFrames::take`] says of a frame.
#[derive(Debug)]
pub enum FrameGate {
    /// Within the rate: the game or the chat checks it.
    Pass,
    /// Over the rate: answered with this error, nothing read.
    Refuse(SiteError),
    /// Too many refused frames: the socket is closed.
    Close,
}

/// One token bucket.
#[derive(Debug)]
struct Bucket {
    tokens: f64,
    burst: f64,
    per_s: f64,
}

impl Bucket {
    fn new(burst: f64, per_s: f64) -> Bucket {
        Bucket {
            tokens: burst,
            burst,
            per_s,
        }
    }

    fn refill(&mut self, secs: f64) {
        self.tokens = (self.tokens + secs * self.per_s).min(self.burst);
    }

    /// Seconds until a whole token (rounded up, at least 1).
    fn wait_s(&self) -> u64 {
        (((1.0 - self.tokens) / self.per_s).ceil() as u64).max(1)
    }
}

/// One socket's frames: its buckets and its strikes.
#[derive(Debug)]
pub struct SocketFrames {
    chat: Bucket,
    play: Bucket,
    strikes: f64,
    at: Instant,
}

impl SocketFrames {
    /// Full buckets, no strike, at `now`.
    pub fn new(now: Instant) -> SocketFrames {
        SocketFrames {
            chat: Bucket::new(CHAT_FRAME_BURST, 1.0 / CHAT_FRAME_EVERY.as_secs_f64()),
            play: Bucket::new(PLAY_FRAME_BURST, PLAY_FRAMES_PER_S),
            strikes: 0.0,
            at: now,
        }
    }

    fn catch_up(&mut self, now: Instant) {
        let gone = now.saturating_duration_since(self.at).as_secs_f64();
        self.at = now;
        self.chat.refill(gone);
        self.play.refill(gone);
        self.strikes = (self.strikes - gone / STRIKE_FADES.as_secs_f64()).max(0.0);
    }

    /// A frame of `kind` arrives at `now`.
    pub fn take(&mut self, kind: FrameKind, now: Instant) -> FrameGate {
        self.catch_up(now);
        if self.strikes >= STRIKES {
            return FrameGate::Close;
        }
        let bucket = match kind {
            FrameKind::Chat => &mut self.chat,
            FrameKind::Play => &mut self.play,
        };
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            return FrameGate::Pass;
        }
        let wait_s = bucket.wait_s();
        self.strike();
        if self.strikes >= STRIKES {
            return FrameGate::Close;
        }
        let what = match kind {
            FrameKind::Chat => "chat messages",
            FrameKind::Play => "messages",
        };
        let mut e = SiteError::new(
            ErrorCode::RateLimited,
            format!(
                "too many {what} on this connection: wait {wait_s} s (more refused messages \
                 close it)"
            ),
        );
        e.retry_after_s = Some(wait_s);
        FrameGate::Refuse(e)
    }

    /// The game or the chat refused a frame that passed the rate.
    pub fn strike(&mut self) {
        self.strikes += 1.0;
    }

    /// Whether the strikes close the socket.
    pub fn closes(&self) -> bool {
        self.strikes >= STRIKES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_refusals_then_the_close() {
        let now = Instant::now();
        let mut f = SocketFrames::new(now);
        for _ in 0..20 {
            assert!(matches!(f.take(FrameKind::Chat, now), FrameGate::Pass));
        }
        for _ in 0..29 {
            assert!(matches!(f.take(FrameKind::Chat, now), FrameGate::Refuse(_)));
        }
        assert!(matches!(f.take(FrameKind::Chat, now), FrameGate::Close));
    }

    #[test]
    fn tokens_come_back_and_strikes_fade() {
        let now = Instant::now();
        let mut f = SocketFrames::new(now);
        for _ in 0..20 {
            f.take(FrameKind::Chat, now);
        }
        assert!(matches!(f.take(FrameKind::Chat, now), FrameGate::Refuse(_)));
        let later = now + Duration::from_secs(20);
        assert!(matches!(f.take(FrameKind::Chat, later), FrameGate::Pass));
        assert!(f.strikes < 1.0);
    }

    #[test]
    fn play_frames_have_a_larger_bucket_of_their_own() {
        let now = Instant::now();
        let mut f = SocketFrames::new(now);
        for _ in 0..20 {
            f.take(FrameKind::Chat, now);
        }
        for _ in 0..60 {
            assert!(matches!(f.take(FrameKind::Play, now), FrameGate::Pass));
        }
        assert!(matches!(f.take(FrameKind::Play, now), FrameGate::Refuse(_)));
        // A tenth of a second brings one back.
        let later = now + Duration::from_millis(100);
        assert!(matches!(f.take(FrameKind::Play, later), FrameGate::Pass));
    }

    #[test]
    fn a_steady_fast_player_is_never_refused() {
        // Five moves and a ping a second for ten minutes.
        let start = Instant::now();
        let mut f = SocketFrames::new(start);
        for tick in 0..3600u64 {
            let now = start + Duration::from_millis(tick * 1000 / 6);
            assert!(
                matches!(f.take(FrameKind::Play, now), FrameGate::Pass),
                "{tick}"
            );
        }
    }
}
