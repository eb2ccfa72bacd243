//! Chat's plain values and rules (issue 41): the rooms, the canned phrases, and what free
//! text may hold. The service (site::chat) applies them; the web shows text as text nodes.

game::text_enum! {
    /// A game's chat room (`"room"` of a game socket's chat message).
    pub enum GameRoom ("chat room") {
        /// The two players alone.
        Players = "players",
        /// Anyone watching (the players may read and write it too).
        Watchers = "watchers",
    }
}

game::text_enum! {
    /// A canned phrase, sent as its code and shown in each reader's language. Any player
    /// may send one, anonymous players and new accounts too.
    pub enum Phrase ("chat phrase") {
        /// "Good luck".
        GoodLuck = "good_luck",
        /// "Have fun".
        HaveFun = "have_fun",
        /// "Well played".
        WellPlayed = "well_played",
        /// "Thanks".
        Thanks = "thanks",
        /// "Good game".
        GoodGame = "good_game",
    }
}

/// Most characters (Unicode scalar values) of a chat message's text (lichess: 140).
pub const MAX_CHAT_TEXT: usize = 140;
/// Messages one author may send in [`CHAT_RATE_WINDOW_MS`], all rooms together.
pub const CHAT_RATE_COUNT: usize = 5;
/// The window of [`CHAT_RATE_COUNT`], ms.
pub const CHAT_RATE_WINDOW_MS: i64 = 10_000;
/// Free text needs an account at least this old, ms (10 minutes).
pub const CHAT_MIN_ACCOUNT_AGE_MS: i64 = 10 * 60 * 1000;
/// Messages a room's history returns, newest last.
pub const CHAT_HISTORY: i64 = 100;

/// Whether `c` is refused in chat text: control characters (NUL, newlines and the other C0 and
/// C1 codes) and the bidirectional embeddings, overrides and isolates, which turn the text
/// around it (CVE-2021-42574, "Trojan Source"), and the byte order mark.
pub fn refused_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{FEFF}'
        )
}

/// Why chat text was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextFault {
    /// Nothing but spaces.
    Empty,
    /// More than [`MAX_CHAT_TEXT`] characters (how many).
    TooLong(usize),
    /// A refused character ([`refused_char`]), as `U+XXXX`.
    Character(String),
}

impl TextFault {
    /// The fault in words.
    pub fn message(&self) -> String {
        match self {
            TextFault::Empty => "text: the message is empty".to_string(),
            TextFault::TooLong(n) => {
                format!("text: {n} characters, a message holds at most {MAX_CHAT_TEXT}")
            }
            TextFault::Character(c) => format!(
                "text: the character {c} (a control or text-direction character) is not allowed"
            ),
        }
    }
}

/// The text to store of `text`: trimmed, at most [`MAX_CHAT_TEXT`] characters, with no refused
/// character.
pub fn clean_text(text: &str) -> Result<String, TextFault> {
    if let Some(c) = text.chars().find(|c| refused_char(*c)) {
        return Err(TextFault::Character(format!("U+{:04X}", c as u32)));
    }
    let text = text.trim();
    if text.is_empty() {
        return Err(TextFault::Empty);
    }
    let n = text.chars().count();
    if n > MAX_CHAT_TEXT {
        return Err(TextFault::TooLong(n));
    }
    Ok(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_trimmed_limited_and_free_of_controls() {
        assert_eq!(clean_text("  hi  "), Ok("hi".to_string()));
        assert_eq!(clean_text("   "), Err(TextFault::Empty));
        assert_eq!(clean_text(&"é".repeat(141)), Err(TextFault::TooLong(141)));
        assert!(clean_text(&"é".repeat(140)).is_ok());
        assert_eq!(
            clean_text("a\u{0}b"),
            Err(TextFault::Character("U+0000".into()))
        );
        assert_eq!(
            clean_text("abc\u{202E}gpj.exe"),
            Err(TextFault::Character("U+202E".into()))
        );
        assert!(clean_text("line\nbreak").is_err());
        assert!(clean_text("<b>https://x.example</b> ok").is_ok());
    }
}
