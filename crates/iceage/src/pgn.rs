//! PGN game records for Ice Age Chess (C13-C14): reading whole files and writing one game.
//!
//! Reading: pgn-reader 0.29 splits the text into games and hands over tags, SAN tokens,
//! comments and results (variations are skipped); [`scan`] reads the same text again for
//! line numbers and for the tokens pgn-reader passes over in silence. Each game is then
//! replayed through [`Variant::parse_move`] (which reads `x` onto ice, C13) and
//! [`Variant::play`], so each entry is a legal game or its first error (game, move number,
//! side, line, why). An `{Ice Age ...}` comment is informative, and checked: a move that
//! carries one must bring that very Ice Age (C5-C6).
//!
//! Writing (C14): the Seven Tag Roster (Event, Site, Date, Round, White, Black, Result),
//! then `Variant "Ice Age"`, `SetUp "1"`, `FEN` (always: the start is never the standard
//! one), `Termination` (the [`game::EndReason`] text of the final position, e.g.
//! `checkmate`, `frozen king`; else the record's own tag, else `unterminated`), then any
//! other tag; SAN moves numbered, the Ice Age as a comment after Black's move
//! (`{Ice Age: Rh8 frozen}`, C13), the result, lines under 80 columns. What it writes reads
//! back identically.

mod scan;

use std::io::Cursor;
use std::ops::ControlFlow;

use game::{Color, Record, RecordError, RecordResult, Variant, write_tag, write_wrapped};
use pgn_reader::{KnownOutcome, Outcome, RawComment, RawTag, Reader, SanPlus, Visitor};

use crate::IceAge;

/// The Seven Tag Roster, in PGN order, with the value written when a tag is absent.
const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];
/// Tags the writer derives from the record itself.
const DERIVED: [&str; 5] = ["Result", "Variant", "SetUp", "FEN", "Termination"];
/// Lines of move text stay under 80 columns.
const MAX_LINE: usize = 79;

/// A function giving the Ice Age comment a move brings, `None` when it brings none.
type IceAgeNote<V> = fn(&<V as Variant>::Position, &<V as Variant>::Move) -> Option<String>;

/// The Ice Age comment of `mv` in `pos` (C13), from the rules crate.
fn ice_age_note(pos: &crate::Position, mv: &crate::Move) -> Option<String> {
    crate::ice_age_comment(pos, mv)
}

/// Writes one game as PGN (C14), ending with a newline.
pub fn write_record(record: &Record<IceAge>) -> String {
    write_game::<IceAge>(record, ice_age_note)
}

/// Reads every game of a PGN text; each entry is a replayed game or its first error.
/// `FEN` becomes `record.start` and `SetUp` is dropped (both are derived when writing);
/// every other tag is kept in file order. The result is the game terminator, else the
/// `Result` tag, else `*`.
pub fn read_records(text: &str) -> Vec<Result<Record<IceAge>, RecordError>> {
    read_games::<IceAge>(text, ice_age_note)
}

fn write_game<V: Variant>(record: &Record<V>, note: IceAgeNote<V>) -> String {
    let mut out = String::new();
    for (name, default) in ROSTER {
        write_tag(&mut out, name, record.tag(name).unwrap_or(default));
    }
    write_tag(&mut out, "Result", record.result.as_str());
    write_tag(&mut out, "Variant", "Ice Age");
    write_tag(&mut out, "SetUp", "1");
    write_tag(&mut out, "FEN", &V::position_text(&record.start));

    let mut units = Vec::new();
    let mut pos = record.start.clone();
    let mut number_black = true;
    let mut legal = true;
    for (i, mv) in record.moves.iter().enumerate() {
        let san = V::move_text(&pos, mv);
        let number = V::fullmove_number(&pos);
        let comment = note(&pos, mv);
        units.push(match V::side_to_move(&pos) {
            Color::White => format!("{number}. {san}"),
            Color::Black if number_black => format!("{number}... {san}"),
            Color::Black => san,
        });
        number_black = false;
        if let Some(c) = comment {
            units.push(format!("{{{}}}", c.replace('}', ")")));
            number_black = true;
        }
        match V::play(&pos, mv) {
            Ok(next) => pos = next,
            Err(e) => {
                units.pop();
                // Braces would open or close the comment early.
                let why = e.to_string().replace(['{', '}'], "");
                units.push(format!("{{move {} is not legal here: {why}}}", i + 1));
                legal = false;
                break;
            }
        }
    }
    let termination = match V::outcome(&pos) {
        Some(outcome) if legal => outcome.reason().as_str().to_string(),
        _ => record
            .tag("Termination")
            .unwrap_or("unterminated")
            .to_string(),
    };
    write_tag(&mut out, "Termination", &termination);
    for (name, value) in &record.tags {
        if !ROSTER.iter().any(|(r, _)| r == name) && !DERIVED.contains(&name.as_str()) {
            write_tag(&mut out, name, value);
        }
    }
    out.push('\n');
    units.push(record.result.as_str().to_string());
    write_wrapped(&mut out, &units, MAX_LINE);
    out
}

