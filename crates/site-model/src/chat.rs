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
            '\u{2028}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{FEFF}'
        )
}

/// Most combining marks one character may carry (Vietnamese needs two, some scripts three).
pub const MAX_MARKS_ON_ONE: usize = 4;

/// Whether `c` draws nothing: white space, and Unicode's Default_Ignorable_Code_Point
/// (DerivedCoreProperties.txt: soft hyphen, zero-width characters, word joiners, variation
/// selectors, tags, ...) with the blank letters that are not (Hangul fillers, the braille
/// blank).
pub fn invisible_char(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c as u32,
            0x00AD
                | 0x034F
                | 0x061C
                | 0x115F..=0x1160
                | 0x17B4..=0x17B5
                | 0x180B..=0x180F
                | 0x200B..=0x200F
                | 0x202A..=0x202E
                | 0x2060..=0x206F
                | 0x2800
                | 0x3164
                | 0xFE00..=0xFE0F
                | 0xFEFF
                | 0xFFA0
                | 0xFFF0..=0xFFF8
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0000..=0xE0FFF
        )
}

/// The first fault of `text`'s drawing: nothing visible, a character with too many marks, or
/// a tag character that is not part of an emoji flag (U+1F3F4 followed by tags, as the flags
/// of England, Scotland and Wales are written).
pub fn drawing_fault(text: &str) -> Option<TextFault> {
    let mut marks = 0;
    let mut in_flag = false;
    for (i, c) in text.chars().enumerate() {
        let tag = ('\u{E0000}'..='\u{E007F}').contains(&c);
        if tag && !in_flag {
            return Some(TextFault::HiddenTag(format!("U+{:04X}", c as u32)));
        }
        in_flag = c == '\u{1F3F4}' || (tag && c != '\u{E007F}');
        if unicode_normalization::char::is_combining_mark(c) {
            marks += 1;
            if marks > MAX_MARKS_ON_ONE {
                return Some(TextFault::Stacked(i));
            }
        } else {
            marks = 0;
        }
    }
    let visible = text
        .chars()
        .any(|c| !invisible_char(c) && !unicode_normalization::char::is_combining_mark(c));
    (!visible).then_some(TextFault::Invisible)
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
    /// Nothing a reader can see: only spaces, invisible characters ([`invisible_char`]) and
    /// marks.
    Invisible,
    /// More than [`MAX_MARKS_ON_ONE`] combining marks on one character ("Zalgo" text, drawn
    /// over the lines around it), at the character index given.
    Stacked(usize),
    /// A Unicode tag character (U+E0000..U+E007F) outside an emoji flag's sequence: text that
    /// is stored and sent but never drawn.
    HiddenTag(String),
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
            TextFault::Invisible => {
                "text: the message shows nothing (only spaces or invisible characters)".to_string()
            }
            TextFault::Stacked(at) => format!(
                "text: more than {MAX_MARKS_ON_ONE} combining marks on the character at {at}"
            ),
            TextFault::HiddenTag(c) => {
                format!("text: the tag character {c} is not allowed outside an emoji flag")
            }
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
    if let Some(fault) = drawing_fault(text) {
        return Err(fault);
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

    #[test]
    fn text_must_show_something_without_stacked_marks_or_hidden_tags() {
        // The clients' tester's messages (2026-12-06): all stored and sent before.
        for blank in [
            "\u{200B}\u{200B}",
            "\u{00AD}",
            "\u{2060}",
            "\u{3164}",
            "\u{2800}",
            "\u{FE0F}",
        ] {
            assert_eq!(clean_text(blank), Err(TextFault::Invisible), "{blank:?}");
        }
        let zalgo = format!("a{}", "\u{0301}".repeat(139));
        assert_eq!(clean_text(&zalgo), Err(TextFault::Stacked(5)));
        assert_eq!(
            clean_text("hi\u{E0068}\u{E0069}"),
            Err(TextFault::HiddenTag("U+E0068".into()))
        );
        // Real text keeps its marks, joiners and flags.
        assert!(clean_text("Việt Nam, phở").is_ok());
        assert!(clean_text("e\u{0301}\u{0323} ok").is_ok());
        assert!(clean_text("👩\u{200D}💻 gg").is_ok());
        assert!(clean_text("🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} gg").is_ok());
        assert!(clean_text("ok 👍\u{FE0F}").is_ok());
    }
}
