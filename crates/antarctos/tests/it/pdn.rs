//! PDN records (A19): real files, the FMJD PDN 3.0 edge files, hand-made errors, the
//! writer's form, and a round trip over random games.

use std::path::PathBuf;

use antarctos::Antarctos;
use game::{Color, Record, RecordError, RecordResult, Variant};
use proptest::prelude::*;

type Pos = <Antarctos as Variant>::Position;

/// `testdata/pdn`: copies of the published PDN files of `shared/data/pdn`.
fn data_dir() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/pdn")
}

fn read_file(rel: &str) -> Vec<Result<Record<Antarctos>, RecordError>> {
    let path = data_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    Antarctos::read_records(&text)
}

fn err(entry: &Result<Record<Antarctos>, RecordError>) -> &RecordError {
    match entry {
        Ok(r) => panic!("expected an error, got a game of {} moves", r.moves.len()),
        Err(e) => e,
    }
}

fn ok(entry: &Result<Record<Antarctos>, RecordError>) -> &Record<Antarctos> {
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

/// Russian championship 1950: the PDN reads (Cyrillic, CRLF, numeric FEN out of order with
/// a trailing `.`, start:end captures with `:`), and each game stops at its first move
/// that Antarctos forbids.
/// Issue 41: the draughts "star move" sign glued to a move (`27-20*`) ended the game as
/// the unknown result; it is a mark on the move, and a `*` apart is still the result.
#[test]
fn a_star_glued_to_a_move_does_not_end_the_game() {
    for text in [
        "1. c3-d4* f6-g5 *\n",
        "1. 22-18* 11-15 *\n",
        "1. c3-d4*! f6-g5 *\n",
    ] {
        let games = Antarctos::read_records(text);
        assert_eq!(games.len(), 1, "{text}: {games:?}");
        let g = ok(&games[0]);
        assert_eq!(g.moves.len(), 2, "{text}");
        assert_eq!(g.result, RecordResult::Unknown, "{text}");
    }
}

#[test]
fn a19_russian_games_stop_at_first_illegal_move() {
    let games = read_file("ussr1950-x-ussr-ch-first5.pdn");
    assert_eq!(games.len(), 5);
    // Game 1: 7... e5:c3 takes d4, which turns to ice (A8); 8. b2:d4 would land on that
    // ice. (Russian draughts removes d4, so the move is legal there.)
    assert_error(err(&games[0]), 1, 8, Color::White, 10, "b2:d4");
    // Game 2: 3... a5:c3 leaves ice on b4, so 5. a3-b4 steps onto ice.
    assert_error(err(&games[1]), 2, 5, Color::White, 25, "a3-b4");
    for (i, g) in games.iter().enumerate() {
        let e = err(g);
        assert_eq!(e.game, i + 1);
        assert!(
            e.move_number.is_some() && e.side.is_some() && e.line.is_some(),
            "{e}"
        );
    }
}

/// Issue 41: read up to a bad move (imports), each Russian game opens up to the move before
/// its first illegal one, with a comment on the last good move naming it, the result unknown,
/// and a warning; the strict reader still refuses them. A bad first move is still an error.
#[test]
fn read_up_to_bad_move_keeps_the_good_moves() {
    let path = data_dir().join("ussr1950-x-ussr-ch-first5.pdn");
    let text = std::fs::read_to_string(&path).expect("the file");
    let reading = game::records::read_up_to_bad_move::<Antarctos>(&text);
    assert_eq!(reading.games.len(), 5);
    assert_eq!(reading.cut.len(), 5, "{:?}", reading.cut);
    // Game 1 stops before 8. b2:d4: 7 full moves kept.
    let g = ok(&reading.games[0]);
    assert_eq!(g.moves.len(), 14);
    assert_eq!(g.result, RecordResult::Unknown);
    let cut = &reading.cut[0];
    assert_eq!((cut.kept, cut.text.as_str()), (14, "b2:d4"));
    assert_error(&cut.error, 1, 8, Color::White, 10, "b2:d4");
    let mark = g.notes[13]
        .comments
        .last()
        .expect("a mark on the last good move");
    assert!(
        mark.starts_with("Imported up to here") && mark.contains("b2:d4"),
        "{mark}"
    );
    assert!(
        reading.warnings.iter().any(|w| w.game == Some(1)
            && w.line == Some(10)
            && w.message.contains("last good move")),
        "{:?}",
        reading.warnings
    );
    // The written record reads back whole, the mark with it.
    let again = Antarctos::read_records(&game::records::write(g));
    assert_eq!(ok(&again[0]).moves, g.moves);
    // A bad first move keeps nothing: still an error.
    let first = game::records::read_up_to_bad_move::<Antarctos>("1. c3-c4 f6-g5 *\n");
    assert!(
        first.games[0].is_err() && first.cut.is_empty(),
        "{:?}",
        first.games
    );
}

/// Czech championship 2006: full capture paths with `x`.
#[test]
fn a19_czech_games_stop_at_first_illegal_move() {
    let games = read_file("mrcd2006-czech-first3.pdn");
    assert_eq!(games.len(), 3);
    // Game 1: 4... d6xb4 takes c5, which turns to ice, so 5. a3xc5 lands on ice.
    assert_error(err(&games[0]), 1, 5, Color::White, 13, "a3xc5");
    // Game 3: Czech men capture only forward, so 2... g5xe3 stops on e3; Antarctos men
    // capture backwards too (A6), and e3 must go on over d4 to c5 (A10).
    assert_error(err(&games[2]), 3, 2, Color::Black, 53, "g5xe3xc5");
    for (i, g) in games.iter().enumerate() {
        let e = err(g);
        assert_eq!(e.game, i + 1);
        assert!(e.move_number.is_some() && e.line.is_some(), "{e}");
    }
}

/// World championship 1998 (Games::Checkers's data): every move in the short form of
/// Russian records, captures too (`4. db6` is d4xb6, A17), and colon results (`0:1`,
/// `1/2:1/2`, A19a). Both games replay to their first move that Antarctos forbids.
#[test]
fn a17_a19_russian_short_notation_and_colon_results() {
    let path = data_dir().join("wc1998-russian-short-first2.pdn");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let reading = game::records::read::<Antarctos>(&text);
    // The colon results are markers: no game runs into the next one.
    assert!(reading.warnings.is_empty(), "{:?}", reading.warnings);
    assert_eq!(reading.games.len(), 2);
    // Game 1: 4. db6 (d4xb6) takes c5, which turns to ice, so 5. bc5 (b4-c5) steps onto it.
    let e = err(&reading.games[0]);
    assert_error(e, 1, 5, Color::White, 9, "'bc5': c5 is not empty (A5)");
    // Game 2: 4... ac3 (a5xc3) takes b4, which turns to ice; 5. db4 would land on it.
    let e = err(&reading.games[1]);
    assert_error(e, 2, 5, Color::White, 23, "'db4': b4 is not empty (A6, A7)");
    // The captures before the stop were read in the short form.
    let first: Vec<&str> = text.lines().skip(7).take(1).collect();
    assert!(first[0].contains("4. db6 ac7"), "{first:?}");
    let record = "[GameType \"25\"]\n\n1. ed4 dc5 2. fe3 cd6 3. cb4 ba5 4. db6 ac7 0:1\n";
    let games = Antarctos::read_records(record);
    let game = ok(&games[0]);
    assert_eq!(
        texts(game),
        [
            "e3-d4", "d6-c5", "f2-e3", "c7-d6", "c3-b4", "b6-a5", "d4xb6", "a5xc7"
        ]
    );
    assert_eq!(game.result, RecordResult::BlackWins);
}

/// The same championship's game 313: `[Round "11.1]` leaves out the closing quote; the
/// tag is read up to its `]` with a warning instead of refusing the game.
#[test]
fn a19_tag_without_its_closing_quote_is_read_with_a_warning() {
    let path = data_dir().join("wc1998-russian-round-tag.pdn");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let reading = game::records::read::<Antarctos>(&text);
    let warnings: Vec<String> = reading.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        warnings,
        ["game 1 (line 5): tag [Round]: the closing '\"' is missing: read as \"11.1\""]
    );
    assert_eq!(reading.games.len(), 1);
    // The game is read past its tags: it stops at a move, not at the tag.
    let e = err(&reading.games[0]);
    assert!(e.move_number.is_some() && e.line > Some(7), "{e}");
}

