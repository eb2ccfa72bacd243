//! The facts and actions the game page reads from the API (issue 10; docs/api.md): per-move
//! Ice Age facts (C5-C7), captured men and melted ice and the compulsory capture (A7-A9), the
//! actions a seat may take, the friend's waiting room, abort, takeback, rematch offers, notices,
//! and statistics that count neither unjoined nor aborted games.

use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use server::client::ApiClient;

/// The rules page's Ice Age (web/src/rules_content.ts): Black's 20th move, the rook on h8
/// is isolated; f1, f6 and e7 are closed on four sides.
const ICE_AGE_FEN: &str = "rnbqk1*r/pppp1p*1/****pnp1/4PP2/3P4/3B4/PPP2PPP/RNBQK1NR b - - 0 20";

pub(crate) async fn post(c: &mut ApiClient, path: &str, body: Value) -> server::client::Answer {
    c.post(path, body).await.expect("request")
}

pub(crate) async fn get(c: &mut ApiClient, id: &str) -> Value {
    let a = c.get(&format!("/api/games/{id}")).await.expect("request");
    assert_eq!(a.status, 200, "{}", a.text);
    a.body
}

pub(crate) fn actions(v: &Value) -> Vec<&str> {
    v["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|a| a.as_str().expect("text"))
        .collect()
}

pub(crate) fn id_of(v: &Value) -> String {
    v["id"].as_str().expect("id").to_string()
}

/// Waits until game `id` reaches ply `ply` (the engine's reply).
pub(crate) async fn wait_ply(c: &mut ApiClient, id: &str, ply: i64) -> Value {
    for _ in 0..200 {
        let g = get(c, id).await;
        if g["ply"] == ply {
            return g;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("game {id} never reached ply {ply}");
}

/// A friend game created by `a` (White) and joined by `b`.
pub(crate) async fn friend_game(a: &mut ApiClient, b: &mut ApiClient, variant: &str) -> String {
    let g = create_and_join(
        a,
        b,
        json!({"variant": variant, "opponent": "friend", "color": "white"}),
    )
    .await;
    id_of(&g)
}

async fn totals(c: &mut ApiClient) -> (i64, i64) {
    let s = c.get("/api/stats").await.expect("stats").body;
    (
        s["antarctos"]["total"].as_i64().expect("n"),
        s["iceage"]["total"].as_i64().expect("n"),
    )
}

#[tokio::test]
async fn c6_ice_age_facts_name_the_frozen_the_filled_the_closed_and_the_position_before() {
    let srv = TestServer::start(&sqlite_url("facts-ice")).await;
    let mut me = srv.client();
    let g = create(
        &mut me,
        json!({"variant": "iceage", "opponent": "local", "fen": ICE_AGE_FEN}),
    )
    .await;
    let id = id_of(&g);
    let after = play(&mut me, &id, "Nh5").await;
    let m = &after["moves"][0];
    assert_eq!(m["event"], "Ice Age: Rh8 frozen");
    let ice = &m["ice_age"];
    assert_eq!(
        ice["frozen"],
        json!([{"square": "h8", "color": "black", "role": "r"}])
    );
    assert_eq!(ice["closed"], json!(["f1", "f6", "e7"]));
    assert_eq!(ice["kings_frozen"], json!([]));
    let before = ice["before_fen"].as_str().expect("before");
    assert_eq!(
        before, "rnbqk1*r/pppp1p*1/****p1p1/4PP1n/3P4/3B4/PPP2PPP/RNBQK1NR w - - 1 21",
        "the position Black's move made, before the Ice Age"
    );
    // Every empty square of that position is filled or closed, and nothing else is.
    let empty: usize = before
        .split(' ')
        .next()
        .expect("board")
        .chars()
        .filter_map(|c| c.to_digit(10))
        .map(|d| d as usize)
        .sum();
    let filled = ice["filled"].as_array().expect("filled");
    assert_eq!(filled.len() + 3, empty);
    assert!(!filled.contains(&json!("h8")) && filled.contains(&json!("f8")));
    assert_eq!(
        after["fen"],
        "rnbqk***/pppp1p**/****p1p*/****PP*n/***P****/***B****/PPP**PPP/RNBQK1NR w - - 0 21"
    );
    // A move without an Ice Age has no facts; the JSON leaves them out.
    let next = play(&mut me, &id, "Bxe4").await;
    assert!(
        next["moves"][1].get("ice_age").is_none(),
        "{}",
        next["moves"][1]
    );
    srv.stop().await;
}

#[tokio::test]
async fn c7_frozen_kings_are_named_and_c5_the_countdown_is_in_black_moves() {
    let srv = TestServer::start(&sqlite_url("facts-kings")).await;
    let mut me = srv.client();
    let start = create(&mut me, json!({"variant": "iceage", "opponent": "local"})).await;
    assert_eq!(
        start["ice_age_in"], 20,
        "White to move at move 1: 20 Black moves"
    );
    let id = id_of(&start);
    let after = play(&mut me, &id, "hxg3").await;
    assert_eq!(
        after["ice_age_in"], 20,
        "Black to move at move 1: its 20th brings it"
    );
    let due = create(
        &mut me,
        json!({"variant": "iceage", "opponent": "local", "fen": ICE_AGE_FEN}),
    )
    .await;
    assert_eq!(due["ice_age_in"], 1, "the next Black move brings it");
    let past = play(&mut me, &id_of(&due), "Nh5").await;
    assert_eq!(
        past["ice_age_in"], 20,
        "the next one after Black's 40th move"
    );
    let antarctos = create(
        &mut me,
        json!({"variant": "antarctos", "opponent": "local"}),
    )
    .await;
    assert_eq!(antarctos["ice_age_in"], Value::Null);

    let kings = create(
        &mut me,
        json!({"variant": "iceage", "opponent": "local", "fen": "7k/8/8/8/8/8/8/K7 b - - 0 20"}),
    )
    .await;
    let over = play(&mut me, &id_of(&kings), "Kg8").await;
    let mut frozen: Vec<String> = over["moves"][0]["ice_age"]["kings_frozen"]
        .as_array()
        .expect("kings")
        .iter()
        .map(|c| c.as_str().expect("colour").to_string())
        .collect();
    frozen.sort();
    assert_eq!(frozen, ["black", "white"]);
    assert_eq!(over["result"]["reason"], "both kings frozen");
    assert_eq!(
        over["ice_age_in"],
        Value::Null,
        "a finished game has no countdown"
    );
    srv.stop().await;
}

#[tokio::test]
async fn a8_captured_men_and_melted_ice_per_turn_and_a9_the_compulsory_capture() {
    let srv = TestServer::start(&sqlite_url("facts-antarctos")).await;
    let mut me = srv.client();
    // The seed's second example.
    let g = create(
        &mut me,
        json!({"variant": "antarctos", "opponent": "local", "fen": "W:Wb4,e3,f2:Bc7,d6:Ic3"}),
    )
    .await;
    assert_eq!(g["capture_compulsory"], false);
    let id = id_of(&g);
    let v = play(&mut me, &id, "b4-c5").await;
    assert!(
        v["moves"][0].get("captured").is_none(),
        "a simple move captures nothing"
    );
    assert_eq!(
        v["capture_compulsory"], true,
        "A9: d6 can take c5, so every turn starts with a capture"
    );
    let v = play(&mut me, &id, "d6xb4xd2xf4").await;
    assert_eq!(v["moves"][1]["captured"], json!(["e3", "c5"]));
    assert_eq!(v["moves"][1]["melted"], json!(["c3"]));
    assert_eq!(v["capture_compulsory"], false);
    let v = play(&mut me, &id, "f2xd4xb6xd8").await;
    assert_eq!(v["moves"][2]["captured"], json!(["c7"]));
    assert_eq!(v["moves"][2]["melted"], json!(["e3", "c5"]));
    assert_eq!(
        v["capture_compulsory"], false,
        "a finished game compels nothing"
    );
    srv.stop().await;
}

#[tokio::test]
async fn a_friend_game_waits_for_its_friend_and_can_be_cancelled() {
    let srv = TestServer::start(&sqlite_url("waiting")).await;
    let mut a = srv.client();
    let mut watcher = srv.client();
    let before = totals(&mut a).await;
    let g = create(
        &mut a,
        json!({"variant": "iceage", "opponent": "friend", "color": "white"}),
    )
    .await;
    let id = id_of(&g);
    assert_eq!(actions(&g), ["abort"], "the creator can only cancel");
    assert_eq!(actions(&get(&mut watcher, &id).await), Vec::<&str>::new());
    for (path, body) in [
        ("moves", json!({"move": "hxg3", "ply": 0})),
        ("resign", json!({})),
        ("draw", json!({"action": "offer"})),
        ("takeback", json!({"action": "offer"})),
    ] {
        let r = post(&mut a, &format!("/api/games/{id}/{path}"), body).await;
        assert_error(&r, 409, "waiting_for_opponent");
    }
    let aborted = post(&mut a, &format!("/api/games/{id}/abort"), json!({})).await;
    assert_eq!(aborted.status, 200, "{}", aborted.text);
    assert_eq!(aborted.body["status"], "aborted");
    assert_eq!(aborted.body["result"], Value::Null);
    assert_eq!(aborted.body["notice"]["code"], "aborted");
    assert_eq!(aborted.body["invite_url"], Value::Null);
    let invite = g["invite_url"].as_str().expect("invite");
    let mut b = srv.client();
    let late = post(&mut b, &format!("/api{invite}"), json!({})).await;
    assert_error(&late, 409, "invite_cancelled");
    assert_eq!(
        totals(&mut a).await,
        before,
        "a cancelled game is not counted"
    );
    let record = a
        .get(&format!("/api/games/{id}/record"))
        .await
        .expect("record");
    assert!(record.text.contains("[Result \"*\"]"), "{}", record.text);
    srv.stop().await;
}

#[tokio::test]
async fn a_game_is_aborted_only_before_its_second_move_and_never_counted() {
    let srv = TestServer::start(&sqlite_url("abort")).await;
    let (mut a, mut b) = (srv.client(), srv.client());
    let before = totals(&mut a).await;
    let id = friend_game(&mut a, &mut b, "antarctos").await;
    let joined = get(&mut a, &id).await;
    assert_eq!(joined["notice"]["code"], "joined", "{}", joined["notice"]);
    assert_eq!(joined["notice"]["by"], "black");
    assert_eq!(actions(&joined), ["move", "abort"]);
    play(&mut a, &id, "c3-d4").await;
    let black = get(&mut b, &id).await;
    assert_eq!(
        actions(&black),
        ["move", "abort"],
        "Black has nothing to take back yet"
    );
    let r = post(&mut b, &format!("/api/games/{id}/abort"), json!({})).await;
    assert_eq!(r.body["status"], "aborted", "{}", r.text);
    assert_eq!(
        r.body["notice"],
        json!({"code": "aborted", "by": "black", "version": r.body["version"]})
    );
    assert_error(
        &post(
            &mut a,
            &format!("/api/games/{id}/moves"),
            json!({"move": "f6-g5", "ply": 1}),
        )
        .await,
        409,
        "game_over",
    );

    let id2 = friend_game(&mut a, &mut b, "antarctos").await;
    play(&mut a, &id2, "c3-d4").await;
    play(&mut b, &id2, "f6-g5").await;
    let two = get(&mut a, &id2).await;
    assert!(actions(&two).contains(&"resign") && !actions(&two).contains(&"abort"));
    assert_error(
        &post(&mut a, &format!("/api/games/{id2}/abort"), json!({})).await,
        409,
        "conflict",
    );
    // An engine game before the player's first move, too.
    let e = create(
        &mut a,
        json!({"variant": "antarctos", "opponent": "engine", "level": 1, "color": "white"}),
    )
    .await;
    let r = post(
        &mut a,
        &format!("/api/games/{}/abort", id_of(&e)),
        json!({}),
    )
    .await;
    assert_eq!(r.body["status"], "aborted", "{}", r.text);
    // A resignation before the second move aborts the game, as lichess does (docs/api.md):
    // at ply 0 and at ply 1, no result, and nobody's win.
    for moves in [&[][..], &["c3-d4"][..]] {
        let id = friend_game(&mut a, &mut b, "antarctos").await;
        for mv in moves {
            play(&mut a, &id, mv).await;
        }
        let r = post(&mut b, &format!("/api/games/{id}/resign"), json!({})).await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.body["status"], "aborted", "{}", r.text);
        assert_eq!(r.body["result"], serde_json::Value::Null, "{}", r.text);
        assert_eq!(r.body["notice"]["code"], "aborted", "{}", r.text);
        assert_eq!(r.body["notice"]["by"], "black", "{}", r.text);
    }
    assert_eq!(
        totals(&mut a).await,
        before,
        "aborted games are not counted"
    );
    srv.stop().await;
}

#[tokio::test]
async fn games_with_a_seat_nobody_took_are_not_counted() {
    // Older versions let a creator resign before the friend came; such games stay out.
    let srv = TestServer::start(&sqlite_url("stats-open")).await;
    let mut a = srv.client();
    let before = totals(&mut a).await;
    let g = create(
        &mut a,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white"}),
    )
    .await;
    let store = srv.site.service().store();
    let (mut row, _) = store
        .load_game(&id_of(&g))
        .await
        .expect("load")
        .expect("game");
    row.status = site_model::state::GameStatus::Finished;
    row.winner = Some(game::Color::Black);
    row.result = Some(game::RecordResult::BlackWins);
    row.reason = Some(game::EndReason::Resignation);
    row.version += 1;
    store.save_state(&row).await.expect("save");
    assert_eq!(totals(&mut a).await, before);
    // A played game is counted.
    let local = create(&mut a, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = id_of(&local);
    play(&mut a, &id, "c3-d4").await;
    play(&mut a, &id, "f6-g5").await;
    post(&mut a, &format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(totals(&mut a).await, (before.0 + 1, before.1));
    srv.stop().await;
}

/// A takeback while the engine thinks, then another move to the same ply: the search of the
/// old position must not be played on the new one. Here the old search finds a quiet move, and
/// after the new move (c3-d4) Black must capture (A-rules: compulsory capture), so the old
/// answer is illegal: the engine has to search again, never stall.
#[tokio::test]
async fn engine_searches_again_when_a_takeback_changes_the_position_under_it() {
    let url = sqlite_url("stale_search");
    let srv = TestServer::start(&url).await;
    let mut a = srv.client();
    let e = create(
        &mut a,
        json!({"variant": "antarctos", "opponent": "engine", "level": 8, "color": "white",
               "fen": "W:Wa1,c3,e1,g1,h2:Be5,b8,d8,f8,h8,a7,c7,g7"}),
    )
    .await;
    let eid = id_of(&e);
    play(&mut a, &eid, "a1-b2").await;
    let back = post(
        &mut a,
        &format!("/api/games/{eid}/takeback"),
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(back.status, 200, "{}", back.text);
    // Usually taken back while the engine was still thinking; ply 0 either way.
    assert_eq!(back.body["ply"], 0, "{}", back.text);
    play(&mut a, &eid, "c3-d4").await;
    let replied = wait_ply(&mut a, &eid, 2).await;
    let reply = replied["moves"][1]["text"].as_str().unwrap_or_default();
    assert!(
        reply.starts_with("e5") && reply.ends_with("c3"),
        "Black must take c3-d4 with e5, got {reply}"
    );
    srv.stop().await;
}

/// Level 8 keeps its search from one of its moves to the next (docs/api.md,
/// `engine_thinking`), and the game's end frees it.
#[tokio::test]
async fn level_8_keeps_its_search_over_the_game_and_its_end_frees_it() {
    let url = sqlite_url("kept_search");
    let srv = TestServer::start(&url).await;
    let mut a = srv.client();
    let e = create(
        &mut a,
        json!({"variant": "antarctos", "opponent": "engine", "level": 8, "color": "white"}),
    )
    .await;
    let eid = id_of(&e);
    play(&mut a, &eid, "c3-d4").await;
    wait_ply(&mut a, &eid, 2).await;
    assert_eq!(site::engine_memory::kept_for(&eid), 1);
    let lower = create(
        &mut a,
        json!({"variant": "antarctos", "opponent": "engine", "level": 7, "color": "white"}),
    )
    .await;
    let lid = id_of(&lower);
    play(&mut a, &lid, "c3-d4").await;
    wait_ply(&mut a, &lid, 2).await;
    assert_eq!(
        site::engine_memory::kept_for(&lid),
        0,
        "level 7 kept a search"
    );
    let resigned = post(&mut a, &format!("/api/games/{eid}/resign"), json!({})).await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    assert_eq!(site::engine_memory::kept_for(&eid), 0);
    srv.stop().await;
}
