//! The bodies of `POST /api/games`, `/api/seeks`, `/api/seeks/quick` and `/api/challenges`
//! as sent (the struct names are as before: serde's messages name them), and their one parse into site's typed input (`TryFrom`): the game as
//! [`GameKind`], the side as [`SeekColor`], the opponent as [`Opponent`]. Each body keeps the
//! serde shape and name it always had, so a malformed body gets the same message; a field that
//! names nothing known gets a 400 that names the field (lobby) or the value (games), as before.

use serde::Deserialize;
use site::lobby;
use site::play::{self, Opponent};
use site_model::clock::TimeControl;
use site_model::error::SiteError;
use site_model::state::{GameKind, SeekColor};

/// The body of `POST /api/seeks`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewSeek {
    /// `antarctos` or `iceage`.
    pub variant: String,
    /// The game's clock (`clock::TimeControl`).
    pub time_control: TimeControl,
    /// Rated (needs an account; never unlimited). Default false.
    #[serde(default)]
    pub rated: bool,
    /// The seeker's side: `white`, `black` or `random` (default).
    #[serde(default)]
    pub color: Option<String>,
    /// `[min, max]`: only accounts rated within it (both ends included) see and may accept
    /// the seek (issue 41); needs an account and a clock. Default: anyone.
    #[serde(default)]
    pub rating_range: Option<[i64; 2]>,
}

/// The body of `POST /api/seeks/quick`: as [`NewSeek`], any side.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuickSeek {
    /// `antarctos` or `iceage`.
    pub variant: String,
    /// The game's clock.
    pub time_control: TimeControl,
    /// Rated (needs an account). Default false.
    #[serde(default)]
    pub rated: bool,
}

/// The body of `POST /api/challenges`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewChallenge {
    /// The challenged account's name.
    pub username: String,
    /// `antarctos` or `iceage`.
    pub variant: String,
    /// The game's clock.
    pub time_control: TimeControl,
    /// Rated (never unlimited). Default false.
    #[serde(default)]
    pub rated: bool,
    /// The challenger's side: `white`, `black` or `random` (default).
    #[serde(default)]
    pub color: Option<String>,
}

/// The body of `POST /api/games`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `antarctos` or `iceage`.
    pub variant: String,
    /// `engine`, `friend` or `local`.
    pub opponent: String,
    /// Engine level 1-8 (engine only).
    #[serde(default)]
    pub level: Option<i64>,
    /// `white`, `black` or `random` (default).
    #[serde(default)]
    pub color: Option<String>,
    /// Start position text.
    #[serde(default)]
    pub fen: Option<String>,
    /// A friend game's time control; unlimited when absent.
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    /// Whether a friend game is rated (default false).
    #[serde(default)]
    pub rated: Option<bool>,
}

/// The lobby's game: 400 `variant: unknown game '...' (antarctos or iceage)`.
fn lobby_variant(text: &str) -> Result<GameKind, SiteError> {
    GameKind::parse(text).ok_or_else(|| {
        SiteError::bad_request(format!(
            "variant: unknown game '{}' (antarctos or iceage)",
            game::excerpt(text)
        ))
    })
}

/// The lobby's clock, checked: 400 `time_control: ...`.
fn lobby_control(control: TimeControl) -> Result<TimeControl, SiteError> {
    control
        .validate()
        .map_err(|e| SiteError::bad_request(format!("time_control: {}", e.message)))
}

/// The lobby's side, `random` when absent: 400 `color: unknown side '...'`.
fn lobby_color(text: Option<&str>) -> Result<SeekColor, SiteError> {
    let Some(text) = text else {
        return Ok(SeekColor::Random);
    };
    SeekColor::parse(text).ok_or_else(|| {
        SiteError::bad_request(format!(
            "color: unknown side '{}' (white, black or random)",
            game::excerpt(text)
        ))
    })
}