/// FMJD PDN 3.0 edge files: all read; 10x10 games then fail on the 8x8 board.
#[test]
fn a19_fmjd_edge_files_succeed() {
    // `1.a3b4`: an algebraic move without separator (A17), legal from A3.
    let games = read_file("fmjd-pdn3-edge/succeed/alphanumeric.pdn");
    assert_eq!(games.len(), 1);
    let g = ok(&games[0]);
    assert_eq!(g.moves.len(), 1);
    assert_eq!(g.result, RecordResult::Unknown);
    assert_eq!(Antarctos::move_text(&g.start, &g.moves[0]), "a3-b4");

    let games = read_file("fmjd-pdn3-edge/succeed/fen.pdn");
    assert_eq!(games.len(), 3);
    for (i, (line, text)) in [(1, "'?'"), (4, "king"), (7, "not of an 8x8 board")]
        .iter()
        .enumerate()
    {
        let e = err(&games[i]);
        assert_eq!(
            (e.game, e.line, e.move_number),
            (i + 1, Some(*line), None),
            "{e}"
        );
        assert!(e.message.contains("FEN") && e.message.contains(text), "{e}");
    }

    // 10x10 games whose first move `32-28` is g1-h2 in 8x8 numbering: h2 is taken.
    for (file, line) in [
        ("gameterminator.pdn", 1),
        ("linecomment.pdn", 3),
        ("movestrength.pdn", 1),
        ("string.pdn", 1),
        ("unicode.pdn", 3),
        ("variation.pdn", 1),
    ] {
        let games = read_file(&format!("fmjd-pdn3-edge/succeed/{file}"));
        assert_eq!(games.len(), 1, "{file}");
        let e = err(&games[0]);
        assert_error(
            e,
            1,
            1,
            Color::White,
            line,
            "'32-28' (g1-h2 on the 8x8 board)",
        );
    }
}

