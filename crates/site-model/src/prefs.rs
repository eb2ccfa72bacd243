//! A player's display preferences (issue 41, "Also"): board and piece themes per game, dark or
//! light, sound volume and set, move confirmation in correspondence games, zen mode. Stored per
//! account as a JSON object (`accounts.prefs`), read and written by `GET`/`PUT /api/me/prefs`;
//! an anonymous browser keeps the same object in its localStorage (web/src/prefs.ts).
//!
//! A `PUT` body is a partial object: [`PrefsPatch::parse`] refuses an unknown field or a bad
//! value with a message naming the field; [`Prefs::apply`] merges it over the stored values.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Antarctos boards: `frost` (the site's own), `abyss`, `wood`.
pub const ANTARCTOS_BOARDS: &[&str] = &["frost", "abyss", "wood"];
/// Antarctos men: `bone` (the site's own) or `flat`.
pub const ANTARCTOS_PIECES: &[&str] = &["bone", "flat"];
/// Ice Age Chess boards: `glacier` (the site's own), `brown`, `green`.
pub const ICEAGE_BOARDS: &[&str] = &["glacier", "brown", "green"];
/// Ice Age Chess pieces: `cburnett` (the site's own) or `frost` (the same, tinted).
pub const ICEAGE_PIECES: &[&str] = &["cburnett", "frost"];
/// Colour modes: `system` (the device's), `light`, `dark`.
pub const MODES: &[&str] = &["system", "light", "dark"];
/// Sound sets: `standard` (every sound), `quiet` (moves, captures and game ends only).
pub const SOUND_SETS: &[&str] = &["standard", "quiet"];
/// Highest volume (percent).
pub const MAX_VOLUME: i64 = 100;

/// Every preference, with its default when unset. Serialized as sent by `GET /api/me/prefs`:
/// `{"mode": "system", "antarctos_board": "frost", "antarctos_pieces": "bone",
/// "iceage_board": "glacier", "iceage_pieces": "cburnett", "volume": 70, "sound_set":
/// "standard", "confirm_move": false, "zen": false}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    /// `system`, `light` or `dark` ([`MODES`]).
    pub mode: String,
    /// One of [`ANTARCTOS_BOARDS`].
    pub antarctos_board: String,
    /// One of [`ANTARCTOS_PIECES`].
    pub antarctos_pieces: String,
    /// One of [`ICEAGE_BOARDS`].
    pub iceage_board: String,
    /// One of [`ICEAGE_PIECES`].
    pub iceage_pieces: String,
    /// Sound volume, percent (0 to [`MAX_VOLUME`]; 0 is silent).
    pub volume: i64,
    /// One of [`SOUND_SETS`].
    pub sound_set: String,
    /// In correspondence games a move waits for a confirm button before it is sent.
    pub confirm_move: bool,
    /// Zen mode: the game page hides chat, ratings, names and side panels.
    pub zen: bool,
}

impl Default for Prefs {
    fn default() -> Prefs {
        Prefs {
            mode: "system".into(),
            antarctos_board: "frost".into(),
            antarctos_pieces: "bone".into(),
            iceage_board: "glacier".into(),
            iceage_pieces: "cburnett".into(),
            volume: 70,
            sound_set: "standard".into(),
            confirm_move: false,
            zen: false,
        }
    }
}

