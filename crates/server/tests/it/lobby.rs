//! The lobby's seeks (issue 13): make, list, accept, withdraw, the cap of 3, bad input, a
//! rated seek between two accounts with a running clock (rated at its end), two accepts
//! racing for one seek through two processes (exactly one game), and real-time seeks that lapse
//! when their owner's stream is gone. Quick pairing and challenges: `lobby_pairing.rs`. On
//! SQLite, and on PostgreSQL when `ICEBOUND_TEST_POSTGRES_URL` is set.

use std::time::Duration;

use crate::common::lobby::*;
use crate::common::*;
use serde_json::{Value, json};
use server::client::{Answer, ApiClient};

async fn seeks_flow(url: &str) {
    let srv = start(url).await;
    let mut a = srv.client();
    let mut b = srv.client();
    // The seeker watches the lobby; the seek appears in it.
    get(&mut a, "/api/me").await;
    let mut a_events = stream(&a).await;
    let id = seek(
        &mut a,
        json!({"variant": "antarctos", "time_control": realtime(180, 2), "rated": false, "color": "white"}),
    )
    .await;
    let shown = wait_lobby(&mut a_events, |v| {
        v["seeks"].as_array().unwrap().iter().any(|s| s["id"] == id)
    })
    .await;
    let mine = shown["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap();
    assert_eq!(mine["mine"], true);
    let seen = listed(&mut b, &id).await.expect("another player sees it");
    assert_eq!(seen["label"], "3+2");
    assert_eq!(seen["speed"], "realtime");
    assert_eq!(seen["variant"], "antarctos");
    assert_eq!(seen["color"], "white");
    assert_eq!(seen["rated"], false);
    assert_eq!(seen["username"], Value::Null);
    assert_eq!(seen["mine"], false);
    assert_eq!(seen["time_control"], realtime(180, 2));
    // Nobody accepts their own seek, nor withdraws someone else's.
    assert_error(
        &post(&mut a, &format!("/api/seeks/{id}/accept"), json!({})).await,
        409,
        "own_seek",
    );
    assert_error(
        &delete(&mut b, &format!("/api/seeks/{id}")).await,
        404,
        "not_found",
    );
    // Accepting makes the game for both at once, the seeker's side as asked, the clock running.
    let g = post(&mut b, &format!("/api/seeks/{id}/accept"), json!({})).await;
    assert_eq!(g.status, 201, "{}", g.text);
    assert_eq!(g.body["you"], "black");
    assert_eq!(g.body["white"]["kind"], "human");
    assert_eq!(g.body["black"]["kind"], "human");
    assert_eq!(g.body["status"], "ongoing");
    assert_eq!(g.body["clock"]["kind"], "realtime");
    assert_eq!(g.body["clock"]["running"], "white");
    assert_eq!(g.body["clock"]["initial_ms"], 180_000);
    assert_eq!(g.body["rated"], false);
    let game = g.body["id"].as_str().unwrap().to_string();
    // The seeker's stream sends it to the game.
    wait_lobby(&mut a_events, |v| {
        v["started"].as_array().unwrap().iter().any(|s| s == &game)
    })
    .await;
    let a_view = get(&mut a, &format!("/api/games/{game}")).await;
    assert_eq!(a_view.body["you"], "white");
    assert!(
        a_view.body["actions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x == "move")
    );
    assert!(
        listed(&mut b, &id).await.is_none(),
        "an accepted seek is gone"
    );
    assert_error(
        &post(&mut b, &format!("/api/seeks/{id}/accept"), json!({})).await,
        409,
        "conflict",
    );
    // Withdrawing.
    let id2 = seek(
        &mut a,
        json!({"variant": "iceage", "time_control": {"kind": "correspondence", "days": 3}, "rated": false, "color": "random"}),
    )
    .await;
    assert_eq!(
        listed(&mut b, &id2).await.expect("listed")["label"],
        "3 days"
    );
    let d = delete(&mut a, &format!("/api/seeks/{id2}")).await;
    assert_eq!(d.status, 204, "{}", d.text);
    assert!(listed(&mut b, &id2).await.is_none());
    assert_error(
        &post(&mut b, &format!("/api/seeks/{id2}/accept"), json!({})).await,
        404,
        "not_found",
    );
    // A random side is decided at acceptance: each side once in a while.
    let id3 = seek(
        &mut a,
        json!({"variant": "iceage", "time_control": {"kind": "unlimited"}, "rated": false, "color": "random"}),
    )
    .await;
    let g = post(&mut b, &format!("/api/seeks/{id3}/accept"), json!({})).await;
    assert_eq!(g.status, 201, "{}", g.text);
    assert!(g.body["you"] == "white" || g.body["you"] == "black");
    assert_eq!(g.body["clock"], Value::Null, "unlimited: no clock");
    srv.stop().await;
}

both_databases! {
    async fn seeks_are_made_seen_accepted_and_withdrawn(url: &str) {
        seeks_flow(url).await;
    }
}

async fn bad_input(url: &str) {
    let srv = start(url).await;
    let mut c = srv.client();
    let cases = [
        (
            json!({"variant": "chess", "time_control": realtime(60, 0)}),
            "variant",
        ),
        (
            json!({"variant": "antarctos", "time_control": realtime(5, 0)}),
            "time_control",
        ),
        (
            json!({"variant": "antarctos", "time_control": realtime(60, 61)}),
            "time_control",
        ),
        (
            json!({"variant": "antarctos", "time_control": {"kind": "correspondence", "days": 4}}),
            "time_control",
        ),
        (
            json!({"variant": "antarctos", "time_control": {"kind": "blitz"}}),
            "time_control",
        ),
        (json!({"variant": "antarctos"}), "time_control"),
        (
            json!({"variant": "antarctos", "time_control": realtime(60, 0), "color": "green"}),
            "color",
        ),
        (
            json!({"variant": "antarctos", "time_control": realtime(60, 0), "rated": "yes"}),
            "rated",
        ),
        (
            json!({"variant": "antarctos", "time_control": realtime(60, 0), "extra": 1}),
            "extra",
        ),
        (
            json!({"variant": "antarctos", "time_control": {"kind": "unlimited"}, "rated": true}),
            "unlimited",
        ),
    ];
    for (body, field) in cases {
        for path in ["/api/seeks", "/api/seeks/quick"] {
            let mut body = body.clone();
            if path.ends_with("quick") {
                if field == "color" {
                    continue;
                }
                body.as_object_mut().unwrap().remove("color");
            }
            let a = post(&mut c, path, body.clone()).await;
            assert_error(&a, 400, "bad_request");
            let message = a.body["error"]["message"].as_str().unwrap();
            assert!(message.contains(field), "{path} {body}: {message}");
        }
    }
    let a = c
        .send_raw("POST", "/api/seeks", Some(b"{not json".to_vec()))
        .await
        .expect("raw");
    assert_error(&a, 400, "bad_request");
    // Rated needs an account.
    assert_error(
        &post(
            &mut c,
            "/api/seeks",
            json!({"variant": "antarctos", "time_control": realtime(60, 0), "rated": true}),
        )
        .await,
        401,
        "not_logged_in",
    );
    // Ids: anything odd is simply not found.
    for id in ["..", "a%2Fb", "x".repeat(40).as_str(), "zzzzzzzzzzzz"] {
        assert_error(
            &post(&mut c, &format!("/api/seeks/{id}/accept"), json!({})).await,
            404,
            "not_found",
        );
        assert_error(
            &delete(&mut c, &format!("/api/seeks/{id}")).await,
            404,
            "not_found",
        );
        assert_error(
            &post(&mut c, &format!("/api/challenges/{id}/accept"), json!({})).await,
            404,
            "not_found",
        );
        assert_error(
            &post(&mut c, &format!("/api/challenges/{id}/decline"), json!({})).await,
            404,
            "not_found",
        );
    }
    srv.stop().await;
}

both_databases! {
    async fn bad_input_is_a_400_naming_the_field(url: &str) {
        bad_input(url).await;
    }
}

async fn seek_cap(url: &str) {
    let srv = start(url).await;
    let mut c = srv.client();
    let body =
        json!({"variant": "antarctos", "time_control": {"kind": "correspondence", "days": 1}});
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(seek(&mut c, body.clone()).await);
    }
    let a = post(&mut c, "/api/seeks", body.clone()).await;
    assert_error(&a, 429, "too_many_seeks");
    assert!(a.body["error"]["message"].as_str().unwrap().contains('3'));
    // Another player is not affected; withdrawing one makes room.
    let mut other = srv.client();
    seek(&mut other, body.clone()).await;
    delete(&mut c, &format!("/api/seeks/{}", ids[0])).await;
    seek(&mut c, body).await;
    srv.stop().await;
}

both_databases! {
    async fn a_player_holds_at_most_three_seeks(url: &str) {
        seek_cap(url).await;
    }
}

async fn rated_seek(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "ann").await;
    let (mut bob, _) = account(&srv, "bob").await;
    let mut anon = srv.client();
    let id = seek(
        &mut ann,
        json!({"variant": "iceage", "time_control": realtime(300, 3), "rated": true, "color": "black"}),
    )
    .await;
    let seen = listed(&mut anon, &id).await.expect("listed");
    assert_eq!(seen["username"], ann_name.as_str());
    assert_eq!(seen["rated"], true);
    // Only an account accepts a rated seek.
    assert_error(
        &post(&mut anon, &format!("/api/seeks/{id}/accept"), json!({})).await,
        401,
        "not_logged_in",
    );
    let g = post(&mut bob, &format!("/api/seeks/{id}/accept"), json!({})).await;
    assert_eq!(g.status, 201, "{}", g.text);
    assert_eq!(g.body["rated"], true);
    assert_eq!(g.body["you"], "white");
    assert_eq!(g.body["clock"]["running"], "white");
    let game = g.body["id"].as_str().unwrap().to_string();
    // White's first-move wait runs; the main clocks stand until both sides have moved.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let v = get(&mut ann, &format!("/api/games/{game}")).await;
    assert_eq!(v.body["you"], "black");
    assert_eq!(v.body["clock"]["white_ms"], 300_000, "{}", v.text);
    let wait = v.body["clock"]["first_move_ms"].as_i64().unwrap_or(0);
    assert!((29_000..30_000).contains(&wait), "{}", v.text);
    // Both play: the game is theirs.
    let first = first_legal(&mut bob, &game).await;
    play(&mut bob, &game, &first).await;
    let reply = first_legal(&mut ann, &game).await;
    let after = play(&mut ann, &game, &reply).await;
    assert_eq!(after["ply"], 2);
    assert_eq!(after["clock"]["running"], "white");
    assert_eq!(after["clock"]["first_move_ms"], Value::Null, "{after}");
    // Its end changes both ratings.
    let over = post(&mut bob, &format!("/api/games/{game}/resign"), json!({})).await;
    assert_eq!(over.status, 200, "{}", over.text);
    assert_ne!(over.body["ratings"], Value::Null, "rated: {}", over.text);
    srv.stop().await;
}

