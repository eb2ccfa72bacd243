//! PGN records (C13-C14): a written game with an Ice Age, hand-written PGN, bad input, and
//! a round trip over random games (some passing an Ice Age).

use game::{Color, Record, RecordError, RecordResult, Variant};
use iceage::IceAge;
use proptest::prelude::*;

type Pos = <IceAge as Variant>::Position;

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

/// The tags the writer writes, in its order, so that a record built with them round-trips.
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
    record.set_tag("Result", record.result.as_str());
    record.set_tag("Variant", "Ice Age");
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

/// C14: a hand-written game with comments, a nested variation, NAGs, `!?`, escaped quotes,
/// Cyrillic, CRLF and a `%` line; with no FEN tag it starts from C4.
#[test]
fn c14_hand_written_pgn_reads() {
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
    assert_eq!(g.result, RecordResult::Draw);
    assert_eq!(g.start, IceAge::start_position());
}

/// Bad input names the game, move number, side and line; reading goes on with the next
/// game.
#[test]
fn c14_bad_input_names_game_and_move() {
    let text = "[Event \"illegal\"]\n\n1. Nxf3 Nxf6 2. e4 *\n\n\
                [Event \"unknown\"]\n\n1. Nxf3 Zz9 *\n\n\
                [Event \"fen\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/ppp/8/8 w - - 0 1\"]\n\n1. Nxf3 *\n\n\
                [Event \"false ice age\"]\n\n1. Nxf3 Nxf6 {Ice Age: Ke1 frozen} *\n\n\
                [Event \"fine\"]\n\n1. Nxh3 *\n";
    let games = IceAge::read_records(text);
    assert_eq!(games.len(), 5);
    // e2-e4 cannot pass the ice on e3 (C2).
    assert_error(err(&games[0]), 1, 2, Color::White, 3, "e4");
    assert_error(err(&games[1]), 2, 1, Color::Black, 7, "unknown token 'Zz9'");
    let e = err(&games[2]);
    assert_eq!((e.game, e.line, e.move_number), (3, Some(11), None), "{e}");
    assert!(e.message.contains("FEN tag"), "{e}");
    assert_error(err(&games[3]), 4, 1, Color::Black, 17, "brings no Ice Age");
    assert_eq!(sans(ok(&games[4])), ["Nxh3"]);
}

/// C13: an Ice Age comment that does not tell what the replay does is an error.
#[test]
fn c13_ice_age_comment_is_checked() {
    let text = "[FEN \"3rk3/8/8/8/8/8/8/3QK2R b K - 0 20\"]\n\n20... Rd7 {Ice Age: Qd1 frozen} *\n\n\
                [FEN \"3rk3/8/8/8/8/8/8/3QK2R b K - 0 20\"]\n\n20... Rd7 {Ice Age: Rh1 frozen} *\n";
    let games = IceAge::read_records(text);
    assert_error(
        err(&games[0]),
        1,
        20,
        Color::Black,
        3,
        "{Ice Age: Rh1 frozen} (C6)",
    );
    assert_eq!(ok(&games[1]).moves.len(), 1);
}

/// A token pgn-reader would skip rejects the game even after an illegal move; its move
/// number counts from the FEN's full-move number and side.
#[test]
fn c14_unknown_token_counts_from_the_fen() {
    let text = "[FEN \"k7/8/8/8/8/8/8/KR6 b - - 0 20\"]\n\n20... Kb7 21. Rb2 e4x *\n";
    let games = IceAge::read_records(text);
    assert_error(
        err(&games[0]),
        1,
        21,
        Color::Black,
        3,
        "unknown token 'e4x'",
    );
}

#[test]
fn c14_moves_after_the_end_are_refused() {
    // Black's king alone on a7 at the Ice Age of move 20 freezes (C7): the game is over.
    let text = "[FEN \"k7/8/8/8/8/8/8/KR6 b - - 0 20\"]\n\n20... Ka7 21. Rb2 *\n";
    let games = IceAge::read_records(text);
    let e = err(&games[0]);
    assert_eq!(
        (e.game, e.move_number, e.side),
        (1, Some(21), Some(Color::White)),
        "{e}"
    );
    assert!(e.message.contains("over"), "{e}");
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

/// C13: an Ice Age comment names the frozen pieces; the order it lists them in does not
/// matter, but a wrong list is still an error.
#[test]
fn c13_ice_age_comment_order_does_not_matter() {
    let fen = "4k3/8/8/8/8/8/8/R3K3 b - - 0 20";
    let pos = IceAge::parse_position(fen).expect("FEN");
    let mv = IceAge::parse_move(&pos, "Kd7").expect("Kd7");
    let brought = iceage::ice_age_comment(&pos, &mv).expect("Black's 20th move brings an Ice Age");
    assert_eq!(brought, "Ice Age: Kd7, Ra1, Ke1 frozen");
    let game = |comment: &str| {
        format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n20... Kd7 {{{comment}}} 1/2-1/2\n")
    };
    let reordered = IceAge::read_records(&game("Ice Age: Ke1, Ra1, Kd7 frozen"));
    assert_eq!(ok(&reordered[0]).moves.len(), 1);
    let wrong = IceAge::read_records(&game("Ice Age: Ke1 frozen"));
    assert!(
        err(&wrong[0]).message.contains("the Ice Age it brings is"),
        "{:?}",
        wrong[0]
    );
}
