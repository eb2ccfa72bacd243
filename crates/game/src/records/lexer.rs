//! The tokenizer of the syntax PGN (chess) and PDN (draughts) share: tag pairs, move
//! numbers, move words, NAGs and `!?` glyphs, comments, variations and result markers, each
//! with its line. What a move word means is left to the game ([`super::RecordRules`]).
//!
//! - Every Unicode space (no-break and zero-width spaces, a BOM) is a space.
//! - A tag value ends at the first `"` that is followed by `]`: a quote inside the value
//!   that is not escaped (`[Event "5th "Ice" Open"]`) is part of it, as common readers
//!   take it (with a warning).
//! - Move numbers in every form: `12.`, `12...`, `12. ...`, `12…`, `12` alone, glued to
//!   the move (`12.Nf3`).
//! - `%` at the start of a line escapes the line; `;` comments run to the line end.
//! - The dialect decides what differs: PDN's results `2-0 0-2 1-1 0-0` and its refusal of
//!   `{` inside a comment (FMJD PDN 3.0); in PGN `0-0` is castling and `{` inside a
//!   comment is text (PGN standard, 8.2.5).

use crate::RecordResult;

/// Which of the two record formats a text is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Portable Game Notation (chess; Ice Age Chess, C14).
    Pgn,
    /// Portable Draughts Notation, FMJD PDN 3.0 (Antarctos, A19).
    Pdn,
}

/// One token of a record text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Token {
    /// `[Name "value"]`, the value unescaped.
    Tag { name: String, value: String },
    /// `12.`, `12...`, a bare `12`: not checked against the position.
    MoveNumber,
    /// A move as written, without its `!`/`?` glyph.
    Move(String),
    /// `$n`, or a glyph `!` `?` `!!` `??` `!?` `?!` (1-6).
    Nag(u8),
    /// `{...}` or `; ...`, whitespace collapsed.
    Comment(String),
    /// `(`: a variation begins.
    Open,
    /// `)`: it ends.
    Close,
    /// A game terminator.
    Result(RecordResult),
}

/// A token with its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lexed {
    pub token: Token,
    /// 1-based line where it begins.
    pub line: usize,
    /// True when a blank line lies between the previous token and this one.
    pub after_blank: bool,
}

/// Text that is no token, with its line. The lexer has moved past it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LexError {
    pub line: usize,
    pub message: String,
}

/// A space for the readers: every Unicode white space, and the zero-width space, word
/// joiner and BOM that text pasted from web pages carries.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{200B}' | '\u{2060}' | '\u{FEFF}')
}

/// The move words of `text` in `dialect`, in order, as the readers see them: tags, comments,
/// `%` lines, move numbers, NAGs, variations' brackets and results left out, and text that is
/// no token skipped. For telling which game a record is in before reading it.
pub fn move_words(text: &str, dialect: Dialect) -> Vec<String> {
    let mut lexer = Lexer::new(text, dialect);
    let mut words = Vec::new();
    while let Some(lexed) = lexer.next_token() {
        if let Ok(Lexed {
            token: Token::Move(word),
            ..
        }) = lexed
        {
            words.push(word);
        }
    }
    words
}