both_databases! {
    async fn a_rated_seek_between_accounts_makes_a_rated_game_with_a_running_clock(url: &str) {
        rated_seek(url).await;
    }
}

async fn race(url: &str) {
    // Two processes on one database, as behind a load balancer.
    let one = start(url).await;
    let two = start(url).await;
    for round in 0..6 {
        let mut seeker = one.client();
        get(&mut seeker, "/api/me").await;
        let mut events = stream(&seeker).await;
        let id = seek(
            &mut seeker,
            json!({"variant": "antarctos", "time_control": realtime(60, 0)}),
        )
        .await;
        let mut b = one.client();
        let mut c = two.client();
        let path = format!("/api/seeks/{id}/accept");
        let (x, y) = tokio::join!(b.post(&path, json!({})), c.post(&path, json!({})));
        let (x, y) = (x.expect("b"), y.expect("c"));
        let won: Vec<&Answer> = [&x, &y].into_iter().filter(|a| a.status == 201).collect();
        assert_eq!(won.len(), 1, "round {round}: {} / {}", x.text, y.text);
        let lost = if x.status == 201 { &y } else { &x };
        assert!(
            lost.status == 409 || lost.status == 404,
            "round {round}: {}",
            lost.text
        );
        let games = get(&mut seeker, "/api/my-games").await;
        assert_eq!(
            games.body.as_array().unwrap().len(),
            1,
            "round {round}: one game"
        );
        // The seeker's stream on process one learns of it, whichever process made it.
        let game = won[0].body["id"].clone();
        wait_lobby(&mut events, |v| {
            v["started"].as_array().unwrap().contains(&game)
        })
        .await;
    }
    one.stop().await;
    two.stop().await;
}

