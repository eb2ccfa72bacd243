//! The typed values of a game's stored state: status, seat kind, engine level, variant and
//! which seats a token holds. They are text only at the edges: the database columns
//! (`store::games`) and the JSON of the API (serde, spelled as docs/api.md shows). Colours,
//! end reasons and results are the game crate's [`game::Color`], [`game::EndReason`] and
//! [`game::RecordResult`], which serialize as their text too. Text that is none of these is an
//! error wherever it is read, never a default.

use std::fmt;

use game::Color;
use serde::{Deserialize, Serialize};

game::text_enum! {
    /// Whether a game goes on.
    pub enum GameStatus ("game status") {
        /// Moves are played.
        Ongoing = "ongoing",
        /// Over: the row has a result, a reason and (unless drawn) a winner.
        Finished = "finished",
        /// Called off before it really began (a friend who never came, or fewer than two
        /// moves played): no result, and never in the statistics.
        Aborted = "aborted",
    }
}

game::text_enum! {
    /// Something that happened in a game that its players are told once (docs/api.md,
    /// `notice`); the page words it in each language.
    pub enum NoticeCode ("notice") {
        /// A draw offer was declined (by a player, or at once by the engine).
        DrawDeclined = "draw_declined",
        /// A takeback was declined.
        TakebackDeclined = "takeback_declined",
        /// Moves were taken back.
        TakebackDone = "takeback_done",
        /// A rematch offer was declined.
        RematchDeclined = "rematch_declined",
        /// The invited friend took the open seat.
        Joined = "joined",
        /// The game was aborted.
        Aborted = "aborted",
        /// The game was aborted because `by` did not make its first move in time.
        FirstMoveMissed = "first_move_missed",
    }
}

/// A notice: what happened, the side that did it, and the game's `version` it came with. The
/// API sends it only while that version is the game's, so each client is told once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notice {
    /// What happened.
    pub code: NoticeCode,
    /// The side that did it (`null` when no side did).
    pub by: Option<Color>,
    /// The game's version after the change that brought it.
    pub version: i64,
}

game::text_enum! {
    /// Who holds a seat.
    pub enum SeatKind ("seat kind") {
        /// A player, by token.
        Human = "human",
        /// The engine, at a [`Level`].
        Engine = "engine",
        /// A friend game's seat nobody took yet.
        Open = "open",
    }
}

game::text_enum! {
    /// Which seats of a game a token holds (`you` in docs/api.md).
    pub enum YourSeat ("seat") {
        /// White's.
        White = "white",
        /// Black's.
        Black = "black",
        /// Both: a local game, played on one screen.
        Both = "both",
    }
}

impl YourSeat {
    /// The colour held, `None` for both.
    pub fn color(self) -> Option<Color> {
        match self {
            YourSeat::White => Some(Color::White),
            YourSeat::Black => Some(Color::Black),
            YourSeat::Both => None,
        }
    }
}

pub use games::GameKind;

game::text_enum! {
    /// The side a seek or challenge asks for.
    pub enum SeekColor ("side") {
        /// White.
        White = "white",
        /// Black.
        Black = "black",
        /// Decided when accepted.
        Random = "random",
    }
}

game::text_enum! {
    /// Where a seek stands (the `seeks.status` column).
    pub enum SeekStatus ("seek status") {
        /// Waiting for an opponent.
        Open = "open",
        /// Taken: its game started.
        Accepted = "accepted",
    }
}

game::text_enum! {
    /// Where a challenge stands (the `challenges.status` column, `status` in the API). A
    /// cancelled challenge is deleted, so it has no status.
    pub enum ChallengeStatus ("challenge status") {
        /// Waiting for the challenged player's answer.
        Open = "open",
        /// Accepted: its game started.
        Accepted = "accepted",
        /// Declined by the challenged player.
        Declined = "declined",
    }
}

