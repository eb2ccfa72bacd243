//! Quoting user input inside error messages without repeating all of it.

/// Most characters of user input an error message repeats (see [`excerpt`]).
pub const EXCERPT_CHARS: usize = 40;

/// `text` as an error message quotes it: whole when it has at most [`EXCERPT_CHARS`]
/// characters, else its first 32 characters, `…` and its length (`"W:Wa1,a1,a1,a1…
/// (600000 characters)"`), so that a huge position or move text gives a short error.
pub fn excerpt(text: &str) -> String {
    let count = text.chars().count();
    if count <= EXCERPT_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(32).collect();
    format!("{head}… ({count} characters)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_whole_long_text_is_cut_on_a_char_boundary() {
        assert_eq!(excerpt("c3-d4"), "c3-d4");
        let long = "é".repeat(100);
        assert_eq!(
            excerpt(&long),
            format!("{}… (100 characters)", "é".repeat(32))
        );
    }
}