#[test]
fn a19_nested_comment_is_rejected() {
    let games = read_file("fmjd-pdn3-edge/fail/nested_comment.pdn");
    assert_eq!(games.len(), 1);
    // `1. 33-29 19-23 2. 35-30 { nested { comment } }`: the syntax error wins over the
    // 10x10 squares before it.
    assert_error(err(&games[0]), 1, 2, Color::Black, 1, "nested comment");
}

#[test]
fn a19_numeric_squares_over_32_are_not_8x8() {
    let games = Antarctos::read_records("1. 22-18 11-15 2. 35-30 *");
    let e = err(&games[0]);
    assert_error(e, 1, 2, Color::White, 1, "not of an 8x8 board");
}

#[test]
fn a19_numeric_moves_replay() {
    // 22-18 = c3-d4, 11-15 = f6-e5 (A3 numbering 1 = b8 ... 32 = g1).
    let games = Antarctos::read_records("[Event \"n\"]\n1. 22-18 11-15 2. 18x11 *\n");
    let g = ok(&games[0]);
    let texts: Vec<String> = texts(g);
    assert_eq!(texts, ["c3-d4", "f6-e5", "d4xf6"]);
}

fn texts(r: &Record<Antarctos>) -> Vec<String> {
    let mut pos = r.start.clone();
    r.moves
        .iter()
        .map(|m| {
            let t = Antarctos::move_text(&pos, m);
            pos = Antarctos::play(&pos, m).expect("legal");
            t
        })
        .collect()
}

