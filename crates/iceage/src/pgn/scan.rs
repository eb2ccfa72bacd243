//! A second look at the PGN text, beside pgn-reader: pgn-reader skips what it cannot read
//! (an unknown token, a SAN glued to other text) and knows no line numbers. This scan
//! splits the text into games at the same places pgn-reader does (a game's move text ends
//! at a blank line or at a line that begins with `[`), and gives for each game the line of
//! every main-line SAN, the line of each tag, and the first thing pgn-reader would have
//! passed over in silence.

use shakmaty::san::SanPlus;

/// What the scan found in one game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct GameScan {
    /// 1-based line where the game begins.
    pub line: usize,
    /// Tag names with their lines.
    pub tags: Vec<(String, usize)>,
    /// The line of each main-line SAN, in order.
    pub moves: Vec<usize>,
    /// The first token pgn-reader would skip without a word.
    pub problem: Option<Problem>,
}

/// A token that is not PGN, found after `after_moves` main-line moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Problem {
    pub after_moves: usize,
    pub line: usize,
    pub message: String,
}

/// Scans every game of `text`.
pub(crate) fn scan(text: &str) -> Vec<GameScan> {
    let mut s = Scanner {
        bytes: text.strip_prefix('\u{feff}').unwrap_or(text).as_bytes(),
        pos: 0,
        line: 1,
    };
    let mut games = Vec::new();
    loop {
        s.skip_whitespace(true);
        if s.peek().is_none() {
            break;
        }
        let mut game = GameScan {
            line: s.line,
            ..GameScan::default()
        };
        while s.peek() == Some(b'[') {
            let line = s.line;
            let name = s.tag();
            game.tags.push((name, line));
        }
        s.movetext(&mut game);
        games.push(game);
    }
    games
}

