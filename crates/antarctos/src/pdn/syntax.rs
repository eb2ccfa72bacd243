//! The PDN syntax layer: text to games of tags and move tokens, with line numbers, before
//! any rule is applied. Follows the FMJD PDN 3.0 standard where real files need it: tag
//! pairs with escaped quotes, move numbers `1.` / `1...`, moves with `-`, `x` or `:` and
//! numeric or algebraic squares, comments `{...}` (a `{` inside a comment is an error),
//! `%` line comments, move strength `(!?)`, `!`/`?` suffixes, NAGs `$n`, nested
//! variations (skipped), the results `1-0 0-1 1/2-1/2 * 2-0 0-2 1-1 0-0`, CRLF, a BOM, UTF-8.

use game::RecordResult;

/// One move of the main line as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MoveToken {
    /// The move without its `!`/`?` annotation (`c3-d4`, `22-18`, `d4:b6`, `a3b4`).
    pub text: String,
    /// The squares, when every one is numeric (`22-18`); empty for algebraic text, which
    /// goes to the move parser as it is.
    pub numeric: Vec<u32>,
    /// True when a separator is `x` or `:`.
    pub capture: bool,
    /// 1-based line of the token.
    pub line: usize,
}

/// A tag pair `[Name "value"]`, the value unescaped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tag {
    pub name: String,
    pub value: String,
    pub line: usize,
}

/// One game as written: tags, main-line moves, result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Game {
    pub tags: Vec<Tag>,
    pub moves: Vec<MoveToken>,
    /// The game terminator, when the game has one.
    pub result: Option<RecordResult>,
    /// 1-based line where the game begins.
    pub line: usize,
}

/// A syntax error: where and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    /// 1-based line.
    pub line: usize,
    pub message: String,
    /// Main-line moves of the game before the error; `None` when it came before the move
    /// text (in the tags).
    pub plies: Option<usize>,
    /// The game's `FEN` tag value read before the error, if any (it fixes the side that
    /// made the first move, so the move number of the error can be told).
    pub fen: Option<String>,
}

/// Splits a PDN text into games. Each entry is a game or the first syntax error in it;
/// after an error, reading resumes at the next line that begins with `[`.
pub(crate) fn parse_games(text: &str) -> Vec<Result<Game, SyntaxError>> {
    let mut lexer = Lexer::new(text);
    let mut out = Vec::new();
    let mut game = GameBuilder::default();
    loop {
        match lexer.next_token() {
            Ok(None) => {
                if game.started() {
                    out.push(Ok(game.finish(None)));
                }
                break;
            }
            Ok(Some((token, line))) => match token {
                Token::Tag(name, value) => {
                    if game.has_movetext {
                        out.push(Ok(std::mem::take(&mut game).finish(None)));
                    }
                    game.begin(line);
                    game.tags.push(Tag { name, value, line });
                }
                Token::Move(mv) => {
                    game.begin(line);
                    game.has_movetext = true;
                    game.moves.push(MoveToken { line, ..mv });
                }
                Token::MoveNumber => {
                    game.begin(line);
                    game.has_movetext = true;
                }
                Token::Result(result) => {
                    game.begin(line);
                    out.push(Ok(std::mem::take(&mut game).finish(Some(result))));
                }
            },
            Err(e) => {
                out.push(Err(SyntaxError {
                    plies: game.has_movetext.then_some(game.moves.len()),
                    fen: game
                        .tags
                        .iter()
                        .rfind(|t| t.name == "FEN")
                        .map(|t| t.value.clone()),
                    ..e
                }));
                game = GameBuilder::default();
                lexer.skip_to_next_tag_line();
            }
        }
    }
    out
}

#[derive(Default)]
struct GameBuilder {
    tags: Vec<Tag>,
    moves: Vec<MoveToken>,
    has_movetext: bool,
    line: Option<usize>,
}

impl GameBuilder {
    fn started(&self) -> bool {
        self.line.is_some()
    }

    fn begin(&mut self, line: usize) {
        self.line.get_or_insert(line);
    }

    fn finish(self, result: Option<RecordResult>) -> Game {
        Game {
            tags: self.tags,
            moves: self.moves,
            result,
            line: self.line.unwrap_or(1),
        }
    }
}

/// A token of the main line (what lies in variations, comments and annotations is read and
/// checked, then dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Tag(String, String),
    Move(MoveToken),
    MoveNumber,
    Result(RecordResult),
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    /// Lines where the open variations began, innermost last.
    variations: Vec<usize>,
}