/// The glyph's NAG number: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6.
pub(crate) fn glyph_nag(glyph: &str) -> Option<u8> {
    Some(match glyph {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// Characters that end a move word.
fn ends_word(c: char) -> bool {
    is_space(c)
        || matches!(
            c,
            '{' | '}' | '(' | ')' | '[' | ']' | ';' | '$' | '"' | '!' | '?' | '*'
        )
}

pub(crate) struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    dialect: Dialect,
    /// No token yet on the current line.
    line_empty: bool,
    /// A blank line was passed since the last token.
    blank: bool,
    /// A glyph read right after a move word, returned next.
    pending: Option<Lexed>,
    /// What the lexer accepted with a remark: (line, message).
    pub warnings: Vec<(usize, String)>,
}

impl<'a> Lexer<'a> {
    pub fn new(text: &'a str, dialect: Dialect) -> Lexer<'a> {
        Lexer {
            text,
            pos: 0,
            line: 1,
            dialect,
            line_empty: true,
            blank: false,
            pending: None,
            warnings: Vec::new(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.text[self.pos..].chars().nth(n)
    }

    /// Moves past one character, counting lines (`\n`, `\r\n`, a lone `\r`).
    fn bump(&mut self) {
        let Some(c) = self.peek() else { return };
        self.pos += c.len_utf8();
        let newline = c == '\n' || (c == '\r' && self.peek() != Some('\n'));
        if newline {
            if self.line_empty {
                self.blank = true;
            }
            self.line += 1;
            self.line_empty = true;
        }
    }

    /// The rest of the current line (without its line end).
    fn rest_of_line(&self) -> &'a str {
        let rest = &self.text[self.pos..];
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        &rest[..end]
    }

    fn skip_bytes(&mut self, n: usize) {
        // Never crosses a line end: the caller measured within one line.
        self.pos += n;
    }

    fn lexed(&mut self, token: Token, line: usize) -> Lexed {
        self.line_empty = false;
        Lexed {
            token,
            line,
            after_blank: std::mem::take(&mut self.blank),
        }
    }

    fn error(&mut self, line: usize, message: impl Into<String>) -> LexError {
        self.line_empty = false;
        LexError {
            line,
            message: message.into(),
        }
    }

    /// The next token, `None` at the end of the text.
    pub fn next_token(&mut self) -> Option<Result<Lexed, LexError>> {
        if let Some(p) = self.pending.take() {
            return Some(Ok(p));
        }
        loop {
            let c = self.peek()?;
            let line = self.line;
            if is_space(c) {
                self.bump();
                continue;
            }
            let result = match c {
                '%' if self.line_empty => {
                    let n = self.rest_of_line().len();
                    self.skip_bytes(n);
                    self.line_empty = false;
                    continue;
                }
                '{' => self.brace_comment(line),
                ';' => {
                    self.bump();
                    let text = self.rest_of_line();
                    self.skip_bytes(text.len());
                    Ok(self.lexed(Token::Comment(collapse(text)), line))
                }
                '[' => self.tag(line),
                '(' => match self.move_strength() {
                    Some(glyph) => match self.glyph_token(&glyph, line) {
                        Some(t) => Ok(t),
                        None => continue,
                    },
                    None => {
                        self.bump();
                        Ok(self.lexed(Token::Open, line))
                    }
                },
                ')' => {
                    self.bump();
                    Ok(self.lexed(Token::Close, line))
                }
                '}' => {
                    self.bump();
                    Err(self.error(line, "'}' without a comment to close"))
                }
                '"' | ']' => {
                    self.bump();
                    Err(self.error(line, format!("unexpected '{c}' outside a tag")))
                }
                '$' => {
                    self.bump();
                    let start = self.pos;
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.bump();
                    }
                    let digits = &self.text[start..self.pos];
                    match digits.parse::<u8>() {
                        Ok(n) => Ok(self.lexed(Token::Nag(n), line)),
                        Err(_) if digits.is_empty() => {
                            Err(self.error(line, "'$' without a number (NAG)"))
                        }
                        Err(_) => {
                            self.warnings.push((
                                line,
                                format!("NAG ${digits} is out of range (0-255): left out"),
                            ));
                            self.line_empty = false;
                            continue;
                        }
                    }
                }
                '!' | '?' => {
                    let glyph = self.glyph_run();
                    match self.glyph_token(&glyph, line) {
                        Some(t) => Ok(t),
                        None => continue,
                    }
                }
                '*' => {
                    self.bump();
                    Ok(self.lexed(Token::Result(RecordResult::Unknown), line))
                }
                _ => match self.word(line) {
                    Some(t) => Ok(t),
                    None => continue,
                },
            };
            return Some(result);
        }
    }

    /// A run of `!` and `?`.
    fn glyph_run(&mut self) -> String {
        let start = self.pos;
        while matches!(self.peek(), Some('!' | '?')) {
            self.bump();
        }
        self.text[start..self.pos].to_string()
    }

    /// A glyph as a NAG token; an unknown one is left out with a warning.
    fn glyph_token(&mut self, glyph: &str, line: usize) -> Option<Lexed> {
        match glyph_nag(glyph) {
            Some(n) => Some(self.lexed(Token::Nag(n), line)),
            None => {
                self.warnings.push((
                    line,
                    format!("annotation '{glyph}' is not one of ! ? !! ?? !? ?!: left out"),
                ));
                self.line_empty = false;
                None
            }
        }
    }

    /// PDN's move strength in parentheses, `(!?)`: consumed and returned as its glyph.
    fn move_strength(&mut self) -> Option<String> {
        let rest = &self.text[self.pos + 1..];
        let len = rest.chars().take_while(|c| matches!(c, '!' | '?')).count();
        if len == 0 || !rest[len..].starts_with(')') {
            return None;
        }
        let glyph = rest[..len].to_string();
        self.skip_bytes(len + 2);
        Some(glyph)
    }

    /// `{...}`. In PDN a `{` inside is an error (FMJD PDN 3.0 has no nested comments).
    fn brace_comment(&mut self, open: usize) -> Result<Lexed, LexError> {
        self.bump();
        let start = self.pos;
        loop {
            match self.peek() {
                None => {
                    return Err(self.error(
                        open,
                        format!("the comment opened on line {open} is not closed with '}}'"),
                    ));
                }
                Some('}') => {
                    let text = collapse(&self.text[start..self.pos]);
                    self.bump();
                    return Ok(self.lexed(Token::Comment(text), open));
                }
                Some('{') if self.dialect == Dialect::Pdn => {
                    let line = self.line;
                    // Go on to the end of the inner comment; the outer `}` is then stray.
                    while self.peek().is_some_and(|c| c != '}') {
                        self.bump();
                    }
                    self.bump();
                    return Err(self.error(
                        line,
                        format!(
                            "nested comment: '{{' inside the comment opened on line {open} \
                             (PDN 3.0 comments do not nest)"
                        ),
                    ));
                }
                Some(_) => self.bump(),
            }
        }
    }

    /// `[Name "value"]`, recovering a quote inside the value and a value without quotes.
    fn tag(&mut self, line: usize) -> Result<Lexed, LexError> {
        self.bump();
        while self
            .peek()
            .is_some_and(|c| is_space(c) && c != '\n' && c != '\r')
        {
            self.bump();
        }
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.bump();
        }
        let name = self.text[start..self.pos].to_string();
        let give_up = |lexer: &mut Self, message: String| {
            let n = lexer.rest_of_line().len();
            lexer.skip_bytes(n);
            Err(lexer.error(line, message))
        };
        if name.is_empty() {
            return give_up(self, "tag without a name".into());
        }
        while self
            .peek()
            .is_some_and(|c| is_space(c) && c != '\n' && c != '\r')
        {
            self.bump();
        }
        if self.peek() != Some('"') {
            // `[Round 17]`: some draughts programs leave the quotes out. Read up to the `]`
            // on the same line, as the common readers do, and say so.
            let rest = self.rest_of_line();
            let Some(end) = rest.find(']').filter(|&end| !rest[..end].contains('[')) else {
                return give_up(
                    self,
                    format!("tag [{name}]: the value must be a \"string\""),
                );
            };
            let value = rest[..end].trim_matches(is_space).to_string();
            self.skip_bytes(end + 1);
            self.warnings.push((
                line,
                format!("tag [{name}]: the value is not in quotes: read as \"{value}\""),
            ));
            return Ok(self.lexed(Token::Tag { name, value }, line));
        }
        self.bump();
        let rest = self.rest_of_line();
        let Some(found) = tag_value(rest) else {
            return give_up(
                self,
                format!("tag [{name}]: the string is not closed (a tag ends with \"] on its line)"),
            );
        };
        self.skip_bytes(found.consumed);
        if found.inner_quotes {
            self.warnings.push((
                line,
                format!(
                    "tag [{name}]: a '\"' inside the value is read as part of it (write it as \\\")"
                ),
            ));
        }
        if found.quote_missing {
            self.warnings.push((
                line,
                format!(
                    "tag [{name}]: the closing '\"' is missing: read as \"{}\"",
                    found.value
                ),
            ));
        }
        if found.bracket_missing {
            self.warnings
                .push((line, format!("tag [{name}]: missing ']' after the value")));
        }
        Ok(self.lexed(
            Token::Tag {
                name,
                value: found.value,
            },
            line,
        ))
    }

    /// A word: a move number, a result, or a move (with its glyph, returned next).
    fn word(&mut self, line: usize) -> Option<Lexed> {
        let start = self.pos;
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let mut n = 0;
            while self.peek_at(n).is_some_and(|c| c.is_ascii_digit()) {
                n += 1;
            }
            if matches!(self.peek_at(n), Some('.' | '…')) {
                for _ in 0..n {
                    self.bump();
                }
                while matches!(self.peek(), Some('.' | '…')) {
                    self.bump();
                }
                return Some(self.lexed(Token::MoveNumber, line));
            }
        }
        while self.peek().is_some_and(|c| !ends_word(c)) {
            self.bump();
        }
        let word = &self.text[start..self.pos];
        if word.chars().all(|c| matches!(c, '.' | '…')) || matches!(word, "e.p." | "ep" | "e.p") {
            // A lone ellipsis (`12. ... Nf6`) or FIDE's en-passant mark (`exd6 e.p.`).
            self.line_empty = false;
            return None;
        }
        if let Some(result) = self.result(word) {
            return Some(self.lexed(Token::Result(result), line));
        }
        if word.bytes().all(|b| b.is_ascii_digit()) {
            return Some(self.lexed(Token::MoveNumber, line));
        }
        let token = self.lexed(Token::Move(word.to_string()), line);
        if self.dialect == Dialect::Pdn && self.peek() == Some('*') {
            // Draughts' "star move" sign glued to a move (`27-20*`): a mark on the move, not
            // the unknown result, which stands apart (issue 41).
            self.bump();
        }
        if matches!(self.peek(), Some('!' | '?')) {
            let glyph = self.glyph_run();
            if let Some(nag) = self.glyph_token(&glyph, line) {
                self.pending = Some(Lexed {
                    after_blank: false,
                    ..nag
                });
            }
        }
        Some(token)
    }

    fn result(&self, word: &str) -> Option<RecordResult> {
        match (word, self.dialect) {
            ("1-0" | "0-1" | "1/2-1/2" | "½-½", _) => RecordResult::parse(word),
            ("2-0" | "0-2" | "1-1", Dialect::Pdn) => RecordResult::parse(word),
            // Russian draughts records write results with a colon (`0:1`, `1/2:1/2`); no
            // square is numbered 0, so no move reads so.
            ("1:0" | "0:1" | "1/2:1/2" | "½:½", Dialect::Pdn) => RecordResult::parse(word),
            // Both players lost (a double forfeit): no winner to record.
            ("0-0", Dialect::Pdn) => Some(RecordResult::Unknown),
            _ => None,
        }
    }
}

/// Collapses every run of spaces to one space and trims.
fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split(is_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// A tag value found on its line.
#[derive(Debug, PartialEq, Eq)]
struct TagValue {
    value: String,
    /// Bytes of the line it took, the closing quote and `]` included.
    consumed: usize,
    /// An unescaped `"` was kept inside the value.
    inner_quotes: bool,
    /// The line had no `]` after the closing quote.
    bracket_missing: bool,
    /// The line had no closing quote before its final `]`.
    quote_missing: bool,
}

/// `\"` and `\\` unescaped; any other backslash kept.
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&next @ ('"' | '\\')) = chars.peek()
        {
            out.push(next);
            chars.next();
        } else {
            out.push(c);
        }
    }
    out
}