#[test]
fn a19_errors_name_game_move_side_and_line() {
    let text = "[Event \"one\"]\n1. c3-d4 f6-e5\n2. d4-c5 *\n\n\
                [Event \"two\"]\n1. c3-d4 zz9 *\n\n\
                [Event \"three\"]\n[FEN \"B:Wa5,d2,d4:Ba7,c7\"]\n1... c7-b6 2. a5xc7 a7xc5xe3xc1 3. d2-e3 1-0\n\n\
                [Event \"four\"]\n[FEN \"W:Wc3:Bb4,d4:Ie5\"]\n1. c3xe5 *\n\n\
                [Event \"five\"]\n[FEN \"W:Wc3,e3:Bd4\"]\n1. c3xe5 *\n";
    let games = Antarctos::read_records(text);
    assert_eq!(games.len(), 5);
    // A capture is compulsory (A9): d4 must take e5.
    assert_error(err(&games[0]), 1, 2, Color::White, 3, "d4-c5");
    // A syntax error rejects the game; its place is counted from the start.
    assert_error(
        err(&games[1]),
        2,
        1,
        Color::Black,
        6,
        "cannot read move 'zz9'",
    );
    // Seed example 1 is over after a7xc5xe3xc1 (A12).
    assert_error(err(&games[2]), 3, 3, Color::White, 10, "already over");
    // The ice on e5 blocks the capture of d4 (only c3xa5 over b4 is legal).
    assert_error(err(&games[3]), 4, 1, Color::White, 14, "c3xe5");
    // Start and end only (A17): c3xe5 over d4.
    let g = ok(&games[4]);
    assert_eq!(texts(g), ["c3xe5"]);
}

#[test]
fn a19_syntax_errors_count_moves_from_the_fen_start() {
    let text = "[FEN \"B:Wa5,d2,d4:Ba7,c7\"]\n1... c7-b6 2. a5xc7 {open {nested} a7xc5xe3xc1 0-1\n\n\
                [Event \"tags\"]\n[Site \"unclosed\n1. c3-d4 *\n";
    let games = Antarctos::read_records(text);
    assert_eq!(games.len(), 2);
    assert_error(err(&games[0]), 1, 2, Color::Black, 2, "nested comment");
    let e = err(&games[1]);
    assert_eq!(
        (e.game, e.move_number, e.side, e.line),
        (2, None, None, Some(5)),
        "{e}"
    );
    assert!(e.message.contains("not closed"), "{e}");
}

/// A17: start and end only, when two jump sequences join them, is ambiguous; the error
/// lists both. (Round trip over four men: the square it leaves is free again, A11.)
#[test]
fn a19_ambiguous_start_end_lists_candidates() {
    let games = Antarctos::read_records("[FEN \"W:Wc3:Bb4,d4,b6,d6\"]\n1. c3xc3 *\n");
    assert_error(err(&games[0]), 1, 1, Color::White, 2, "ambiguous");
    let e = err(&games[0]);
    assert!(
        e.message.contains("c3xa5xc7xe5xc3") && e.message.contains("c3xe5xc7xa5xc3"),
        "{e}"
    );
}

#[test]
fn a19_black_first_game_writes_ellipsis_and_fen() {
    let start = Antarctos::parse_position("B:Wa5,d2,d4:Ba7,c7").expect("seed example 1");
    let mut record = Record::<Antarctos>::new(start.clone());
    let mut pos = start;
    for t in ["c7-b6", "a5xc7", "a7xc5xe3xc1"] {
        let mv = Antarctos::parse_move(&pos, t).expect(t);
        pos = Antarctos::play(&pos, &mv).expect(t);
        record.moves.push(mv);
    }
    record.result = RecordResult::BlackWins;
    record.set_tag("Event", "Seed \"example\" 1");
    let text = Antarctos::write_record(&record);
    assert_eq!(
        text,
        "[Event \"Seed \\\"example\\\" 1\"]\n[Site \"?\"]\n[Date \"?\"]\n[White \"?\"]\n[Black \"?\"]\n\
         [Result \"0-1\"]\n[GameType \"Antarctos\"]\n[FEN \"B:Wd2,d4,a5:Ba7,c7\"]\n\n\
         1... c7-b6 2. a5xc7 a7xc5xe3xc1 0-1\n"
    );
    let back = Antarctos::read_records(&text);
    assert_eq!(back.len(), 1);
    let back = ok(&back[0]);
    assert_eq!(back.start, record.start);
    assert_eq!(back.moves, record.moves);
    assert_eq!(back.result, RecordResult::BlackWins);
    assert_eq!(back.tag("Event"), Some("Seed \"example\" 1"));
}

