//! Tokens to games: where one game ends and the next begins, and each game's move tree as
//! text (moves not yet read by any rules).
//!
//! A game ends at its result marker. Without one, it ends where the next game's tags begin:
//! a tag after move text, or a tag after a blank line that follows tags holding `[Result]`
//! or a tag of the same name; such a game gets a warning. A tag repeated with no blank line
//! between is the same game's: the last value is kept, with a warning. (A blank line
//! inside a tag section that has no `[Result]` yet does not end the game: ChessBase writes
//! one after `[Event]`.) So a file of N games never gives
//! more than N, and a game with no moves and no marker is not merged into the next one.

use super::lexer::{Dialect, LexError, Lexer, Token};
use crate::RecordResult;

/// Deepest nesting of variations read; deeper ones are an error (and left out), so that no
/// recursion over the tree can exhaust the stack.
pub(crate) const MAX_VARIATION_DEPTH: usize = 64;

/// A tag pair with its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawTag {
    pub name: String,
    pub value: String,
    pub line: usize,
}

/// A move as written, with what follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawNode {
    pub text: String,
    pub line: usize,
    pub nags: Vec<u8>,
    pub comments: Vec<String>,
    pub variations: Vec<RawLine>,
}

/// A line of moves as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RawLine {
    /// Line where it opens (the `(`; the game's first line for the main line).
    pub line: usize,
    pub comments: Vec<String>,
    pub nodes: Vec<RawNode>,
}

/// The first syntax error of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub line: usize,
    pub message: String,
    /// Main-line moves before it; `None` when it came before the move text (in the tags).
    pub plies: Option<usize>,
}

/// One game as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RawGame {
    /// 1-based line where it begins.
    pub line: usize,
    pub tags: Vec<RawTag>,
    pub main: RawLine,
    /// The result marker and its line.
    pub result: Option<(RecordResult, usize)>,
    pub error: Option<SyntaxError>,
    /// (line, message).
    pub warnings: Vec<(Option<usize>, String)>,
}

/// A variation being read.
struct Open {
    line: RawLine,
    /// Opened before any move of its parent line: nothing to be an alternative to.
    orphan: bool,
}

/// Why a game was finished: its result marker, the next game's tags (on this line), or the
/// end of the text.
enum End {
    Result,
    Tags(usize),
    Text,
}

#[derive(Default)]
struct Builder {
    game: RawGame,
    /// Open variations, innermost last.
    open: Vec<Open>,
    /// Variations opened past [`MAX_VARIATION_DEPTH`], skipped until closed.
    skipped: usize,
    /// A move-text token was read.
    movetext: bool,
    /// Comments read before any game content, carried into the next game.
    carried: Vec<String>,
}

impl Builder {
    fn current(&mut self) -> &mut RawLine {
        match self.open.last_mut() {
            Some(open) => &mut open.line,
            None => &mut self.game.main,
        }
    }

    fn begin(&mut self, line: usize) {
        if self.game.line == 0 {
            self.game.line = line;
            self.game.main.line = line;
        }
    }

    fn fail(&mut self, line: usize, message: String) {
        if self.game.error.is_none() {
            self.game.error = Some(SyntaxError {
                line,
                message,
                plies: (self.movetext || !self.game.main.nodes.is_empty())
                    .then_some(self.game.main.nodes.len()),
            });
        }
    }

    fn warn(&mut self, line: usize, message: String) {
        self.game.warnings.push((Some(line), message));
    }

