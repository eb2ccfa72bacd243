//! `POST /api/import` and the computer analysis of a whole game (issue 14): imported games are
//! stored apart (no seats, never in the statistics or anyone's games), and a finished game's
//! review evaluates every position once, in the background, surviving a restart.

use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use server::SiteOptions;
use server::client::ApiClient;

/// Seed example 1 as a file of two games: the first reads (a comment and a variation), the
/// second jumps nothing at its second move (A6, A7), on line 10.
const TWO_GAMES: &str = "[Event \"seed example 1\"]\n[White \"Ann\"]\n[Black \"Bo\"]\n\
[FEN \"B:Wa5,d2,d4:Ba7,c7\"]\n\n1... c7-b6 {the only way} (1... c7-d6 2. a5-b6) 2. a5xc7 a7xc5xe3xc1 0-1\n\n\
[Event \"two\"]\n\n1. c3-d4 f6-g5 2. d4-e7 *\n";

async fn import(c: &mut ApiClient, body: Value) -> server::client::Answer {
    c.post("/api/import", body).await.expect("post")
}

async fn import_flow(url: &str) {
    let srv = TestServer::start(url).await;
    let mut c = srv.client();
    let stats_before = c.get("/api/stats").await.expect("stats").body;
    let a = import(&mut c, json!({ "text": TWO_GAMES })).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["variant"], "antarctos", "found from the file");
    let games = a.body["games"].as_array().expect("games");
    assert_eq!(games.len(), 2, "{}", a.text);
    assert_eq!(games[0]["game"], 1);
    assert_eq!(games[0]["white"], "Ann");
    assert_eq!(games[0]["black"], "Bo");
    assert_eq!(games[0]["event"], "seed example 1");
    assert_eq!(games[0]["plies"], 3);
    assert_eq!(games[0]["result"], "0-1");
    assert_eq!(games[0]["bad_move"], Value::Null);
    // Game 2's third move cannot be played: the game opens up to the move before it
    // (issue 41), and says which move, where and why.
    assert_eq!(a.body["errors"], json!([]), "{}", a.text);
    assert_eq!(games[1]["game"], 2);
    assert_eq!(games[1]["plies"], 2, "{}", a.text);
    assert_eq!(games[1]["result"], "*");
    let bad = &games[1]["bad_move"];
    assert_eq!(bad["ply"], 3, "{bad}");
    assert_eq!(bad["move_number"], 2, "{bad}");
    assert_eq!(bad["side"], "white", "{bad}");
    assert_eq!(bad["line"], 10, "{bad}");
    assert_eq!(bad["text"], "d4-e7", "{bad}");
    assert_eq!(bad["left_out"], 1, "{bad}");
    assert!(
        bad["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{bad}"
    );
    let warned = a.body["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .any(|w| {
            w["game"] == 2
                && w["line"] == 10
                && w["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("last good move") && m.contains("d4-e7"))
        });
    assert!(warned, "the cut is warned: {}", a.text);
    // Its last good move carries the mark, read back by anyone.
    let cut = games[1]["id"].as_str().expect("id").to_string();
    let g = srv
        .client()
        .get(&format!("/api/imports/{cut}"))
        .await
        .expect("get");
    assert_eq!(g.status, 200, "{}", g.text);
    let moves = g.body["record"]["moves"].as_array().expect("moves");
    let texts: Vec<&str> = moves.iter().filter_map(|m| m["text"].as_str()).collect();
    assert_eq!(texts, ["c3-d4", "f6-g5"]);
    let mark = moves[1]["comments"][0].as_str().unwrap_or("");
    assert!(
        mark.starts_with("Imported up to here") && mark.contains("d4-e7"),
        "{}",
        g.text
    );

    // The stored game reads back whole, for anyone with its id.
    let id = games[0]["id"].as_str().expect("id").to_string();
    let mut other = srv.client();
    let g = other.get(&format!("/api/imports/{id}")).await.expect("get");
    assert_eq!(g.status, 200, "{}", g.text);
    assert_eq!(g.body["variant"], "antarctos");
    let moves = g.body["record"]["moves"].as_array().expect("moves");
    let texts: Vec<&str> = moves.iter().filter_map(|m| m["text"].as_str()).collect();
    assert_eq!(texts, ["c7-b6", "a5xc7", "a7xc5xe3xc1"]);
    assert_eq!(moves[0]["comments"], json!(["the only way"]));
    assert_eq!(moves[0]["variations"][0][1]["text"], "a5-b6");
    assert_eq!(g.body["record"]["start_fen"], "B:Wd2,d4,a5:Ba7,c7");

    // Analysis games: not in the statistics, not in the importer's games.
    assert_eq!(c.get("/api/stats").await.expect("stats").body, stats_before);
    let mine = c.get("/api/my-games").await.expect("my games");
    assert_eq!(mine.status, 200, "{}", mine.text);
    assert!(
        !mine.text.contains(&id),
        "an imported game is nobody's game: {}",
        mine.text
    );

    // Its computer analysis: seed example 1 is Black's win in 3 plies from the start.
    let r = c
        .post(&format!("/api/imports/{id}/review"), json!({}))
        .await
        .expect("post");
    assert_eq!(r.status, 200, "{}", r.text);
    let done = wait_review(&mut c, &format!("/api/imports/{id}/review")).await;
    assert_eq!(done["total"], 4);
    assert_eq!(done["evals"][0]["score"], json!({"mate": -3}), "{done}");
    assert_eq!(done["evals"][0]["best"], "c7-b6");
    assert_eq!(done["evals"][3]["score"], json!({"end": "0-1"}));
    assert_eq!(done["evals"][3]["played"], "a7xc5xe3xc1");
    srv.stop().await;
}