/// An engine strength level, 1 (beginner) to 8 (full strength), checked once where it enters
/// (a request or a database row) by the engine's own check (`engine::level::Level::new`);
/// `engine::level` says what each searches. JSON and the database hold it as a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "i64")]
pub struct Level(engine::level::Level);

impl Level {
    /// Level 1.
    pub const MIN: Level = Level(engine::level::Level::MIN);
    /// Level 8.
    pub const MAX: Level = Level(engine::level::Level::MAX);

    /// The level `n`, if it is one (1-8).
    pub fn new(n: i64) -> Option<Level> {
        engine::level::Level::new(n).map(Level)
    }

    /// 1-8.
    pub fn get(self) -> u8 {
        self.0.get()
    }

    /// 0-7, for tables indexed by level.
    pub fn index(self) -> usize {
        self.0.index()
    }

    /// The engine's level.
    pub fn engine(self) -> engine::level::Level {
        self.0
    }
}

impl TryFrom<i64> for Level {
    type Error = String;

    fn try_from(n: i64) -> Result<Level, String> {
        Level::new(n).ok_or_else(|| format!("engine level {n} is out of range (1-8)"))
    }
}

impl From<Level> for i64 {
    fn from(level: Level) -> i64 {
        i64::from(level.get())
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

game::text_enum! {
    /// Where a computer review of a game stands: the `reviews.status` column and the review
    /// view's `status`.
    pub enum ReviewStatus ("review status") {
        /// Positions are being analysed (or wait for a worker to take them up).
        Running = "running",
        /// Every position is analysed.
        Done = "done",
        /// The analysis stopped on an error; asking again starts it afresh.
        Failed = "failed",
    }
}

/// A player of a real-time game whose pages all closed (issue 38): since when, and whether the
/// page said goodbye (`clean`: a tab closed) or the connection was lost. The opponent may claim
/// the game once [`Gone::claim_at_ms`] has passed; a page that comes back ends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gone {
    /// The side that left.
    pub side: Color,
    /// Unix ms its last socket closed.
    pub since_ms: i64,
    /// Whether the page closed its socket itself (a tab closed, a page left).
    pub clean: bool,
}

/// How long after a clean leave (the page closed its socket) the opponent may claim, ms.
pub const GONE_CLEAN_MS: i64 = 10_000;
/// How long after a lost connection the opponent may claim in a game expected to last under
/// 8 minutes, ms; longer controls wait longer ([`Gone::wait_ms`]).
pub const GONE_LOST_MS: i64 = 40_000;

impl Gone {
    /// The wait before a claim for a game of `expected_s` seconds (`initial + 40 × increment`):
    /// [`GONE_CLEAN_MS`] after a clean leave; after a lost connection [`GONE_LOST_MS`] for a
    /// game under 8 minutes, 60 s under 25 minutes, 120 s beyond (as lichess waits longer in
    /// slower games).
    pub fn wait_ms(&self, expected_s: i64) -> i64 {
        if self.clean {
            GONE_CLEAN_MS
        } else if expected_s < 480 {
            GONE_LOST_MS
        } else if expected_s < 1500 {
            60_000
        } else {
            120_000
        }
    }

