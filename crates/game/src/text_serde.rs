//! Serde for the small enums that have a canonical text (`name`/`as_str` and `parse`): [`Color`],
//! [`EndReason`], [`RecordResult`]. They serialize as that text, so JSON, the database and the
//! CLI spell them the same way, and text that is none of them is refused, never guessed.

use serde::de::{Deserialize, Deserializer, Error};
use serde::ser::{Serialize, Serializer};

use crate::{Color, EndReason, RecordResult};

macro_rules! serde_as_text {
    ($ty:ty, $text:ident, $what:literal) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.$text())
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = String::deserialize(d)?;
                <$ty>::parse(&text)
                    .ok_or_else(|| D::Error::custom(format!("unknown {} '{}'", $what, text)))
            }
        }
    };
}

serde_as_text!(Color, name, "colour");
serde_as_text!(EndReason, as_str, "end reason");
serde_as_text!(RecordResult, as_str, "result");

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug>(
        value: T,
        text: &str,
    ) {
        let json = serde_json::to_string(&value).expect("serializes");
        assert_eq!(json, format!("\"{text}\""));
        assert_eq!(serde_json::from_str::<T>(&json).expect("reads back"), value);
    }

    #[test]
    fn enums_serialize_as_their_text() {
        for c in Color::ALL {
            round_trip(c, c.name());
        }
        for r in EndReason::ALL {
            round_trip(r, r.as_str());
        }
        round_trip(RecordResult::Draw, "1/2-1/2");
        round_trip(RecordResult::Unknown, "*");
    }

    #[test]
    fn unknown_text_is_an_error_not_a_default() {
        let e = serde_json::from_str::<Color>("\"purple\"").expect_err("not a colour");
        assert!(e.to_string().contains("unknown colour 'purple'"), "{e}");
        assert!(serde_json::from_str::<EndReason>("\"boredom\"").is_err());
        assert!(serde_json::from_str::<RecordResult>("\"3-0\"").is_err());
    }
}
