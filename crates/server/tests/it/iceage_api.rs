//! Ice Age Chess through the API: engine games, draw offers (offer, decline, accept, moving
//! declines), the Ice Age as a move event and a frozen king as the result, PGN records, stats.

use crate::common::*;
use serde_json::{Value, json};

#[tokio::test]
async fn engine_game_engine_moves_first_as_white_and_declines_draws() {
    let srv = TestServer::start(&sqlite_url("ice-engine")).await;
    let mut me = srv.client();
    let g = create(
        &mut me,
        json!({"variant": "iceage", "opponent": "engine", "level": 2, "color": "black"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    assert_eq!(g["title"], "Ice Age Chess");
    assert_eq!(g["you"], "black");
    assert!(
        g["fen"].as_str().unwrap_or("").contains("********"),
        "C4: ice on ranks 3-6"
    );
    let mut ws = me.ws(&id).await.expect("ws");
    let first = wait_state(&mut ws, |g| g["ply"] == 1).await;
    assert_eq!(first["moves"][0]["color"], "white");
    // C4: every first move captures ice; ids are UCI, texts SAN.
    let legal = first["legal"].as_array().expect("legal");
    assert_eq!(legal.len(), 18);
    let nf6 = legal
        .iter()
        .find(|m| m["id"] == "g8f6")
        .expect("g8f6 legal");
    assert_eq!(nf6["text"], "Nxf6");
    assert_eq!(nf6["path"], json!(["g8", "f6"]));
    let after = play(&mut me, &id, "Nxf6").await;
    assert_eq!(after["moves"][1]["id"], "g8f6");
    // The engine declines at once: nothing changes.
    let d = me
        .post(&format!("/api/games/{id}/draw"), json!({"action": "offer"}))
        .await
        .expect("draw");
    assert_eq!(d.status, 200, "{}", d.text);
    assert_eq!(d.body["draw_offer"], Value::Null);
    assert_eq!(d.body["status"], "ongoing");
    wait_state(&mut ws, |g| g["ply"] == 3).await;
    srv.stop().await;
}

#[tokio::test]
async fn friend_game_draw_offers_and_agreement() {
    let srv = TestServer::start(&sqlite_url("ice-draw")).await;
    let mut alice = srv.client();
    let mut bob = srv.client();
    let g = create(
        &mut alice,
        json!({"variant": "iceage", "opponent": "friend", "color": "white"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let invite = g["invite_url"].as_str().expect("invite").to_string();
    let j = bob
        .post(&format!("/api{invite}"), json!({}))
        .await
        .expect("join");
    assert_eq!(j.body["you"], "black");
    let draw = |action: &str| json!({ "action": action });
    let path = format!("/api/games/{id}/draw");

    let o = alice.post(&path, draw("offer")).await.expect("offer");
    assert_eq!(o.body["draw_offer"], "white");
    let own = alice.post(&path, draw("accept")).await.expect("accept");
    assert_error(&own, 409, "conflict");
    let bad = bob.post(&path, draw("maybe")).await.expect("bad");
    assert_error(&bad, 400, "bad_request");
    let dec = bob.post(&path, draw("decline")).await.expect("decline");
    assert_eq!(dec.body["draw_offer"], Value::Null);
    let none = bob.post(&path, draw("accept")).await.expect("accept");
    assert_error(&none, 409, "conflict");

    // Offered again at once: refused for 20 plies (third hostile round, finding 5).
    let again = alice.post(&path, draw("offer")).await.expect("offer");
    assert_error(&again, 429, "rate_limited");
    assert!(again.text.contains("from ply 20"), "{}", again.text);

    // An offer stands through the offerer's own move; the opponent's move declines it.
    let m = play(&mut alice, &id, "g1f3").await;
    assert_eq!(m["moves"][0]["text"], "Nxf3");
    bob.post(&path, draw("offer")).await.expect("offer");
    let m = play(&mut bob, &id, "g8f6").await;
    assert_eq!(m["draw_offer"], "black");
    let reply = crate::common::lobby::first_legal(&mut alice, &id).await;
    let m = play(&mut alice, &id, &reply).await;
    assert_eq!(m["draw_offer"], Value::Null);

    let mut ws = alice.ws(&id).await.expect("ws");
    bob.post(&path, draw("offer")).await.expect("offer");
    wait_state(&mut ws, |g| g["draw_offer"] == "black").await;
    let acc = alice.post(&path, draw("accept")).await.expect("accept");
    assert_eq!(acc.status, 200, "{}", acc.text);
    assert_eq!(
        acc.body["result"],
        json!({"result": "1/2-1/2", "winner": null, "reason": "agreement", "words": "Draw by agreement"})
    );
    let fin = wait_state(&mut ws, |g| g["status"] == "finished").await;
    assert_eq!(fin["result"]["words"], "Draw by agreement");
    let late = bob.post(&path, draw("offer")).await.expect("offer");
    assert_error(&late, 409, "game_over");

    let rec = alice
        .get(&format!("/api/games/{id}/record"))
        .await
        .expect("record");
    assert_eq!(
        rec.disposition.as_deref(),
        Some(format!("attachment; filename=\"icebound-{id}.pgn\"").as_str())
    );
    assert!(rec.text.contains("[Variant \"Ice Age\"]"), "{}", rec.text);
    assert!(rec.text.contains("[Result \"1/2-1/2\"]"), "{}", rec.text);
    assert!(
        rec.text.contains("[Termination \"agreement\"]"),
        "{}",
        rec.text
    );
    assert!(rec.text.contains("1. Nxf3 Nxf6"), "{}", rec.text);
    let stats = alice.get("/api/stats").await.expect("stats");
    assert_eq!(stats.body["iceage"]["draws"], 1);
    assert_eq!(stats.body["iceage"]["draws_pct"], 100.0);
    srv.stop().await;
}

#[tokio::test]
async fn c7_ice_age_event_and_frozen_king_result() {
    let srv = TestServer::start(&sqlite_url("ice-age")).await;
    let mut me = srv.client();
    // Black's 20th move (C5): the lone black king is isolated and freezes (C6, C7); the white
    // king and pawn guard each other.
    let g = create(
        &mut me,
        json!({"variant": "iceage", "opponent": "local", "fen": "4k3/8/8/8/8/8/4P3/4K3 b - - 0 20"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let end = play(&mut me, &id, "e8d8").await;
    let mv = &end["moves"][0];
    assert_eq!(mv["number"], 20);
    assert!(
        mv["event"]
            .as_str()
            .is_some_and(|e| e.starts_with("Ice Age") && e.contains("Kd8")),
        "{mv}"
    );
    assert_eq!(
        end["result"],
        json!({"result": "1-0", "winner": "white", "reason": "frozen king",
               "words": "Black's king froze in the Ice Age"})
    );
    let rec = me
        .get(&format!("/api/games/{id}/record"))
        .await
        .expect("record");
    assert!(
        rec.text.contains("{Ice Age"),
        "C13: the Ice Age comment: {}",
        rec.text
    );
    assert!(
        rec.text.contains("[Termination \"frozen king\"]"),
        "{}",
        rec.text
    );

    // Both kings alone: both freeze, a draw (C7).
    let g = create(
        &mut me,
        json!({"variant": "iceage", "opponent": "local", "fen": "4k3/8/8/8/8/8/8/4K3 b - - 0 40"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let end = play(&mut me, &id, "Kd7").await;
    assert_eq!(
        end["result"]["words"],
        "Draw: both kings froze in the Ice Age"
    );
    assert_eq!(end["result"]["winner"], Value::Null);
    // Bad chess input: an illegal SAN, a bad FEN.
    let g = create(&mut me, json!({"variant": "iceage", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let a = me
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "e2e4", "ply": 0}),
        )
        .await
        .expect("move");
    assert_error(&a, 422, "illegal_move");
    let a = me
        .post(
            "/api/games",
            json!({"variant": "iceage", "opponent": "local", "fen": "8/8/8 w - - 0 1"}),
        )
        .await
        .expect("create");
    assert_error(&a, 400, "bad_request");
    srv.stop().await;
}
