//! Antarctos's part in PDN records (A19): the syntax, the replay and the writer are the
//! shared ones of [`game::records`]; this module gives the tags and the square notations.
//!
//! - Written: the tags Event, Site, Date, White, Black, Result, then `GameType "Antarctos"`,
//!   `FEN` (A18 text) when the start is not A3, then any other tag; moves numbered like
//!   chess (`1. c3-d4 f6-e5`, `1... c7-b6` for a Black start) in canonical A16 text.
//! - Read: `[GameType]` first: absent, `Antarctos` (any case) or `25` (Russian draughts:
//!   the same board, numbering and start; its games replay until a move Antarctos forbids)
//!   is read; any other value refuses the game by name (`20` is international draughts).
//!   The `FEN` tag in A18 text or in the numeric form of Russian draughts (see [`squares`]);
//!   moves in every A17 form or with numeric squares (`22-18`, `9x18x27`, `18:27`).

mod squares;

use game::records::{
    Dialect, FenTag, RecordFormat, RecordRules, TaggedGame, game_type_tag, variant_tag,
};

use crate::{Antarctos, Move, Position, notation};

impl RecordRules for Antarctos {
    const FORMAT: RecordFormat = RecordFormat {
        dialect: Dialect::Pdn,
        roster: &[
            ("Event", "?"),
            ("Site", "?"),
            ("Date", "?"),
            ("White", "?"),
            ("Black", "?"),
        ],
        game_tag: ("GameType", "Antarctos"),
        fen: FenTag::WhenNotStart,
        termination: false,
    };

    fn check_game_tags(tags: &[(String, String)]) -> Result<(), (Option<usize>, String)> {
        let refuse = |i: usize, what: String| {
            Err((
                Some(i),
                format!(
                    "this is {what} ([{} \"{}\"]); icebound reads Antarctos records here \
                     (GameType \"Antarctos\", or \"25\" for Russian draughts)",
                    tags[i].0,
                    game::excerpt(&tags[i].1)
                ),
            ))
        };
        for (i, (name, value)) in tags.iter().enumerate() {
            match name.as_str() {
                "GameType" => match game_type_tag(value) {
                    TaggedGame::Antarctos | TaggedGame::Draughts(_, 25) => {}
                    other => return refuse(i, other.describe(value)),
                },
                "Variant" => {
                    if let chess @ (TaggedGame::IceAgeChess | TaggedGame::OtherChess(_)) =
                        variant_tag(value)
                    {
                        return refuse(i, chess.describe(value));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn read_position(text: &str) -> Result<Position, String> {
        let text = squares::fen_to_position_text(text)?;
        crate::fen::parse(&text).map_err(|e| e.to_string())
    }

    fn read_move(pos: &Position, text: &str) -> Result<Move, String> {
        let Some((numbers, capture)) = numeric_squares(text) else {
            return notation::parse_move(pos, text).map_err(|e| e.to_string());
        };
        let squares = numbers
            .iter()
            .map(|&n| squares::numeric_to_algebraic(n))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|m| format!("'{}': {m}", game::excerpt(text)))?;
        let algebraic = squares.join(if capture { "x" } else { "-" });
        // The rules' message quotes the algebraic text; the record's own is shown first.
        notation::parse_move(pos, &algebraic).map_err(|e| {
            format!(
                "'{}' ({algebraic} on the 8x8 board): {e}",
                game::excerpt(text)
            )
        })
    }
}

/// The squares of a move written with numbers (`22-18`, `9x18x27`, `18:27`), and whether
/// it is a capture; `None` for any other text.
fn numeric_squares(text: &str) -> Option<(Vec<u32>, bool)> {
    let core = text.trim_end_matches(['#', '+']);
    if !core.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let capture = core.contains(['x', 'X', ':']);
    if capture && core.contains('-') {
        return None;
    }
    let mut numbers = Vec::new();
    for part in core.split(['-', 'x', 'X', ':']) {
        if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        numbers.push(part.parse().ok()?);
    }
    (numbers.len() >= 2).then_some((numbers, capture))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_moves_are_told_from_algebraic_ones() {
        assert_eq!(numeric_squares("22-18"), Some((vec![22, 18], false)));
        assert_eq!(numeric_squares("9x18x27"), Some((vec![9, 18, 27], true)));
        assert_eq!(numeric_squares("18:27#"), Some((vec![18, 27], true)));
        assert_eq!(numeric_squares("c3-d4"), None);
        assert_eq!(numeric_squares("22-18x9"), None);
        assert_eq!(numeric_squares("22"), None);
    }
}
