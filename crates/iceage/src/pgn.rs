//! Ice Age Chess's part in PGN records (C13-C14): the syntax, the replay and the writer
//! are the shared ones of [`game::records`]; this module gives the tags and the Ice Age
//! comment.
//!
//! - Written: the Seven Tag Roster (Event, Site, Date, Round, White, Black, Result), then
//!   `Variant "Ice Age"`, `SetUp "1"`, `FEN` (always: the start is never chess's),
//!   `Termination` (the [`game::EndReason`] of the final position, e.g. `checkmate`,
//!   `frozen king`; else the record's own tag, else `unterminated`), then any other tag;
//!   SAN moves, and the Ice Age as a comment after the Black move that brings it
//!   (`{Ice Age: Rh8 frozen}`, C13).
//! - Read: `[Variant]` first: `Ice Age`, `Ice Age Chess` or `iceage` in any case is read; a
//!   game of any other variant (`Standard`, `From Position`, `Chess960` ...) is refused by
//!   name, and so is a game without a `Variant` tag whose `FEN` is chess's start position
//!   or has no ice, and a PDN game (`GameType`). Without `Variant` and `FEN` the game starts from C4 (an
//!   error at its first move says so). Moves in SAN or UCI (C13). A comment is commentary: an `{Ice Age ...}`
//!   comment that lists frozen pieces (in any order; a pawn as `h4` or `Ph4`; `nothing`
//!   for none) is compared with what the replay froze and, when it differs, kept with a
//!   warning; any other comment is kept as it is.

use game::records::{
    Dialect, FenTag, NoteCheck, RecordFormat, RecordRules, TaggedGame, game_type_tag, variant_tag,
};
use shakmaty::{Role, Square};

use crate::{IceAge, Move, Position};

/// The board field of chess's start position: a game that starts there without a
/// `[Variant]` tag is a standard chess game.
const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

/// An ice cube in a FEN's board field (C12).
const ICE: char = '*';

impl RecordRules for IceAge {
    const FORMAT: RecordFormat = RecordFormat {
        dialect: Dialect::Pgn,
        roster: &[
            ("Event", "?"),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", "?"),
            ("White", "?"),
            ("Black", "?"),
        ],
        game_tag: ("Variant", "Ice Age"),
        fen: FenTag::Always,
        termination: true,
    };

    fn check_game_tags(tags: &[(String, String)]) -> Result<(), (Option<usize>, String)> {
        let refuse = |i: usize, what: String| {
            Err((
                Some(i),
                format!(
                    "this is {what} ([{} \"{}\"]); icebound reads Ice Age Chess here \
                     ([Variant \"Ice Age\"])",
                    tags[i].0,
                    game::excerpt(&tags[i].1)
                ),
            ))
        };
        let find = |name: &str| tags.iter().position(|(n, _)| n == name);
        if let Some(i) = find("Variant") {
            return match variant_tag(&tags[i].1) {
                TaggedGame::IceAgeChess => Ok(()),
                other => refuse(i, other.describe(&tags[i].1)),
            };
        }
        if let Some(i) = find("GameType") {
            return refuse(i, game_type_tag(&tags[i].1).describe(&tags[i].1));
        }
        if let Some(i) = find("FEN") {
            let board = tags[i].1.split_whitespace().next().unwrap_or("");
            let why = if board == CHESS_START {
                Some("chess's start position")
            } else if !board.contains(ICE) && crate::fen::parse(&tags[i].1).is_ok() {
                // Chess programs write a set-up game (an opening, a study) this way; an Ice
                // Age record names its variant (C14), so an untagged FEN without ice is chess.
                // A FEN that does not parse is left to the FEN error.
                Some("a FEN without ice")
            } else {
                None
            };
            if let Some(why) = why {
                return Err((
                    Some(i),
                    format!(
                        "this is a standard chess game ({why} and no [Variant] tag, C14a); \
                         icebound reads Ice Age Chess here (a position without ice is read \
                         with [Variant \"Ice Age\"])"
                    ),
                ));
            }
        }
        Ok(())
    }

    fn first_move_hint(tags: &[(String, String)]) -> Option<String> {
        let tagged = tags.iter().any(|(n, _)| n == "Variant" || n == "FEN");
        (!tagged).then(|| {
            "without [Variant] and [FEN] tags a game starts from the Ice Age Chess start \
             (C4); a standard chess game is not read"
                .to_string()
        })
    }

    fn read_move(pos: &Position, text: &str) -> Result<Move, String> {
        use game::Variant;
        IceAge::parse_move(pos, text).map_err(|e| {
            if looks_like_draughts(text) {
                format!(
                    "{e}; '{}' is written as a draughts move: an Antarctos record is not \
                     read as Ice Age Chess",
                    game::excerpt(text)
                )
            } else {
                e.to_string()
            }
        })
    }