/// The value after a tag's opening quote, within the rest of its line `rest`:
/// 1. up to the first unescaped `"` followed by `]` (spaces between allowed), with `\"` and
///    `\\` unescaped and any other `"` kept as text;
/// 2. else up to the first `"` followed by `]`, escapes or not (`[A "C:\"]`);
/// 3. else up to the last `"` of the line, when only spaces follow it (`]` missing);
/// 4. else up to the `]` that ends the line (the closing `"` missing: `[Round "11.1]`, as in
///    a published file of the 1998 world championship of Russian draughts).
fn tag_value(rest: &str) -> Option<TagValue> {
    let closes_at = |i: usize| -> Option<usize> {
        let after = &rest[i + 1..];
        let trimmed = after.trim_start_matches(|c: char| is_space(c));
        trimmed
            .starts_with(']')
            .then(|| i + 1 + (after.len() - trimmed.len()) + 1)
    };
    let mut value = String::new();
    let mut inner_quotes = false;
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some((_, '"' | '\\'))) => {
                if let Some((_, escaped)) = chars.next() {
                    value.push(escaped);
                }
            }
            '"' => match closes_at(i) {
                Some(consumed) => {
                    return Some(TagValue {
                        value,
                        consumed,
                        inner_quotes,
                        bracket_missing: false,
                        quote_missing: false,
                    });
                }
                None => {
                    inner_quotes = true;
                    value.push('"');
                }
            },
            _ => value.push(c),
        }
    }
    for (i, c) in rest.char_indices() {
        if c == '"'
            && let Some(consumed) = closes_at(i)
        {
            return Some(TagValue {
                value: unescape(&rest[..i]),
                consumed,
                inner_quotes: rest[..i].contains('"') && !rest[..i].ends_with('\\'),
                bracket_missing: false,
                quote_missing: false,
            });
        }
    }
    let trimmed = rest.trim_end_matches(|c: char| is_space(c));
    if trimmed.ends_with('"') {
        let i = trimmed.len() - 1;
        return Some(TagValue {
            value: unescape(&rest[..i]),
            consumed: rest.len(),
            inner_quotes: rest[..i].contains('"'),
            bracket_missing: true,
            quote_missing: false,
        });
    }
    if let Some(inner) = trimmed.strip_suffix(']') {
        return Some(TagValue {
            value: unescape(inner.trim_end_matches(|c: char| is_space(c))),
            consumed: rest.len(),
            inner_quotes: inner.contains('"'),
            bracket_missing: false,
            quote_missing: true,
        });
    }
    None
}

#[cfg(test)]
mod tests;
