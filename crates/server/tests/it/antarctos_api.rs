//! The whole life of Antarctos games through the HTTP API and the WebSocket: against the
//! engine, against a friend by invitation, on one screen; seats; records; my games; stats.

use crate::common::*;
use serde_json::{Value, json};

fn move_texts(view: &Value) -> Vec<String> {
    view["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["text"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn engine_game_lifecycle_with_websocket_resign_record_rematch_stats() {
    let srv = TestServer::start(&sqlite_url("engine")).await;
    let mut me = srv.client();
    let g = create(
        &mut me,
        json!({"variant": "antarctos", "opponent": "engine", "level": 1, "color": "white"}),
    )
    .await;
    assert!(
        me.token().is_some(),
        "the first answer sets the player cookie"
    );
    let id = g["id"].as_str().expect("id").to_string();
    assert_eq!(g["you"], "white");
    assert_eq!(g["white"], json!({"kind": "human"}));
    assert_eq!(g["black"], json!({"kind": "engine", "level": 1}));
    assert_eq!(g["title"], "Antarctos");
    assert_eq!(g["ply"], 0);
    assert_eq!(g["turn"], "white");
    assert_eq!(g["engine_thinking"], false);
    // A3: seven legal first moves, each with its path of squares.
    let legal = g["legal"].as_array().expect("legal");
    assert_eq!(legal.len(), 7);
    assert!(
        legal
            .iter()
            .any(|m| m["id"] == "c3-d4" && m["path"] == json!(["c3", "d4"]))
    );

    let mut ws = me.ws(&id).await.expect("ws");
    let first = wait_state(&mut ws, |_| true).await;
    assert_eq!(first["you"], "white");

    let after = play(&mut me, &id, "c3d4").await; // A17: no separator accepted
    assert_eq!(after["ply"], 1);
    assert_eq!(after["moves"][0]["text"], "c3-d4");
    assert_eq!(after["moves"][0]["color"], "white");
    assert_eq!(after["moves"][0]["number"], 1);
    assert_eq!(after["engine_thinking"], true);
    // The engine's reply comes over the WebSocket, stored.
    let replied = wait_state(&mut ws, |g| g["ply"] == 2).await;
    assert_eq!(replied["moves"][1]["color"], "black");
    assert_eq!(replied["turn"], "white");
    let fetched = me.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(fetched.body["ply"], 2);

    // Draws are not part of Antarctos (A15).
    let d = me
        .post(&format!("/api/games/{id}/draw"), json!({"action": "offer"}))
        .await
        .expect("draw");
    assert_error(&d, 400, "bad_request");

    let mine = me.get("/api/my-games").await.expect("my games");
    assert_eq!(mine.status, 200);
    assert_eq!(mine.body[0]["id"], id.as_str());
    assert_eq!(mine.body[0]["your_turn"], true);

    let r = me
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await
        .expect("resign");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["status"], "finished");
    assert_eq!(
        r.body["result"],
        json!({"result": "0-1", "winner": "black", "reason": "resignation", "words": "White resigned"})
    );
    assert_eq!(r.body["legal"], json!([]));
    let fin = wait_state(&mut ws, |g| g["status"] == "finished").await;
    assert_eq!(fin["result"]["words"], "White resigned");

    let rec = me
        .get(&format!("/api/games/{id}/record"))
        .await
        .expect("record");
    assert_eq!(rec.status, 200);
    assert_eq!(
        rec.disposition.as_deref(),
        Some(format!("attachment; filename=\"icebound-{id}.pdn\"").as_str())
    );
    assert!(rec.text.contains("[Result \"0-1\"]"), "{}", rec.text);
    assert!(
        rec.text.contains("[Black \"icebound engine level 1\"]"),
        "{}",
        rec.text
    );
    assert!(rec.text.contains("1. c3-d4"), "{}", rec.text);

    let stats = me.get("/api/stats").await.expect("stats");
    assert_eq!(stats.body["antarctos"]["black"], 1);
    assert_eq!(stats.body["antarctos"]["total"], 1);
    assert_eq!(stats.body["antarctos"]["black_pct"], 100.0);
    assert_eq!(stats.body["iceage"]["total"], 0);

    // Rematch: colours swap, so the engine (now White) moves first.
    let rm = me
        .post(&format!("/api/games/{id}/rematch"), json!({}))
        .await
        .expect("rematch");
    assert_eq!(rm.status, 201, "{}", rm.text);
    assert_eq!(rm.body["you"], "black");
    assert_eq!(rm.body["white"], json!({"kind": "engine", "level": 1}));
    assert_eq!(rm.body["rematch_of"], id.as_str());
    let new_id = rm.body["id"].as_str().expect("id").to_string();
    let again = me
        .post(&format!("/api/games/{id}/rematch"), json!({}))
        .await
        .expect("rematch");
    assert_eq!(again.status, 200);
    assert_eq!(again.body["id"], new_id.as_str());
    let linked = wait_state(&mut ws, |g| !g["rematch"].is_null()).await;
    assert_eq!(linked["rematch"], new_id.as_str());
    let mut ws2 = me.ws(&new_id).await.expect("ws");
    let engine_first = wait_state(&mut ws2, |g| g["ply"] == 1).await;
    assert_eq!(engine_first["moves"][0]["color"], "white");
    assert_eq!(engine_first["turn"], "black");
    srv.stop().await;
}

