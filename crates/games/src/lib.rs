//! The registry of icebound's games: [`GameKind`] names one of them (`antarctos` or `iceage`,
//! each game's `Variant::NAME`), and [`with_game!`] runs generic code with the game's
//! `Variant` type. The site, the command line and the lab all name games through it, so that
//! a third game is added here and in its rules crate, and nowhere else by hand.

use std::fmt;
use std::str::FromStr;

pub use antarctos::Antarctos;
use game::Variant;
pub use iceage::IceAge;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One of the games, by name: `antarctos` or `iceage` (`Variant::NAME`). JSON, the database
/// and `--variant` hold it as that text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum GameKind {
    // No rustdoc links in these two: clap shows them as `--variant`'s help.
    /// Antarctos: Russian checkers in which a captured man turns into ice.
    #[cfg_attr(feature = "clap", value(name = "antarctos"))]
    Antarctos,
    /// Ice Age Chess: chess on a board full of capturable ice cubes.
    #[cfg_attr(feature = "clap", value(name = "iceage"))]
    IceAge,
}

/// A text that names no game; its message quotes the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}'")]
pub struct UnknownGame(pub String);

impl GameKind {
    /// Every game, in a fixed order.
    pub const ALL: [GameKind; 2] = [GameKind::Antarctos, GameKind::IceAge];

    /// `Variant::NAME`: `antarctos` or `iceage`.
    pub fn as_str(self) -> &'static str {
        with_game!(self, G => G::NAME)
    }

    /// `Variant::TITLE`: `Antarctos` or `Ice Age Chess`.
    pub fn title(self) -> &'static str {
        with_game!(self, G => G::TITLE)
    }

    /// The game named `text` exactly (no case folding); `None` for any other text.
    pub fn parse(text: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|g| g.as_str() == text)
    }
}

impl FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(text: &str) -> Result<GameKind, UnknownGame> {
        GameKind::parse(text).ok_or_else(|| UnknownGame(text.to_string()))
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for GameKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for GameKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Runs generic code with the `Variant` type a [`GameKind`] names:
/// `with_game!(kind, G => run::<G>(args))`. The body is compiled once per game; this is the
/// one place that matches on the kind to pick a type.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $g:ident => $body:expr) => {
        match $kind {
            $crate::GameKind::Antarctos => {
                type $g = $crate::Antarctos;
                $body
            }
            $crate::GameKind::IceAge => {
                type $g = $crate::IceAge;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_text_and_json() {
        for kind in GameKind::ALL {
            assert_eq!(kind.as_str().parse::<GameKind>(), Ok(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
            assert_eq!(serde_json::from_str::<GameKind>(&json).unwrap(), kind);
        }
        assert_eq!(GameKind::Antarctos.as_str(), "antarctos");
        assert_eq!(GameKind::IceAge.as_str(), "iceage");
        assert_eq!(GameKind::IceAge.title(), "Ice Age Chess");
    }

    #[test]
    fn other_texts_are_refused_with_the_text_quoted() {
        for text in ["", "Antarctos", "ice-age", "chess"] {
            let err = text.parse::<GameKind>().unwrap_err();
            assert!(err.to_string().contains(&format!("'{text}'")), "{err}");
        }
        let err = serde_json::from_str::<GameKind>("\"checkers\"").unwrap_err();
        assert!(
            err.to_string().contains("unknown variant 'checkers'"),
            "{err}"
        );
    }
}
