//! The tokenizer's unit tests: each token kind, tag recovery, Unicode spaces, move numbers.

use super::*;

fn tokens(text: &str, dialect: Dialect) -> Vec<Result<Token, String>> {
    let mut lexer = Lexer::new(text, dialect);
    let mut out = Vec::new();
    while let Some(t) = lexer.next_token() {
        out.push(t.map(|l| l.token).map_err(|e| e.message));
    }
    out
}

fn ok_tokens(text: &str, dialect: Dialect) -> Vec<Token> {
    tokens(text, dialect)
        .into_iter()
        .map(|t| t.expect("token"))
        .collect()
}

fn mv(s: &str) -> Token {
    Token::Move(s.into())
}

#[test]
fn move_numbers_in_every_form() {
    let t = ok_tokens(
        "12. e4 12... e5 12. ... Nf3 12…Nc6 12 d4 13.d5",
        Dialect::Pgn,
    );
    assert_eq!(
        t,
        [
            Token::MoveNumber,
            mv("e4"),
            Token::MoveNumber,
            mv("e5"),
            Token::MoveNumber,
            mv("Nf3"),
            Token::MoveNumber,
            mv("Nc6"),
            Token::MoveNumber,
            mv("d4"),
            Token::MoveNumber,
            mv("d5"),
        ]
    );
}

#[test]
fn unicode_spaces_are_spaces() {
    let t = ok_tokens(
        "1.\u{a0}e4\u{2009}e5\u{200b}2.\u{3000}Nf3\u{feff}*",
        Dialect::Pgn,
    );
    assert_eq!(
        t,
        [
            Token::MoveNumber,
            mv("e4"),
            mv("e5"),
            Token::MoveNumber,
            mv("Nf3"),
            Token::Result(RecordResult::Unknown)
        ]
    );
}