/// A record built by hand with a move that is not legal in turn: the writer does not
/// panic, it ends the move text with a comment, and the text still reads.
#[test]
fn a19_writer_notes_an_illegal_move() {
    let elsewhere = Antarctos::parse_position("W:Wb4,e3,f2:Bc7,d6:Ic3").expect("seed example 2");
    let mut record = Record::<Antarctos>::new(Antarctos::start_position());
    record
        .moves
        .push(Antarctos::parse_move(&elsewhere, "b4-c5").expect("legal there"));
    let text = Antarctos::write_record(&record);
    assert!(text.contains("{move 1 is not legal here: "), "{text}");
    let back = Antarctos::read_records(&text);
    assert_eq!(ok(&back[0]).moves.len(), 0);
}

#[test]
fn a19_start_position_has_no_fen_tag() {
    let mut record = Record::<Antarctos>::new(Antarctos::start_position());
    let pos = Antarctos::start_position();
    record
        .moves
        .push(Antarctos::parse_move(&pos, "c3-d4").expect("legal"));
    let text = Antarctos::write_record(&record);
    assert!(!text.contains("[FEN"), "{text}");
    assert!(text.ends_with("\n\n1. c3-d4 *\n"), "{text}");
}

/// A random game: a walk of `pre` plies from A3 gives the start (read back through its
/// A18 text, since that text carries no move number), then up to `len` plies are played.
fn random_record(pre: usize, choices: &[u16], tags: &[String; 5], result: u8) -> Record<Antarctos> {
    let mut pos: Pos = Antarctos::start_position();
    let mut it = choices.iter();
    for _ in 0..pre {
        let moves = Antarctos::legal_moves(&pos);
        let Some(c) = it.next() else { break };
        if moves.is_empty() {
            break;
        }
        pos = Antarctos::play(&pos, &moves[*c as usize % moves.len()]).expect("legal");
    }
    if pre > 0 {
        pos = Antarctos::parse_position(&Antarctos::position_text(&pos)).expect("own text");
    }
    let mut record = Record::<Antarctos>::new(pos.clone());
    for c in it {
        let moves = Antarctos::legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let mv = moves[*c as usize % moves.len()];
        pos = Antarctos::play(&pos, &mv).expect("legal");
        record.moves.push(mv);
    }
    // No draw: Antarctos has none (A15), and a record claiming one reads back as unknown.
    record.result = [
        RecordResult::WhiteWins,
        RecordResult::BlackWins,
        RecordResult::Unknown,
    ][result as usize % 3];
    for (name, value) in ["Event", "Site", "Date", "White", "Black"].iter().zip(tags) {
        record.set_tag(name, value.clone());
    }
    record
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A19: what the writer writes reads back identically (tags, start, moves, result), and
    /// every line stays under 80 columns.
    #[test]
    fn a19_round_trip(
        pre in prop_oneof![Just(0usize), 1usize..40],
        choices in proptest::collection::vec(any::<u16>(), 0..120),
        tags in proptest::array::uniform5("[ -~а-яё\\\\\"]{0,20}"),
        result in any::<u8>(),
    ) {
        let record = random_record(pre, &choices, &tags, result);
        let text = Antarctos::write_record(&record);
        prop_assert!(text.lines().all(|l| l.starts_with('[') || l.chars().count() < 80), "{}", text);
        let back = Antarctos::read_records(&text);
        prop_assert_eq!(back.len(), 1);
        let back = back.into_iter().next().expect("one game");
        prop_assert_eq!(back.as_ref().map_err(|e| e.to_string()), Ok(&record), "{}", text);
        // Several written games in one file read back one by one.
        let twice = format!("{text}\n{text}");
        prop_assert_eq!(Antarctos::read_records(&twice).len(), 2);
    }
}

