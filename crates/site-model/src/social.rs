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
