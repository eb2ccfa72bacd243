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

async fn post(c: &mut ApiClient, path: &str, body: Value) -> server::client::Answer {
    c.post(path, body).await.expect("request")
}

async fn get(c: &mut ApiClient, id: &str) -> Value {
    let a = c.get(&format!("/api/games/{id}")).await.expect("request");
    assert_eq!(a.status, 200, "{}", a.text);
    a.body
}

fn actions(v: &Value) -> Vec<&str> {
    v["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|a| a.as_str().expect("text"))
        .collect()
}

fn id_of(v: &Value) -> String {
    v["id"].as_str().expect("id").to_string()
}

/// Waits until game `id` reaches ply `ply` (the engine's reply).
async fn wait_ply(c: &mut ApiClient, id: &str, ply: i64) -> Value {
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
async fn friend_game(a: &mut ApiClient, b: &mut ApiClient, variant: &str) -> String {
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

#[tokio::test]
async fn takeback_on_one_screen_against_the_engine_and_between_friends() {
    let url = sqlite_url("takeback");
    let srv = TestServer::start(&url).await;
    let (mut a, mut b) = (srv.client(), srv.client());
    // One screen: the last move.
    let local = create(&mut a, json!({"variant": "antarctos", "opponent": "local"})).await;
    let lid = id_of(&local);
    play(&mut a, &lid, "c3-d4").await;
    let v = play(&mut a, &lid, "f6-g5").await;
    assert!(actions(&v).contains(&"takeback"));
    let back = post(
        &mut a,
        &format!("/api/games/{lid}/takeback"),
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(back.status, 200, "{}", back.text);
    assert_eq!(
        (back.body["ply"].clone(), back.body["turn"].clone()),
        (json!(1), json!("black"))
    );
    assert_eq!(back.body["notice"]["code"], "takeback_done");
    assert_eq!(back.body["moves"].as_array().map(Vec::len), Some(1));
    assert!(back.body["version"].as_i64() > v["version"].as_i64());
    let again = play(&mut a, &lid, "b6-a5").await;
    assert_eq!(again["moves"][1]["text"], "b6-a5");

    // Against the engine: the player's move and the engine's reply.
    let e = create(
        &mut a,
        json!({"variant": "antarctos", "opponent": "engine", "level": 1, "color": "white"}),
    )
    .await;
    let eid = id_of(&e);
    assert!(
        !actions(&e).contains(&"takeback"),
        "nothing to take back yet"
    );
    play(&mut a, &eid, "c3-d4").await;
    let replied = wait_ply(&mut a, &eid, 2).await;
    assert!(actions(&replied).contains(&"takeback"));
    let back = post(
        &mut a,
        &format!("/api/games/{eid}/takeback"),
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(back.body["ply"], 0, "{}", back.text);
    assert_eq!(back.body["turn"], "white");
    assert_eq!(back.body["engine_thinking"], false);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        get(&mut a, &eid).await["ply"],
        0,
        "the engine does not move for White"
    );

    // Between friends: an offer, declined, then accepted.
    let fid = friend_game(&mut a, &mut b, "antarctos").await;
    play(&mut a, &fid, "c3-d4").await;
    let offered = post(
        &mut a,
        &format!("/api/games/{fid}/takeback"),
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(offered.body["takeback_offer"], "white", "{}", offered.text);
    assert_eq!(offered.body["ply"], 1, "an offer takes nothing back yet");
    let seen = get(&mut b, &fid).await;
    assert!(
        actions(&seen).contains(&"accept_takeback") && actions(&seen).contains(&"decline_takeback")
    );
    let no = post(
        &mut b,
        &format!("/api/games/{fid}/takeback"),
        json!({"action": "decline"}),
    )
    .await;
    assert_eq!(
        no.body["notice"],
        json!({"code": "takeback_declined", "by": "black", "version": no.body["version"]})
    );
    assert_eq!(no.body["takeback_offer"], Value::Null);
    assert_error(
        &post(
            &mut b,
            &format!("/api/games/{fid}/takeback"),
            json!({"action": "accept"}),
        )
        .await,
        409,
        "conflict",
    );
    post(
        &mut a,
        &format!("/api/games/{fid}/takeback"),
        json!({"action": "offer"}),
    )
    .await;
    let yes = post(
        &mut b,
        &format!("/api/games/{fid}/takeback"),
        json!({"action": "accept"}),
    )
    .await;
    assert_eq!(yes.body["ply"], 0, "{}", yes.text);
    assert_eq!(get(&mut a, &fid).await["turn"], "white");
    // A move ends a standing offer.
    play(&mut a, &fid, "c3-b4").await;
    post(
        &mut a,
        &format!("/api/games/{fid}/takeback"),
        json!({"action": "offer"}),
    )
    .await;
    let moved = play(&mut b, &fid, "f6-g5").await;
    assert_eq!(moved["takeback_offer"], Value::Null);
    // Taken-back moves are gone from the store: a restarted server replays the same games.
    srv.stop().await;
    let srv = TestServer::start(&url).await;
    let mut c = srv.client();
    let l = get(&mut c, &lid).await;
    let texts: Vec<&str> = l["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["text"].as_str().expect("t"))
        .collect();
    assert_eq!(texts, ["c3-d4", "b6-a5"]);
    assert_eq!(get(&mut c, &eid).await["ply"], 0);
    srv.stop().await;
}

#[tokio::test]
async fn a_rematch_between_friends_is_an_offer_and_against_the_engine_it_starts_at_once() {
    let srv = TestServer::start(&sqlite_url("rematch")).await;
    let (mut a, mut b) = (srv.client(), srv.client());
    let id = friend_game(&mut a, &mut b, "iceage").await;
    play(&mut a, &id, "hxg3").await;
    play(&mut b, &id, "Nxf6").await;
    post(&mut a, &format!("/api/games/{id}/resign"), json!({})).await;
    assert!(actions(&get(&mut b, &id).await).contains(&"rematch"));
    let offer = post(&mut a, &format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(offer.status, 200, "{}", offer.text);
    assert_eq!(
        (
            offer.body["id"].clone(),
            offer.body["rematch_offer"].clone()
        ),
        (json!(id), json!("white"))
    );
    assert_eq!(
        actions(&offer.body),
        Vec::<&str>::new(),
        "the offering side waits"
    );
    assert_eq!(
        actions(&get(&mut b, &id).await),
        ["accept_rematch", "decline_rematch"]
    );
    let no = post(
        &mut b,
        &format!("/api/games/{id}/rematch"),
        json!({"action": "decline"}),
    )
    .await;
    assert_eq!(no.body["notice"]["code"], "rematch_declined", "{}", no.text);
    assert_eq!(no.body["rematch_offer"], Value::Null);
    post(
        &mut a,
        &format!("/api/games/{id}/rematch"),
        json!({"action": "offer"}),
    )
    .await;
    let yes = post(
        &mut b,
        &format!("/api/games/{id}/rematch"),
        json!({"action": "accept"}),
    )
    .await;
    assert_eq!(yes.status, 201, "{}", yes.text);
    assert_eq!(yes.body["rematch_of"], json!(id));
    assert_eq!(yes.body["you"], "white", "colours are swapped");
    let old = get(&mut a, &id).await;
    assert_eq!(old["rematch"], yes.body["id"]);
    assert_eq!(get(&mut a, &id_of(&yes.body)).await["you"], "black");
    // Against the engine the rematch starts at once; `{}` (no action) is enough. A request
    // without a JSON content type is refused like every state change (cross_site.rs).
    let e = create(
        &mut a,
        json!({"variant": "iceage", "opponent": "engine", "level": 1, "color": "white"}),
    )
    .await;
    let eid = id_of(&e);
    play(&mut a, &eid, "hxg3").await;
    wait_ply(&mut a, &eid, 2).await;
    post(&mut a, &format!("/api/games/{eid}/resign"), json!({})).await;
    let r = post(&mut a, &format!("/api/games/{eid}/rematch"), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    srv.stop().await;
}

#[tokio::test]
async fn a_draw_offer_gets_an_answer_the_offering_side_is_told_once() {
    let srv = TestServer::start(&sqlite_url("draw-notice")).await;
    let mut a = srv.client();
    let e = create(
        &mut a,
        json!({"variant": "iceage", "opponent": "engine", "level": 1, "color": "white"}),
    )
    .await;
    let id = id_of(&e);
    play(&mut a, &id, "hxg3").await;
    let v = wait_ply(&mut a, &id, 2).await;
    let mut ws = a.ws(&id).await.expect("ws");
    wait_state(&mut ws, |_| true).await;
    let r = post(
        &mut a,
        &format!("/api/games/{id}/draw"),
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["version"], v["version"].as_i64().expect("v") + 1);
    assert_eq!(
        r.body["notice"],
        json!({"code": "draw_declined", "by": "black", "version": r.body["version"]})
    );
    assert_eq!(r.body["draw_offer"], Value::Null);
    let pushed = wait_state(&mut ws, |g| g["notice"]["code"] == "draw_declined").await;
    assert_eq!(
        pushed["version"], r.body["version"],
        "the watchers are told too"
    );
    // The next change carries no notice: it is said once.
    let moved = play(&mut a, &id, "Nxf3").await;
    assert_eq!(moved["notice"], Value::Null);
    srv.stop().await;
}

/// A takeback offer stands only while the game goes on (docs/api.md): a resignation over it
/// (or a loss on time, a draw agreed) ends it, as an abort and a move do. A hostile tester's
/// finished game still showed `"takeback_offer": "white"` to both sides and to bots.
#[tokio::test]
async fn a_game_that_ends_leaves_no_takeback_offer_standing() {
    let url = sqlite_url("takeback-over");
    let srv = TestServer::start(&url).await;
    let (mut a, mut b) = (srv.client(), srv.client());
    let fid = friend_game(&mut a, &mut b, "antarctos").await;
    play(&mut a, &fid, "c3-d4").await;
    play(&mut b, &fid, "f6-g5").await;
    let offered = post(
        &mut a,
        &format!("/api/games/{fid}/takeback"),
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(offered.body["takeback_offer"], "white", "{}", offered.text);
    let resigned = post(&mut b, &format!("/api/games/{fid}/resign"), json!({})).await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    assert_eq!(resigned.body["status"], "finished");
    assert_eq!(
        resigned.body["takeback_offer"],
        Value::Null,
        "no offer stands in a finished game: {}",
        resigned.text
    );
    assert_eq!(get(&mut a, &fid).await["takeback_offer"], Value::Null);
    srv.stop().await;
}

/// A takeback may name the ply it was asked at (a browser tester: two quick taps on "Take
/// back" against the engine took back two turns). Asked at another ply it takes nothing
/// back (`conflict`, saying both plies), so the same request sent twice takes back once; over
/// a socket as well. Asked while the engine thought, and answered after its reply, it takes
/// back the move and the reply, as it would have before.
#[tokio::test]
async fn a_takeback_that_names_its_ply_takes_back_once() {
    let url = sqlite_url("takeback-ply");
    let srv = TestServer::start(&url).await;
    let mut a = srv.client();
    let e = create(
        &mut a,
        json!({"variant": "antarctos", "opponent": "engine", "level": 1, "color": "white"}),
    )
    .await;
    let eid = id_of(&e);
    play(&mut a, &eid, "c3-d4").await;
    let replied = wait_ply(&mut a, &eid, 2).await;
    // The engine's reply varies: the second move is one of the legal ones after it.
    let second = replied["legal"][0]["id"]
        .as_str()
        .expect("a legal move")
        .to_string();
    play(&mut a, &eid, &second).await;
    wait_ply(&mut a, &eid, 4).await;
    let body = json!({"action": "offer", "ply": 4});
    let first = post(&mut a, &format!("/api/games/{eid}/takeback"), body.clone()).await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(first.body["ply"], 2, "{}", first.text);
    let second = post(&mut a, &format!("/api/games/{eid}/takeback"), body).await;
    assert_error(&second, 409, "conflict");
    let said = second.body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        said.contains("ply 4") && said.contains("ply 2"),
        "names both plies: {said}"
    );
    assert_eq!(get(&mut a, &eid).await["ply"], 2, "taken back once");

    // Over the game's socket: the same guard.
    let mut ws = a.ws(&eid).await.expect("socket");
    server::client::send_json(
        &mut ws,
        &json!({"type": "takeback", "action": "offer", "ply": 4}),
    )
    .await
    .expect("send");
    let refused = wait_error(&mut ws).await;
    assert_eq!(refused["code"], "conflict", "{refused}");
    assert_eq!(get(&mut a, &eid).await["ply"], 2, "still taken back once");

    // Asked while the engine thought (ply 3), its reply stored meanwhile (ply 4): the same
    // plies go, the move and the reply, with no conflict.
    let view = get(&mut a, &eid).await;
    let mv = view["legal"][0]["id"]
        .as_str()
        .expect("a legal move")
        .to_string();
    play(&mut a, &eid, &mv).await;
    wait_ply(&mut a, &eid, 4).await;
    let thought = post(
        &mut a,
        &format!("/api/games/{eid}/takeback"),
        json!({"action": "offer", "ply": 3}),
    )
    .await;
    assert_eq!(thought.status, 200, "{}", thought.text);
    assert_eq!(thought.body["ply"], 2, "{}", thought.text);

    // The right ply still takes back; a bad one is refused by name.
    let named = post(
        &mut a,
        &format!("/api/games/{eid}/takeback"),
        json!({"action": "offer", "ply": 2}),
    )
    .await;
    assert_eq!(named.body["ply"], 0, "{}", named.text);
    let bad = post(
        &mut a,
        &format!("/api/games/{eid}/takeback"),
        json!({"action": "offer", "ply": -1}),
    )
    .await;
    assert_error(&bad, 400, "bad_request");
    srv.stop().await;
}