    /// Unix ms from which the opponent may claim.
    pub fn claim_at_ms(&self, expected_s: i64) -> i64 {
        self.since_ms.saturating_add(self.wait_ms(expected_s))
    }
}

game::text_enum! {
    /// What the opponent of a gone player claims (`POST /api/games/{id}/claim`).
    pub enum Claim ("claim") {
        /// The win.
        Win = "win",
        /// A draw.
        Draw = "draw",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_round_trip_through_json() {
        for s in GameStatus::ALL {
            let json = serde_json::to_string(s).expect("json");
            assert_eq!(json, format!("\"{}\"", s.as_str()));
            assert_eq!(serde_json::from_str::<GameStatus>(&json).expect("back"), *s);
        }
        for k in SeatKind::ALL {
            assert_eq!(SeatKind::parse(k.as_str()), Some(*k));
        }
        for y in YourSeat::ALL {
            assert_eq!(YourSeat::parse(y.as_str()), Some(*y));
        }
        for c in SeekColor::ALL {
            let json = serde_json::to_string(c).expect("json");
            assert_eq!(serde_json::from_str::<SeekColor>(&json).expect("back"), *c);
        }
        for s in SeekStatus::ALL {
            assert_eq!(SeekStatus::parse(s.as_str()), Some(*s));
        }
        for s in ChallengeStatus::ALL {
            let json = serde_json::to_string(s).expect("json");
            assert_eq!(json, format!("\"{}\"", s.as_str()));
        }
        for v in GameKind::ALL {
            let json = serde_json::to_string(&v).expect("json");
            assert_eq!(serde_json::from_str::<GameKind>(&json).expect("back"), v);
        }
        assert_eq!(GameKind::parse("iceage"), Some(GameKind::IceAge));
        assert_eq!(GameKind::IceAge.title(), "Ice Age Chess");
    }

    #[test]
    fn review_statuses_are_their_texts() {
        for s in ReviewStatus::ALL {
            assert_eq!(ReviewStatus::parse(s.as_str()), Some(*s));
            let json = serde_json::to_string(s).expect("json");
            assert_eq!(json, format!("\"{s}\""));
        }
        assert_eq!(ReviewStatus::parse("Running"), None, "exact text only");
        let err = serde_json::from_str::<ReviewStatus>("\"paused\"").expect_err("unknown");
        assert!(
            err.to_string().contains("unknown review status 'paused'"),
            "{err}"
        );
    }

    #[test]
    fn unknown_text_is_refused_not_defaulted() {
        assert_eq!(GameStatus::parse("Ongoing"), None);
        assert_eq!(SeatKind::parse(""), None);
        assert_eq!(GameKind::parse("chess"), None);
        let e = serde_json::from_str::<SeatKind>("\"robot\"").expect_err("unknown");
        assert!(e.to_string().contains("unknown seat kind 'robot'"), "{e}");
        assert_eq!(SeekColor::parse("White"), None);
        assert_eq!(SeekStatus::parse("cancelled"), None);
        let e = serde_json::from_str::<ChallengeStatus>("\"gone\"").expect_err("unknown");
        assert!(
            e.to_string().contains("unknown challenge status 'gone'"),
            "{e}"
        );
    }

    #[test]
    fn levels_are_one_to_eight() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(9), None);
        assert_eq!(Level::new(-1), None);
        assert_eq!(Level::new(1), Some(Level::MIN));
        assert_eq!(Level::new(8).map(Level::index), Some(7));
        assert_eq!(serde_json::to_string(&Level::MAX).expect("json"), "8");
        assert_eq!(serde_json::from_str::<Level>("3").expect("json").get(), 3);
        let e = serde_json::from_str::<Level>("12").expect_err("out of range");
        assert!(e.to_string().contains("out of range (1-8)"), "{e}");
    }

    #[test]
    fn a_gone_player_waits_by_how_they_left_and_the_games_length() {
        let g = |clean| Gone {
            side: Color::White,
            since_ms: 1_000,
            clean,
        };
        // A closed tab: 10 s whatever the control.
        assert_eq!(g(true).wait_ms(60), GONE_CLEAN_MS);
        assert_eq!(g(true).wait_ms(10_000), GONE_CLEAN_MS);
        // A lost line: longer in slower games (3+2 = 260 s, 10+5 = 800 s, 30+0 = 1800 s).
        assert_eq!(g(false).wait_ms(260), GONE_LOST_MS);
        assert_eq!(g(false).wait_ms(800), 60_000);
        assert_eq!(g(false).wait_ms(1_800), 120_000);
        assert_eq!(g(false).claim_at_ms(260), 1_000 + GONE_LOST_MS);
        assert_eq!(Claim::parse("win"), Some(Claim::Win));
        assert_eq!(Claim::parse("resign"), None);
    }
}