both_databases! {
    async fn two_accepts_racing_for_one_seek_make_exactly_one_game(url: &str) {
        race(url).await;
    }
}

async fn presence(url: &str) {
    let srv = start(url).await;
    let mut a = srv.client();
    let mut b = srv.client();
    // Without a stream, a real-time seek lapses after the presence time.
    let gone = seek(
        &mut a,
        json!({"variant": "antarctos", "time_control": realtime(60, 1)}),
    )
    .await;
    let stays = seek(
        &mut a,
        json!({"variant": "antarctos", "time_control": {"kind": "correspondence", "days": 2}}),
    )
    .await;
    assert!(listed(&mut b, &gone).await.is_some());
    tokio::time::sleep(PRESENCE + Duration::from_millis(500)).await;
    assert!(
        listed(&mut b, &gone).await.is_none(),
        "the real-time seek lapsed"
    );
    assert_error(
        &post(&mut b, &format!("/api/seeks/{gone}/accept"), json!({})).await,
        404,
        "not_found",
    );
    assert!(
        listed(&mut b, &stays).await.is_some(),
        "correspondence seeks wait"
    );
    // With the stream open it stays; once the stream is gone it lapses.
    let events = stream(&a).await;
    let live = seek(
        &mut a,
        json!({"variant": "antarctos", "time_control": realtime(60, 1)}),
    )
    .await;
    tokio::time::sleep(PRESENCE * 3).await;
    assert!(listed(&mut b, &live).await.is_some(), "kept while present");
    drop(events);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(12);
    while listed(&mut b, &live).await.is_some() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the seek lapses once its owner left"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    srv.stop().await;
}