fn is_word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b':' | b'/' | b'!' | b'?' | b'+' | b'#')
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Lexer {
            text,
            pos: 0,
            line: 1,
            variations: Vec::new(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<u8> {
        self.text.as_bytes().get(self.pos + offset).copied()
    }

    /// Advances one character (UTF-8 aware), counting lines.
    fn bump(&mut self) {
        if let Some(c) = self.text[self.pos..].chars().next() {
            if c == '\n' {
                self.line += 1;
            }
            self.pos += c.len_utf8();
        }
    }

    fn error(&self, line: usize, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            line,
            message: message.into(),
            plies: None,
            fen: None,
        }
    }

    /// After an error: drop what is left of the game, up to a line that begins with `[`.
    fn skip_to_next_tag_line(&mut self) {
        self.variations.clear();
        let mut at_line_start = false;
        while let Some(c) = self.peek() {
            if at_line_start && c == b'[' {
                return;
            }
            if c == b'\n' {
                at_line_start = true;
            } else if !c.is_ascii_whitespace() {
                at_line_start = false;
            }
            self.bump();
        }
    }

    /// The next main-line token with its line, `None` at the end of the text.
    fn next_token(&mut self) -> Result<Option<(Token, usize)>, SyntaxError> {
        loop {
            let Some(c) = self.peek() else {
                if let Some(&open) = self.variations.last() {
                    return Err(self.error(
                        open,
                        format!("the variation opened on line {open} is not closed with ')'"),
                    ));
                }
                return Ok(None);
            };
            let line = self.line;
            match c {
                _ if c.is_ascii_whitespace() => self.bump(),
                b'%' => self.skip_line(),
                b'{' => self.comment()?,
                b'[' => {
                    if let Some(&open) = self.variations.last() {
                        return Err(self.error(
                            line,
                            format!("tag inside the variation opened on line {open} (missing ')')"),
                        ));
                    }
                    let (name, value) = self.tag()?;
                    return Ok(Some((Token::Tag(name, value), line)));
                }
                b'(' => {
                    if !self.move_strength() {
                        self.bump();
                        self.variations.push(line);
                    }
                }
                b')' => {
                    if self.variations.pop().is_none() {
                        return Err(self.error(line, "')' without a variation to close"));
                    }
                    self.bump();
                }
                b'$' => {
                    self.bump();
                    let start = self.pos;
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.bump();
                    }
                    if start == self.pos {
                        return Err(self.error(line, "'$' without a number (NAG)"));
                    }
                }
                b'!' | b'?' => {
                    while matches!(self.peek(), Some(b'!' | b'?')) {
                        self.bump();
                    }
                }
                b'.' => {
                    // A lone ellipsis (`1. ... c7-b6` style).
                    while self.peek() == Some(b'.') {
                        self.bump();
                    }
                }
                b'*' => {
                    self.bump();
                    if self.variations.is_empty() {
                        return Ok(Some((Token::Result(RecordResult::Unknown), line)));
                    }
                }
                _ if c.is_ascii_alphanumeric() => {
                    let token = self.word(line)?;
                    if self.variations.is_empty() {
                        return Ok(Some((token, line)));
                    }
                }
                _ => {
                    let start = self.pos;
                    self.bump();
                    while self
                        .peek()
                        .is_some_and(|c| !c.is_ascii_whitespace() && !b"{}()[]".contains(&c))
                    {
                        self.bump();
                    }
                    return Err(self.error(
                        line,
                        format!("unknown token '{}'", &self.text[start..self.pos]),
                    ));
                }
            }
        }
    }

    fn skip_line(&mut self) {
        while self.peek().is_some_and(|c| c != b'\n') {
            self.bump();
        }
    }

    /// `{...}`; a `{` inside is an error (FMJD PDN 3.0 has no nested comments).
    fn comment(&mut self) -> Result<(), SyntaxError> {
        let open = self.line;
        self.bump();
        loop {
            match self.peek() {
                None => {
                    return Err(self.error(
                        open,
                        format!("the comment opened on line {open} is not closed with '}}'"),
                    ));
                }
                Some(b'}') => {
                    self.bump();
                    return Ok(());
                }
                Some(b'{') => {
                    return Err(self.error(
                        self.line,
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

    /// `[Name "value"]` with `\"` and `\\` escapes in the value.
    fn tag(&mut self) -> Result<(String, String), SyntaxError> {
        let line = self.line;
        self.bump();
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.bump();
        }
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.bump();
        }
        let name = self.text[start..self.pos].to_string();
        if name.is_empty() {
            return Err(self.error(line, "tag without a name"));
        }
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.bump();
        }
        if self.peek() != Some(b'"') {
            return Err(self.error(
                line,
                format!("tag [{name}]: the value must be a \"string\""),
            ));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.peek() {
                None | Some(b'\n') | Some(b'\r') => {
                    return Err(self.error(line, format!("tag [{name}]: the string is not closed")));
                }
                Some(b'"') => {
                    self.bump();
                    break;
                }
                Some(b'\\') if matches!(self.peek_at(1), Some(b'"' | b'\\')) => {
                    self.bump();
                    value.push(self.peek().map(char::from).unwrap_or('\\'));
                    self.bump();
                }
                Some(_) => {
                    let c = self.text[self.pos..].chars().next().unwrap_or('\u{fffd}');
                    value.push(c);
                    self.bump();
                }
            }
        }
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.bump();
        }
        if self.peek() != Some(b']') {
            return Err(self.error(line, format!("tag [{name}]: missing ']'")));
        }
        self.bump();
        Ok((name, value))
    }

    /// `(!?)`, `(!!)`: a move strength in parentheses, not a variation. Consumes it and
    /// returns true when it is one.
    fn move_strength(&mut self) -> bool {
        let rest = &self.text.as_bytes()[self.pos + 1..];
        let len = rest.iter().take_while(|c| matches!(c, b'!' | b'?')).count();
        if len > 0 && rest.get(len) == Some(&b')') {
            for _ in 0..len + 2 {
                self.bump();
            }
            return true;
        }
        false
    }

    /// A word that begins with a letter or digit: a move number, a result or a move.
    fn word(&mut self, line: usize) -> Result<Token, SyntaxError> {
        let start = self.pos;
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.bump();
            }
            match self.peek() {
                Some(b'.') => {
                    while self.peek() == Some(b'.') {
                        self.bump();
                    }
                    return Ok(Token::MoveNumber);
                }
                None => return Ok(Token::MoveNumber),
                Some(c) if c.is_ascii_whitespace() => return Ok(Token::MoveNumber),
                _ => {}
            }
        }
        while self.peek().is_some_and(is_word_char) {
            self.bump();
        }
        let word = &self.text[start..self.pos];
        if let Some(result) = parse_result(word) {
            return Ok(Token::Result(result));
        }
        match parse_move(word) {
            Some(mv) => Ok(Token::Move(MoveToken { line, ..mv })),
            None => Err(self.error(line, format!("unknown token '{word}'"))),
        }
    }
}

