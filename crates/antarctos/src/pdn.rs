//! PDN game records for Antarctos (A19): reading whole files and writing one game.
//!
//! Reading has two layers: [`syntax`] turns the text into games of tags and move tokens
//! (FMJD PDN 3.0 syntax, numeric or algebraic squares), then each game is replayed here
//! through [`Variant::parse_move`] (A16-A17) and [`Variant::play`], so every entry is a
//! legal game or the first thing wrong in it, with its game number, move number, side
//! and line. Numeric squares are translated with the 8x8 numbering of Russian and English
//! draughts (see [`squares`]).
//!
//! Writing follows A19: the tags Event, Site, Date, White, Black, Result, then
//! `GameType "Antarctos"`, `FEN` (A18 text) when the start is not A3, then any other tag;
//! moves numbered like chess (`1. c3-d4 f6-e5`, `1... c7-b6` for a Black start) in
//! canonical A16 text, the result, lines under 80 columns. What it writes reads back
//! identically.

mod squares;
mod syntax;

use game::{Color, Record, RecordError, RecordResult, Variant, write_tag, write_wrapped};

use crate::Antarctos;

/// Tags A19 requires, in the order they are written (GameType and FEN follow).
const ROSTER: [&str; 5] = ["Event", "Site", "Date", "White", "Black"];
/// Lines of move text stay under 80 columns.
const MAX_LINE: usize = 79;

/// Writes one game as PDN (A19), ending with a newline. Absent roster tags are written as
/// `"?"`; `Result` is `record.result`; a tag the format derives (`GameType`, `FEN`,
/// `Result`) is not copied from `record.tags`. A move that is not legal in turn (a record
/// built by hand) ends the move text with a comment saying so.
pub fn write_record(record: &Record<Antarctos>) -> String {
    write_game(record)
}

/// [`write_record`] over the [`Variant`] trait only.
fn write_game<V: Variant>(record: &Record<V>) -> String {
    let mut out = String::new();
    for name in ROSTER {
        write_tag(&mut out, name, record.tag(name).unwrap_or("?"));
    }
    write_tag(&mut out, "Result", record.result.as_str());
    write_tag(&mut out, "GameType", V::TITLE);
    if record.start != V::start_position() {
        write_tag(&mut out, "FEN", &V::position_text(&record.start));
    }
    for (name, value) in &record.tags {
        if !ROSTER.contains(&name.as_str())
            && !matches!(name.as_str(), "Result" | "GameType" | "FEN")
        {
            write_tag(&mut out, name, value);
        }
    }
    out.push('\n');

    let mut units = Vec::new();
    let mut pos = record.start.clone();
    for (i, mv) in record.moves.iter().enumerate() {
        let text = V::move_text(&pos, mv);
        let number = V::fullmove_number(&pos);
        let unit = match V::side_to_move(&pos) {
            game::Color::White => format!("{number}. {text}"),
            game::Color::Black if i == 0 => format!("{number}... {text}"),
            game::Color::Black => text,
        };
        match V::play(&pos, mv) {
            Ok(next) => {
                units.push(unit);
                pos = next;
            }
            Err(e) => {
                // Braces would open or close the comment early.
                let why = e.to_string().replace(['{', '}'], "");
                units.push(format!("{{move {} is not legal here: {why}}}", i + 1));
                break;
            }
        }
    }
    units.push(record.result.as_str().to_string());
    write_wrapped(&mut out, &units, MAX_LINE);
    out
}

/// Reads every game of a PDN text; each entry is a replayed game or its first error.
/// The `FEN` tag becomes `record.start` (it is not kept in `record.tags`); every other
/// tag is kept in file order. The result is the game terminator, else the `Result` tag,
/// else `*`.
pub fn read_records(text: &str) -> Vec<Result<Record<Antarctos>, RecordError>> {
    syntax::parse_games(text)
        .into_iter()
        .enumerate()
        .map(|(i, parsed)| match parsed {
            Ok(g) => replay::<Antarctos>(i + 1, g),
            Err(e) => Err(syntax_error::<Antarctos>(i + 1, e)),
        })
        .collect()
}

/// A syntax error as a [`RecordError`]. A syntax error rejects its game whatever the
/// moves before it; its move number and side are counted from the game's start (A3, or
/// the `FEN` tag: an Antarctos position read from text is at move 1).
fn syntax_error<V: Variant>(game: usize, e: syntax::SyntaxError) -> RecordError {
    let start = e
        .fen
        .as_deref()
        .and_then(|f| squares::fen_to_position_text(f).ok())
        .and_then(|t| V::parse_position(&t).ok())
        .unwrap_or_else(V::start_position);
    let location = e.plies.map(|plies| {
        let index = plies + usize::from(V::side_to_move(&start) == Color::Black);
        let number = V::fullmove_number(&start) + (index / 2) as u32;
        let side = if index % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        (number, side)
    });
    RecordError {
        game,
        move_number: location.map(|l| l.0),
        side: location.map(|l| l.1),
        line: Some(e.line),
        message: e.message,
    }
}