/// pgn-reader's token ends (`is_token_end` in its reader).
fn is_token_end(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b'!'
            | b'?'
            | b'$'
            | b';'
            | b'.'
            | b'*'
    )
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    fn bump(&mut self) {
        if self.peek() == Some(b'\n') {
            self.line += 1;
        }
        self.pos += 1;
    }

    fn skip_line(&mut self) {
        while self.peek().is_some_and(|c| c != b'\n') {
            self.bump();
        }
    }

    /// Whitespace, blank lines and `%` lines (at a line start).
    fn skip_whitespace(&mut self, mut at_line_start: bool) {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.bump(),
                b'\n' => {
                    at_line_start = true;
                    self.bump();
                }
                b'%' if at_line_start => self.skip_line(),
                _ => return,
            }
        }
    }

    /// A tag pair, read as pgn-reader reads it (its `read_tags` and `skip_ket`): after
    /// `[`, a line without a `"` before `]` or the line end is skipped; otherwise the name
    /// runs to the first `"` and the value to the next unescaped `"` or the line end.
    /// Returns the name (empty for a skipped line).
    fn tag(&mut self) -> String {
        self.bump();
        let rest = &self.bytes[self.pos..];
        let stop = rest.iter().position(|&c| matches!(c, b'"' | b'\n' | b']'));
        let name = match stop {
            Some(q) if rest[q] == b'"' => {
                let name_end = if q > 0 && rest[q - 1] == b' ' {
                    q - 1
                } else {
                    q
                };
                let name = String::from_utf8_lossy(&rest[..name_end]).into_owned();
                for _ in 0..=q {
                    self.bump();
                }
                while let Some(c) = self.peek() {
                    match c {
                        b'"' => {
                            self.bump();
                            break;
                        }
                        b'\n' => break,
                        b'\\' => {
                            self.bump();
                            if self.peek().is_some_and(|c| c != b'\n') {
                                self.bump();
                            }
                        }
                        _ => self.bump(),
                    }
                }
                name
            }
            Some(q) => {
                for _ in 0..=q {
                    self.bump();
                }
                String::new()
            }
            None => {
                self.pos = self.bytes.len();
                String::new()
            }
        };
        // skip_ket
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.bump(),
                b']' => {
                    self.bump();
                    self.skip_whitespace(false);
                    break;
                }
                b'\n' => {
                    self.bump();
                    self.skip_whitespace(true);
                    break;
                }
                _ => break,
            }
        }
        name
    }

    /// True at a `\n` that ends the move text (followed by `[` or a blank line).
    fn at_movetext_end(&self) -> bool {
        self.peek() == Some(b'\n')
            && (matches!(self.peek_at(1), Some(b'[' | b'\n'))
                || (self.peek_at(1) == Some(b'\r') && self.peek_at(2) == Some(b'\n')))
    }

    fn problem(&self, game: &mut GameScan, line: usize, message: String) {
        if game.problem.is_none() {
            game.problem = Some(Problem {
                after_moves: game.moves.len(),
                line,
                message,
            });
        }
    }

    fn movetext(&mut self, game: &mut GameScan) {
        let mut depth = 0usize;
        let mut depth_line = 0;
        let mut result_seen = false;
        while let Some(c) = self.peek() {
            let line = self.line;
            if self.at_movetext_end() {
                break;
            }
            match c {
                b'\n' => {
                    self.bump();
                    if self.peek() == Some(b'%') {
                        self.skip_line();
                    }
                }
                b'{' => {
                    self.bump();
                    while self.peek().is_some_and(|c| c != b'}') {
                        self.bump();
                    }
                    if self.peek().is_none() {
                        self.problem(
                            game,
                            line,
                            format!("the comment opened on line {line} is not closed with '}}'"),
                        );
                    }
                    self.bump();
                }
                b';' => self.skip_line(),
                b'}' => {
                    // pgn-reader drops a stray `}` with the word glued to it.
                    self.problem(game, line, "'}' without a comment to close".into());
                    self.bump();
                    while self.peek().is_some_and(|c| !is_token_end(c)) {
                        self.bump();
                    }
                }
                b'(' => {
                    if depth == 0 {
                        depth_line = line;
                    }
                    depth += 1;
                    self.bump();
                }
                b')' => {
                    if depth == 0 {
                        self.problem(game, line, "')' without a variation to close".into());
                    }
                    depth = depth.saturating_sub(1);
                    self.bump();
                }
                b'$' => {
                    self.bump();
                    let start = self.pos;
                    while self.peek().is_some_and(|c| !is_token_end(c)) {
                        self.bump();
                    }
                    let nag = &self.bytes[start..self.pos];
                    if nag.is_empty() || !nag.iter().all(u8::is_ascii_digit) {
                        self.problem(
                            game,
                            line,
                            format!("bad NAG '${}'", String::from_utf8_lossy(nag)),
                        );
                    }
                }
                b'*' => {
                    self.bump();
                    if depth == 0 {
                        result_seen = true;
                    }
                }
                _ if is_token_end(c) => self.bump(),
                _ => {
                    let start = self.pos;
                    while self.peek().is_some_and(|c| !is_token_end(c)) {
                        self.bump();
                    }
                    let word = &self.bytes[start..self.pos];
                    let text = String::from_utf8_lossy(word);
                    if word.iter().all(u8::is_ascii_digit) {
                        continue; // move number
                    }
                    if matches!(&*text, "1-0" | "0-1" | "1/2-1/2" | "½-½") {
                        if depth == 0 {
                            result_seen = true;
                        }
                        continue;
                    }
                    let san = if word.starts_with(b"0-0") {
                        SanPlus::from_ascii(
                            &word
                                .iter()
                                .map(|&c| if c == b'0' { b'O' } else { c })
                                .collect::<Vec<_>>(),
                        )
                    } else {
                        SanPlus::from_ascii(word)
                    };
                    match san {
                        Ok(_) if depth > 0 => {}
                        Ok(_) if result_seen => {
                            self.problem(game, line, format!("move '{text}' after the result"))
                        }
                        Ok(_) => game.moves.push(line),
                        Err(_) => self.problem(game, line, format!("unknown token '{text}'")),
                    }
                }
            }
        }
        if depth > 0 {
            self.problem(
                game,
                depth_line,
                format!("the variation opened on line {depth_line} is not closed with ')'"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_lines_and_problems() {
        let text = "\u{feff}[Event \"a \\\" ]\"]\n[White \"w\"]\n\n1. exd3 {c\n\n} exd6 (1... Nxc6 2. e4) $1\n2. Nxf3! Zz9 *\n\n\
                    % escape\n[Event \"b\"]\r\n\r\n1. O-O 0-0-0+ ; rest\n1-0\n";
        let games = scan(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].line, 1);
        assert_eq!(
            games[0].tags,
            [("Event".to_string(), 1), ("White".to_string(), 2)]
        );
        assert_eq!(games[0].moves, [4, 6, 7]);
        let p = games[0].problem.clone().expect("Zz9");
        assert_eq!((p.after_moves, p.line), (3, 7));
        assert!(p.message.contains("unknown token 'Zz9'"), "{p:?}");
        assert_eq!(games[1].line, 10);
        assert_eq!(games[1].moves, [12, 12]);
        assert_eq!(games[1].problem, None);
    }

    #[test]
    fn unclosed_things_are_problems() {
        let g = scan("1. e4 (1. d4 e5\n");
        assert!(g[0].problem.clone().unwrap().message.contains("variation"));
        let g = scan("1. e4 { open");
        assert!(g[0].problem.clone().unwrap().message.contains("comment"));
        let g = scan("1. e4 1-0 e5");
        assert!(
            g[0].problem
                .clone()
                .unwrap()
                .message
                .contains("after the result")
        );
    }
}
