//! `POST /api/tournaments`'s body, as sent ([`CreateBody`]) and as checked
//! ([`NewTournament`], by `TryFrom` at the edge): every limit is here, with the field it
//! concerns named in its error.

use serde::Deserialize;

use site_model::clock::{Speed, TimeControl};
use site_model::error::SiteError;
use site_model::state::GameKind;
use site_model::tournament::{Conditions, TournamentKind};
use tournament::berger;

/// Longest arena, minutes (lichess: up to 12 hours; a day here, for slow controls).
pub const MAX_ARENA_MINUTES: i64 = 24 * 60;
/// Most Swiss rounds.
pub const MAX_SWISS_ROUNDS: i64 = 30;
/// Most players of an arena or a Swiss event.
pub const MAX_PLAYERS: i64 = 1000;
/// Longest name, characters.
pub const MAX_NAME_CHARS: usize = 60;
/// The start of an event sent without one, ms ahead of now (5 minutes: time to join).
pub const DEFAULT_LEAD_MS: i64 = 5 * 60_000;
/// Latest start, ms ahead of now (90 days).
pub const MAX_LEAD_MS: i64 = 90 * 24 * 3_600_000;

/// The body as sent: `{"kind","variant","time_control","rated","starts_at"?,"minutes"?,
/// "rounds"?,"double"?,"min_players"?,"max_players"?,"conditions"?,"name"?}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    /// `arena`, `swiss` or `round_robin`.
    pub kind: TournamentKind,
    /// `antarctos` or `iceage`.
    pub variant: GameKind,
    /// A real-time or correspondence control (`clock::TimeControl`'s JSON).
    pub time_control: TimeControl,
    /// Rated games (default true).
    #[serde(default)]
    pub rated: Option<bool>,
    /// Unix ms of the start; [`DEFAULT_LEAD_MS`] from now when absent.
    #[serde(default)]
    pub starts_at: Option<i64>,
    /// An arena's length, minutes (required for an arena, 1 to [`MAX_ARENA_MINUTES`]).
    #[serde(default)]
    pub minutes: Option<i64>,
    /// A Swiss event's rounds (required for Swiss, 1 to [`MAX_SWISS_ROUNDS`]).
    #[serde(default)]
    pub rounds: Option<i64>,
    /// A round robin played twice, colours swapped.
    #[serde(default)]
    pub double: Option<bool>,
    /// Fewer players at the start cancel it (default 2; a round robin needs 3).
    #[serde(default)]
    pub min_players: Option<i64>,
    /// No entries past this (default: 20 for a round robin, [`MAX_PLAYERS`] otherwise).
    #[serde(default)]
    pub max_players: Option<i64>,
    /// Entry conditions: an object (serde alone would also read an array by position).
    #[serde(default, deserialize_with = "object_only")]
    pub conditions: Option<Conditions>,
    /// The name shown; a default from the kind and the game when absent.
    #[serde(default)]
    pub name: Option<String>,
}

/// An optional field that must be a JSON object (or `null`).
fn object_only<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    use serde::de::Error;
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::Null => Ok(None),
        v @ serde_json::Value::Object(_) => serde_json::from_value(v)
            .map(Some)
            .map_err(D::Error::custom),
        _ => Err(D::Error::custom("expected an object of named fields")),
    }
}

/// A checked request: what `Tournaments::create` stores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTournament {
    /// The kind.
    pub kind: TournamentKind,
    /// The game.
    pub variant: GameKind,
    /// The control (never unlimited).
    pub control: TimeControl,
    /// Rated or not.
    pub rated: bool,
    /// Unix ms of the start, `None`: now.
    pub starts_at: Option<i64>,
    /// An arena's minutes.
    pub minutes: Option<i64>,
    /// A Swiss event's rounds.
    pub rounds: Option<i64>,
    /// Double round robin.
    pub double: bool,
    /// Minimum players.
    pub min_players: i64,
    /// Maximum players.
    pub max_players: i64,
    /// Entry conditions.
    pub conditions: Conditions,
    /// The name.
    pub name: String,
    /// Whether the name is the creator's text (not the default): a muted account may not
    /// give one (hostile finding 2).
    pub custom_name: bool,
}

fn field(name: &str, message: impl std::fmt::Display) -> SiteError {
    SiteError::bad_request(format!("{name}: {message}"))
}

impl TryFrom<CreateBody> for NewTournament {
    type Error = SiteError;