/// Replays one game under the Antarctos rules.
fn replay<V: Variant>(game: usize, parsed: syntax::Game) -> Result<Record<V>, RecordError> {
    let game_error = |line: usize, message: String| RecordError {
        game,
        move_number: None,
        side: None,
        line: Some(line),
        message,
    };
    let mut tags = Vec::new();
    let mut start = None;
    for tag in parsed.tags {
        if tag.name == "FEN" {
            let text = squares::fen_to_position_text(&tag.value)
                .map_err(|m| game_error(tag.line, format!("FEN tag \"{}\": {m}", tag.value)))?;
            let pos = V::parse_position(&text)
                .map_err(|e| game_error(tag.line, format!("FEN tag \"{}\": {e}", tag.value)))?;
            start = Some(pos);
        } else {
            tags.push((tag.name, tag.value));
        }
    }
    let start = start.unwrap_or_else(V::start_position);
    let tag_result = tags
        .iter()
        .find(|(k, _)| k == "Result")
        .and_then(|(_, v)| RecordResult::parse(v));

    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(parsed.moves.len());
    for token in parsed.moves {
        let number = V::fullmove_number(&pos);
        let side = V::side_to_move(&pos);
        let move_error = |message: String| RecordError {
            game,
            move_number: Some(number),
            side: Some(side),
            line: Some(token.line),
            message,
        };
        // `shown` prefixes the rules' message, which quotes the algebraic text itself.
        let (text, shown) = if token.numeric.is_empty() {
            (token.text.clone(), String::new())
        } else {
            let squares = token
                .numeric
                .iter()
                .map(|&n| squares::numeric_to_algebraic(n))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|m| move_error(format!("'{}': {m}", token.text)))?;
            let text = squares.join(if token.capture { "x" } else { "-" });
            let shown = format!("'{}' ({text} on the 8x8 board): ", token.text);
            (text, shown)
        };
        if let Some(outcome) = V::outcome(&pos) {
            let shown = if shown.is_empty() {
                format!("'{}': ", token.text)
            } else {
                shown
            };
            return Err(move_error(format!(
                "{shown}the game is already over ({outcome})"
            )));
        }
        let mv = V::parse_move(&pos, &text).map_err(|e| {
            move_error(format!(
                "{shown}{e} ({})",
                game::legal_moves_hint::<V>(&pos)
            ))
        })?;
        pos = V::play(&pos, &mv).map_err(|e| move_error(format!("{shown}{e}")))?;
        moves.push(mv);
    }
    Ok(Record {
        tags,
        start,
        moves,
        result: parsed
            .result
            .or(tag_result)
            .unwrap_or(RecordResult::Unknown),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `testdata/pdn`: copies of the published PDN files of `shared/data/pdn`.
    fn data_dir() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/pdn")
    }

    /// Every FMJD PDN 3.0 edge file that must succeed is read without a syntax error; the
    /// one that must fail names the nested comment and its line.
    #[test]
    fn a19_fmjd_edge_files_syntax() {
        let dir = data_dir().join("fmjd-pdn3-edge");
        let dir = dir.display();
        let mut seen = 0;
        for entry in std::fs::read_dir(format!("{dir}/succeed")).expect("edge files") {
            let path = entry.expect("entry").path();
            let text = std::fs::read_to_string(&path).expect("utf-8 file");
            let games = syntax::parse_games(&text);
            assert!(!games.is_empty(), "{path:?}");
            for g in games {
                assert!(g.is_ok(), "{path:?}: {g:?}");
            }
            seen += 1;
        }
        assert_eq!(seen, 8);
        let text = std::fs::read_to_string(format!("{dir}/fail/nested_comment.pdn")).expect("file");
        let games = syntax::parse_games(&text);
        assert_eq!(games.len(), 1);
        let e = games[0].clone().unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("nested comment"), "{e:?}");
    }

    #[test]
    fn a19_real_files_syntax() {
        let dir = data_dir();
        let dir = dir.display();
        let text =
            std::fs::read_to_string(format!("{dir}/ussr1950-x-ussr-ch-first5.pdn")).expect("file");
        let games: Vec<_> = syntax::parse_games(&text)
            .into_iter()
            .map(|g| g.expect("syntax"))
            .collect();
        assert_eq!(games.len(), 5);
        assert_eq!(games[0].moves.len(), 61);
        assert_eq!(games[0].result, Some(RecordResult::WhiteWins));
        assert_eq!(games[0].tags[0].value, "Блиндер Б.");
        let text =
            std::fs::read_to_string(format!("{dir}/mrcd2006-czech-first3.pdn")).expect("file");
        let games: Vec<_> = syntax::parse_games(&text)
            .into_iter()
            .map(|g| g.expect("syntax"))
            .collect();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].moves.len(), 43);
        assert_eq!(games[1].moves.len(), 79);
        assert_eq!(games[2].moves.len(), 70);
    }

    #[test]
    fn a19_wrapping_stays_under_80_columns() {
        let units: Vec<String> = (1..60).map(|i| format!("{i}. c3-d4xf6xd8")).collect();
        let mut out = String::new();
        write_wrapped(&mut out, &units, MAX_LINE);
        assert!(out.lines().all(|l| l.chars().count() < 80));
        assert_eq!(out.split_whitespace().count(), 2 * units.len());
    }
}
