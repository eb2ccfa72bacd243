//! Glicko-2 ratings (issue 13): one rating per account, per game (`antarctos`, `iceage`) and per
//! speed class (real-time, correspondence). The arithmetic is the `skillratings` crate's, which
//! follows Mark Glickman's "Example of the Glicko-2 system" (2013); this module holds the site's
//! constants and the shapes it stores and sends.
//!
//! - A new rating starts at 1500, deviation (RD) 350, volatility 0.06; the system constant tau
//!   is 0.5 (the crate's default, within the 0.3-1.2 the paper suggests).
//! - Each rated game is its own rating period for both players (as lichess): both are updated
//!   from their ratings before the game, in the transaction that ends it (`store::ratings`).
//! - A rating whose RD is over [`PROVISIONAL_RD`] is provisional: shown with "?" (`1500?`), as
//!   lichess does, and kept off the leaderboards.
//! - The RD does not grow with inactivity between games (no rating periods without games): the
//!   leaderboard asks for a game in the last 30 days instead.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's rating deviation.
pub const START_RD: f64 = 350.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.06;
/// Glicko-2's system constant tau (constrains the change in volatility).
pub const TAU: f64 = 0.5;
/// A rating whose deviation is over this is provisional ("1500?").
pub const PROVISIONAL_RD: f64 = 110.0;

/// One player's rating in one game and speed class.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating (Glicko scale, 1500 at the start).
    pub rating: f64,
    /// Rating deviation (Glicko scale).
    pub rd: f64,
    /// Volatility (Glicko-2's sigma).
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: START_RATING,
            rd: START_RD,
            volatility: START_VOLATILITY,
        }
    }
}

impl Rating {
    /// Whether the rating is provisional (RD over [`PROVISIONAL_RD`]).
    pub fn provisional(&self) -> bool {
        is_provisional(self.rd)
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.rd,
            volatility: self.volatility,
        }
    }

    fn from_glicko(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            rd: g.deviation,
            volatility: g.volatility,
        }
    }
}

/// Rated games between the same two accounts that count in one day (issue 41, boosting: two
/// accounts made 49 rated wins in a minute by resigning to each other); later ones that day
/// end unrated ([`Unrated::PairLimit`]).
pub const PAIR_GAMES_PER_DAY: i64 = 5;

/// Why a game played as rated did not count (`games.unrated`, the game view's `unrated`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unrated {
    /// The two accounts already had [`PAIR_GAMES_PER_DAY`] rated games in the last 24 hours.
    PairLimit,
    /// A player of the game is held for sandbagging (many quick rated losses: against this
    /// opponent, or against anyone; `store::sandbag`).
    Sandbag,
    /// A player of the game is marked (booster or cheater) by a moderator.
    Marked,
}

impl Unrated {
    /// The stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            Unrated::PairLimit => "pair_limit",
            Unrated::Sandbag => "sandbag",
            Unrated::Marked => "marked",
        }
    }

    /// The value of stored text `text`; `None` for text it does not know.
    pub fn parse(text: &str) -> Option<Unrated> {
        match text {
            "pair_limit" => Some(Unrated::PairLimit),
            "sandbag" => Some(Unrated::Sandbag),
            "marked" => Some(Unrated::Marked),
            _ => None,
        }
    }
}

/// Whether a rating with deviation `rd` is provisional.
pub fn is_provisional(rd: f64) -> bool {
    rd > PROVISIONAL_RD
}

/// A rating as shown: rounded, with "?" when provisional (`1500?`, `1712`).
pub fn shown(rating: f64, rd: f64) -> String {
    format!(
        "{}{}",
        rating.round() as i64,
        if is_provisional(rd) { "?" } else { "" }
    )
}

/// A player's rating as the lobby's seeks and the game page show it beside the name (issue
/// 41): `{"rating": 1662, "provisional": true}`, shown `1662?`. An account without a rated
/// game in the game and speed has the start rating, provisional.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRating {
    /// Rounded.
    pub rating: i64,
    /// Deviation over [`PROVISIONAL_RD`]: shown with "?".
    pub provisional: bool,
}

impl PlayerRating {
    /// `rating` (a stored one, or `None`: the start rating) as shown.
    pub fn of(rating: Option<Rating>) -> PlayerRating {
        let r = rating.unwrap_or_default();
        PlayerRating {
            rating: r.rating.round() as i64,
            provisional: r.provisional(),
        }
    }
}