    fn try_from(b: CreateBody) -> Result<NewTournament, SiteError> {
        let control = b
            .time_control
            .validate()
            .map_err(|e| field("time_control", e.message))?;
        if control.speed().is_none() {
            return Err(field(
                "time_control",
                "a tournament needs a clock: real-time or correspondence",
            ));
        }
        if b.kind == TournamentKind::Arena && control.speed() != Some(Speed::Realtime) {
            return Err(field(
                "time_control",
                "an arena is played in real time: a correspondence game would outlast it",
            ));
        }
        let minutes = match (b.kind, b.minutes) {
            (TournamentKind::Arena, None) => {
                return Err(field("minutes", "an arena needs its length in minutes"));
            }
            (TournamentKind::Arena, Some(m)) if !(1..=MAX_ARENA_MINUTES).contains(&m) => {
                return Err(field(
                    "minutes",
                    format!("{m} is out of range (1 to {MAX_ARENA_MINUTES})"),
                ));
            }
            (TournamentKind::Arena, Some(m)) => Some(m),
            (_, Some(_)) => return Err(field("minutes", "only an arena has a length")),
            (_, None) => None,
        };
        let rounds = match (b.kind, b.rounds) {
            (TournamentKind::Swiss, None) => {
                return Err(field("rounds", "a Swiss event needs its number of rounds"));
            }
            (TournamentKind::Swiss, Some(r)) if !(1..=MAX_SWISS_ROUNDS).contains(&r) => {
                return Err(field(
                    "rounds",
                    format!("{r} is out of range (1 to {MAX_SWISS_ROUNDS})"),
                ));
            }
            (TournamentKind::Swiss, Some(r)) => Some(r),
            (TournamentKind::RoundRobin, Some(_)) => {
                return Err(field(
                    "rounds",
                    "a round robin's rounds follow from its players (n - 1, or n when odd)",
                ));
            }
            (_, Some(_)) => return Err(field("rounds", "an arena has no rounds")),
            (_, None) => None,
        };
        let double = b.double.unwrap_or(false);
        if double && b.kind != TournamentKind::RoundRobin {
            return Err(field("double", "only a round robin is played twice"));
        }
        let (lowest, highest) = match b.kind {
            TournamentKind::RoundRobin => (berger::MIN_PLAYERS as i64, berger::MAX_PLAYERS as i64),
            _ => (2, MAX_PLAYERS),
        };
        let min_players = b.min_players.unwrap_or(lowest);
        let max_players = b.max_players.unwrap_or(highest);
        if !(lowest..=highest).contains(&min_players) {
            return Err(field(
                "min_players",
                format!("{min_players} is out of range ({lowest} to {highest})"),
            ));
        }
        if !(min_players..=highest).contains(&max_players) {
            return Err(field(
                "max_players",
                format!("{max_players} is out of range ({min_players} to {highest})"),
            ));
        }
        let conditions = b.conditions.unwrap_or_default();
        if conditions
            .min_rated_games
            .is_some_and(|n| !(0..=10_000).contains(&n))
        {
            return Err(field(
                "conditions.min_rated_games",
                "out of range (0 to 10000)",
            ));
        }
        for (name, r) in [
            ("conditions.min_rating", conditions.min_rating),
            ("conditions.max_rating", conditions.max_rating),
        ] {
            if r.is_some_and(|r| !(0..=4000).contains(&r)) {
                return Err(field(name, "out of range (0 to 4000)"));
            }
        }
        if let (Some(lo), Some(hi)) = (conditions.min_rating, conditions.max_rating)
            && lo > hi
        {
            return Err(field(
                "conditions",
                format!("the minimum rating {lo} is above the maximum {hi}"),
            ));
        }
        let custom_name = b.name.is_some();
        let name = match b.name {
            Some(n) => {
                let n = n.trim().to_string();
                if n.is_empty() || n.chars().count() > MAX_NAME_CHARS {
                    return Err(field("name", format!("1 to {MAX_NAME_CHARS} characters")));
                }
                if n.chars().any(char::is_control) {
                    return Err(field("name", "no control characters"));
                }
                // A name of invisible or format characters only (zero-width space, BOM, a
                // direction override) would show as nothing, or turn the page's text around.
                let turns = |c: char| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}');
                if n.chars().any(turns) || !n.chars().any(char::is_alphanumeric) {
                    return Err(field(
                        "name",
                        "it needs a letter or a digit, and no direction or line-separator characters",
                    ));
                }
                n
            }
            None => default_name(b.kind, b.variant, control),
        };
        Ok(NewTournament {
            kind: b.kind,
            variant: b.variant,
            control,
            rated: b.rated.unwrap_or(true),
            starts_at: b.starts_at,
            minutes,
            rounds,
            double,
            min_players,
            max_players,
            conditions,
            name,
            custom_name,
        })
    }
}