/// The PDN results; `0-0` (both lose, a double forfeit) has no winner to record: `*`.
fn parse_result(word: &str) -> Option<RecordResult> {
    match word {
        "1-0" | "0-1" | "2-0" | "0-2" | "1-1" | "1/2-1/2" => RecordResult::parse(word),
        "0-0" => Some(RecordResult::Unknown),
        _ => None,
    }
}

/// A move word: numeric squares joined by `-`, `x` or `:` (`22-18`, `9x18x27`), or an
/// algebraic move (a letter a-h first; the rules' move parser reads it, A16-A17). `!`, `?`
/// suffixes are dropped; `#` and `+` stay (A17 accepts them).
fn parse_move(word: &str) -> Option<MoveToken> {
    let body = word.trim_end_matches(['!', '?']);
    let core = body.trim_end_matches(['#', '+']);
    if core.is_empty() {
        return None;
    }
    let capture = core.contains(['x', 'X', ':']);
    let first = core.as_bytes()[0];
    if first.is_ascii_digit() {
        let mut numeric = Vec::new();
        for part in core.split(['-', 'x', 'X', ':']) {
            if part.is_empty() || !part.bytes().all(|c| c.is_ascii_digit()) || part.len() > 3 {
                return None;
            }
            numeric.push(part.parse().ok()?);
        }
        if numeric.len() < 2 || (core.contains('-') && capture) {
            return None;
        }
        return Some(MoveToken {
            text: body.to_string(),
            numeric,
            capture,
            line: 0,
        });
    }
    let letters_ok = core
        .bytes()
        .all(|c| matches!(c.to_ascii_lowercase(), b'a'..=b'h' | b'0'..=b'9' | b'x' | b'-' | b':'));
    if !matches!(first.to_ascii_lowercase(), b'a'..=b'h')
        || !letters_ok
        || !core.bytes().any(|c| c.is_ascii_digit())
    {
        return None;
    }
    Some(MoveToken {
        text: body.to_string(),
        numeric: Vec::new(),
        capture,
        line: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &str) -> Vec<Game> {
        parse_games(text)
            .into_iter()
            .map(|g| g.unwrap_or_else(|e| panic!("syntax error {e:?}")))
            .collect()
    }

    fn moves(g: &Game) -> Vec<&str> {
        g.moves.iter().map(|m| m.text.as_str()).collect()
    }

    #[test]
    fn tags_moves_numbers_and_result() {
        let g = games(
            "[Event \"a \\\"b\\\" \\\\ c\"]\n[White \"X\"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7:e5 1-0\n",
        );
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].tags[0].value, "a \"b\" \\ c");
        assert_eq!(g[0].tags[1].line, 2);
        assert_eq!(moves(&g[0]), ["c3-d4", "f6-e5", "d4xf6", "g7:e5"]);
        assert_eq!(g[0].moves[3].line, 4);
        assert!(g[0].moves[2].capture);
        assert_eq!(g[0].result, Some(RecordResult::WhiteWins));
    }

    #[test]
    fn numeric_moves_and_black_first_numbers() {
        let g = games("1... 9x18 2. 22-18 18:27:36 0-2");
        assert_eq!(g[0].moves[0].numeric, [9, 18]);
        assert_eq!(g[0].moves[2].numeric, [18, 27, 36]);
        assert!(g[0].moves[2].capture);
        assert!(!g[0].moves[1].capture);
        assert_eq!(g[0].result, Some(RecordResult::BlackWins));
    }

    #[test]
    fn all_results() {
        for (text, r) in [
            ("1-0", RecordResult::WhiteWins),
            ("2-0", RecordResult::WhiteWins),
            ("0-1", RecordResult::BlackWins),
            ("0-2", RecordResult::BlackWins),
            ("1/2-1/2", RecordResult::Draw),
            ("1-1", RecordResult::Draw),
            ("*", RecordResult::Unknown),
            ("0-0", RecordResult::Unknown),
        ] {
            let g = games(&format!("1. c3-d4 {text}"));
            assert_eq!(g[0].result, Some(r), "{text}");
        }
    }

    #[test]
    fn comments_variations_nags_strength_are_skipped() {
        let text = "% a line comment\n1. c3-d4!? {a {comment} 2. x} f6-e5 $3 (1... b6-a5 (1... x y) {c}) \
                    2. d4xf6(!?) g7xe5?! 1-0";
        let result = parse_games(text);
        // `{a {comment}` is a nested comment.
        assert_eq!(result.len(), 1);
        let e = result[0].clone().unwrap_err();
        assert!(e.message.contains("nested comment"), "{e:?}");
        let text = "% a line comment\n1. c3-d4!? {a comment 2. x} f6-e5 $3 (1... b6-a5 (1... h2-g3) {c}) \
                    2. d4xf6(!?) g7xe5?! 1-0";
        let g = games(text);
        assert_eq!(moves(&g[0]), ["c3-d4", "f6-e5", "d4xf6", "g7xe5"]);
    }

    #[test]
    fn unknown_token_is_an_error_with_line() {
        let r = parse_games(
            "[Event \"e\"]\n1. c3-d4 f6-e5\n2. zz9 e5-f4 *\n[Event \"next\"]\n1. a3-b4 *",
        );
        assert_eq!(r.len(), 2);
        let e = r[0].clone().unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("unknown token 'zz9'"), "{e:?}");
        let next = r[1].clone().expect("reading resumes at the next tag");
        assert_eq!(next.tags[0].value, "next");
    }

    #[test]
    fn games_split_on_tags_and_results() {
        let g = games(
            "\u{feff}[A \"1\"]\r\n1. c3-d4\r\n[A \"2\"]\r\n1. a3-b4 * 1. e3-f4\r\n\r\n{text after}",
        );
        assert_eq!(g.len(), 3);
        assert_eq!(g[0].result, None);
        assert_eq!(g[1].result, Some(RecordResult::Unknown));
        assert_eq!(moves(&g[2]), ["e3-f4"]);
        assert_eq!(g[2].line, 4);
    }

    #[test]
    fn unclosed_variation_and_stray_paren() {
        let e = parse_games("1. c3-d4 (1. a3-b4 *").remove(0).unwrap_err();
        assert!(e.message.contains("not closed"), "{e:?}");
        let e = parse_games("1. c3-d4 ) *").remove(0).unwrap_err();
        assert!(e.message.contains("')'"), "{e:?}");
    }

    #[test]
    fn unterminated_tag_and_comment() {
        let e = parse_games("[Event \"abc\n1. c3-d4 *")
            .remove(0)
            .unwrap_err();
        assert!(e.message.contains("not closed"), "{e:?}");
        assert_eq!(e.line, 1);
        let e = parse_games("1. c3-d4 {abc\n\n").remove(0).unwrap_err();
        assert!(e.message.contains("comment opened on line 1"), "{e:?}");
    }
}