/// The site's Glicko-2 settings: tau [`TAU`], the crate's convergence tolerance (1e-6, the
/// paper's).
pub fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// Both players' ratings after one game between them: `score` is White's (1, 0.5 or 0).
pub fn after_game(white: Rating, black: Rating, white_score: f64) -> (Rating, Rating) {
    let outcome = if white_score > 0.75 {
        Outcomes::WIN
    } else if white_score < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let (w, b) = glicko2(&white.glicko(), &black.glicko(), &outcome, &config());
    (Rating::from_glicko(w), Rating::from_glicko(b))
}

/// One side's rating change in a rated game, as stored on the game (`games.rating_diff`) and
/// sent in GameView's `ratings`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideChange {
    /// The account's name.
    pub username: String,
    /// The rating before the game, rounded.
    pub before: i64,
    /// The rating after the game, rounded.
    pub after: i64,
    /// `after - before` of the rounded figures (what the page shows as "+12"), so the three
    /// figures shown always agree.
    pub diff: i64,
    /// Whether the rating after the game is provisional (RD over 110).
    pub provisional: bool,
}

impl SideChange {
    /// The change from `before` to `after` of `username`.
    pub fn new(username: &str, before: Rating, after: Rating) -> SideChange {
        let b = before.rating.round() as i64;
        let a = after.rating.round() as i64;
        SideChange {
            username: username.to_string(),
            before: b,
            after: a,
            diff: a - b,
            provisional: after.provisional(),
        }
    }
}

/// Both sides' rating changes of a rated game: GameView's `"ratings": {"white": {...},
/// "black": {...}}` (`null` until the game is rated, and for every unrated game).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingChange {
    /// White's change.
    pub white: SideChange,
    /// Black's change.
    pub black: SideChange,
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    /// Glickman, "Example of the Glicko-2 system": a 1500/200/0.06 player beats a 1400/30,
    /// loses to a 1550/100 and to a 1700/300 player in one period (tau 0.5): 1464.06 / 151.52 /
    /// 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let me = Rating {
            rating: 1500.0,
            rd: 200.0,
            volatility: 0.06,
        };
        let opp = |r: f64, rd: f64| {
            Rating {
                rating: r,
                rd,
                volatility: 0.06,
            }
            .glicko()
        };
        let results = [
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ];
        let after = Rating::from_glicko(glicko2_rating_period(&me.glicko(), &results, &config()));
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.rd, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
        assert!(after.provisional(), "RD 151.5 is over 110");
    }

    #[test]
    fn one_game_between_newcomers_moves_both_by_the_same_amount() {
        let (w, b) = after_game(Rating::default(), Rating::default(), 1.0);
        // The crate's own figures for two new players: 1662 / 1338, RD 290.
        assert_eq!((w.rating.round(), b.rating.round()), (1662.0, 1338.0));
        assert_eq!((w.rd.round(), b.rd.round()), (290.0, 290.0));
        let white = SideChange::new("ann", Rating::default(), w);
        let black = SideChange::new("bob", Rating::default(), b);
        assert_eq!((white.diff, black.diff), (162, -162));
        assert!(white.provisional && black.provisional);
    }

    #[test]
    fn a_draw_between_equals_changes_no_rating_but_narrows_the_deviation() {
        let (w, b) = after_game(Rating::default(), Rating::default(), 0.5);
        assert!(close(w.rating, 1500.0, 1e-9) && close(b.rating, 1500.0, 1e-9));
        assert!(w.rd < START_RD && b.rd < START_RD);
        // A draw against a stronger player gains rating.
        let strong = Rating {
            rating: 1800.0,
            rd: 60.0,
            volatility: 0.06,
        };
        let (me, them) = after_game(Rating::default(), strong, 0.5);
        assert!(me.rating > 1500.0 && them.rating < 1800.0);
        assert!(
            them.rating > 1790.0,
            "a settled rating moves little: {them:?}"
        );
    }

    #[test]
    fn the_provisional_mark() {
        assert_eq!(shown(1500.0, 350.0), "1500?");
        assert_eq!(shown(1712.4, 110.0), "1712");
        assert_eq!(shown(1712.6, 110.01), "1713?");
        assert!(!is_provisional(60.0));
    }

    #[test]
    fn the_change_serializes_as_the_api_documents() {
        let c = RatingChange {
            white: SideChange::new("ann", Rating::default(), Rating::default()),
            black: SideChange::new("bob", Rating::default(), Rating::default()),
        };
        let v = serde_json::to_value(&c).expect("json");
        assert_eq!(
            v["white"],
            serde_json::json!({"username": "ann", "before": 1500, "after": 1500, "diff": 0,
                               "provisional": true})
        );
    }
}
