//! The JSON the API sends, pinned byte for byte (docs/api.md, GameView and GameSummary): field
//! order, spelling of every enum (status, seat kind, colour, result, reason, variant), nulls,
//! and the fields the game page reads (captures, version, actions, offers, notice, countdown).
//! The server keeps these values typed; this proves the text at the edge did not move.

mod common;

use common::*;
use serde_json::{Value, json};

/// The answer's raw text with the game id replaced by `ID`.
fn without_id(text: &str, id: &str) -> String {
    text.replace(id, "ID")
}

#[tokio::test]
async fn a_finished_game_view_is_sent_byte_for_byte_as_before() {
    let srv = TestServer::start(&sqlite_url("json-finished")).await;
    let mut me = srv.client();
    // The seed's first example (antarctos.md): Black begins and wins by breakthrough.
    let g = create(
        &mut me,
        json!({"variant": "antarctos", "opponent": "local", "fen": "B:Wa5,d2,d4:Ba7,c7"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    for mv in ["c7-b6", "a5xc7", "a7xc5xe3xc1"] {
        play(&mut me, &id, mv).await;
    }
    let got = me.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(got.status, 200);
    let want = concat!(
        r#"{"id":"ID","variant":"antarctos","title":"Antarctos","you":"both","#,
        r#""white":{"kind":"human"},"black":{"kind":"human"},"status":"finished","#,
        r#""fen":"W:Wc7:Bc1:Id2,d4","start_fen":"B:Wd2,d4,a5:Ba7,c7","turn":"white","ply":3,"#,
        r#""moves":[{"ply":1,"number":1,"color":"black","text":"c7-b6","id":"c7-b6","#,
        r#""path":["c7","b6"],"fen":"W:Wd2,d4,a5:Bb6,a7","event":null},"#,
        r#"{"ply":2,"number":2,"color":"white","text":"a5xc7","id":"a5xc7","#,
        r#""path":["a5","c7"],"fen":"B:Wd2,d4,c7:Ba7:Ib6","event":null,"captured":["b6"]},"#,
        r#"{"ply":3,"number":2,"color":"black","text":"a7xc5xe3xc1","id":"a7xc5xe3xc1","#,
        r#""path":["a7","c5","e3","c1"],"fen":"W:Wc7:Bc1:Id2,d4","event":null,"#,
        r#""captured":["d2","d4"],"melted":["b6"]}],"#,
        r#""legal":[],"draw_offer":null,"#,
        r#""result":{"result":"0-1","winner":"black","reason":"breakthrough","#,
        r#""words":"Black wins by breakthrough"},"#,
        r#""invite_url":null,"rematch_of":null,"rematch":null,"engine_thinking":false,"#,
        r#""version":4,"actions":["rematch"],"takeback_offer":null,"rematch_offer":null,"#,
        r#""notice":null,"capture_compulsory":false,"ice_age_in":null,"#,
        r#""analysis_url":"/analysis/game/ID","clock":null,"rated":false,"ratings":null}"#
    );
    assert_eq!(without_id(&got.text, &id), want);
    srv.stop().await;
}

#[tokio::test]
async fn an_ongoing_game_view_with_a_draw_offer_and_engine_seat_is_sent_as_before() {
    let srv = TestServer::start(&sqlite_url("json-ongoing")).await;
    let mut alice = srv.client();
    let mut bob = srv.client();
    let g = create(
        &mut alice,
        json!({"variant": "iceage", "opponent": "friend", "color": "white",
               "fen": "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let invite = g["invite_url"].as_str().expect("invite").to_string();
    // The creator sees the invitation while the seat is open.
    let open = without_id(&g.to_string(), &id);
    assert!(open.contains(r#""black":{"kind":"open"}"#), "{open}");
    assert!(
        open.contains(&format!(r#""invite_url":"{invite}""#)),
        "{open}"
    );
    bob.post(&format!("/api{invite}"), json!({}))
        .await
        .expect("join");
    play(&mut alice, &id, "Ra8+").await;
    let offer = alice
        .post(&format!("/api/games/{id}/draw"), json!({"action": "offer"}))
        .await
        .expect("offer");
    assert_eq!(offer.status, 200, "{}", offer.text);
    let got = bob.get(&format!("/api/games/{id}")).await.expect("get");
    let want = concat!(
        r#"{"id":"ID","variant":"iceage","title":"Ice Age Chess","you":"black","#,
        r#""white":{"kind":"human"},"black":{"kind":"human"},"status":"ongoing","#,
        r#""fen":"R3k3/8/8/8/8/8/8/4K3 b - - 1 1","start_fen":"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1","#,
        r#""turn":"black","ply":1,"#,
        r#""moves":[{"ply":1,"number":1,"color":"white","text":"Ra8+","id":"a1a8","#,
        r#""path":["a1","a8"],"fen":"R3k3/8/8/8/8/8/8/4K3 b - - 1 1","event":null}],"#,
        r#""legal":[{"id":"e8d7","text":"Kd7","path":["e8","d7"]},"#,
        r#"{"id":"e8e7","text":"Ke7","path":["e8","e7"]},"#,
        r#"{"id":"e8f7","text":"Kf7","path":["e8","f7"]}],"#,
        r#""draw_offer":"white","result":null,"invite_url":null,"rematch_of":null,"#,
        r#""rematch":null,"engine_thinking":false,"version":4,"#,
        r#""actions":["move","abort","accept_draw","decline_draw"],"takeback_offer":null,"#,
        r#""rematch_offer":null,"notice":null,"capture_compulsory":false,"ice_age_in":20,"#,
        r#""analysis_url":null,"clock":null,"rated":false,"ratings":null}"#
    );
    assert_eq!(without_id(&got.text, &id), want);

    // An engine seat shows its level; "my games" lines keep their fields and spelling.
    let e = create(
        &mut alice,
        json!({"variant": "antarctos", "opponent": "engine", "level": 4, "color": "white"}),
    )
    .await;
    assert_eq!(e["black"], json!({"kind": "engine", "level": 4}));
    let mine = alice.get("/api/my-games").await.expect("my games");
    let line = mine.body[1].clone();
    let keys: Vec<&str> = line
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    let mut want_keys = vec![
        "id",
        "variant",
        "title",
        "you",
        "white",
        "black",
        "status",
        "turn",
        "ply",
        "your_turn",
        "result",
        "created_at",
        "updated_at",
        "clock",
        "rated",
    ];
    want_keys.sort_unstable();
    assert_eq!(keys, want_keys, "{line}");
    assert_eq!(line["variant"], "iceage");
    assert_eq!(line["you"], "white");
    assert_eq!(line["status"], "ongoing");
    assert_eq!(line["turn"], "black");
    assert_eq!(line["your_turn"], false);
    assert_eq!(line["result"], Value::Null);
    srv.stop().await;
}

/// The text of the move `id` in a `POST /api/positions` answer: from its `{"id":` to its
/// closing brace, as sent.
fn next_move_text<'a>(text: &'a str, id: &str) -> &'a str {
    let start = text
        .find(&format!(r#"{{"id":"{id}""#))
        .unwrap_or_else(|| panic!("{id} in {text}"));
    let rest = &text[start..];
    let end = rest
        .find(r#"},{"id":"#)
        .or_else(|| rest.find("}],"))
        .expect("the move's end");
    &rest[..=end]
}

#[tokio::test]
async fn a_position_s_ice_age_facts_are_sent_byte_for_byte_as_before() {
    let srv = TestServer::start(&sqlite_url("json-ice-age")).await;
    let mut me = srv.client();
    // Black's 20th move brings the Ice Age (testdata/records/ice-age-comments.pgn).
    let fen = "4k3/3pp3/8/1P6/7P/8/3P4/4K2R b K - 0 20";
    let got = me
        .post("/api/positions", json!({"variant": "iceage", "fen": fen}))
        .await
        .expect("post");
    assert_eq!(got.status, 200, "{}", got.text);
    let want = concat!(
        r#"{"id":"e7e6","text":"e6","path":["e7","e6"],"#,
        r#""fen":"****k***/***p****/****p***/********/********/********/***P****/****K*** w - - 0 21","#,
        r#""event":"Ice Age: b5, h4, Rh1 frozen","ice_age":{"frozen":[{"square":"b5","#,
        r#""color":"white","role":"p"},{"square":"h1","color":"white","role":"r"},{"square":"h4","#,
        r#""color":"white","role":"p"}],"filled":["a1","b1","c1","d1","f1","g1","a2","b2","c2","#,
        r#""e2","f2","g2","h2","a3","b3","c3","d3","e3","f3","g3","h3","a4","b4","c4","d4","e4","#,
        r#""f4","g4","a5","c5","d5","e5","f5","g5","h5","a6","b6","c6","d6","f6","g6","h6","a7","#,
        r#""b7","c7","e7","f7","g7","h7","a8","b8","c8","d8","f8","g8","h8"],"closed":[],"#,
        r#""before_fen":"4k3/3p4/4p3/1P6/7P/8/3P4/4K2R w K - 0 21","kings_frozen":[]}}"#,
    );
    assert_eq!(next_move_text(&got.text, "e7e6"), want);
    // Both kings freeze (C7) and a1, closed by a2 and b1 and the board's edges, stays empty.
    let fen = "4k3/8/8/8/8/8/P7/1N2K2R b K - 0 20";
    let got = me
        .post("/api/positions", json!({"variant": "iceage", "fen": fen}))
        .await
        .expect("post");
    assert_eq!(got.status, 200, "{}", got.text);
    let want = concat!(
        r#"{"id":"e8d8","text":"Kd8","path":["e8","d8"],"#,
        r#""fen":"********/********/********/********/********/********/P*******/1N****** w - - 0 21","#,
        r#""event":"Ice Age: Kd8, Ke1, Rh1 frozen","ice_age":{"frozen":[{"square":"d8","#,
        r#""color":"black","role":"k"},{"square":"e1","color":"white","role":"k"},{"square":"h1","#,
        r#""color":"white","role":"r"}],"filled":["c1","d1","f1","g1","b2","c2","d2","e2","f2","#,
        r#""g2","h2","a3","b3","c3","d3","e3","f3","g3","h3","a4","b4","c4","d4","e4","f4","g4","#,
        r#""h4","a5","b5","c5","d5","e5","f5","g5","h5","a6","b6","c6","d6","e6","f6","g6","h6","#,
        r#""a7","b7","c7","d7","e7","f7","g7","h7","a8","b8","c8","e8","f8","g8","h8"],"#,
        r#""closed":["a1"],"before_fen":"3k4/8/8/8/8/8/P7/1N2K2R w K - 1 21","#,
        r#""kings_frozen":["black","white"]}}"#,
    );
    assert_eq!(next_move_text(&got.text, "e8d8"), want);
    srv.stop().await;
}