both_databases! {
    async fn real_time_seeks_lapse_when_their_owner_leaves(url: &str) {
        presence(url).await;
    }
}

/// `owner`'s lobby stream on a raw connection, as a browser tab holds it, once its headers
/// arrived; dropping it closes the connection as closing the tab does.
async fn open_lobby_tab(srv: &TestServer, owner: &ApiClient) -> tokio::net::TcpStream {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let token = owner.token().expect("a token").to_string();
    let mut tab = tokio::net::TcpStream::connect(srv.addr)
        .await
        .expect("connect");
    let request = format!(
        "GET /api/lobby HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n{}: {token}\r\n\r\n",
        srv.addr,
        site_http::player::HEADER_NAME
    );
    tab.write_all(request.as_bytes()).await.expect("send");
    let mut first = [0u8; 64];
    let n = tab.read(&mut first).await.expect("answer");
    assert!(
        String::from_utf8_lossy(&first[..n]).starts_with("HTTP/1.1 200"),
        "the stream opens"
    );
    tab
}

/// Waits until seek `id` is no longer listed to `c`, at most `secs` (the presence time is 30 s).
async fn wait_unlisted(c: &mut ApiClient, id: &str, secs: u64, what: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    while listed(c, id).await.is_some() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{what}: the seek ends within moments of its owner leaving (presence is 30 s)"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A tab closed the moment its stream opens, while the stream's first presence write is still
/// in the database's hands: the end of presence comes after that write, so the seek still ends
/// at once (a late write had kept it listed for another 30 s; the project's CI saw it).
#[tokio::test]
async fn a_tab_closed_as_it_opens_still_ends_its_seek() {
    let srv = TestServer::start(&sqlite_url("lobby-leave-early")).await;
    let mut b = srv.client();
    for round in 0..12 {
        let mut a = srv.client();
        let live = seek(
            &mut a,
            json!({"variant": "antarctos", "time_control": realtime(60, 0)}),
        )
        .await;
        let tab = open_lobby_tab(&srv, &a).await;
        drop(tab);
        wait_unlisted(&mut b, &live, 8, &format!("round {round}")).await;
    }
    srv.stop().await;
}

/// Leaving the lobby (closing the tab, going to another page) ends a real-time seek at once,
/// not after the 30 s presence time: nobody is paired with a player who is gone. The stream is
/// a raw connection closed as a browser tab closes it.
#[tokio::test]
async fn a_real_time_seek_ends_when_its_owner_leaves_the_lobby() {
    let srv = TestServer::start(&sqlite_url("lobby-leave")).await;
    let mut a = srv.client();
    let mut b = srv.client();
    let live = seek(
        &mut a,
        json!({"variant": "iceage", "time_control": realtime(180, 2)}),
    )
    .await;
    let tab = open_lobby_tab(&srv, &a).await;
    assert!(
        listed(&mut b, &live).await.is_some(),
        "listed while present"
    );
    drop(tab);
    wait_unlisted(&mut b, &live, 6, "leaving").await;
    assert_error(
        &post(&mut b, &format!("/api/seeks/{live}/accept"), json!({})).await,
        404,
        "not_found",
    );
    srv.stop().await;
}
