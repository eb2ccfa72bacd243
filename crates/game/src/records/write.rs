//! The writer: one game as PGN or PDN text that the reader reads back to the same record
//! (tags, start, moves, result, comments, NAGs, variations).
//!
//! - Tags: the format's roster in order (a missing one gets its default), `Result`, the
//!   game tag, `SetUp`/`FEN` as the format wants, `Termination` (PGN), then the record's
//!   other tags in order; values escaped (`\"`, `\\`).
//! - Move text: numbered like chess (`1. c3-d4 f6-e5`, `12... Nf6` when Black's move opens
//!   a line or follows a comment or variation), the game's canonical move text, a NAG of
//!   1-6 as its glyph (`e4!?`) and others as `$n`, the move's note (the Ice Age) as a
//!   comment, then its comments and variations, then the result. Lines stay under 80
//!   columns: a comment is broken between words (the reader collapses spaces).
//! - A comment the braces cannot hold (a `}`; a `{` in PDN) is written as a `;` comment.
//! - A move of a hand-made record that is not legal in turn ends its line with a comment
//!   saying so.

use super::lexer::{Dialect, glyph_nag};
use super::{FenTag, RecordRules};
use crate::{Color, Line, MoveNotes, Record};

/// Move text lines stay under 80 columns.
pub const MAX_LINE: usize = 79;

/// Writes a PGN/PDN tag pair `[Name "value"]` and a newline, with `\\` and `"` escaped as
/// both standards require (a line end in the value becomes a space: tags are one line).
///
/// ```
/// let mut out = String::new();
/// game::write_tag(&mut out, "White", r#"a "b" \c"#);
/// assert_eq!(out, "[White \"a \\\"b\\\" \\\\c\"]\n");
/// ```
pub fn write_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ");
    out.push_str(&format!("[{name} \"{escaped}\"]\n"));
}

/// True for a name the reader reads as a tag name.
fn valid_tag_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Writes one game (see the module documentation), ending with a newline.
pub fn write<V: RecordRules>(record: &Record<V>) -> String {
    let format = V::FORMAT;
    let mut out = String::new();
    for (name, default) in format.roster {
        write_tag(&mut out, name, record.tag(name).unwrap_or(default));
    }
    write_tag(&mut out, "Result", record.result.as_str());
    write_tag(&mut out, format.game_tag.0, format.game_tag.1);
    match format.fen {
        FenTag::Always => {
            write_tag(&mut out, "SetUp", "1");
            write_tag(&mut out, "FEN", &V::position_text(&record.start));
        }
        FenTag::WhenNotStart => {
            if record.start != V::start_position() {
                write_tag(&mut out, "FEN", &V::position_text(&record.start));
            }
        }
    }

    let mut writer = Writer::<V> {
        units: Vec::new(),
        dialect: format.dialect,
        _variant: std::marker::PhantomData,
    };
    let nodes = record
        .moves
        .iter()
        .enumerate()
        .map(|(i, mv)| (mv, record.notes.get(i)));
    let end = writer.line(&record.start, &record.comments, nodes);

    let derived: [&str; 5] = ["Result", "SetUp", "FEN", "Termination", format.game_tag.0];
    if format.termination {
        let termination = match end.and_then(|pos| V::outcome(&pos)) {
            Some(outcome) => outcome.reason().as_str().to_string(),
            None => record
                .tag("Termination")
                .unwrap_or("unterminated")
                .to_string(),
        };
        write_tag(&mut out, "Termination", &termination);
    }
    for (name, value) in &record.tags {
        let roster = format.roster.iter().any(|(r, _)| r == name);
        let derived =
            derived.contains(&name.as_str()) && (name != "Termination" || format.termination);
        if !roster && !derived && valid_tag_name(name) {
            write_tag(&mut out, name, value);
        }
    }
    out.push('\n');
    writer.units.push(record.result.as_str().to_string());
    wrap(&mut out, &writer.units);
    out
}

struct Writer<V> {
    units: Vec<String>,
    dialect: Dialect,
    _variant: std::marker::PhantomData<V>,
}

