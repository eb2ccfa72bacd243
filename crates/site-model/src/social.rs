//! The plain values of the social half of issue 41: why a player is reported, a moderator's
//! mark and action. Text only at the edges (the API's JSON, the database's columns).

game::text_enum! {
    /// Why a player is reported (`POST /api/reports`).
    pub enum ReportReason ("report reason") {
        /// Help from an engine or another player.
        Cheating = "cheating",
        /// Insults, harassment.
        Abuse = "abuse",
        /// Rating manipulation by losing on purpose to someone.
        Boosting = "boosting",
        /// Losing on purpose to lower one's own rating.
        Sandbagging = "sandbagging",
        /// Anything else (the text says what).
        Other = "other",
    }
}

game::text_enum! {
    /// Whom an account takes challenges from (`POST /api/me/challenges-from`, issue 41): a
    /// refused challenge answers 403 `not_accepted`, the same answer a block gives.
    pub enum ChallengesFrom ("challenges setting") {
        /// Anyone (the default).
        Everyone = "everyone",
        /// Only the players the account follows.
        Following = "following",
        /// No one.
        Nobody = "nobody",
    }
}

game::text_enum! {
    /// A moderator's mark on an account, shown on its profile; marking refunds the points
    /// its opponents lost to it in the last 3 days.
    pub enum ModMark ("mark") {
        /// Lost or won on purpose to move a rating.
        Booster = "booster",
        /// Played with help.
        Cheater = "cheater",
    }
}

game::text_enum! {
    /// A moderator's action on an account (`POST /api/mod/players/{username}/{action}`), as
    /// the mod log names it.
    pub enum ModAction ("moderator action") {
        /// No chat until a time.
        Mute = "mute",
        /// Chat again.
        Unmute = "unmute",
        /// The account can no longer log in or play; its games stay.
        Close = "close",
        /// Marked as a booster or a cheater (and its opponents refunded).
        Mark = "mark",
        /// A report closed.
        CloseReport = "close_report",
        /// The moderator role given (by the command line).
        GrantMod = "grant_mod",
        /// The moderator role taken back (by the command line).
        RevokeMod = "revoke_mod",
        /// A closed account opened again.
        Reopen = "reopen",
        /// A mark taken off (its refunds stay).
        Unmark = "unmark",
        /// A chat message removed (the target is the message's author, or its id for an
        /// anonymous one).
        RemoveChat = "remove_chat",
        /// A tournament renamed to its default name (the target is the tournament's id).
        RenameTournament = "rename_tournament",
    }
}

game::text_enum! {
    /// Whether a report waits for a moderator.
    pub enum ReportStatus ("report status") {
        /// Not handled yet.
        Open = "open",
        /// Handled by a moderator.
        Closed = "closed",
    }
}

/// Most characters of a report's text.
pub const MAX_REPORT_TEXT: usize = 2000;
/// Most open reports one account may have at once.
pub const MAX_OPEN_REPORTS: i64 = 10;
/// Most characters of a moderator's reason.
pub const MAX_MOD_REASON: usize = 500;
/// How far back a mark refunds rated games (lila's RatingRefund: 3 days), ms.
pub const REFUND_WINDOW_MS: i64 = 3 * 24 * 3600 * 1000;

/// The first character of `text` a report or a moderator's reason may not hold (issue 41's
/// hostile round): NUL and the other control characters but newline and tab, and the
/// direction controls that reorder how the moderators' page shows the text (U+200E, U+200F,
/// U+202A to U+202E, U+2066 to U+2069). `None` when every character may stay.
pub fn forbidden_char(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    })
}

/// A new account may report once it is this old (ms: 10 minutes) or has finished a game
/// (issue 41's hostile round: 21 fresh accounts filed 210 reports in 1.5 s).
pub const REPORTER_MIN_AGE_MS: i64 = 10 * 60_000;

/// Reports per page of the moderators' list (`GET /api/mod/reports?page=`).
pub const REPORTS_PER_PAGE: i64 = 50;

#[cfg(test)]
mod char_tests {
    use super::forbidden_char;

    #[test]
    fn control_and_direction_characters_are_found() {
        assert_eq!(forbidden_char("plain words\nand a tab\t"), None);
        assert_eq!(forbidden_char("nul\u{0}"), Some('\u{0}'));
        assert_eq!(forbidden_char("abc \u{202E}gnp.exe"), Some('\u{202E}'));
        assert_eq!(forbidden_char("\u{2067}x"), Some('\u{2067}'));
        assert_eq!(forbidden_char("bell\u{7}"), Some('\u{7}'));
        assert_eq!(forbidden_char("Привет, dünya"), None);
    }
}
