//! Offers on the game page (issue 10; docs/api.md): takeback on one screen and between
//! friends, a rematch (an offer between friends, at once against the engine), a draw offer
//! answered once, and no offer left standing when the game ends.

use std::time::Duration;

use crate::common::*;
use crate::game_page_api::{actions, friend_game, get, id_of, post, wait_ply};
use serde_json::{Value, json};

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
    // Asked again at once: refused until a move is made (third hostile round, finding 5).
    assert_error(
        &post(
            &mut a,
            &format!("/api/games/{fid}/takeback"),
            json!({"action": "offer"}),
        )
        .await,
        429,
        "rate_limited",
    );
    let reply = crate::common::lobby::first_legal(&mut b, &fid).await;
    play(&mut b, &fid, &reply).await;
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

/// A declined offer is not repeated at once (the third hostile round's finding 5: 30 draw and
/// 30 takeback offers in 2 s): a draw offer waits 20 plies, a takeback request a move; the
/// other side's offers are not held back.
#[tokio::test]
async fn a_declined_offer_waits_before_it_is_made_again() {
    let srv = TestServer::start(&sqlite_url("offers-again")).await;
    let (mut a, mut b) = (srv.client(), srv.client());
    let id = crate::game_page_api::friend_game(&mut a, &mut b, "iceage").await;
    let path = |what: &str| format!("/api/games/{id}/{what}");
    let mv = crate::common::lobby::first_legal(&mut a, &id).await;
    play(&mut a, &id, &mv).await;
    let mv = crate::common::lobby::first_legal(&mut b, &id).await;
    play(&mut b, &id, &mv).await;
    for (what, again) in [("draw", "from ply 22"), ("takeback", "from ply 3")] {
        let r = post(&mut a, &path(what), json!({"action": "offer"})).await;
        assert_eq!(r.status, 200, "{what}: {}", r.text);
        let r = post(&mut b, &path(what), json!({"action": "decline"})).await;
        assert_eq!(r.status, 200, "{what}: {}", r.text);
        let r = post(&mut a, &path(what), json!({"action": "offer"})).await;
        assert_error(&r, 429, "rate_limited");
        assert!(r.text.contains(again), "{what}: {}", r.text);
        let v = get(&mut b, &id).await;
        assert_eq!(v["draw_offer"], Value::Null, "{v}");
        assert_eq!(v["takeback_offer"], Value::Null, "{v}");
    }
    // Black's own draw offer is not held back by White's decline.
    let r = post(&mut b, &path("draw"), json!({"action": "offer"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["draw_offer"], "black", "{}", r.text);
    let r = post(&mut a, &path("draw"), json!({"action": "decline"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // After a move, White may ask for a takeback again (a draw still waits).
    let mv = crate::common::lobby::first_legal(&mut a, &id).await;
    play(&mut a, &id, &mv).await;
    let r = post(&mut a, &path("takeback"), json!({"action": "offer"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["takeback_offer"], "white", "{}", r.text);
    let r = post(&mut a, &path("draw"), json!({"action": "offer"})).await;
    assert_error(&r, 429, "rate_limited");
    srv.stop().await;
}
