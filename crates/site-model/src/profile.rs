//! What a player writes on their own profile (issue 41, "Also"): a short bio and a country.
//! `PUT /api/me/profile` checks both here; the profile shows the bio as text (never HTML) and
//! the country as its name in the page's language.

/// Longest bio, in characters.
pub const MAX_BIO: usize = 400;

/// ISO 3166-1 alpha-2 codes (Debian's iso-codes, 249 codes), sorted.
pub const COUNTRIES: &[&str] = &[
    "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ",
    "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS",
    "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN",
    "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM", "DO", "DZ", "EC", "EE",
    "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE", "GF",
    "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT", "GU", "GW", "GY", "HK", "HM",
    "HN", "HR", "HT", "HU", "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", "JE", "JM",
    "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC",
    "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK",
    "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA",
    "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG",
    "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW",
    "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS",
    "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO",
    "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI",
    "VN", "VU", "WF", "WS", "YE", "YT", "ZA", "ZM", "ZW",
];

/// Whether `c` is refused in a bio: control characters but the newline, and the direction
/// embeddings, overrides, isolates and marks (which reorder the text around them), and the
/// byte order mark.
pub fn refused_bio_char(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(
            c,
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{FEFF}'
        )
}

/// A bio as stored: trimmed, at most [`MAX_BIO`] characters, at most 8 lines, none of
/// [`refused_bio_char`], drawn as chat text must be ([`crate::chat::drawing_fault`]); empty
/// means none. The error is the 400's message, naming `bio`.
pub fn clean_bio(text: &str) -> Result<String, String> {
    let text = text.trim();
    if let Some(c) = text.chars().find(|&c| refused_bio_char(c)) {
        return Err(format!(
            "bio: the character U+{:04X} is not allowed (control or direction characters)",
            c as u32
        ));
    }
    let n = text.chars().count();
    if n > MAX_BIO {
        return Err(format!("bio: {n} characters, at most {MAX_BIO}"));
    }
    if text.lines().count() > 8 {
        return Err("bio: at most 8 lines".into());
    }
    // Chat's drawing rules (issue 41, third hostile round: a letter with 360 marks drew over
    // the profile's heading): something visible, at most 4 marks on a character, no hidden tags.
    if !text.is_empty()
        && let Some(fault) = crate::chat::drawing_fault(text)
    {
        return Err(fault.message().replacen("text:", "bio:", 1));
    }
    Ok(text.to_string())
}

/// A country code as stored (upper case), or the 400's message naming `country`. The empty
/// text means none.
pub fn parse_country(code: &str) -> Result<Option<String>, String> {
    if code.is_empty() {
        return Ok(None);
    }
    let upper = code.to_ascii_uppercase();
    if code.len() == 2 && COUNTRIES.binary_search(&upper.as_str()).is_ok() {
        Ok(Some(upper))
    } else {
        Err(format!(
            "country: '{}' is not an ISO 3166-1 alpha-2 code (such as FR, TR, US)",
            game::excerpt(code)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn countries_are_sorted_codes() {
        assert!(COUNTRIES.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(parse_country("tr"), Ok(Some("TR".into())));
        assert!(parse_country("XX").unwrap_err().starts_with("country:"));
        assert!(parse_country("FRA").is_err());
        assert_eq!(parse_country(""), Ok(None));
    }

    #[test]
    fn bios_refuse_controls_and_overrides_and_length() {
        assert_eq!(clean_bio("  I like ice \n"), Ok("I like ice".into()));
        assert!(clean_bio("a\u{202E}b").unwrap_err().contains("U+202E"));
        assert!(clean_bio("a\u{0}b").is_err());
        assert!(clean_bio(&"x".repeat(401)).unwrap_err().contains("401"));
        assert!(clean_bio(&"x".repeat(400)).is_ok());
        // The third hostile round's bios: stacked marks, nothing visible, a hidden tag.
        let zalgo = format!("a{}", "\u{0300}".repeat(300));
        assert!(
            clean_bio(&zalgo)
                .unwrap_err()
                .starts_with("bio: more than 4")
        );
        assert!(
            clean_bio("\u{200B}\u{3164}")
                .unwrap_err()
                .contains("shows nothing")
        );
        assert!(
            clean_bio("x\u{E0041}")
                .unwrap_err()
                .contains("tag character")
        );
        assert_eq!(
            clean_bio("Привет, Tiếng Việt"),
            Ok("Привет, Tiếng Việt".into())
        );
        assert_eq!(clean_bio(""), Ok(String::new()));
    }
}