impl TryFrom<NewSeek> for lobby::NewSeek {
    type Error = SiteError;

    /// Checks the game, then the clock, then the side (the order of their errors).
    fn try_from(body: NewSeek) -> Result<lobby::NewSeek, SiteError> {
        Ok(lobby::NewSeek {
            variant: lobby_variant(&body.variant)?,
            time_control: lobby_control(body.time_control)?,
            rated: body.rated,
            color: lobby_color(body.color.as_deref())?,
            rating_range: body
                .rating_range
                .map(|[min, max]| lobby::RatingRange::new(min, max))
                .transpose()?,
        })
    }
}

impl TryFrom<QuickSeek> for lobby::QuickSeek {
    type Error = SiteError;

    fn try_from(body: QuickSeek) -> Result<lobby::QuickSeek, SiteError> {
        Ok(lobby::QuickSeek {
            variant: lobby_variant(&body.variant)?,
            time_control: lobby_control(body.time_control)?,
            rated: body.rated,
        })
    }
}

impl TryFrom<NewChallenge> for lobby::NewChallenge {
    type Error = SiteError;

    /// As a seek's terms; the name is checked by the lobby, against the accounts.
    fn try_from(body: NewChallenge) -> Result<lobby::NewChallenge, SiteError> {
        Ok(lobby::NewChallenge {
            variant: lobby_variant(&body.variant)?,
            time_control: lobby_control(body.time_control)?,
            rated: body.rated,
            color: lobby_color(body.color.as_deref())?,
            username: body.username,
        })
    }
}

impl TryFrom<NewGame> for play::NewGame {
    type Error = SiteError;

