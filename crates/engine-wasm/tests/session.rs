//! The session's answers natively, through the crate's public API: positions and moves of both
//! games, bad input answered with a message, the search's iterations and its stop, the levels,
//! the solver. (`web/wasm/test.mjs`, run by `tests/node.rs`, checks the module gives the same.)

use engine::search::StopFlag;
use engine_wasm::*;

const EXAMPLE_1: &str = "B:Wa5,d2,d4:Ba7,c7";

fn session(variant: &str, fen: &str) -> Session {
    let mut s = Session::new();
    s.set_position(variant, fen).expect("a valid position");
    s
}

#[test]
fn position_moves_and_play_of_both_games() {
    let mut s = session("antarctos", EXAMPLE_1);
    let info = s.position();
    assert_eq!(info.variant, Game::Antarctos);
    assert_eq!(info.side_to_move, "black");
    assert_eq!(info.legal_moves, ["a7-b6", "c7-b6", "c7-d6"]);
    assert_eq!(s.legal_moves(), info.legal_moves);
    let end = s.play("c7-b6 a5xc7 a7xc1").expect("the seed's line");
    assert_eq!(end.fen, "W:Wc7:Bc1:Id2,d4");
    assert_eq!(
        end.outcome.as_deref(),
        Some("0-1 black wins (breakthrough)")
    );
    assert!(end.legal_moves.is_empty());
    // The result in words is the server's sentence (`game::result_words`), not the CLI's line.
    let result = s.board_view().result.expect("the game is over");
    assert_eq!(result.words, "Black wins by breakthrough");
    assert_eq!(
        result.words,
        game::result_words(Some(game::Color::Black), game::EndReason::Breakthrough)
    );

    let mut s = session("iceage", "");
    assert_eq!(s.game(), Game::Iceage);
    assert_eq!(s.legal_moves().len(), s.position().legal_moves.len());
    let after = s.play("hxg3").expect("a legal first move");
    assert_eq!(after.side_to_move, "black");
    assert_eq!(
        to_json(&after.variant),
        "\"iceage\"",
        "the JSON names the game as --variant does"
    );
}

#[test]
fn bad_input_is_an_error_and_changes_nothing() {
    let mut s = session("antarctos", EXAMPLE_1);
    let before = s.position();
    for (variant, fen) in [("chess", ""), ("antarctos", "W:Wz9"), ("iceage", "8/8 w")] {
        let e = s.set_position(variant, fen).expect_err("refused");
        assert!(!e.is_empty());
    }
    // A refused position carries the rules' fault as data, as the server's error does.
    let e = s
        .set_position("iceage", "7k/8/8/8/8/8/8/K6P w - - 0 1")
        .expect_err("a pawn on h1");
    let v: serde_json::Value = serde_json::from_str(&e).expect("JSON");
    assert_eq!(v["position"]["code"], "pawn_on_back_rank", "{e}");
    assert_eq!(v["position"]["args"][0], "h1", "{e}");
    assert!(
        v["message"].as_str().is_some_and(|m| m.contains("h1")),
        "{e}"
    );
    let e = s
        .play("c7-b6 c7-d6")
        .expect_err("the second move is not legal");
    assert!(e.starts_with("move 2 'c7-d6'"), "{e}");
    let e = s
        .play("c7-b6 a5xc7 a7xc1 c1-d2")
        .expect_err("after the end");
    assert!(e.contains("the game is over"), "{e}");
    assert_eq!(s.position(), before, "all or nothing");

    let stop = StopFlag::new();
    for params in [
        SearchParams {
            depth: Some(0),
            ..SearchParams::default()
        },
        SearchParams {
            depth: Some(MAX_DEPTH + 1),
            ..SearchParams::default()
        },
        SearchParams {
            nodes: Some(0),
            ..SearchParams::default()
        },
        SearchParams {
            movetime_ms: Some(0),
            ..SearchParams::default()
        },
        SearchParams {
            hash_mib: Some(MAX_HASH_MIB + 1),
            ..SearchParams::default()
        },
    ] {
        assert!(s.search(&params, &stop, |_| false).is_err(), "{params:?}");
    }
    assert!(s.solve(0, None, &stop).is_err());
    assert!(s.solve(MAX_SOLVE_PLIES + 1, None, &stop).is_err());
    assert!(s.solve(5, Some(0), &stop).is_err());
}

#[test]
fn search_reports_iterations_and_stops_when_the_callback_asks() {
    let mut s = session("antarctos", EXAMPLE_1);
    let mut depths = Vec::new();
    let params = SearchParams {
        depth: Some(6),
        ..SearchParams::default()
    };
    let r = s
        .search(&params, &StopFlag::new(), |it| {
            depths.push(it.depth);
            false
        })
        .expect("a search");
    assert_eq!(r.best.as_deref(), Some("c7-b6"));
    assert_eq!(r.score_text, "win 3");
    assert_eq!(r.pv, ["c7-b6", "a5xc7", "a7xc5xe3xc1"]);
    assert_eq!(depths.last(), Some(&r.depth));
    assert!(!r.stopped);

    let mut s = session("iceage", "");
    let params = SearchParams {
        depth: Some(40),
        ..SearchParams::default()
    };
    let r = s
        .search(&params, &StopFlag::new(), |it| it.depth >= 2)
        .expect("a search");
    assert!(r.stopped);
    assert!((2..=3).contains(&r.depth), "{r:?}");
}

#[test]
fn choose_move_plays_every_level_and_refuses_others() {
    let stop = StopFlag::new();
    let mut s = session("antarctos", EXAMPLE_1);
    assert_eq!(
        s.choose_move(8, 1, &stop).expect("a level").as_deref(),
        Some("c7-b6")
    );
    let mut s = session("iceage", "");
    for level in 1..=3 {
        let mv = s
            .choose_move(level, 7, &stop)
            .expect("a level")
            .expect("a move");
        assert!(s.legal_moves().contains(&mv), "{mv}");
    }
    assert!(s.choose_move(0, 1, &stop).is_err());
    assert!(s.choose_move(9, 1, &stop).is_err());
    // Past a byte: the error names the number asked, not a truncated one.
    let big = s.choose_move(257, 1, &stop).unwrap_err();
    assert!(big.ends_with("not 257"), "{big}");
    let mut over = session("antarctos", "W:Wc7:Bc1:Id2,d4");
    assert_eq!(over.choose_move(1, 1, &stop), Ok(None));
}

#[test]
fn solve_proves_example_1_and_reports_unknown_beyond_its_reach() {
    let s = session("antarctos", EXAMPLE_1);
    let p = s.solve(20, None, &StopFlag::new()).expect("a proof");
    assert_eq!(p.result, "win");
    assert_eq!(p.plies, 3);
    assert_eq!(p.line, ["c7-b6", "a5xc7", "a7xc5xe3xc1"]);
    assert_eq!(p.text, "win in 3 plies: 1... c7-b6 2. a5xc7 a7xc5xe3xc1#");

    let s = session("antarctos", "");
    let p = s.solve(4, None, &StopFlag::new()).expect("an answer");
    assert_eq!((p.result, p.plies, p.stopped), ("unknown", 4, false));
    assert!(p.line.is_empty());
}