/// Polls a review until it is done (60 s at most); returns it.
async fn wait_review(c: &mut ApiClient, path: &str) -> Value {
    for _ in 0..600 {
        let r = c.get(path).await.expect("get");
        assert_eq!(r.status, 200, "{}", r.text);
        if r.body["status"] == "done" {
            return r.body;
        }
        assert_eq!(r.body["status"], "running", "{}", r.text);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the review of {path} did not finish within 60 s");
}

both_databases! {
    async fn an_import_stores_the_good_games_names_the_bad_one_and_stays_out_of_the_statistics(
        url: &str
    ) {
        import_flow(url).await;
    }
}

#[tokio::test]
async fn imports_of_chess_are_found_and_bad_imports_say_why() {
    let srv = TestServer::start(&sqlite_url("import_bad")).await;
    let mut c = srv.client();
    let pgn = "[Event \"ice\"]\n[Variant \"Ice Age\"]\n\n1. Nf3 Nc6 *\n";
    let a = import(&mut c, json!({ "text": pgn })).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["variant"], "iceage");
    assert_eq!(a.body["games"][0]["plies"], 2);
    // A variant named: read as that game, whatever the text.
    let a = import(&mut c, json!({ "text": pgn, "variant": "antarctos" })).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["games"], json!([]));
    assert_eq!(a.body["errors"].as_array().map(Vec::len), Some(1));
    assert_error(
        &import(&mut c, json!({ "text": pgn, "variant": "chess" })).await,
        400,
        "bad_request",
    );
    assert_error(
        &import(&mut c, json!({ "text": "x".repeat(300 * 1024) })).await,
        413,
        "too_large",
    );
    assert_error(
        &import(&mut c, json!({ "txt": pgn })).await,
        400,
        "bad_request",
    );
    // A file that is not UTF-8 (Windows-1251 Cyrillic names), sent as its bytes: the
    // encoding is guessed and said.
    let mut cp1251 = b"[Event \"x\"]\n[White \"".to_vec();
    cp1251.extend([0xc1, 0xeb, 0xe8, 0xed, 0xe4, 0xe5, 0xf0]); // Блиндер
    cp1251.extend(b"\"]\n\n1. c3-d4 *\n");
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD.encode(&cp1251);
    let a = import(&mut c, json!({ "base64": b64 })).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["games"][0]["white"], "Блиндер", "{}", a.text);
    assert!(
        a.body["warnings"][0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("windows-1251"),
        "the guess is said: {}",
        a.text
    );
    // NAGs and the reader's warnings come through.
    let a = import(
        &mut c,
        json!({ "text": "1. c3-d4! (1. e3-f4?! f6-g5 2. f4-e5) f6-g5 $14 *" }),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text);
    let id = a.body["games"][0]["id"].as_str().expect("id");
    let g = c.get(&format!("/api/imports/{id}")).await.expect("get");
    assert_eq!(
        g.body["record"]["moves"][0]["nags"],
        json!([1]),
        "{}",
        g.text
    );
    assert_eq!(g.body["record"]["moves"][1]["nags"], json!([14]));
    assert_eq!(
        g.body["record"]["moves"][0]["variations"][0][0]["nags"],
        json!([6])
    );
    let a = import(&mut c, json!({ "text": "1. c3-d4 (1. c3-c4) f6-g5 *" })).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert!(
        a.body["warnings"].as_array().is_some_and(|w| !w.is_empty()),
        "a variation cut at an illegal move is said: {}",
        a.text
    );
    // No game at all: said so.
    assert_error(
        &import(&mut c, json!({ "text": "  \n" })).await,
        400,
        "bad_request",
    );
    // Nothing readable: nothing stored, every game an error.
    let a = import(&mut c, json!({ "text": "1. zz9 *" })).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["games"], json!([]));
    assert_eq!(
        a.body["errors"].as_array().map(Vec::len),
        Some(1),
        "{}",
        a.text
    );
    for path in [
        "/api/imports/nothing",
        "/api/imports/..%2F",
        "/api/imports/nothing/review",
    ] {
        let r = c.get(path).await.expect("get");
        assert_eq!(r.status, 404, "{path}: {}", r.text);
    }
    srv.stop().await;
}