/// A file of `testdata/records`, read from its bytes.
fn read_record_file(name: &str) -> game::records::Reading<Antarctos> {
    let path = data_dir().join("../records").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    game::records::read_bytes::<Antarctos>(&bytes)
}

/// Fault 3: a quote inside a tag value is part of it; two games stay two.
#[test]
fn a19_fault3_unescaped_quote_in_a_tag() {
    let reading = read_record_file("quote-in-tag.pdn");
    assert_eq!(reading.games.len(), 2);
    assert_eq!(
        ok(&reading.games[0]).tag("Event"),
        Some("Cup \"Dynamo\" 1950")
    );
    assert_eq!(texts(ok(&reading.games[1])), ["c3-d4"]);
}

/// Found in a real file (a draughts program's test games, `[Round 17]`): a tag value
/// without quotes is read up to its `]` with a warning, and written back quoted; without
/// the `]` the game is refused, and the next one is read.
#[test]
fn a19_unquoted_tag_value_is_read_with_a_warning() {
    let reading = read_record_file("unquoted-tag.pdn");
    assert_eq!(reading.games.len(), 2);
    let game = ok(&reading.games[0]);
    assert_eq!(
        (game.tag("Round"), game.tag("Date")),
        (Some("17"), Some("1.1.1965"))
    );
    assert_eq!(texts(game), ["c3-d4", "f6-e5"]);
    let warnings: Vec<String> = reading.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        warnings.contains(
            &"game 1 (line 2): tag [Round]: the value is not in quotes: read as \"17\"".to_string()
        ),
        "{warnings:?}"
    );
    let written = game::records::write(game);
    assert!(written.contains("[Round \"17\"]"), "{written}");
    let back = Antarctos::read_records(&written);
    assert_eq!(ok(&back[0]).moves, game.moves);
    let e = err(&reading.games[1]);
    assert_eq!((e.game, e.line), (2, Some(9)), "{e}");
    assert!(
        e.message
            .contains("tag [Round]: the value must be a \"string\""),
        "{e}"
    );
}

/// Fault 4 (A19): `[GameType]` is read first. Absent, `Antarctos` or `25` (Russian
/// draughts) is read; another draughts game or a chess game is refused by name and the
/// reader goes on.
#[test]
fn a19_fault4_other_game_types_are_refused_by_name() {
    let reading = read_record_file("other-game-types.pdn");
    assert_eq!(reading.games.len(), 5);
    for (i, (line, what)) in [
        (
            2,
            "an international draughts (10x10) game ([GameType \"20\"])",
        ),
        (
            8,
            "an English draughts (checkers) game ([GameType \"21,B,8,8,N1,0\"])",
        ),
        (14, "an Ice Age Chess game ([Variant \"Ice Age\"])"),
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
        assert!(
            e.message.contains("icebound reads Antarctos records here"),
            "{e}"
        );
    }
    // Russian draughts replays until Antarctos forbids a move: 22-18 11-15 are legal.
    assert_eq!(texts(ok(&reading.games[3])), ["c3-d4", "f6-e5"]);
    assert_eq!(texts(ok(&reading.games[4])), ["c3-d4"]);
    // The writer names the game as A19 says, whatever the tag was.
    let written = Antarctos::write_record(ok(&reading.games[3]));
    assert!(written.contains("[GameType \"Antarctos\"]"), "{written}");
    assert!(!written.contains("25"), "{written}");
}