    fn move_note(pos: &Position, mv: &Move) -> Option<String> {
        crate::ice_age_comment(pos, mv)
    }

    fn check_note(pos: &Position, mv: &Move, comment: &str) -> NoteCheck {
        let Some(claimed) = claimed_freeze(comment) else {
            return NoteCheck::Prose;
        };
        let Some(report) = pos.ice_age_report(mv) else {
            return NoteCheck::Differs("this move brings no Ice Age (C5)".into());
        };
        let same = claimed.len() == report.frozen.len()
            && claimed.iter().all(|(sq, role)| {
                report
                    .frozen
                    .iter()
                    .any(|(f, piece)| f == sq && role.is_none_or(|r| r == piece.role))
            });
        if same {
            NoteCheck::Same
        } else {
            NoteCheck::Differs(format!(
                "the Ice Age it brings is {{{}}} (C6)",
                report.comment()
            ))
        }
    }
}

/// The frozen pieces an `{Ice Age ...}` comment claims, as squares with the role when
/// named: `Ice Age` or `Ice Age: nothing frozen` is none; `Ice Age: Rh1, Ph4, b5 frozen`
/// three. `None` for a comment that claims nothing this way (`Ice Age is coming`, prose).
fn claimed_freeze(comment: &str) -> Option<Vec<(Square, Option<Role>)>> {
    let text = comment.trim();
    let rest = text
        .get(..7)
        .filter(|head| head.eq_ignore_ascii_case("ice age"))
        .map(|_| &text[7..])?;
    let list = match rest.trim_start().strip_prefix(':') {
        Some(list) => list,
        None if rest.trim().is_empty() || rest.trim() == "." => "",
        None => return None,
    };
    let list = list.trim().trim_end_matches('.').trim();
    let list = strip_suffix_ignore_case(list, "frozen").trim();
    if ["", "nothing", "none", "no pieces", "-"]
        .iter()
        .any(|n| list.eq_ignore_ascii_case(n))
    {
        return Some(Vec::new());
    }
    let mut pieces = Vec::new();
    for item in list
        .split([',', ' '])
        .map(str::trim)
        .filter(|i| !i.is_empty() && !i.eq_ignore_ascii_case("and"))
    {
        let (role, square) = match item.chars().next() {
            Some(c @ ('K' | 'Q' | 'R' | 'B' | 'N' | 'P')) => {
                (Some(Role::from_char(c.to_ascii_lowercase())?), &item[1..])
            }
            _ => (None, item),
        };
        pieces.push((square.parse::<Square>().ok()?, role));
    }
    Some(pieces)
}

fn strip_suffix_ignore_case<'a>(text: &'a str, suffix: &str) -> &'a str {
    let cut = text.len().saturating_sub(suffix.len());
    match text.get(cut..) {
        Some(tail) if tail.eq_ignore_ascii_case(suffix) => &text[..cut],
        _ => text,
    }
}

/// Whether `text` is written as a draughts move: squares joined by `-`, `x` or `:` with no
/// piece letter (`c3-d4`, `22-18`, `c3xe5xg3`, `9:18`). Chess's own long form (`e2-e4`) also
/// matches, so this only adds a hint to a move that did not read.
fn looks_like_draughts(text: &str) -> bool {
    let squares: Vec<&str> = text
        .trim_end_matches(['*', '+', '#', '!', '?'])
        .split(['-', 'x', ':'])
        .collect();
    squares.len() >= 2
        && squares.iter().all(|s| {
            let b = s.as_bytes();
            let algebraic =
                b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]);
            let numeric = (1..=2).contains(&b.len()) && b.iter().all(u8::is_ascii_digit);
            algebraic || numeric
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c13_claims_in_any_spelling() {
        let sq = |s: &str| s.parse::<Square>().expect("square");
        assert_eq!(claimed_freeze("Ice Age"), Some(vec![]));
        assert_eq!(claimed_freeze("Ice Age: nothing frozen"), Some(vec![]));
        assert_eq!(
            claimed_freeze("Ice Age: Rh1, Ph4, b5 frozen"),
            Some(vec![
                (sq("h1"), Some(Role::Rook)),
                (sq("h4"), Some(Role::Pawn)),
                (sq("b5"), None)
            ])
        );
        assert_eq!(
            claimed_freeze("ice age: Ke1 and Kd7 frozen."),
            Some(vec![
                (sq("e1"), Some(Role::King)),
                (sq("d7"), Some(Role::King))
            ])
        );
        assert_eq!(
            claimed_freeze("Ice Age is coming: both sides keep their pieces together"),
            None
        );
        assert_eq!(claimed_freeze("Ice Age: devastating for Black"), None);
        assert_eq!(claimed_freeze("a quiet move"), None);
    }
}
