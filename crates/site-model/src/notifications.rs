//! What a player is told outside the board (issue 38): the kinds of notification and when the
//! low-time reminders of a correspondence game fall due. Pure values; storage is
//! `site-store`'s `notifications`, the events that make them are `site::notifications`'s.

game::text_enum! {
    /// What a notification is about (`kind` in `GET /api/notifications`, docs/api.md).
    pub enum NotificationKind ("notification kind") {
        /// Your opponent moved in a correspondence game: your turn.
        YourMove = "your_move",
        /// A correspondence game's clock is low: 24 h or 1 h left for your move.
        LowTime = "low_time",
        /// A correspondence game is over.
        GameOver = "game_over",
        /// Someone challenged you.
        Challenge = "challenge",
        /// Your seek was accepted: a game started.
        SeekAccepted = "seek_accepted",
        /// Your challenge was accepted: a game started.
        ChallengeAccepted = "challenge_accepted",
        /// A tournament you entered has started (issue 40).
        TournamentStarted = "tournament_started",
        /// Your tournament game is ready (issue 40).
        TournamentGame = "tournament_game",
        /// A warning: many quick rated losses to one opponent (issue 41's sandbagging); more
        /// and the account's games stop counting for a while.
        SandbagWarning = "sandbag_warning",
    }
}

/// Most notifications kept per player; older ones are deleted as new ones come (issue 38).
pub const KEEP: i64 = 100;

/// How long a challenge's notification outlives [`KEEP`]'s pruning, ms (10 minutes): the
/// per-pair challenge limit counts them over this window, and 100 notifications from other
/// players must not reset it (hostile finding 1 of round 6).
pub const CHALLENGES_COUNTED_MS: i64 = 600_000;

/// A low-time reminder of a correspondence game: sent once per move when the time left for it
/// first falls to [`LowTime::left_ms`] or below (issue 38: at 24 h and at 1 h).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LowTime {
    /// 24 hours left.
    Day,
    /// One hour left.
    Hour,
}

impl LowTime {
    /// The thresholds, the longest first.
    pub const ALL: [LowTime; 2] = [LowTime::Day, LowTime::Hour];

    /// The time left at which it falls due, ms.
    pub fn left_ms(self) -> i64 {
        match self {
            LowTime::Day => 24 * 3_600_000,
            LowTime::Hour => 3_600_000,
        }
    }

    /// Its part of the event key (`low:<game>:<ply>:24h`).
    pub fn key(self) -> &'static str {
        match self {
            LowTime::Day => "24h",
            LowTime::Hour => "1h",
        }
    }

    /// The reminder due with `left_ms` left for a move given `per_move_ms` in all: the
    /// shortest threshold reached, `None` above 24 h or once the time is out (the flag tells
    /// that). A threshold not below the whole time per move never falls due: a one-day game
    /// is not "24 hours left" the moment a turn begins.
    pub fn due(left_ms: i64, per_move_ms: i64) -> Option<LowTime> {
        if left_ms <= 0 {
            return None;
        }
        LowTime::ALL
            .iter()
            .rev()
            .copied()
            .find(|t| left_ms <= t.left_ms() && t.left_ms() < per_move_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shortest_threshold_reached_is_due() {
        let three_days = 72 * 3_600_000;
        assert_eq!(LowTime::due(25 * 3_600_000, three_days), None);
        assert_eq!(LowTime::due(24 * 3_600_000, three_days), Some(LowTime::Day));
        assert_eq!(LowTime::due(2 * 3_600_000, three_days), Some(LowTime::Day));
        assert_eq!(LowTime::due(3_600_000, three_days), Some(LowTime::Hour));
        assert_eq!(LowTime::due(1, three_days), Some(LowTime::Hour));
        assert_eq!(LowTime::due(0, three_days), None);
        assert_eq!(LowTime::due(-5, three_days), None);
    }

    #[test]
    fn a_one_day_game_is_reminded_at_one_hour_only() {
        let one_day = 24 * 3_600_000;
        assert_eq!(LowTime::due(one_day, one_day), None);
        assert_eq!(LowTime::due(5 * 3_600_000, one_day), None);
        assert_eq!(LowTime::due(3_600_000, one_day), Some(LowTime::Hour));
    }

    #[test]
    fn kinds_read_back_from_their_json() {
        for kind in NotificationKind::ALL {
            let json = serde_json::to_string(kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
            assert_eq!(
                serde_json::from_str::<NotificationKind>(&json).unwrap(),
                *kind
            );
        }
        assert!(serde_json::from_str::<NotificationKind>("\"spam\"").is_err());
    }
}
