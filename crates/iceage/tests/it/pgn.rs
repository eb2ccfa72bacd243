//! PGN records (C13-C14) through the shared record layer: a written game with an Ice Age,
//! hand-written PGN, bad input, the faults of issue 11 (one test and one file of
//! `testdata/records` each), and a round trip over random games (some passing an Ice Age).

use std::path::PathBuf;

use game::records::{self, Reading};
use game::{Color, Record, RecordError, RecordResult, Variant};
use iceage::IceAge;
use proptest::prelude::*;

type Pos = <IceAge as Variant>::Position;

fn data(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/records")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

fn read_data(name: &str) -> Reading<IceAge> {
    records::read_bytes::<IceAge>(&data(name))
}

fn err(entry: &Result<Record<IceAge>, RecordError>) -> &RecordError {
    match entry {
        Ok(r) => panic!("expected an error, got a game of {} moves", r.moves.len()),
        Err(e) => e,
    }
}

fn ok(entry: &Result<Record<IceAge>, RecordError>) -> &Record<IceAge> {
    match entry {
        Ok(r) => r,
        Err(e) => panic!("expected a game, got: {e}"),
    }
}

fn assert_error(e: &RecordError, game: usize, number: u32, side: Color, line: usize, text: &str) {
    assert_eq!(
        (e.game, e.move_number, e.side, e.line),
        (game, Some(number), Some(side), Some(line)),
        "{e}"
    );
    assert!(e.message.contains(text), "{e}");
}

/// Equal games, leaving out the tags (the writer adds the roster's defaults and a
/// Termination tag to a record read without them).
fn assert_same_game(a: &Record<IceAge>, b: &Record<IceAge>, text: &str) {
    assert_eq!(
        (&a.start, a.main_line(), a.result),
        (&b.start, b.main_line(), b.result),
        "{text}"
    );
}

/// The moves' SAN as the rules write them.
fn sans(r: &Record<IceAge>) -> Vec<String> {
    let mut pos = r.start.clone();
    r.moves
        .iter()
        .map(|m| {
            let t = IceAge::move_text(&pos, m);
            pos = IceAge::play(&pos, m).expect("legal");
            t
        })
        .collect()
}

/// The tags a record keeps so that it round-trips: the roster and `Termination` as the
/// writer derives it (the reader keeps `Termination`, and drops `Result`, `Variant`,
/// `SetUp`, `FEN`).
fn full_tags(record: &mut Record<IceAge>, roster: [&str; 6]) {
    let final_pos = record.final_position().expect("legal game");
    let termination = IceAge::outcome(&final_pos)
        .map(|o| o.reason().as_str().to_string())
        .unwrap_or_else(|| "unterminated".into());
    for (name, value) in ["Event", "Site", "Date", "Round", "White", "Black"]
        .into_iter()
        .zip(roster)
    {
        record.set_tag(name, value);
    }
    record.set_tag("Termination", termination);
}

/// C5, C13, C14: Black's 20th move brings the Ice Age; the writer notes it as a comment
/// after that move, and the game reads back equal.
#[test]
fn c14_written_game_with_ice_age_reads_back_equal() {
    // Rh1 stands alone, so the Ice Age after Black's 20th move freezes it (C6).
    let start = IceAge::parse_position("3rk3/8/8/8/8/8/8/3QK2R b K - 0 20").expect("FEN");
    let mut record = Record::<IceAge>::new(start.clone());
    let mut pos = start;
    let first = IceAge::parse_move(&pos, "Rd7").expect("Rd7");
    pos = IceAge::play(&pos, &first).expect("legal");
    record.moves.push(first);
    for _ in 0..5 {
        let moves = IceAge::legal_moves(&pos);
        let Some(mv) = moves.first().cloned() else {
            break;
        };
        pos = IceAge::play(&pos, &mv).expect("legal");
        record.moves.push(mv);
    }
    full_tags(
        &mut record,
        ["Ice \"test\"", "?", "2026.11.29", "1", "Белые", "\\Black\\"],
    );
    let text = IceAge::write_record(&record);
    assert!(
        text.contains(
            "[Variant \"Ice Age\"]\n[SetUp \"1\"]\n[FEN \"3rk3/8/8/8/8/8/8/3QK2R b K - 0 20\"]\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("\n\n20... Rd7 {Ice Age: Rh1 frozen} 21. "),
        "{text}"
    );
    assert!(
        text.contains("[White \"Белые\"]\n[Black \"\\\\Black\\\\\"]\n"),
        "{text}"
    );
    let back = IceAge::read_records(&text);
    assert_eq!(back.len(), 1);
    assert_eq!(ok(&back[0]), &record, "{text}");
}

/// C14: a hand-written game with comments, nested variations, NAGs, `!?`, escaped quotes,
/// Cyrillic, CRLF and a `%` line; with no FEN tag it starts from C4. The variations and
/// comments are kept as a tree.
#[test]
fn c14_hand_written_pgn_reads_with_its_tree() {
    let text = "% exported by hand\r\n[Event \"Club \\\"Ice\\\" cup\"]\r\n[White \"Иванов\"]\r\n\
                [Black \"B\"]\r\n[Result \"1/2-1/2\"]\r\n\r\n\
                1. Nxf3 {the knight takes ice} Nxf6 $1 (1... Nxc6 (1... exd6) 2. exd3) \
                2. exd3!? exd6 $14 ; rest of line\r\n3. Be2 1/2-1/2\r\n";
    let games = IceAge::read_records(text);
    assert_eq!(games.len(), 1);
    let g = ok(&games[0]);
    assert_eq!(sans(g), ["Nxf3", "Nxf6", "exd3", "exd6", "Be2"]);
    assert_eq!(g.tag("Event"), Some("Club \"Ice\" cup"));
    assert_eq!(g.tag("White"), Some("Иванов"));
    assert_eq!(g.tag("Result"), None, "derived tags are not kept");
    assert_eq!(g.result, RecordResult::Draw);
    assert_eq!(g.start, IceAge::start_position());
    let line = g.main_line();
    assert_eq!(line.nodes[0].notes.comments, ["the knight takes ice"]);
    assert_eq!(line.nodes[1].notes.nags, [1]);
    let alternative = &line.nodes[1].notes.variations[0];
    assert_eq!(alternative.nodes.len(), 2);
    assert_eq!(alternative.nodes[0].notes.variations[0].nodes.len(), 1);
    assert_eq!(line.nodes[2].notes.nags, [5]);
    assert_eq!(line.nodes[3].notes.comments, ["rest of line"]);
    // Written and read again, the tree is the same (the writer adds the roster's
    // defaults and a Termination tag).
    let written = IceAge::write_record(g);
    let back = IceAge::read_records(&written);
    assert_eq!(ok(&back[0]).main_line(), line, "{written}");
    assert_eq!(ok(&back[0]).result, g.result);
}

/// Bad input names the game, move number, side and line; reading goes on with the next
/// game.
#[test]
fn c14_bad_input_names_game_and_move() {
    let text = "[Event \"illegal\"]\n\n1. Nxf3 Nxf6 2. e4 *\n\n\
                [Event \"unknown\"]\n\n1. Nxf3 Zz9 *\n\n\
                [Event \"fen\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/ppp/8/8 w - - 0 1\"]\n\n1. Nxf3 *\n\n\
                [Event \"syntax\"]\n\n1. Nxf3 Nxf6 } 2. Zz9 *\n\n\
                [Event \"fine\"]\n\n1. Nxh3 *\n";
    let games = IceAge::read_records(text);
    assert_eq!(games.len(), 5);
    // e2-e4 cannot pass the ice on e3 (C2).
    assert_error(
        err(&games[0]),
        1,
        2,
        Color::White,
        3,
        "a pawn takes ice only diagonally (C2, C3)",
    );
    assert_error(err(&games[1]), 2, 1, Color::Black, 7, "'Zz9' is not a move");
    let e = err(&games[2]);
    assert_eq!((e.game, e.line, e.move_number), (3, Some(11), None), "{e}");
    assert!(e.message.contains("FEN tag"), "{e}");
    // A syntax error rejects its game, counted from the start.
    assert_error(
        err(&games[3]),
        4,
        2,
        Color::White,
        17,
        "'}' without a comment",
    );
    assert_eq!(sans(ok(&games[4])), ["Nxh3"]);
}

/// C7: a move after the end of the game is refused.
#[test]
fn c14_moves_after_the_end_are_refused() {
    // Black's king alone on a7 at the Ice Age of move 20 freezes (C7): the game is over.
    // No ice on the board, so the Variant tag says it is Ice Age Chess (C14a).
    let text = "[Variant \"Ice Age\"]\n[FEN \"k7/8/8/8/8/8/8/KR6 b - - 0 20\"]\n\n\
                20... Ka7 21. Rb2 *\n";
    let games = IceAge::read_records(text);
    let e = err(&games[0]);
    assert_eq!(
        (e.game, e.move_number, e.side),
        (1, Some(21), Some(Color::White)),
        "{e}"
    );
    assert!(e.message.contains("over"), "{e}");
}

/// Fault 1 (C7, C8): `#` means checkmate after the Ice Age with both kings on the board.
/// A stored `Nd3#` whose Ice Age freezes Black's own king reads, and is written `Nd3+`.
#[test]
fn c8_fault1_mate_sign_on_a_losing_move() {
    let reading = read_data("mate-sign.pgn");
    assert!(reading.warnings.is_empty(), "{:?}", reading.warnings);
    let g = ok(&reading.games[0]);
    assert_eq!(sans(g), ["Nd3+"]);
    let final_pos = g.final_position().expect("legal");
    assert_eq!(
        IceAge::outcome(&final_pos).map(|o| o.to_string()),
        Some("1-0 white wins (frozen king)".into())
    );
    let written = IceAge::write_record(g);
    assert!(
        written.contains("20... Nd3+ {Ice Age: Kh8 frozen} 1-0"),
        "{written}"
    );
}

/// Fault 2 (C13): a comment never refuses a legal game. Prose that starts like an Ice Age
/// comment is kept; an Ice Age comment naming the frozen pieces in any spelling is the
/// Ice Age itself (the writer writes it canonically); a wrong list is kept with a warning.
#[test]
fn c13_fault2_comments_never_refuse_a_game() {
    let reading = read_data("ice-age-comments.pgn");
    assert_eq!(reading.games.len(), 4);
    let games: Vec<&Record<IceAge>> = reading.games.iter().map(ok).collect();
    assert_eq!(
        games[0].notes[0].comments,
        ["Ice Age is coming: both sides keep their pieces together"]
    );
    assert!(games[0].notes.get(3).is_none_or(|n| n.comments.is_empty()));
    assert_eq!(games[0].result, RecordResult::Draw);
    let written: Vec<String> = games.iter().map(|g| IceAge::write_record(g)).collect();
    assert!(
        written[1].contains("20... Kd2 {Ice Age} *"),
        "{}",
        written[1]
    );
    assert!(
        written[2].contains("20... e6 {Ice Age: b5, h4, Rh1 frozen} *"),
        "{}",
        written[2]
    );
    assert!(
        written[3].contains("20... e6 {Ice Age: b5, h4, Rh1 frozen} {Ice Age: Qd1 frozen} *"),
        "{}",
        written[3]
    );
    assert_eq!(reading.warnings.len(), 1, "{:?}", reading.warnings);
    let w = &reading.warnings[0];
    assert_eq!((w.game, w.line), (Some(4), Some(32)));
    assert!(
        w.message.contains("{Ice Age: b5, h4, Rh1 frozen} (C6)"),
        "{w}"
    );
    // A claim on a move that brings no Ice Age is a warning too (C5).
    let text = "[Variant \"Ice Age\"]\n\n1. Nxf3 {Ice Age: Ke1 frozen} *\n";
    let reading = records::read::<IceAge>(text);
    assert_eq!(ok(&reading.games[0]).moves.len(), 1);
    assert!(
        reading.warnings[0]
            .message
            .contains("brings no Ice Age (C5)")
    );
}

/// Fault 3: a quote inside a tag value that is not escaped is part of the value; a file of
/// two games gives two.
#[test]
fn c14_fault3_unescaped_quote_in_a_tag() {
    let reading = read_data("quote-in-tag.pgn");
    assert_eq!(reading.games.len(), 2);
    assert_eq!(ok(&reading.games[0]).tag("Event"), Some("5th \"Ice\" Open"));
    assert_eq!(sans(ok(&reading.games[1])), ["Nxh3"]);
    assert!(reading.warnings[0].message.contains("read as part of it"));
    // Written back, the quotes are escaped and read the same.
    let text = IceAge::write_record(ok(&reading.games[0]));
    assert!(text.contains("[Event \"5th \\\"Ice\\\" Open\"]"), "{text}");
}

/// Fault 4 (C14): the `Variant` tag is read first; a game of another variant gets one
/// error naming it and the reader goes on; Ice Age is accepted in any spelling.
#[test]
fn c14_fault4_other_variants_are_refused_by_name() {
    let reading = read_data("other-variants.pgn");
    assert_eq!(reading.games.len(), 7);
    for (i, (line, what)) in [
        (2, "a standard chess game ([Variant \"Standard\"])"),
        (8, "a standard chess game ([Variant \"From Position\"])"),
        (16, "a Chess960 game ([Variant \"Chess960\"])"),
        (25, "this is a standard chess game (chess's start position"),
    ]
    .into_iter()
    .enumerate()
    {
        let e = err(&reading.games[i]);
        assert_eq!(
            (e.game, e.line, e.move_number),
            (i + 1, Some(line), None),
            "{e}"
        );
        assert!(e.message.contains(what), "{e}");
        assert!(e.message.contains("icebound reads Ice Age Chess"), "{e}");
    }
    // Untagged: read from C4, and the error at move 1 says why a chess game fails there.
    assert_error(
        err(&reading.games[4]),
        5,
        1,
        Color::White,
        33,
        "without [Variant] and [FEN] tags a game starts from the Ice Age Chess start (C4)",
    );
    assert_eq!(sans(ok(&reading.games[5])), ["Nxf3"]);
    assert_eq!(sans(ok(&reading.games[6])), ["Nxh3"]);
    // A PDN game read as PGN is refused by its GameType.
    let games = IceAge::read_records("[GameType \"25\"]\n\n1. 22-18 *\n");
    assert!(
        err(&games[0])
            .message
            .contains("a Russian draughts game ([GameType \"25\"])")
    );
}

/// Found reading real files (python-chess's Kasparov - Deep Blue 1997): a chess game that
/// opens with knight moves gets past its first move (`1.Nf3` takes the ice of f3 in Ice
/// Age Chess) and fails at `1... d5`; the error there says why a chess game fails too.
#[test]
fn c14_chess_game_opening_with_a_knight_gets_the_hint() {
    let reading = read_data("kasparov-deep-blue-1997-game1.pgn");
    assert_eq!(reading.games.len(), 1);
    assert_error(
        err(&reading.games[0]),
        1,
        1,
        Color::Black,
        14,
        "a standard chess game is not read",
    );
    // Past a move written as a capture the record is no chess record: no hint.
    let games = IceAge::read_records("1. Nxf3 d5 *\n");
    let e = err(&games[0]);
    assert!(!e.message.contains("standard chess"), "{e}");
    // UCI moves carry no `x` either.
    let games = IceAge::read_records("1. g1f3 c7c5 *\n");
    assert!(
        err(&games[0]).message.contains("standard chess"),
        "{:?}",
        games[0]
    );
}

/// Found by a tester mining puzzles: an Antarctos record read as Ice Age Chess failed with
/// a hint about chess only. A move written as draughts writes it says what it is.
#[test]
fn a_draughts_move_says_it_is_one() {
    let games = IceAge::read_records("1. c3-d4 f6-g5 *\n");
    let e = err(&games[0]);
    assert!(
        e.message.contains("'c3-d4' is written as a draughts move"),
        "{e}"
    );
    let games = IceAge::read_records("1. 22-18 11-15 *\n");
    assert!(
        err(&games[0])
            .message
            .contains("'22-18' is written as a draughts move")
    );
    let games = IceAge::read_records("1. c3xe5xg3 *\n");
    assert!(err(&games[0]).message.contains("draughts move"));
    // A chess move that does not read gets no such hint.
    let games = IceAge::read_records("1. Nh5 *\n");
    assert!(
        !err(&games[0]).message.contains("draughts"),
        "{:?}",
        games[0]
    );
}

/// Found reading real files (python-chess's ChessBase export): a blank line after `[Event]`
/// split the game in two, a game of one tag (stored by the site's import) and a game
/// without its `[Event]`.
#[test]
fn chessbase_blank_line_after_event_is_one_game() {
    let reading = read_data("chessbase-empty-line.pgn");
    assert_eq!(reading.games.len(), 1);
    assert!(reading.warnings.is_empty(), "{:?}", reading.warnings);
    let e = err(&reading.games[0]);
    assert_eq!(
        (e.game, e.move_number, e.line),
        (1, Some(1), Some(14)),
        "{e}"
    );
    assert!(
        e.message.contains("a standard chess game is not read"),
        "{e}"
    );
}

/// Found reading real files (chess.com and TWIC exports): a chess game set up from a FEN
/// without ice and without a `Variant` tag was replayed as Ice Age Chess, silently, until
/// its end. Such a FEN is chess's (C14a); `[Variant "Ice Age"]` reads the same position,
/// and an untagged FEN with ice stays an Ice Age game.
#[test]
fn c14a_untagged_fen_without_ice_is_a_standard_chess_game() {
    let reading = read_data("standard-fen.pgn");
    assert_eq!(reading.games.len(), 3);
    let e = err(&reading.games[0]);
    assert_eq!((e.game, e.line, e.move_number), (1, Some(5), None), "{e}");
    assert!(
        e.message.contains(
            "this is a standard chess game (a FEN without ice and no [Variant] tag, C14a)"
        ),
        "{e}"
    );
    assert_eq!(sans(ok(&reading.games[1])), ["Bg5", "e6", "f4", "Be7"]);
    assert_eq!(sans(ok(&reading.games[2])), ["e4", "Kd7"]);
}

/// Fault 5: every Unicode space is a space (no-break, narrow no-break, thin, ideographic,
/// zero-width), in move text and in tags.
#[test]
fn c14_fault5_unicode_spaces() {
    let reading = read_data("no-break-spaces.pgn");
    assert_eq!(
        sans(ok(&reading.games[0])),
        ["Nxf3", "Nxf6", "exd3", "exd6", "Be2"]
    );
    assert!(reading.warnings.is_empty(), "{:?}", reading.warnings);
}

/// Fault 6: a Windows-1252 file keeps its letters, with a warning naming the encoding.
#[test]
fn c14_fault6_windows_1252() {
    let reading = read_data("windows-1252.pgn");
    let g = ok(&reading.games[0]);
    assert_eq!(g.tag("Event"), Some("Zürich Café Cup"));
    assert_eq!(g.tag("White"), Some("Spieler Weiß"));
    assert_eq!(g.notes[0].comments, ["Schöner Zug"]);
    assert_eq!(reading.warnings.len(), 1, "{:?}", reading.warnings);
    assert!(reading.warnings[0].message.contains("windows-1252"));
}

/// Fault 7: a game with no moves and no result marker ends where the next game's tags
/// begin (with a warning); a `[Result]` tag that disagrees with the marker yields to the
/// marker (with a warning).
#[test]
fn c14_fault7_missing_marker_and_result_disagreement() {
    let reading = read_data("no-result-marker.pgn");
    assert_eq!(reading.games.len(), 4);
    let first = ok(&reading.games[0]);
    assert_eq!(
        (first.moves.len(), first.result),
        (0, RecordResult::Unknown)
    );
    assert_eq!(first.tag("Event"), Some("Tags only, no moves, no marker"));
    let second = ok(&reading.games[1]);
    assert_eq!(
        (second.moves.len(), second.result),
        (2, RecordResult::BlackWins)
    );
    assert_eq!(sans(ok(&reading.games[2])), ["Nxh3"]);
    assert_eq!(sans(ok(&reading.games[3])), ["Nxf3"]);
    let messages: Vec<String> = reading.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(
        messages[0].starts_with("game 1: no result marker"),
        "{messages:?}"
    );
    assert!(
        messages[1].starts_with(
            "game 2 (line 8): the [Result \"1-0\"] tag and the result marker 0-1 disagree"
        ),
        "{messages:?}"
    );
    assert!(
        messages[2].starts_with("game 3: no result marker"),
        "{messages:?}"
    );
}

/// Fault 8 (C12): whatever the writer writes, the reader reads: move numbers past a
/// million, and the FEN after them.
#[test]
fn c12_fault8_large_move_numbers_read_back() {
    let reading = read_data("large-move-number.pgn");
    let g = ok(&reading.games[0]);
    assert_eq!(g.moves.len(), 4);
    let end = g.final_position().expect("legal");
    assert_eq!(IceAge::fullmove_number(&end), 1_000_003);
    let fen = IceAge::position_text(&end);
    assert_eq!(
        IceAge::parse_position(&fen).map(|p| IceAge::position_text(&p)),
        Ok(fen)
    );
    let written = IceAge::write_record(g);
    assert!(
        written.contains("1000001... Kd8 1000002. Kd1 Kc7 1000003. Kc2 *"),
        "{written}"
    );
    assert_same_game(ok(&IceAge::read_records(&written)[0]), g, &written);
    // The largest number there is reads, and the count stays there.
    let top =
        IceAge::parse_position("4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 4294967295").expect("u32::MAX");
    let after = IceAge::play(&top, &IceAge::parse_move(&top, "Kd8").expect("Kd8")).expect("legal");
    let text = IceAge::position_text(&after);
    assert!(text.ends_with(" 4294967295"), "{text}");
    assert!(IceAge::parse_position(&text).is_ok());
}

/// Comments, NAGs and variations survive a read-write round trip; writing is stable.
#[test]
fn c14_annotated_file_round_trips() {
    let reading = read_data("annotated.pgn");
    assert!(reading.warnings.is_empty(), "{:?}", reading.warnings);
    let g = ok(&reading.games[0]);
    assert_eq!(g.comments, ["The ice on rank 3 must be taken first."]);
    assert_eq!(g.notes[0].variations[0].nodes[2].notes.nags, [6]);
    assert_eq!(g.notes[2].comments, ["rest of the line"]);
    let written = IceAge::write_record(g);
    let back = IceAge::read_records(&written);
    assert_same_game(ok(&back[0]), g, &written);
    assert_eq!(IceAge::write_record(ok(&back[0])), written);
    assert!(
        written
            .lines()
            .all(|l| l.starts_with('[') || l.chars().count() < 80),
        "{written}"
    );
}

/// A random game from `start`, `choices` picking among the legal moves.
fn random_record(start: &str, choices: &[u16], roster: &[String; 6], result: u8) -> Record<IceAge> {
    let mut pos: Pos = IceAge::parse_position(start).expect("FEN");
    let mut record = Record::<IceAge>::new(pos.clone());
    for c in choices {
        let moves = IceAge::legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let mv = moves[*c as usize % moves.len()];
        pos = IceAge::play(&pos, &mv).expect("legal");
        record.moves.push(mv);
    }
    record.result = [
        RecordResult::WhiteWins,
        RecordResult::BlackWins,
        RecordResult::Draw,
        RecordResult::Unknown,
    ][result as usize % 4];
    let roster: Vec<&str> = roster.iter().map(String::as_str).collect();
    full_tags(&mut record, roster.try_into().expect("six"));
    record
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// C14: what the writer writes reads back identically; starting near full-move 20,
    /// many games pass an Ice Age (its comment must then read back too).
    #[test]
    fn c14_round_trip(
        start in prop_oneof![
            Just("rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            Just("rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 17"),
            Just("r3k2r/pppq1ppp/2n2n2/3p4/3P4/2N2N2/PPPQ1PPP/R3K2R b KQkq - 6 19"),
        ],
        choices in proptest::collection::vec(any::<u16>(), 0..60),
        roster in proptest::array::uniform6("[ -~а-я\\\\\"]{0,16}"),
        result in any::<u8>(),
    ) {
        let record = random_record(start, &choices, &roster, result);
        let text = IceAge::write_record(&record);
        // Plies until Black's 20th move is complete, from each start (C5).
        let to_ice_age = match IceAge::fullmove_number(&record.start) {
            1 => usize::MAX,
            17 => 8,
            _ => 3,
        };
        if record.moves.len() >= to_ice_age {
            prop_assert!(text.contains("{Ice Age"), "{}", text);
        }
        prop_assert!(text.lines().all(|l| l.starts_with('[') || l.chars().count() < 80), "{}", text);
        let back = IceAge::read_records(&text);
        prop_assert_eq!(back.len(), 1);
        let back = back.into_iter().next().expect("one game");
        prop_assert_eq!(back.as_ref().map_err(|e| e.to_string()), Ok(&record), "{}", text);
        let twice = format!("{text}\n{text}");
        prop_assert_eq!(IceAge::read_records(&twice).len(), 2);
    }
}