/// A finished Antarctos game of `plies` moves (the first legal move each time), resigned.
async fn finished_game(c: &mut ApiClient, plies: usize) -> String {
    let g = create(c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut view = g;
    for _ in 0..plies {
        let mv = view["legal"][0]["text"]
            .as_str()
            .expect("a legal move")
            .to_string();
        view = play(c, &id, &mv).await;
    }
    let r = c
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await
        .expect("resign");
    assert_eq!(r.status, 200, "{}", r.text);
    id
}

#[tokio::test]
async fn a_finished_game_is_reviewed_once_and_a_game_in_play_is_not() {
    let srv = TestServer::start(&sqlite_url("review")).await;
    let mut c = srv.client();
    let playing = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let playing = playing["id"].as_str().expect("id");
    let r = c
        .post(&format!("/api/games/{playing}/review"), json!({}))
        .await
        .expect("post");
    assert_error(&r, 409, "conflict");
    assert_error(
        &c.post("/api/games/nosuch/review", json!({}))
            .await
            .expect("post"),
        404,
        "not_found",
    );
    // A game called off before any move has nothing to analyse.
    let off = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let off = off["id"].as_str().expect("id");
    let a = c
        .post(&format!("/api/games/{off}/abort"), json!({}))
        .await
        .expect("abort");
    assert_eq!(a.status, 200, "{}", a.text);
    assert_error(
        &c.post(&format!("/api/games/{off}/review"), json!({}))
            .await
            .expect("post"),
        409,
        "conflict",
    );

    let id = finished_game(&mut c, 6).await;
    let path = format!("/api/games/{id}/review");
    assert_error(&c.get(&path).await.expect("get"), 404, "not_found");
    let first = c.post(&path, json!({})).await.expect("post");
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(first.body["total"], 7);
    assert_eq!(first.body["nodes"], 150_000);
    let done = wait_review(&mut c, &path).await;
    let evals = done["evals"].as_array().expect("evals");
    assert_eq!(evals.len(), 7);
    let game = c.get(&format!("/api/games/{id}")).await.expect("game").body;
    for (i, e) in evals.iter().enumerate() {
        assert_eq!(e["ply"], i);
        if i > 0 {
            assert_eq!(e["played"], game["moves"][i - 1]["text"], "ply {i}");
        }
        assert!(
            e["score"]["cp"].is_i64() || e["score"]["mate"].is_i64(),
            "{e}"
        );
        assert!(
            e["best"].is_string() && e["depth"].as_u64().unwrap_or(0) >= 4,
            "{e}"
        );
        assert_eq!(e["pv"][0], e["best"]);
    }
    assert!(done["marks"].is_array() && done["summary"]["white"]["blunders"].is_u64());
    // Computed once: asking again, from anyone, answers the stored analysis.
    let mut other = srv.client();
    let again = other.post(&path, json!({})).await.expect("post");
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.body, done);
    srv.stop().await;
}