impl<V: RecordRules> Writer<V> {
    /// Writes a line from `start`; the position at its end, `None` when a move was not
    /// legal in turn.
    fn line<'a>(
        &mut self,
        start: &V::Position,
        comments: &[String],
        nodes: impl Iterator<Item = (&'a V::Move, Option<&'a MoveNotes<V::Move>>)>,
    ) -> Option<V::Position> {
        let mut number_black = true;
        for comment in comments {
            self.comment(comment);
        }
        let mut pos = start.clone();
        for (i, (mv, notes)) in nodes.enumerate() {
            let text = V::move_text(&pos, mv);
            let number = V::fullmove_number(&pos);
            let mut unit = match V::side_to_move(&pos) {
                Color::White => format!("{number}. {text}"),
                Color::Black if number_black => format!("{number}... {text}"),
                Color::Black => text,
            };
            let next = match V::play(&pos, mv) {
                Ok(next) => next,
                Err(e) => {
                    self.comment(&format!("move {} is not legal here: {e}", i + 1));
                    return None;
                }
            };
            number_black = false;
            let nags: &[u8] = notes.map_or(&[], |n| &n.nags);
            let mut rest = nags;
            if let Some((&first, tail)) = nags.split_first()
                && let Some(glyph) = glyph(first)
            {
                unit.push_str(glyph);
                rest = tail;
            }
            self.units.push(unit);
            for nag in rest {
                self.units.push(format!("${nag}"));
            }
            if let Some(note) = V::move_note(&pos, mv) {
                self.comment(&note);
                number_black = true;
            }
            if let Some(notes) = notes {
                for comment in &notes.comments {
                    self.comment(comment);
                    number_black = true;
                }
                for variation in &notes.variations {
                    self.variation(&pos, variation);
                    number_black = true;
                }
            }
            pos = next;
        }
        Some(pos)
    }

    /// `(` ... `)` around a variation from `pos`.
    fn variation(&mut self, pos: &V::Position, line: &Line<V::Move>) {
        let first = self.units.len();
        self.line(
            pos,
            &line.comments,
            line.nodes.iter().map(|n| (&n.mv, Some(&n.notes))),
        );
        if self.units.len() == first {
            self.units.push("()".into());
            return;
        }
        self.units[first].insert(0, '(');
        let last = self.units.len() - 1;
        self.units[last].push(')');
    }

    /// A comment: `{text}` split between words, or `; text` and a line end when the
    /// braces cannot hold it.
    fn comment(&mut self, text: &str) {
        let nested = self.dialect == Dialect::Pdn && text.contains('{');
        if text.contains('}') || nested {
            if !text.contains(['\n', '\r']) {
                self.units.push(format!("; {text}\n"));
                return;
            }
            let safe = text.replace('{', "(").replace('}', ")");
            return self.comment(&safe);
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            [] => self.units.push("{}".into()),
            [one] => self.units.push(format!("{{{one}}}")),
            [first, middle @ .., last] => {
                self.units.push(format!("{{{first}"));
                self.units.extend(middle.iter().map(|w| w.to_string()));
                self.units.push(format!("{last}}}"));
            }
        }
    }
}

/// The glyph of NAGs 1-6.
fn glyph(nag: u8) -> Option<&'static str> {
    ["!", "?", "!!", "??", "!?", "?!"]
        .into_iter()
        .find(|g| glyph_nag(g) == Some(nag))
}

/// Appends `units` joined by spaces in lines of at most [`MAX_LINE`] characters (a longer
/// unit gets a line of its own); a unit ending with a line end ends its line.
fn wrap(out: &mut String, units: &[String]) {
    let mut column = 0;
    for unit in units {
        let head = unit.split('\n').next().unwrap_or("").chars().count();
        if column > 0 {
            if column + 1 + head > MAX_LINE {
                out.push('\n');
                column = 0;
            } else {
                out.push(' ');
                column += 1;
            }
        }
        out.push_str(unit);
        column = match unit.rfind('\n') {
            Some(i) => unit[i + 1..].chars().count(),
            None => column + head,
        };
    }
    if column > 0 {
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrapped(units: &[&str]) -> String {
        let units: Vec<String> = units.iter().map(|u| u.to_string()).collect();
        let mut out = String::new();
        wrap(&mut out, &units);
        out
    }

    #[test]
    fn wrapping_keeps_lines_short_and_ends_line_comments() {
        let units: Vec<String> = (1..60).map(|i| format!("{i}. c3-d4xf6xd8")).collect();
        let mut out = String::new();
        wrap(&mut out, &units);
        assert!(out.lines().all(|l| l.chars().count() <= MAX_LINE), "{out}");
        assert_eq!(out.split_whitespace().count(), 2 * units.len());
        assert_eq!(
            wrapped(&["1. e4", "; a } b\n", "e5", "*"]),
            "1. e4 ; a } b\ne5 *\n"
        );
        assert_eq!(wrapped(&["(1. e4", "; x\n)", "*"]), "(1. e4 ; x\n) *\n");
    }

    #[test]
    fn glyphs_are_nags_1_to_6() {
        assert_eq!(glyph(5), Some("!?"));
        assert_eq!(glyph(7), None);
    }
}
