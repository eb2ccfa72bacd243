//! Bytes of a record file to text. UTF-8 (with or without a BOM) and UTF-16 with a BOM are
//! read as they are; anything else is a legacy encoding, guessed by `chardetng` (the
//! detector Firefox uses) and decoded by `encoding_rs`, with a warning naming it, so that
//! `Müller` saved as Windows-1252 or Cyrillic names saved as Windows-1251 keep their
//! letters instead of turning into `�`.

use encoding_rs::{Encoding, UTF_8};

/// Decoded text and what the decoder had to assume.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The text (a BOM removed).
    pub text: String,
    /// The encoding read, as the WHATWG Encoding Standard names it (`UTF-8`,
    /// `windows-1252`, `windows-1251`, `UTF-16LE` ...).
    pub encoding: &'static str,
    /// Set when the encoding was guessed, or bytes could not be decoded: what to tell the
    /// user.
    pub warning: Option<String>,
}

/// Decodes a record file's bytes (see the module documentation).
///
/// ```
/// // "Müller" saved as Windows-1252: 'ü' is the single byte 0xFC.
/// let d = game::records::decode(b"[White \"M\xfcller\"]\n");
/// assert_eq!(d.text, "[White \"Müller\"]\n");
/// assert_eq!(d.encoding, "windows-1252");
/// assert!(d.warning.unwrap().contains("windows-1252"));
/// ```
pub fn decode(bytes: &[u8]) -> Decoded {
    if let Some((encoding, bom)) = Encoding::for_bom(bytes) {
        let (text, had_errors) = encoding.decode_without_bom_handling(&bytes[bom..]);
        return Decoded {
            text: text.into_owned(),
            encoding: encoding.name(),
            warning: had_errors.then(|| {
                format!(
                    "the file is marked {} but has bytes that are not: they read as '\u{fffd}'",
                    encoding.name()
                )
            }),
        };
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Decoded {
            text: text.to_string(),
            encoding: UTF_8.name(),
            warning: None,
        };
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let encoding = detector.guess(None, chardetng::Utf8Detection::Deny);
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    let mut warning = format!(
        "the file is not UTF-8: read as {} (guessed from its bytes); check the names, and save it as UTF-8 to be sure",
        encoding.name()
    );
    if had_errors {
        warning.push_str(": some bytes fit no encoding and read as '\u{fffd}'");
    }
    Decoded {
        text: text.into_owned(),
        encoding: encoding.name(),
        warning: Some(warning),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_and_boms_read_without_a_warning() {
        let d = decode("[White \"Иванов\"]".as_bytes());
        assert_eq!((d.encoding, d.warning), ("UTF-8", None));
        let d = decode(b"\xef\xbb\xbf1. e4");
        assert_eq!(d.text, "1. e4");
        let d = decode(b"\xff\xfe1\x00.\x00");
        assert_eq!((d.text.as_str(), d.encoding), ("1.", "UTF-16LE"));
    }

    #[test]
    fn cyrillic_windows_1251_is_guessed() {
        // "Блиндер Б." and "Миротин Б." in Windows-1251.
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(
            "[White \"Блиндер Б.\"]\n[Black \"Миротин Б.\"]\n[Event \"X чемпионат СССР\"]\n",
        );
        let d = decode(&bytes);
        assert_eq!(d.encoding, "windows-1251");
        assert!(
            d.text.contains("Блиндер Б.") && d.text.contains("чемпионат"),
            "{}",
            d.text
        );
        assert!(d.warning.is_some());
    }
}