#[test]
fn tags_escape_and_recover() {
    let tag = |name: &str, value: &str| Token::Tag {
        name: name.into(),
        value: value.into(),
    };
    assert_eq!(
        ok_tokens(r#"[Event "5th "Ice" Open"]"#, Dialect::Pgn),
        [tag("Event", "5th \"Ice\" Open")]
    );
    assert_eq!(
        ok_tokens(r#"[A "x"][B "y \"z\" \\"]"#, Dialect::Pgn),
        [tag("A", "x"), tag("B", "y \"z\" \\")]
    );
    assert_eq!(
        ok_tokens(r#"[Path "C:\"]"#, Dialect::Pgn),
        [tag("Path", "C:\\")]
    );
    assert_eq!(
        ok_tokens("[Site \"x\"  \n1. e4", Dialect::Pgn),
        [tag("Site", "x"), Token::MoveNumber, mv("e4")]
    );
    let r = tokens("[Site \"unclosed\n1. e4", Dialect::Pgn);
    assert!(r[0].clone().unwrap_err().contains("not closed"), "{r:?}");
    assert_eq!(r[1..], [Ok(Token::MoveNumber), Ok(mv("e4"))]);
    // Found in a published Russian draughts file (`[Round "11.1]`, Games::Checkers's
    // World_Championship_1998.pdn): the closing quote left out before the line's `]` is
    // read up to the `]`, with a warning, instead of refusing the game.
    let mut lexer = Lexer::new("[Round \"11.1]\n[GameType \"25\"]", Dialect::Pdn);
    let mut read = Vec::new();
    while let Some(t) = lexer.next_token() {
        read.push(t.map(|t| t.token));
    }
    assert_eq!(read, [Ok(tag("Round", "11.1")), Ok(tag("GameType", "25"))]);
    assert_eq!(
        lexer.warnings,
        [(
            1,
            "tag [Round]: the closing '\"' is missing: read as \"11.1\"".to_string()
        )]
    );
    let mut lexer = Lexer::new(r#"[Event "5th "Ice" Open"]"#, Dialect::Pgn);
    while lexer.next_token().is_some() {}
    assert_eq!(lexer.warnings.len(), 1, "{:?}", lexer.warnings);
}

/// Found in a real PDN file (a draughts program's test games): `[Round 17]` without quotes
/// is read up to its `]`, with a warning, instead of refusing the game.
#[test]
fn tag_value_without_quotes_is_read_with_a_warning() {
    let tag = |name: &str, value: &str| Token::Tag {
        name: name.into(),
        value: value.into(),
    };
    let mut lexer = Lexer::new("[Round 17]\n[Date  1.1.1965 ]\n1. c3-d4", Dialect::Pdn);
    let mut seen = Vec::new();
    while let Some(t) = lexer.next_token() {
        seen.push(t.expect("token").token);
    }
    assert_eq!(
        seen,
        [
            tag("Round", "17"),
            tag("Date", "1.1.1965"),
            Token::MoveNumber,
            mv("c3-d4")
        ]
    );
    assert_eq!(
        lexer.warnings,
        [
            (
                1,
                "tag [Round]: the value is not in quotes: read as \"17\"".to_string()
            ),
            (
                2,
                "tag [Date]: the value is not in quotes: read as \"1.1.1965\"".to_string()
            ),
        ]
    );
}

#[test]
fn comments_nags_variations_results() {
    let t = ok_tokens(
        "1. e4!? {a  good\n move} e5 $14 (1... c5 ; sharp\n) 2. Nf3?? 1/2-1/2",
        Dialect::Pgn,
    );
    assert_eq!(
        t,
        [
            Token::MoveNumber,
            mv("e4"),
            Token::Nag(5),
            Token::Comment("a good move".into()),
            mv("e5"),
            Token::Nag(14),
            Token::Open,
            Token::MoveNumber,
            mv("c5"),
            Token::Comment("sharp".into()),
            Token::Close,
            Token::MoveNumber,
            mv("Nf3"),
            Token::Nag(4),
            Token::Result(RecordResult::Draw),
        ]
    );
}

#[test]
fn dialects_differ_on_0_0_and_nested_braces() {
    assert_eq!(ok_tokens("0-0", Dialect::Pgn), [mv("0-0")]);
    assert_eq!(
        ok_tokens("0-0", Dialect::Pdn),
        [Token::Result(RecordResult::Unknown)]
    );
    assert_eq!(
        ok_tokens("2-0", Dialect::Pdn),
        [Token::Result(RecordResult::WhiteWins)]
    );
    assert_eq!(
        ok_tokens("1. ed4 1/2:1/2", Dialect::Pdn),
        [
            Token::MoveNumber,
            mv("ed4"),
            Token::Result(RecordResult::Draw)
        ]
    );
    assert_eq!(
        ok_tokens("0:1", Dialect::Pdn),
        [Token::Result(RecordResult::BlackWins)]
    );
    assert_eq!(ok_tokens("0:1", Dialect::Pgn), [mv("0:1")]);
    assert_eq!(
        ok_tokens("{a {b}", Dialect::Pgn),
        [Token::Comment("a {b".into())]
    );
    let r = tokens("{a {b} c}", Dialect::Pdn);
    assert!(
        r[0].clone().unwrap_err().contains("nested comment"),
        "{r:?}"
    );
}

#[test]
fn pdn_move_strength_and_line_escape() {
    let t = ok_tokens("% escape\n1.32-28!? 19-23(!?) 2.28x19 *", Dialect::Pdn);
    assert_eq!(
        t,
        [
            Token::MoveNumber,
            mv("32-28"),
            Token::Nag(5),
            mv("19-23"),
            Token::Nag(5),
            Token::MoveNumber,
            mv("28x19"),
            Token::Result(RecordResult::Unknown),
        ]
    );
}

#[test]
fn lines_and_blank_lines() {
    let mut lexer = Lexer::new("[A \"1\"]\r\n\r\n[B \"2\"]\r\n[C \"3\"]\re4", Dialect::Pgn);
    let mut seen = Vec::new();
    while let Some(t) = lexer.next_token() {
        let t = t.expect("token");
        seen.push((t.line, t.after_blank));
    }
    assert_eq!(seen, [(1, false), (3, true), (4, false), (5, false)]);
}

#[test]
fn stray_and_unclosed_things_are_errors() {
    for (text, message) in [
        ("}", "without a comment"),
        ("{ open", "not closed"),
        ("$", "without a number"),
        ("\"", "unexpected"),
        ("[ \"x\"]", "without a name"),
        ("[A x", "must be a \"string\""),
    ] {
        let r = tokens(text, Dialect::Pgn);
        assert!(
            r.iter()
                .any(|t| t.as_ref().is_err_and(|e| e.contains(message))),
            "{text}: {r:?}"
        );
    }
}