#[tokio::test]
async fn friend_game_by_invitation_with_watchers_and_seat_checks() {
    let srv = TestServer::start(&sqlite_url("friend")).await;
    let mut alice = srv.client();
    let mut bob = srv.client();
    let mut eve = srv.client();
    // Seed example 1 (antarctos.md): Black begins and wins.
    let g = create(
        &mut alice,
        json!({"variant": "antarctos", "opponent": "friend", "color": "black", "fen": "B:Wa5,d2,d4:Ba7,c7"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    assert_eq!(g["you"], "black");
    assert_eq!(g["white"], json!({"kind": "open"}));
    assert_eq!(g["turn"], "black");
    let invite = g["invite_url"].as_str().expect("invite url").to_string();
    assert!(invite.starts_with("/join/"));

    // A watcher sees the game but neither the invitation nor a seat.
    let seen = eve.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(seen.status, 200);
    assert_eq!(seen.body["you"], Value::Null);
    assert_eq!(seen.body["invite_url"], Value::Null);
    let mut eve_ws = eve.ws(&id).await.expect("ws");
    wait_state(&mut eve_ws, |g| g["you"].is_null()).await;

    // The creator cannot take the other seat with her own invitation.
    let own = alice
        .post(&format!("/api{invite}"), json!({}))
        .await
        .expect("join");
    assert_error(&own, 409, "own_invite");
    assert_eq!(
        own.body["error"]["game"],
        id.as_str(),
        "the page offers a way back to the game"
    );
    let joined = bob
        .post(&format!("/api{invite}"), json!({}))
        .await
        .expect("join");
    assert_eq!(joined.status, 200, "{}", joined.text);
    assert_eq!(joined.body["you"], "white");
    assert_eq!(joined.body["white"], json!({"kind": "human"}));
    let late = eve
        .post(&format!("/api{invite}"), json!({}))
        .await
        .expect("join");
    assert_error(&late, 409, "invite_used");
    assert_eq!(
        late.body["error"]["game"],
        id.as_str(),
        "the used invitation names its game"
    );
    let unknown = eve
        .post("/api/join/nosuchinvite", json!({}))
        .await
        .expect("join");
    assert_error(&unknown, 404, "not_found");
    let again = bob
        .post(&format!("/api{invite}"), json!({}))
        .await
        .expect("join");
    assert_eq!(
        again.status, 200,
        "joining twice with the same token is harmless"
    );

    // Seats: a watcher cannot move; a player cannot move out of turn.
    let w = eve
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "c7-b6", "ply": 0}),
        )
        .await
        .expect("move");
    assert_error(&w, 403, "not_a_player");
    let wr = eve
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await
        .expect("resign");
    assert_error(&wr, 403, "not_a_player");
    let early = bob
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "a5-b6", "ply": 0}),
        )
        .await
        .expect("move");
    assert_error(&early, 409, "not_your_turn");

    let mut bob_ws = bob.ws(&id).await.expect("ws");
    wait_state(&mut bob_ws, |g| g["you"] == "white").await;
    play(&mut alice, &id, "c7-b6").await;
    assert_eq!(
        wait_state(&mut bob_ws, |g| g["ply"] == 1).await["moves"][0]["text"],
        "c7-b6"
    );
    // White's only legal turn: the capture a5xc7 (A9).
    let seen = wait_state(&mut eve_ws, |g| g["ply"] == 1).await;
    assert_eq!(seen["legal"].as_array().map(Vec::len), Some(1));
    play(&mut bob, &id, "a5xc7").await;
    // A17: start and end only; the sequence jumps the new ice on b6, then takes d4 and d2.
    let end = play(&mut alice, &id, "a7xc1").await;
    assert_eq!(move_texts(&end), ["c7-b6", "a5xc7", "a7xc5xe3xc1"]);
    assert_eq!(end["moves"][2]["path"], json!(["a7", "c5", "e3", "c1"]));
    assert_eq!(end["status"], "finished");
    assert_eq!(
        end["result"],
        json!({"result": "0-1", "winner": "black", "reason": "breakthrough", "words": "Black wins by breakthrough"})
    );
    let watched = wait_state(&mut eve_ws, |g| g["status"] == "finished").await;
    assert_eq!(watched["result"]["words"], "Black wins by breakthrough");
    let over = bob
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "d2-e3", "ply": 3}),
        )
        .await
        .expect("move");
    assert_error(&over, 409, "game_over");

    // Rematch of a friend game: an offer the friend accepts (by asking too); both seats
    // already held, colours swapped.
    let offer = bob
        .post(&format!("/api/games/{id}/rematch"), json!({}))
        .await
        .expect("rematch");
    assert_eq!(offer.status, 200, "{}", offer.text);
    assert_eq!(offer.body["id"], json!(id));
    assert_eq!(offer.body["rematch_offer"], "white");
    let rm = alice
        .post(&format!("/api/games/{id}/rematch"), json!({}))
        .await
        .expect("rematch");
    assert_eq!(rm.status, 201, "{}", rm.text);
    assert_eq!(rm.body["you"], "white");
    assert_eq!(rm.body["invite_url"], Value::Null);
    assert_eq!(rm.body["start_fen"], g["start_fen"]);
    let rid = rm.body["id"].as_str().expect("id").to_string();
    let bob_view = bob.get(&format!("/api/games/{rid}")).await.expect("get");
    assert_eq!(bob_view.body["you"], "black");
    let eve_rm = eve
        .post(&format!("/api/games/{id}/rematch"), json!({}))
        .await
        .expect("rematch");
    assert_error(&eve_rm, 403, "not_a_player");

    let mine = alice.get("/api/my-games").await.expect("my games");
    let ids: Vec<&str> = mine
        .body
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|s| s["id"].as_str())
        .collect();
    assert_eq!(ids, [rid.as_str(), id.as_str()], "unfinished first");
    assert_eq!(mine.body[1]["result"]["winner"], "black");
    let none = eve.get("/api/my-games").await.expect("my games");
    assert_eq!(none.body, json!([]));
    srv.stop().await;
}