/// Two Ice Age comments tell the same event when they name the same frozen pieces, in any
/// order (`Ice Age: Ke1, Rh1 frozen` is `Ice Age: Rh1, Ke1 frozen`).
fn same_ice_age(a: &str, b: &str) -> bool {
    fn pieces(comment: &str) -> Vec<&str> {
        let list = comment
            .trim()
            .trim_start_matches("Ice Age")
            .trim_start_matches(':');
        let mut pieces: Vec<&str> = list
            .trim()
            .trim_end_matches("frozen")
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        pieces.sort_unstable();
        pieces
    }
    pieces(a) == pieces(b)
}

/// One game as pgn-reader hands it over.
#[derive(Debug, Default)]
struct RawGame {
    tags: Vec<(String, String)>,
    /// Main-line SAN text, each with the comments that follow it.
    moves: Vec<(String, Vec<String>)>,
    result: Option<RecordResult>,
}

/// The visitor: collects a [`RawGame`]; variations are skipped (the default).
struct Collector;

/// Unescapes `\"` and `\\` in a raw tag value (pgn-reader's own decoding mishandles an
/// escaped backslash right before an escaped quote).
fn unescape(raw: &[u8]) -> String {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\\' && matches!(raw.get(i + 1), Some(b'\\' | b'"')) {
            i += 1;
        }
        out.push(raw[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Visitor for Collector {
    type Tags = Vec<(String, String)>;
    type Movetext = RawGame;
    type Output = RawGame;

    fn begin_tags(&mut self) -> ControlFlow<RawGame, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<RawGame> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            unescape(value.as_bytes()),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<RawGame, RawGame> {
        ControlFlow::Continue(RawGame {
            tags,
            ..RawGame::default()
        })
    }

    fn san(&mut self, game: &mut RawGame, san_plus: SanPlus) -> ControlFlow<RawGame> {
        game.moves.push((san_plus.to_string(), Vec::new()));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, game: &mut RawGame, comment: RawComment<'_>) -> ControlFlow<RawGame> {
        if let Some((_, comments)) = game.moves.last_mut() {
            comments.push(
                String::from_utf8_lossy(comment.as_bytes())
                    .trim()
                    .to_string(),
            );
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, game: &mut RawGame, outcome: Outcome) -> ControlFlow<RawGame> {
        game.result = Some(match outcome {
            Outcome::Known(KnownOutcome::Decisive {
                winner: shakmaty::Color::White,
            }) => RecordResult::WhiteWins,
            Outcome::Known(KnownOutcome::Decisive {
                winner: shakmaty::Color::Black,
            }) => RecordResult::BlackWins,
            Outcome::Known(KnownOutcome::Draw) => RecordResult::Draw,
            Outcome::Unknown => RecordResult::Unknown,
        });
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: RawGame) -> RawGame {
        game
    }
}

fn read_games<V: Variant>(text: &str, note: IceAgeNote<V>) -> Vec<Result<Record<V>, RecordError>> {
    let mut reader = Reader::build(Cursor::new(text.as_bytes()))
        .set_supported_tag_line_length(1 << 16)
        .set_supported_comment_length(1 << 16)
        .finish();
    let mut raw = Vec::new();
    // Every game consumes text, so this bounds the loop even if an error consumed none.
    for _ in 0..=text.len() {
        match reader.read_game(&mut Collector) {
            Ok(None) => break,
            Ok(Some(game)) => raw.push(Ok(game)),
            Err(e) => raw.push(Err(e)),
        }
    }
    let scans = scan::scan(text);
    // The scan splits games as pgn-reader does; if they ever disagree, lines are left out.
    let scans_fit = scans.len() == raw.len();
    raw.into_iter()
        .enumerate()
        .map(|(i, game)| {
            let scan = if scans_fit { scans.get(i) } else { None };
            match game {
                Ok(game) => replay::<V>(i + 1, game, scan, note),
                Err(e) => Err(RecordError {
                    game: i + 1,
                    move_number: None,
                    side: None,
                    line: scan.map(|s| s.line),
                    message: format!("unreadable PGN: {e}"),
                }),
            }
        })
        .collect()
}

fn replay<V: Variant>(
    game: usize,
    raw: RawGame,
    scan: Option<&scan::GameScan>,
    note: IceAgeNote<V>,
) -> Result<Record<V>, RecordError> {
    let tag_line = |name: &str| {
        scan.and_then(|s| s.tags.iter().find(|(n, _)| n == name).map(|(_, l)| *l))
            .or(scan.map(|s| s.line))
    };
    let mut tags = Vec::new();
    let mut start = None;
    for (name, value) in raw.tags {
        match name.as_str() {
            "FEN" => {
                let pos = V::parse_position(&value).map_err(|e| RecordError {
                    game,
                    move_number: None,
                    side: None,
                    line: tag_line("FEN"),
                    message: format!("FEN tag \"{value}\": {e}"),
                })?;
                start = Some(pos);
            }
            "SetUp" => {}
            _ => tags.push((name, value)),
        }
    }
    let start = start.unwrap_or_else(V::start_position);
    let tag_result = tags
        .iter()
        .find(|(k, _)| k == "Result")
        .and_then(|(_, v)| RecordResult::parse(v));
    // What pgn-reader passed over in silence rejects the game, whatever the moves before
    // it; its move number and side are counted from the start.
    if let Some(p) = scan.and_then(|s| s.problem.clone()) {
        let index = p.after_moves + usize::from(V::side_to_move(&start) == Color::Black);
        return Err(RecordError {
            game,
            move_number: Some(V::fullmove_number(&start) + (index / 2) as u32),
            side: Some(if index % 2 == 0 {
                Color::White
            } else {
                Color::Black
            }),
            line: Some(p.line),
            message: p.message,
        });
    }

    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(raw.moves.len());
    for (i, (san, comments)) in raw.moves.iter().enumerate() {
        let number = V::fullmove_number(&pos);
        let side = V::side_to_move(&pos);
        let error = |line: Option<usize>, message: String| RecordError {
            game,
            move_number: Some(number),
            side: Some(side),
            line,
            message,
        };
        let line = scan.and_then(|s| s.moves.get(i).copied());
        if let Some(outcome) = V::outcome(&pos) {
            return Err(error(
                line,
                format!("'{san}': the game is already over ({outcome})"),
            ));
        }
        // The rules' message quotes the move text itself.
        let mv = V::parse_move(&pos, san)
            .map_err(|e| error(line, format!("{e} ({})", game::legal_moves_hint::<V>(&pos))))?;
        // An `{Ice Age ...}` comment must tell what the replay does (C13).
        if let Some(claim) = comments.iter().find(|c| c.starts_with("Ice Age")) {
            match note(&pos, &mv) {
                None => {
                    return Err(error(
                        line,
                        format!(
                            "'{san}' is followed by {{{claim}}}, but this move brings no Ice Age (C5)"
                        ),
                    ));
                }
                Some(brought) if !same_ice_age(&brought, claim) => {
                    return Err(error(
                        line,
                        format!(
                            "'{san}' is followed by {{{claim}}}, but the Ice Age it brings is {{{brought}}} (C6)"
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
        pos = V::play(&pos, &mv).map_err(|e| error(line, format!("'{san}': {e}")))?;
        moves.push(mv);
    }
    Ok(Record {
        tags,
        start,
        moves,
        result: raw.result.or(tag_result).unwrap_or(RecordResult::Unknown),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw_games(text: &str) -> Vec<RawGame> {
        let mut reader = Reader::new(Cursor::new(text.as_bytes()));
        let mut out = Vec::new();
        while let Some(g) = reader.read_game(&mut Collector).expect("readable") {
            out.push(g);
        }
        out
    }

    #[test]
    fn c14_visitor_collects_tags_moves_comments_result() {
        let text = "[Event \"a \\\"quoted\\\" name\"]\n[White \"x\\\\\\\"y\"]\n\n\
                    1. exe3 {first} exe6 $1 (1... dxe6 2. Nf3) 2. Nxf3!? Ke7 {Ice Age: Ke7 frozen} 0-1\n";
        let games = raw_games(text);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tags[0].1, "a \"quoted\" name");
        assert_eq!(g.tags[1].1, "x\\\"y");
        let sans: Vec<&str> = g.moves.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(sans, ["exe3", "exe6", "Nxf3", "Ke7"]);
        assert_eq!(g.moves[0].1, ["first"]);
        assert_eq!(g.moves[3].1, ["Ice Age: Ke7 frozen"]);
        assert_eq!(g.result, Some(RecordResult::BlackWins));
    }

    /// The scan must split games where pgn-reader does, or lines would be left out.
    #[test]
    fn c14_scan_splits_games_like_pgn_reader() {
        for text in [
            "",
            "1. Nxf3 *",
            "[A \"1\"]\n\n1. Nxf3 {a\n\nb} Nxf6 *\n\n[A \"2\"]\n1. Nxh3 *",
            "[A \"1\"]\r\n\r\n1. Nxf3\r\n\r\n1. Nxh3 *\r\n",
            "% top\n[A \"1\"]\n% mid\n\n1. Nxf3 (1. Nxh3\n\n[B \"2\"]\n1. exd3 ; c [x]\n*\n",
            "\u{feff}1. Nxf3 1-0 1. Nxh3 0-1\n[C \"3\"] 1. e4\n\n\n\n",
            "[A \"x\"][B \"y\"]\n1. O-O 0-0-0 ½-½ $12 !? Zz9\n\n; end",
        ] {
            let mut reader = Reader::new(Cursor::new(text.as_bytes()));
            let mut count = 0;
            while let Ok(Some(_)) = reader.read_game(&mut Collector) {
                count += 1;
            }
            assert_eq!(scan::scan(text).len(), count, "{text:?}");
        }
    }

    /// The main-line move count of each game pgn-reader reads (`None` for an error).
    fn pgn_reader_games(text: &str) -> Vec<Option<usize>> {
        let mut reader = Reader::new(Cursor::new(text.as_bytes()));
        let mut games = Vec::new();
        for _ in 0..=text.len() {
            match reader.read_game(&mut Collector) {
                Ok(None) => break,
                Ok(Some(g)) => games.push(Some(g.moves.len())),
                Err(_) => games.push(None),
            }
        }
        games
    }

    proptest::proptest! {
        /// The same on random texts made of PGN pieces (tags, comments, variations, line
        /// comments, escapes, blank lines, CRLF, junk).
        #[test]
        fn c14_scan_and_pgn_reader_agree_on_random_text(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "[A \"x\"]", "[B \"a\\\"b\"]", "\n", "\r\n", " ", "\n\n", "{c}", "{", "}",
                "(", ")", "1.", "12...", "Nxf3", "exd3+", "O-O", "0-0", "Zz9", "*", "1-0",
                "1/2-1/2", "%x", ";y", "$3", "!?", "[", "]", "\"", "0-1", "½-½", "\t", "--",
                "e8=Q#", "Nxf3Zz9", "1Nxf3", "$", "ж",
            ]), 0..40),
        ) {
            let text: String = pieces.concat();
            let scans = scan::scan(&text);
            let games = pgn_reader_games(&text);
            proptest::prop_assert_eq!(scans.len(), games.len(), "{:?}", text);
            // Where the scan found nothing amiss, it saw the same moves (so lines match).
            for (scan, game) in scans.iter().zip(&games) {
                if let (None, Some(moves)) = (&scan.problem, game) {
                    proptest::prop_assert_eq!(scan.moves.len(), *moves, "{:?}", text);
                }
            }
        }
    }

    #[test]
    fn c14_unescape_round_trips_the_writer() {
        for value in ["plain", "a\"b", "a\\b", "\\\"", "end\\", "Ну и \"что\""] {
            let mut out = String::new();
            write_tag(&mut out, "T", value);
            let raw = out
                .trim_end()
                .strip_prefix("[T \"")
                .and_then(|s| s.strip_suffix("\"]"));
            assert_eq!(unescape(raw.expect("tag").as_bytes()), value);
        }
    }

    #[test]
    fn c14_wrapping_stays_under_80_columns() {
        let units: Vec<String> = (1..80).map(|i| format!("{i}. Nxe3+")).collect();
        let mut out = String::new();
        write_wrapped(&mut out, &units, MAX_LINE);
        assert!(out.lines().all(|l| l.chars().count() < 80));
    }
}