    /// Ends the game in progress; it is kept only when it has something of a game.
    fn finish(&mut self, end: End, out: &mut Vec<RawGame>) {
        if let Some(innermost) = self.open.last() {
            let line = innermost.line.line;
            self.fail(
                line,
                format!("the variation opened on line {line} is not closed with ')'"),
            );
        }
        self.open.clear();
        self.skipped = 0;
        let mut game = std::mem::take(&mut self.game);
        let carried = std::mem::take(&mut self.carried);
        let empty = game.tags.is_empty()
            && game.main.nodes.is_empty()
            && game.result.is_none()
            && game.error.is_none();
        self.movetext = false;
        if empty {
            // Comments alone (before the first tags, or after a result): they go with the
            // next game, before its first move.
            self.carried = carried;
            self.carried.append(&mut game.main.comments);
            self.game.warnings = game.warnings;
            return;
        }
        if !carried.is_empty() {
            let mut comments = carried;
            comments.append(&mut game.main.comments);
            game.main.comments = comments;
        }
        if game.result.is_none() {
            let message = match end {
                End::Tags(line) => format!(
                    "no result marker: the game ends where the next game's tags begin (line {line})"
                ),
                _ => "no result marker at the end of the game".to_string(),
            };
            game.warnings.push((None, message));
        }
        out.push(game);
    }

    fn token(&mut self, token: Token, line: usize, after_blank: bool, out: &mut Vec<RawGame>) {
        if self.skipped > 0 {
            match token {
                Token::Open => {
                    self.skipped += 1;
                    return;
                }
                Token::Close => {
                    self.skipped -= 1;
                    return;
                }
                Token::Tag { .. } => self.skipped = 0,
                _ => return,
            }
        }
        if !matches!(token, Token::Tag { .. }) {
            self.begin(line);
        }
        match token {
            Token::Tag { name, value } => {
                if let Some(open) = self.open.last() {
                    let opened = open.line.line;
                    self.fail(
                        line,
                        format!("tag inside the variation opened on line {opened} (missing ')')"),
                    );
                    self.finish(End::Tags(line), out);
                } else if self.movetext
                    || (after_blank && self.game.tags.iter().any(|t| t.name == "Result"))
                    || (after_blank && self.game.tags.iter().any(|t| t.name == name))
                {
                    self.finish(End::Tags(line), out);
                } else if let Some(i) = self.game.tags.iter().position(|t| t.name == name) {
                    // A tag repeated in one tag section (issue 41): the same game, the last
                    // value kept, as lichess's and python-chess's readers do.
                    let first = self.game.tags.remove(i).line;
                    self.game.warnings.push((
                        Some(line),
                        format!(
                            "tag [{name}] repeated (first on line {first}): its last value \"{}\" is kept",
                            crate::excerpt(&value)
                        ),
                    ));
                }
                self.begin(line);
                self.game.tags.push(RawTag { name, value, line });
            }
            Token::Result(result) => {
                if self.open.is_empty() {
                    self.game.result = Some((result, line));
                    self.finish(End::Result, out);
                }
            }
            Token::MoveNumber => self.movetext = true,
            Token::Move(text) => {
                self.movetext = true;
                self.current().nodes.push(RawNode {
                    text,
                    line,
                    nags: Vec::new(),
                    comments: Vec::new(),
                    variations: Vec::new(),
                });
            }
            Token::Nag(n) => {
                self.movetext = true;
                match self.current().nodes.last_mut() {
                    Some(node) => node.nags.push(n),
                    None => self.warn(line, format!("NAG ${n} before any move: left out")),
                }
            }
            Token::Comment(text) => {
                let current = self.current();
                match current.nodes.last_mut() {
                    Some(node) => node.comments.push(text),
                    None => current.comments.push(text),
                }
            }
            Token::Open => {
                self.movetext = true;
                if self.open.len() >= MAX_VARIATION_DEPTH {
                    self.fail(
                        line,
                        format!("variations nested more than {MAX_VARIATION_DEPTH} deep"),
                    );
                    self.skipped = 1;
                    return;
                }
                let orphan = self.current().nodes.is_empty();
                self.open.push(Open {
                    line: RawLine {
                        line,
                        ..RawLine::default()
                    },
                    orphan,
                });
            }
            Token::Close => {
                self.movetext = true;
                let Some(closed) = self.open.pop() else {
                    self.fail(line, "')' without a variation to close".into());
                    return;
                };
                if closed.orphan {
                    let opened = closed.line.line;
                    self.warn(
                        opened,
                        "variation before any move (nothing to be an alternative to): left out"
                            .into(),
                    );
                } else if let Some(node) = self.current().nodes.last_mut() {
                    node.variations.push(closed.line);
                }
            }
        }
    }