#[tokio::test]
async fn a_review_cut_by_a_crash_resumes_at_the_next_start() {
    let url = sqlite_url("review_crash");
    // Slow enough (2 M nodes a position) that the crash comes in the middle.
    let slow = || SiteOptions {
        services: server::ServiceOptions {
            review_nodes: Some(2_000_000),
            ..server::ServiceOptions::default()
        },
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(&url, slow()).await;
    let mut c = srv.client();
    let id = finished_game(&mut c, 10).await;
    let path = format!("/api/games/{id}/review");
    // One review at a time per player.
    let second = finished_game(&mut c, 2).await;
    let r = c.post(&path, json!({})).await.expect("post");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_error(
        &c.post(&format!("/api/games/{second}/review"), json!({}))
            .await
            .expect("post"),
        429,
        "too_many_analyses",
    );
    let mut seen = 0;
    for _ in 0..2000 {
        let r = c.get(&path).await.expect("get");
        seen = r.body["done"].as_i64().unwrap_or(0);
        if seen >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!((2..11).contains(&seen), "progress shows: {seen} of 11");
    srv.crash().await;

    let srv = TestServer::start_with(&url, slow()).await;
    let mut c = srv.client();
    let r = c.get(&path).await.expect("get");
    assert!(
        r.body["done"].as_i64().unwrap_or(0) >= seen,
        "nothing saved is lost: {}",
        r.text
    );
    let done = wait_review(&mut c, &path).await;
    assert_eq!(done["done"], 11);
    assert_eq!(done["nodes"], 2_000_000, "as the review began");
    assert_eq!(done["evals"].as_array().map(Vec::len), Some(11));
    srv.stop().await;
}

#[tokio::test]
async fn a_blunder_is_marked_with_the_better_move() {
    let srv = TestServer::start(&sqlite_url("review_marks")).await;
    let mut c = srv.client();
    // Seed example 1, where c7-b6 wins in 3 plies; c7-d6 lets White win in 5 instead.
    let g = create(
        &mut c,
        json!({"variant": "antarctos", "opponent": "local", "fen": "B:Wa5,d2,d4:Ba7,c7"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut end = Value::Null;
    for mv in ["c7-d6", "d2-c3", "d6-e5", "d4xf6", "a7-b6", "a5xc7"] {
        end = play(&mut c, &id, mv).await;
    }
    assert_eq!(end["status"], "finished", "{end}");
    let path = format!("/api/games/{id}/review");
    let r = c.post(&path, json!({})).await.expect("post");
    assert_eq!(r.status, 200, "{}", r.text);
    let done = wait_review(&mut c, &path).await;
    assert_eq!(done["evals"][0]["score"], json!({"mate": -3}));
    assert_eq!(done["evals"][1]["score"], json!({"mate": 5}));
    assert_eq!(done["evals"][6]["score"], json!({"end": "1-0"}));
    assert_eq!(
        done["marks"],
        json!([{"ply": 1, "color": "black", "kind": "blunder", "played": "c7-d6",
                "better": "c7-b6", "loss": 100}])
    );
    assert_eq!(
        done["summary"],
        json!({"white": {"inaccuracies": 0, "mistakes": 0, "blunders": 0},
               "black": {"inaccuracies": 0, "mistakes": 0, "blunders": 1}})
    );
    srv.stop().await;
}

#[tokio::test]
async fn requests_arriving_together_cannot_pass_the_caps() {
    // All from one address: no per-address limits here.
    let slow = SiteOptions {
        services: server::ServiceOptions {
            review_nodes: Some(3_000_000),
            ..server::ServiceOptions::default()
        },
        rate_limits: server::options::RateLimits::off(),
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(&sqlite_url("review_caps"), slow).await;
    let mut maker = srv.client();
    let mut games = Vec::new();
    for _ in 0..12 {
        games.push(finished_game(&mut maker, 2).await);
    }
    // Twelve players at once, a game each: at most 8 run, the others hear 503.
    let answers = futures_util::future::join_all(games.iter().map(|id| {
        let mut c = srv.client();
        let path = format!("/api/games/{id}/review");
        async move { c.post(&path, json!({})).await.expect("post").status }
    }))
    .await;
    let started = answers.iter().filter(|s| **s == 200).count();
    assert_eq!(started, 8, "{answers:?}");
    assert!(
        answers.iter().all(|s| *s == 200 || *s == 503),
        "{answers:?}"
    );
    // One player asking for three more games at once: never more than one.
    let mut one = srv.client();
    let mut mine = Vec::new();
    for _ in 0..3 {
        mine.push(finished_game(&mut one, 2).await);
    }
    let token = one.token().expect("token").to_string();
    let answers = futures_util::future::join_all(mine.iter().map(|id| {
        let mut c = ApiClient::with_token(srv.addr, &token);
        let path = format!("/api/games/{id}/review");
        async move { c.post(&path, json!({})).await.expect("post").status }
    }))
    .await;
    assert!(
        answers.iter().filter(|s| **s == 200).count() <= 1,
        "{answers:?}"
    );
    srv.crash().await;
}

/// `GET .../review` of an id that names no game says so; only a real game without an analysis
/// is offered one to request. A hostile tester's `GET /api/games/abc/review` answered "no
/// computer analysis of this game yet: request one" for a game that does not exist.
#[tokio::test]
async fn the_review_of_an_unknown_game_says_there_is_no_such_game() {
    let srv = TestServer::start(&sqlite_url("review-unknown")).await;
    let mut c = srv.client();
    for path in ["/api/games/Zz9Zz9Zz/review", "/api/imports/Zz9Zz9Zz/review"] {
        let r = c.get(path).await.expect("get");
        assert_eq!(r.status, 404, "{path}: {}", r.text);
        assert_eq!(r.body["error"]["code"], "not_found", "{path}: {}", r.text);
        assert_eq!(
            r.body["error"]["message"], "no such game",
            "{path}: {}",
            r.text
        );
    }
    let id = finished_game(&mut c, 2).await;
    let r = c
        .get(&format!("/api/games/{id}/review"))
        .await
        .expect("get");
    assert_eq!(r.status, 404, "{}", r.text);
    assert!(
        r.body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("request one")),
        "{}",
        r.text
    );
    srv.stop().await;
}

/// A file of `testdata/pdn/fmjd-pdn3-edge/succeed` (copies of the published FMJD PDN 3.0 edge
/// cases of `shared/data/pdn`).
fn fmjd_edge(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/pdn/fmjd-pdn3-edge/succeed")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Issue 42: the game of a draughts file is found from its move words as the readers see them:
/// a `%` line or a tag followed by moves on its line no longer makes it chess.
#[tokio::test]
async fn draughts_files_with_line_comments_or_moves_after_a_tag_are_draughts() {
    let srv = TestServer::start(&sqlite_url("import_detect")).await;
    let mut c = srv.client();
    for (what, text) in [
        (
            "tag, then moves on its line",
            "[White \"x\"] 32-28\n".to_string(),
        ),
        (
            "tag, then moves on the next line",
            "[White \"x\"]\n32-28\n".to_string(),
        ),
        ("linecomment.pdn", fmjd_edge("linecomment.pdn")),
        ("string.pdn", fmjd_edge("string.pdn")),
    ] {
        let a = import(&mut c, json!({ "text": text })).await;
        assert_eq!(a.status, 200, "{what}: {}", a.text);
        assert_eq!(a.body["variant"], "antarctos", "{what}: {}", a.text);
    }
    // Chess stays chess, a `%` line of words before it too.
    let a = import(
        &mut c,
        json!({ "text": "% exported by a chess site\n[White \"x\"] 1. Nf3 Nc6 *\n" }),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["variant"], "iceage", "{}", a.text);
    assert_eq!(a.body["games"][0]["plies"], 2, "{}", a.text);
    srv.stop().await;
}

/// Issue 42: `base64` is read wrapped in lines as GNU `base64`, Python's `encodebytes` and MIME
/// write it (76 symbols a line, `\n` or `\r\n`), and a body with both `text` and `base64` is
/// refused, naming both.
#[tokio::test]
async fn wrapped_base64_is_read_and_text_with_base64_is_refused() {
    use base64::Engine;
    let srv = TestServer::start(&sqlite_url("import_b64")).await;
    let mut c = srv.client();
    let file = format!("{TWO_GAMES}\n").repeat(3);
    let one_line = base64::engine::general_purpose::STANDARD.encode(file.as_bytes());
    assert!(
        one_line.len() > 76,
        "the file spans several lines of base64"
    );
    let lines: Vec<&str> = one_line
        .as_bytes()
        .chunks(76)
        .map(|l| std::str::from_utf8(l).expect("ascii"))
        .collect();
    for (what, wrapped) in [
        ("\\n", lines.join("\n") + "\n"),
        ("\\r\\n", lines.join("\r\n") + "\r\n"),
        ("spaces", lines.join(" ")),
    ] {
        let a = import(&mut c, json!({ "base64": wrapped })).await;
        assert_eq!(a.status, 200, "{what}: {}", a.text);
        // Three copies of the two games: each second one opens up to its bad move (issue 41).
        assert_eq!(
            a.body["games"].as_array().map(Vec::len),
            Some(6),
            "{what}: {}",
            a.text
        );
    }
    let both = import(&mut c, json!({ "text": file, "base64": one_line })).await;
    assert_error(&both, 400, "bad_request");
    let message = both.body["error"]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("`text`") && message.contains("`base64`"),
        "{message}"
    );
    // Not base64 at all: still refused.
    assert_error(
        &import(&mut c, json!({ "base64": "not base64!" })).await,
        400,
        "bad_request",
    );
    srv.stop().await;
}