    /// 400 `unknown variant '...'`, `unknown color '...'` or `unknown opponent '...'`, in that
    /// order; the level, position and clock are checked by play, which knows the game.
    fn try_from(body: NewGame) -> Result<play::NewGame, SiteError> {
        let variant = GameKind::parse(&body.variant).ok_or_else(|| {
            SiteError::bad_request(format!(
                "unknown variant '{}' (antarctos or iceage)",
                game::excerpt(&body.variant)
            ))
        })?;
        let color = match body.color.as_deref() {
            None => SeekColor::Random,
            Some(text) => SeekColor::parse(text).ok_or_else(|| {
                SiteError::bad_request(format!(
                    "unknown color '{}' (white, black or random)",
                    game::excerpt(text)
                ))
            })?,
        };
        let opponent = Opponent::parse(&body.opponent).ok_or_else(|| {
            SiteError::bad_request(format!(
                "unknown opponent '{}' (engine, friend or local)",
                game::excerpt(&body.opponent)
            ))
        })?;
        Ok(play::NewGame {
            variant,
            opponent,
            level: body.level,
            color,
            fen: body.fen,
            time_control: body.time_control,
            rated: body.rated.unwrap_or(false),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body<T: serde::de::DeserializeOwned>(json: &str) -> T {
        serde_json::from_str(json).expect("a well-formed body")
    }

    fn message<T: std::fmt::Debug>(r: Result<T, SiteError>) -> String {
        let e = r.expect_err("refused");
        assert_eq!(e.code, site_model::error::ErrorCode::BadRequest);
        e.message
    }

    const CLOCK: &str =
        r#""time_control": {"kind": "realtime", "initial_s": 180, "increment_s": 2}"#;

    #[test]
    fn seeks_read_typed_terms() {
        let seek = lobby::NewSeek::try_from(body::<NewSeek>(&format!(
            r#"{{"variant": "iceage", {CLOCK}, "color": "black"}}"#
        )))
        .expect("a good seek");
        assert_eq!(seek.variant, GameKind::IceAge);
        assert_eq!(seek.color, SeekColor::Black);
        assert!(!seek.rated);
        let quick = lobby::QuickSeek::try_from(body::<QuickSeek>(&format!(
            r#"{{"variant": "antarctos", {CLOCK}, "rated": true}}"#
        )))
        .expect("a good quick seek");
        assert_eq!(quick.variant, GameKind::Antarctos);
        assert!(quick.rated);
        let seek = lobby::NewSeek::try_from(body::<NewSeek>(&format!(
            r#"{{"variant": "antarctos", {CLOCK}}}"#
        )))
        .expect("no side");
        assert_eq!(seek.color, SeekColor::Random);
    }

    #[test]
    fn lobby_errors_name_the_field() {
        let bad = |json: String| message(lobby::NewSeek::try_from(body::<NewSeek>(&json)));
        assert_eq!(
            bad(format!(r#"{{"variant": "chess", {CLOCK}}}"#)),
            "variant: unknown game 'chess' (antarctos or iceage)"
        );
        assert_eq!(
            bad(format!(
                r#"{{"variant": "iceage", {CLOCK}, "color": "purple"}}"#
            )),
            "color: unknown side 'purple' (white, black or random)"
        );
        let e = bad(
            r#"{"variant": "iceage", "time_control": {"kind": "realtime", "initial_s": 0, "increment_s": 0}}"#
                .to_string(),
        );
        assert!(e.starts_with("time_control: "), "{e}");
        let e = message(lobby::NewChallenge::try_from(body::<NewChallenge>(
            &format!(r#"{{"username": "bob", "variant": "go", {CLOCK}}}"#),
        )));
        assert_eq!(e, "variant: unknown game 'go' (antarctos or iceage)");
        let e = message(lobby::NewChallenge::try_from(body::<NewChallenge>(
            &format!(r#"{{"username": "bob", "variant": "antarctos", {CLOCK}, "color": "White"}}"#),
        )));
        assert_eq!(e, "color: unknown side 'White' (white, black or random)");
        let e = message(lobby::QuickSeek::try_from(body::<QuickSeek>(&format!(
            r#"{{"variant": "", {CLOCK}}}"#
        ))));
        assert_eq!(e, "variant: unknown game '' (antarctos or iceage)");
    }

    #[test]
    fn games_read_typed_input_and_refuse_unknown_text() {
        let game = play::NewGame::try_from(body::<NewGame>(
            r#"{"variant": "antarctos", "opponent": "engine", "level": 3, "color": "white"}"#,
        ))
        .expect("a good game");
        assert_eq!(game.variant, GameKind::Antarctos);
        assert_eq!(game.opponent, Opponent::Engine);
        assert_eq!(game.color, SeekColor::White);
        assert_eq!(game.level, Some(3));
        assert!(!game.rated);
        let bad = |json: &str| message(play::NewGame::try_from(body::<NewGame>(json)));
        assert_eq!(
            bad(r#"{"variant": "checkers", "opponent": "local"}"#),
            "unknown variant 'checkers' (antarctos or iceage)"
        );
        assert_eq!(
            bad(r#"{"variant": "iceage", "opponent": "local", "color": "red"}"#),
            "unknown color 'red' (white, black or random)"
        );
        assert_eq!(
            bad(r#"{"variant": "iceage", "opponent": "robot"}"#),
            "unknown opponent 'robot' (engine, friend or local)"
        );
    }

    #[test]
    fn malformed_bodies_keep_their_serde_names() {
        let e = serde_json::from_str::<NewSeek>("[]").expect_err("not an object");
        assert!(e.to_string().contains("struct NewSeek"), "{e}");
        let e = serde_json::from_str::<NewGame>("7").expect_err("not an object");
        assert!(e.to_string().contains("struct NewGame"), "{e}");
        let e = serde_json::from_str::<NewChallenge>(r#"{"nope": 1}"#).expect_err("unknown");
        assert!(e.to_string().contains("unknown field `nope`"), "{e}");
        let e = serde_json::from_str::<QuickSeek>(r#""x""#).expect_err("not an object");
        assert!(e.to_string().contains("struct QuickSeek"), "{e}");
    }
}
