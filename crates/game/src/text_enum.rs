//! [`text_enum!`](crate::text_enum): the one macro for the workspace's small enums that have a
//! canonical text. JSON, the database and the CLI spell them the same way, and text that is
//! none of them is refused, never guessed. The game crate's own [`Color`], [`EndReason`] and
//! [`RecordResult`] get their serde from it here; the site crates (`site_model::state`,
//! `site_store`, `site`) define theirs with it.

use crate::{Color, EndReason, RecordResult};

/// Defines an enum with one canonical text per value, or gives an existing one serde.
///
/// `text_enum! { pub enum Name ("what") { Variant = "text", ... } }` defines the enum
/// (`Debug, Clone, Copy, PartialEq, Eq, Hash`) with `ALL` (declaration order), `as_str`,
/// `parse` (its exact inverse: `None` for other text), `Display` and serde as that text.
///
/// `text_enum!(impl Type, text_method, "what")` gives an enum that already has
/// `text_method(self) -> &'static str` and `parse(&str) -> Option<Self>` the same serde.
///
/// Either way, deserializing other text fails with `unknown {what} '{text}'`.
#[macro_export]
macro_rules! text_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident ($what:literal) {
            $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The value's text, as stored and sent.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// The value named `text` exactly; `None` for any other text.
            pub fn parse(text: &str) -> ::std::option::Option<$name> {
                match text {
                    $($text => ::std::option::Option::Some($name::$variant),)+
                    _ => ::std::option::Option::None,
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        $crate::text_enum!(impl $name, as_str, $what);
    };
    (impl $ty:ty, $text:ident, $what:literal) => {
        impl $crate::__serde::Serialize for $ty {
            fn serialize<S: $crate::__serde::Serializer>(
                &self,
                s: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.$text())
            }
        }

        impl<'de> $crate::__serde::Deserialize<'de> for $ty {
            fn deserialize<D: $crate::__serde::Deserializer<'de>>(
                d: D,
            ) -> ::std::result::Result<Self, D::Error> {
                let text = <::std::string::String as $crate::__serde::Deserialize>::deserialize(d)?;
                <$ty>::parse(&text).ok_or_else(|| {
                    <D::Error as $crate::__serde::de::Error>::custom(::std::format!(
                        "unknown {} '{}'",
                        $what,
                        text
                    ))
                })
            }
        }
    };
}

crate::text_enum!(impl Color, name, "colour");
crate::text_enum!(impl EndReason, as_str, "end reason");
crate::text_enum!(impl RecordResult, as_str, "result");

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};

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
