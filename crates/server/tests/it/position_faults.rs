//! Position text the rules refuse (issue 14, board editor): the 400 `bad_request` carries the
//! rules crate's fault as data, `error.position = {code, args}` (docs/api.md, Errors), so that a
//! page words it in its own language; the English message stays as it was.

use crate::common::*;
use serde_json::{Value, json};

/// `POST /api/positions` for `fen` of `variant`: the 400 and its `error.position`.
async fn refused(c: &mut server::client::ApiClient, variant: &str, fen: &str) -> Value {
    let a = c
        .post("/api/positions", json!({"variant": variant, "fen": fen}))
        .await
        .expect("post");
    assert_error(&a, 400, "bad_request");
    let message = a.body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("fen '"),
        "the message quotes the text: {message}"
    );
    a.body["error"]["position"].clone()
}

#[tokio::test]
async fn refused_positions_carry_a_code_and_its_args() {
    let srv = TestServer::start(&sqlite_url("position_faults")).await;
    let mut c = srv.client();
    let antarctos = [
        // A2: no kings.
        ("W:WKc3:Bf6", json!({"code": "king", "args": ["W", "Kc3"]})),
        // A1: a light square.
        (
            "W:Wa2:Bc7",
            json!({"code": "light_square", "args": ["W", "a2"]}),
        ),
        // A18: a square listed twice.
        (
            "W:Wc3:Bc3",
            json!({"code": "duplicate_square", "args": ["c3", "W", "B"]}),
        ),
        // A3: at most 12 men a side.
        (
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,b4:Bd6",
            json!({"code": "too_many_men", "args": ["white", "13"]}),
        ),
        // A12, A18: a man of the side to move on its goal row.
        (
            "W:Wb8:Bd6",
            json!({"code": "man_on_goal_row", "args": ["white", "b8"]}),
        ),
        ("X:Wb4:Bd6", json!({"code": "bad_side", "args": ["X"]})),
    ];
    for (fen, want) in antarctos {
        assert_eq!(refused(&mut c, "antarctos", fen).await, want, "{fen}");
    }
    let iceage = [
        // C12: more than one king of a side.
        (
            "4k3/8/8/8/8/8/8/K3K3 w - - 0 1",
            json!({"code": "too_many_kings", "args": ["white", "2"]}),
        ),
        (
            "4k3/8/8/8/8/8/8/4K2P w - - 0 1",
            json!({"code": "pawn_on_back_rank", "args": ["h1"]}),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
            json!({"code": "fullmove_zero", "args": []}),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            json!({"code": "castling_without_king_and_rook", "args": ["K", "e1", "h1"]}),
        ),
        // C12: the side not to move in check.
        (
            "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
            json!({"code": "opposite_check", "args": ["black"]}),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
            json!({"code": "en_passant_no_pawn", "args": ["e6", "e5"]}),
        ),
        (
            "4k3/8/8/8/8/8/8/4K4 w - - 0 1",
            json!({"code": "rank_length", "args": ["1", "9"]}),
        ),
    ];
    for (fen, want) in iceage {
        assert_eq!(refused(&mut c, "iceage", fen).await, want, "{fen}");
    }
    // A readable position has no fault, and neither has another bad request.
    let ok = c
        .post(
            "/api/positions",
            json!({"variant": "antarctos", "fen": "W:Wc3:Bf6"}),
        )
        .await
        .expect("post");
    assert_eq!(ok.status, 200, "{}", ok.text);
    let other = c
        .post("/api/positions", json!({"variant": "chess", "fen": "x"}))
        .await
        .expect("post");
    assert_error(&other, 400, "bad_request");
    assert!(
        other.body["error"].get("position").is_none(),
        "{}",
        other.text
    );
    srv.stop().await;
}

#[tokio::test]
async fn every_route_that_reads_a_position_sends_the_fault() {
    let srv = TestServer::start(&sqlite_url("position_faults_routes")).await;
    let mut c = srv.client();
    let cases = [
        (
            "/api/analysis",
            json!({"variant": "antarctos", "fen": "W:WKc3:Bf6", "movetime_ms": 100}),
            json!({"code": "king", "args": ["W", "Kc3"]}),
        ),
        (
            "/api/games",
            json!({"variant": "iceage", "opponent": "local", "fen": "4k3/8/8/8/8/8/8/4K2P w - - 0 1"}),
            json!({"code": "pawn_on_back_rank", "args": ["h1"]}),
        ),
    ];
    for (path, body, want) in cases {
        let a = c.post(path, body).await.expect("post");
        assert_error(&a, 400, "bad_request");
        assert_eq!(a.body["error"]["position"], want, "{path}: {}", a.text);
    }
    srv.stop().await;
}