    fn lex_error(&mut self, e: LexError) {
        self.begin(e.line);
        self.fail(e.line, e.message);
    }
}

/// Splits a record text into games. The second value is what the file has after its last
/// game that belongs to no game (comments), as warnings.
pub(crate) fn split(text: &str, dialect: Dialect) -> (Vec<RawGame>, Vec<(Option<usize>, String)>) {
    let mut lexer = Lexer::new(text, dialect);
    let mut builder = Builder::default();
    let mut out = Vec::new();
    while let Some(next) = lexer.next_token() {
        match next {
            Ok(t) => builder.token(t.token, t.line, t.after_blank, &mut out),
            Err(e) => builder.lex_error(e),
        }
        for (line, message) in lexer.warnings.drain(..) {
            builder.warn(line, message);
        }
    }
    builder.finish(End::Text, &mut out);
    let mut leftover = std::mem::take(&mut builder.game.warnings);
    if !builder.carried.is_empty() {
        leftover.push((
            None,
            format!(
                "{} comment(s) after the last game belong to no game: left out",
                builder.carried.len()
            ),
        ));
    }
    (out, leftover)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &str) -> Vec<RawGame> {
        split(text, Dialect::Pgn).0
    }

    fn moves(line: &RawLine) -> Vec<&str> {
        line.nodes.iter().map(|n| n.text.as_str()).collect()
    }

    #[test]
    fn games_end_at_results_and_at_the_next_tags() {
        let g = games("[A \"1\"]\n1. e4 *\n[A \"2\"]\n\n1. d4\n[A \"3\"]\n1. c4 1-0 1. Nf3 0-1");
        assert_eq!(g.len(), 4);
        assert_eq!(moves(&g[0].main), ["e4"]);
        assert_eq!(g[1].result, None);
        assert_eq!(g[1].warnings.len(), 1, "{:?}", g[1].warnings);
        assert_eq!(g[2].result, Some((RecordResult::WhiteWins, 7)));
        assert!(g[3].tags.is_empty());
        assert_eq!(g[3].line, 7);
    }

    /// Fault 7: a game with tags and no moves and no marker is not merged into the next.
    #[test]
    fn a_tag_only_game_ends_at_a_blank_line_or_a_repeated_tag() {
        let g = games("[Event \"a\"]\n[Site \"x\"]\n\n[Event \"b\"]\n1. e4 *");
        assert_eq!(g.len(), 2);
        assert!(g[0].main.nodes.is_empty());
        // Issue 41: a tag repeated in one tag section keeps one game, the last value, and
        // says so.
        let g = games("[Event \"a\"]\n[Site \"x\"]\n[Site \"y\"]\n1. e4 *");
        assert_eq!(g.len(), 1, "{g:?}");
        let sites: Vec<&str> = g[0]
            .tags
            .iter()
            .filter(|t| t.name == "Site")
            .map(|t| t.value.as_str())
            .collect();
        assert_eq!(sites, ["y"]);
        assert_eq!(g[0].warnings.len(), 1, "{:?}", g[0].warnings);
        assert!(
            g[0].warnings[0]
                .1
                .contains("tag [Site] repeated (first on line 2)"),
            "{:?}",
            g[0].warnings
        );
        assert_eq!(g[0].warnings[0].0, Some(3));
        // After a blank line, the same name begins the next game.
        let g = games("[Event \"a\"]\n\n[Event \"b\"]\n1. e4 *");
        assert_eq!(g.len(), 2);
        let g = games("[Event \"a\"]\n[Site \"x\"]\n1. e4 *");
        assert_eq!(g.len(), 1);
        let g = games("[Event \"a\"]\n[Result \"*\"]\n\n[Site \"b\"]\n1. e4 *");
        assert_eq!(g.len(), 2);
    }

    /// Issue 41's own example: the repeated tag on the same line as the first.
    #[test]
    fn a_tag_repeated_on_one_line_keeps_one_game_and_the_last_value() {
        let g = games("[Event \"a\"] [Site \"x\"] [Site \"y\"]\n1. e4 e5 *\n");
        assert_eq!(g.len(), 1, "{g:?}");
        let site: Vec<&str> = g[0]
            .tags
            .iter()
            .filter(|t| t.name == "Site")
            .map(|t| t.value.as_str())
            .collect();
        assert_eq!(site, ["y"]);
        assert_eq!(moves(&g[0].main), ["e4", "e5"]);
        assert!(
            g[0].warnings
                .iter()
                .any(|w| w.1.contains("tag [Site] repeated")),
            "{:?}",
            g[0].warnings
        );
    }

    /// Found in a ChessBase export (python-chess's `chessbase-empty-line.pgn`): a blank
    /// line after `[Event]`, before the rest of the tags, is not the end of a game.
    #[test]
    fn a_blank_line_inside_the_tags_before_result_keeps_one_game() {
        let g = games("[Event \"a\"]\n\n[Date \"b\"]\n[Result \"0-1\"]\n\n1. e4 0-1");
        assert_eq!(g.len(), 1, "{g:?}");
        assert_eq!(g[0].tags.len(), 3);
        assert!(g[0].warnings.is_empty(), "{:?}", g[0].warnings);
    }

    #[test]
    fn tree_of_comments_nags_and_variations() {
        let g = games("{intro} 1. e4 $1 {c1} (1. d4 {why} (1. c4) d5) e5 ({pre} 1... c5) *");
        let main = &g[0].main;
        assert_eq!(main.comments, ["intro"]);
        assert_eq!(moves(main), ["e4", "e5"]);
        let e4 = &main.nodes[0];
        assert_eq!(
            (e4.nags.as_slice(), e4.comments.as_slice()),
            (&[1u8][..], &["c1".to_string()][..])
        );
        assert_eq!(e4.variations.len(), 1);
        let v = &e4.variations[0];
        assert_eq!(moves(v), ["d4", "d5"]);
        assert_eq!(v.nodes[0].comments, ["why"]);
        assert_eq!(moves(&v.nodes[0].variations[0]), ["c4"]);
        let v = &main.nodes[1].variations[0];
        assert_eq!(v.comments, ["pre"]);
        assert_eq!(moves(v), ["c5"]);
    }

    #[test]
    fn unclosed_and_stray_variations_are_errors() {
        let g = games("1. e4 (1. d4 *");
        let e = g[0].error.clone().expect("error");
        assert!(e.message.contains("not closed"), "{e:?}");
        let g = games("1. e4 ) *");
        assert!(g[0].error.clone().expect("error").message.contains("')'"));
        let g = games("1. e4 (1. d4\n[Event \"next\"]\n1. c4 *");
        assert_eq!(g.len(), 2);
        assert!(
            g[0].error
                .clone()
                .expect("error")
                .message
                .contains("tag inside")
        );
        assert_eq!(moves(&g[1].main), ["c4"]);
    }

    #[test]
    fn deep_nesting_is_cut() {
        let text = format!("1. e4 {}1... e5{} *", "(".repeat(500), ")".repeat(500));
        let g = games(&text);
        assert_eq!(g.len(), 1);
        assert!(
            g[0].error
                .clone()
                .expect("error")
                .message
                .contains("nested")
        );
    }

    #[test]
    fn comments_before_the_first_tags_go_with_the_game() {
        let (g, rest) = split("{exported} [Event \"a\"]\n1. e4 * {after}", Dialect::Pgn);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].main.comments, ["exported"]);
        assert_eq!(rest.len(), 1, "{rest:?}");
    }

    #[test]
    fn syntax_errors_keep_the_game_count() {
        let g = games("[Event \"a\"]\n[Site \"unclosed\n1. e4 *\n[Event \"b\"]\n1. d4 }\n*");
        assert_eq!(g.len(), 2);
        assert!(
            g[0].error
                .clone()
                .expect("error")
                .message
                .contains("not closed")
        );
        let e = g[1].error.clone().expect("error");
        assert_eq!((e.line, e.plies), (5, Some(1)));
        assert_eq!(g[0].error.clone().expect("error").plies, None);
    }
}