/// `"Antarctos 3+2 arena"`, `"Ice Age Chess 2 days round robin"`.
pub fn default_name(kind: TournamentKind, variant: GameKind, control: TimeControl) -> String {
    let game = match variant {
        GameKind::Antarctos => "Antarctos",
        GameKind::IceAge => "Ice Age Chess",
    };
    let kind = match kind {
        TournamentKind::Arena => "arena",
        TournamentKind::Swiss => "Swiss",
        TournamentKind::RoundRobin => "round robin",
    };
    format!("{game} {} {kind}", control.label())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(json: &str) -> Result<NewTournament, String> {
        let b: CreateBody = serde_json::from_str(json).map_err(|e| e.to_string())?;
        NewTournament::try_from(b).map_err(|e| e.message)
    }

    const CLOCK: &str = r#""time_control":{"kind":"realtime","initial_s":180,"increment_s":2}"#;

    #[test]
    fn an_arena_needs_minutes_and_no_rounds() {
        let e = body(&format!(
            r#"{{"kind":"arena","variant":"antarctos",{CLOCK}}}"#
        ))
        .unwrap_err();
        assert!(e.starts_with("minutes:"), "{e}");
        let e = body(&format!(
            r#"{{"kind":"arena","variant":"antarctos",{CLOCK},"minutes":60,"rounds":3}}"#
        ))
        .unwrap_err();
        assert!(e.starts_with("rounds:"), "{e}");
        let t = body(&format!(
            r#"{{"kind":"arena","variant":"antarctos",{CLOCK},"minutes":60}}"#
        ))
        .unwrap();
        assert_eq!(t.name, "Antarctos 3+2 arena");
        assert!(t.rated);
        assert_eq!((t.min_players, t.max_players), (2, MAX_PLAYERS));
    }

    #[test]
    fn limits_name_their_field() {
        let cases = [
            (r#""kind":"swiss","variant":"iceage","rounds":0"#, "rounds:"),
            (
                r#""kind":"swiss","variant":"iceage","rounds":3,"double":true"#,
                "double:",
            ),
            (
                r#""kind":"round_robin","variant":"iceage","min_players":2"#,
                "min_players:",
            ),
            (
                r#""kind":"round_robin","variant":"iceage","max_players":21"#,
                "max_players:",
            ),
            (
                r#""kind":"swiss","variant":"iceage","rounds":3,"conditions":{"min_rating":1800,"max_rating":1600}"#,
                "conditions:",
            ),
            (
                r#""kind":"swiss","variant":"iceage","rounds":3,"name":"  "#,
                "name:",
            ),
            (
                r#""kind":"swiss","variant":"iceage","rounds":3,"name":"\u200b""#,
                "name:",
            ),
            (
                r#""kind":"swiss","variant":"iceage","rounds":3,"name":"a\u202eb""#,
                "name:",
            ),
        ];
        for (fields, want) in cases {
            let fields = if fields.ends_with("\"  ") {
                format!("{fields}\"")
            } else {
                fields.to_string()
            };
            let e = body(&format!("{{{fields},{CLOCK}}}")).unwrap_err();
            assert!(e.starts_with(want), "{fields}: {e}");
        }
        let e = body(
            r#"{"kind":"swiss","variant":"iceage","rounds":3,"time_control":{"kind":"unlimited"}}"#,
        )
        .unwrap_err();
        assert!(e.starts_with("time_control:"), "{e}");
        let e = body(r#"{"kind":"cup","variant":"iceage"}"#).unwrap_err();
        assert!(e.contains("unknown tournament kind 'cup'"), "{e}");
    }

    #[test]
    fn a_correspondence_round_robin() {
        let t = body(
            r#"{"kind":"round_robin","variant":"iceage","time_control":{"kind":"correspondence","days":3},"double":true,"rated":false}"#,
        )
        .unwrap();
        assert!(t.double && !t.rated);
        assert_eq!((t.min_players, t.max_players), (3, 20));
        assert_eq!(t.name, "Ice Age Chess 3 days round robin");
    }
}