/// One checked change of a [`PrefsPatch`].
#[derive(Debug, Clone, PartialEq, Eq)]
enum Change {
    Text(&'static str, String),
    Volume(i64),
    Flag(&'static str, bool),
}

/// A checked partial change of [`Prefs`] (the body of `PUT /api/me/prefs`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrefsPatch {
    changes: Vec<Change>,
}

/// The fields that take one text of a list.
const CHOICES: &[(&str, &[&str])] = &[
    ("mode", MODES),
    ("antarctos_board", ANTARCTOS_BOARDS),
    ("antarctos_pieces", ANTARCTOS_PIECES),
    ("iceage_board", ICEAGE_BOARDS),
    ("iceage_pieces", ICEAGE_PIECES),
    ("sound_set", SOUND_SETS),
];
/// The fields that take true or false.
const FLAGS: &[&str] = &["confirm_move", "zen"];

impl PrefsPatch {
    /// Checks a JSON object's fields. Errors (as the 400's message) name the field: an unknown
    /// field, a text not in its list, a volume that is not a whole number from 0 to 100, a
    /// flag that is not true or false.
    pub fn parse(body: &Map<String, Value>) -> Result<PrefsPatch, String> {
        let mut changes = Vec::with_capacity(body.len());
        for (key, value) in body {
            if let Some(&(name, allowed)) = CHOICES.iter().find(|c| c.0 == key.as_str()) {
                match value.as_str() {
                    Some(v) if allowed.contains(&v) => changes.push(Change::Text(name, v.into())),
                    _ => {
                        return Err(format!(
                            "{name}: {} is not one of {}",
                            shown(value),
                            allowed.join(", ")
                        ));
                    }
                }
            } else if let Some(name) = FLAGS.iter().copied().find(|n| *n == key.as_str()) {
                match value.as_bool() {
                    Some(b) => changes.push(Change::Flag(name, b)),
                    None => return Err(format!("{name}: {} is not true or false", shown(value))),
                }
            } else if key == "volume" {
                match value.as_i64() {
                    Some(v) if (0..=MAX_VOLUME).contains(&v) => changes.push(Change::Volume(v)),
                    _ => {
                        return Err(format!(
                            "volume: {} is not a whole number from 0 to {MAX_VOLUME}",
                            shown(value)
                        ));
                    }
                }
            } else {
                return Err(format!(
                    "unknown field '{}' (known: mode, antarctos_board, antarctos_pieces, \
                     iceage_board, iceage_pieces, volume, sound_set, confirm_move, zen)",
                    game::excerpt(key)
                ));
            }
        }
        Ok(PrefsPatch { changes })
    }
}

/// A JSON value as shown in an error, cut short.
fn shown(value: &Value) -> String {
    game::excerpt(&value.to_string())
}

impl Prefs {
    /// Reads stored prefs: a field missing or no longer valid takes its default (a value a
    /// later version dropped does not lose the others).
    pub fn from_stored(text: Option<&str>) -> Prefs {
        let Some(Ok(Value::Object(map))) = text.map(serde_json::from_str::<Value>) else {
            return Prefs::default();
        };
        let mut prefs = Prefs::default();
        for (key, value) in map {
            let one = Map::from_iter([(key, value)]);
            if let Ok(patch) = PrefsPatch::parse(&one) {
                prefs.apply(&patch);
            }
        }
        prefs
    }

    /// `self` with `patch`'s fields changed.
    pub fn apply(&mut self, patch: &PrefsPatch) {
        for change in &patch.changes {
            match change {
                Change::Volume(v) => self.volume = *v,
                Change::Flag("zen", b) => self.zen = *b,
                Change::Flag(_, b) => self.confirm_move = *b,
                Change::Text(name, v) => {
                    let field = match *name {
                        "mode" => &mut self.mode,
                        "antarctos_board" => &mut self.antarctos_board,
                        "antarctos_pieces" => &mut self.antarctos_pieces,
                        "iceage_board" => &mut self.iceage_board,
                        "iceage_pieces" => &mut self.iceage_pieces,
                        _ => &mut self.sound_set,
                    };
                    *field = v.clone();
                }
            }
        }
    }

    /// The JSON text stored for the account.
    pub fn to_stored(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn patch(v: Value) -> Result<PrefsPatch, String> {
        match v {
            Value::Object(m) => PrefsPatch::parse(&m),
            _ => unreachable!(),
        }
    }

    #[test]
    fn a_partial_patch_changes_only_its_fields() {
        let mut p = Prefs::default();
        p.apply(&patch(json!({"zen": true, "antarctos_board": "abyss", "volume": 0})).unwrap());
        assert!(p.zen);
        assert_eq!(p.antarctos_board, "abyss");
        assert_eq!(p.volume, 0);
        assert_eq!(p.iceage_board, "glacier");
        assert_eq!(Prefs::from_stored(Some(&p.to_stored())), p);
    }

    #[test]
    fn bad_fields_and_values_are_named() {
        assert!(
            patch(json!({"colour": "red"}))
                .unwrap_err()
                .contains("'colour'")
        );
        assert!(
            patch(json!({"mode": "sepia"}))
                .unwrap_err()
                .starts_with("mode:")
        );
        assert!(
            patch(json!({"volume": 101}))
                .unwrap_err()
                .starts_with("volume:")
        );
        assert!(
            patch(json!({"volume": 5.5}))
                .unwrap_err()
                .starts_with("volume:")
        );
        assert!(
            patch(json!({"zen": "yes"}))
                .unwrap_err()
                .starts_with("zen:")
        );
    }

    #[test]
    fn stored_values_no_longer_valid_take_their_defaults() {
        let p = Prefs::from_stored(Some(r#"{"mode":"dark","iceage_board":"gone","x":1}"#));
        assert_eq!(p.mode, "dark");
        assert_eq!(p.iceage_board, "glacier");
        assert_eq!(Prefs::from_stored(Some("not json")), Prefs::default());
    }
}