/// Fault 5: Unicode spaces between move numbers and moves.
#[test]
fn a19_fault5_unicode_spaces() {
    let reading = read_record_file("no-break-spaces.pdn");
    assert_eq!(texts(ok(&reading.games[0])), ["c3-d4", "f6-e5", "d4xf6"]);
}

/// Fault 6: a Windows-1251 file keeps its Cyrillic letters, with a warning.
#[test]
fn a19_fault6_windows_1251() {
    let reading = read_record_file("windows-1251.pdn");
    let g = ok(&reading.games[0]);
    assert_eq!(g.tag("Event"), Some("Кубок клуба"));
    assert_eq!(g.tag("Black"), Some("Чёрные"));
    assert_eq!(g.notes[0].comments, ["хороший ход"]);
    assert_eq!(reading.warnings.len(), 1, "{:?}", reading.warnings);
    assert!(reading.warnings[0].message.contains("windows-1251"));
}

/// Fault 7: a game with tags only ends where the next game's tags begin; a `[Result]`
/// that disagrees with the marker yields to it. Both with a warning.
#[test]
fn a19_fault7_missing_marker_and_result_disagreement() {
    let reading = read_record_file("no-result-marker.pdn");
    assert_eq!(reading.games.len(), 4);
    let first = ok(&reading.games[0]);
    assert_eq!(
        (first.moves.len(), first.result),
        (0, RecordResult::Unknown)
    );
    assert_eq!(ok(&reading.games[1]).result, RecordResult::BlackWins);
    assert_eq!(texts(ok(&reading.games[2])), ["a3-b4"]);
    assert_eq!(texts(ok(&reading.games[3])), ["c3-d4"]);
    let messages: Vec<String> = reading.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(messages[1].contains("the marker is kept"), "{messages:?}");
}

/// Comments, NAGs and variations survive a read-write round trip; writing is stable.
#[test]
fn a19_annotated_file_round_trips() {
    let reading = read_record_file("annotated.pdn");
    assert!(reading.warnings.is_empty(), "{:?}", reading.warnings);
    let g = ok(&reading.games[0]);
    assert_eq!(g.comments, ["An opening."]);
    assert_eq!(g.notes[1].nags, [5]);
    let variation = &g.notes[1].variations[0];
    assert_eq!(variation.nodes[0].notes.comments, ["quieter"]);
    assert_eq!(variation.nodes[1].notes.variations.len(), 1);
    let written = Antarctos::write_record(g);
    let back = Antarctos::read_records(&written);
    assert_eq!(ok(&back[0]).main_line(), g.main_line(), "{written}");
    assert_eq!(Antarctos::write_record(ok(&back[0])), written);
}

/// A15: Antarctos has no draws, so a record that claims one (a Russian draughts habit) keeps
/// its moves, reads its result as unknown and says so, at the line of the result.
#[test]
fn a15_a_draw_result_is_read_as_unknown_with_a_warning() {
    let text = "[Event \"x\"]\n[Result \"1/2-1/2\"]\n\n1. c3-d4 f6-e5 1/2-1/2\n";
    let reading = game::records::read::<Antarctos>(text);
    let warnings: Vec<String> = reading.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        warnings,
        ["game 1 (line 4): Antarctos has no draws: the result 1/2-1/2 is read as unknown (*)"]
    );
    let game = ok(&reading.games[0]);
    assert_eq!(game.result, RecordResult::Unknown);
    assert_eq!(texts(game), ["c3-d4", "f6-e5"]);
    // The tag alone says it too (no marker): the tag's line is named.
    let reading = game::records::read::<Antarctos>("[Result \"1/2-1/2\"]\n\n1. c3-d4 *\n");
    assert_eq!(reading.warnings.len(), 1, "{:?}", reading.warnings);
    assert_eq!(reading.warnings[0].line, Some(1));
    assert_eq!(ok(&reading.games[0]).result, RecordResult::Unknown);
}