#[tokio::test]
async fn local_game_both_seats_on_one_screen() {
    let srv = TestServer::start(&sqlite_url("local")).await;
    let mut me = srv.client();
    // Seed example 3: White begins and wins by A14 (Black's last man cannot move).
    let g = create(
        &mut me,
        json!({"variant": "antarctos", "opponent": "local", "fen": "W:Wb2,c1,h2:Ba3,c5:Ie5,e7,g3"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    assert_eq!(g["you"], "both");
    let end = play(&mut me, &id, "h2xf4xd6xb4").await;
    assert_eq!(
        end["result"],
        json!({"result": "1-0", "winner": "white", "reason": "no moves", "words": "White wins: Black has no legal turn"})
    );
    // A local resignation is the side to move's.
    let g2 = create(
        &mut me,
        json!({"variant": "antarctos", "opponent": "local"}),
    )
    .await;
    let id2 = g2["id"].as_str().expect("id").to_string();
    play(&mut me, &id2, "c3-d4").await;
    play(&mut me, &id2, "f6-e5").await;
    play(&mut me, &id2, "d4xf6").await;
    let r = me
        .post(&format!("/api/games/{id2}/resign"), json!({}))
        .await
        .expect("resign");
    assert_eq!(r.body["result"]["words"], "Black resigned");
    assert_eq!(r.body["result"]["result"], "1-0");
    let stats = me.get("/api/stats").await.expect("stats");
    assert_eq!(
        stats.body["antarctos"],
        json!({"white": 2, "black": 0, "draws": 0, "total": 2,
               "white_pct": 100.0, "black_pct": 0.0, "draws_pct": 0.0,
               "selfplay": [], "matches": []})
    );
    srv.stop().await;
}

#[tokio::test]
async fn rules_examples_replay_to_their_results() {
    let srv = TestServer::start(&sqlite_url("examples")).await;
    let mut me = srv.client();
    let ex = me.get("/api/rules/examples").await.expect("examples");
    let list = ex.body.as_array().expect("list").clone();
    assert_eq!(list.len(), 3);
    for e in list {
        let g = create(
            &mut me,
            json!({"variant": e["variant"], "opponent": "local", "fen": e["fen"]}),
        )
        .await;
        let id = g["id"].as_str().expect("id").to_string();
        let mut last = g;
        for mv in e["moves"].as_array().expect("moves") {
            last = play(&mut me, &id, mv.as_str().expect("text")).await;
        }
        assert_eq!(last["result"]["result"], e["result"], "{}", e["title"]);
    }
    srv.stop().await;
}
