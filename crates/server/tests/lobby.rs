//! The lobby (issue 13): seeks (make, list, accept, withdraw, the cap of 3, bad input), a
//! rated seek between two accounts with a running clock, two accepts racing for one seek
//! through two processes (exactly one game), real-time seeks that lapse when their owner's
//! stream is gone, quick pairing, direct challenges, and the live stream that sends the
//! seeker to the game. On SQLite, and on PostgreSQL when `ICEBOUND_TEST_POSTGRES_URL` is set.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{Value, json};
use server::SiteOptions;
use server::client::{Answer, ApiClient, EventStream};
use server::options::RateLimits;

/// Real-time offers lapse this soon after their owner's stream is gone, in these tests.
const PRESENCE: Duration = Duration::from_millis(1500);

async fn start(url: &str) -> TestServer {
    TestServer::start_with(
        url,
        SiteOptions {
            rate_limits: RateLimits::off(),
            lobby_presence: Some(PRESENCE),
            ..SiteOptions::default()
        },
    )
    .await
}

/// A name of this run's own (a PostgreSQL database outlives the run).
fn name(prefix: &str) -> String {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() % 1_000_000_000_000)
        .unwrap_or(0);
    format!("{prefix}{}", n % 100_000_000)
}

async fn account(srv: &TestServer, prefix: &str) -> (ApiClient, String) {
    let mut c = srv.client();
    let name = name(prefix);
    let a = c
        .post(
            "/api/accounts",
            json!({"username": name, "password": "correct horse"}),
        )
        .await
        .expect("register");
    assert_eq!(a.status, 201, "{}", a.text);
    (c, name)
}

async fn post(c: &mut ApiClient, path: &str, body: Value) -> Answer {
    c.post(path, body).await.expect("post")
}

async fn delete(c: &mut ApiClient, path: &str) -> Answer {
    c.send("DELETE", path, Some(&json!({})))
        .await
        .expect("delete")
}

async fn get(c: &mut ApiClient, path: &str) -> Answer {
    let a = c.get(path).await.expect("get");
    assert_eq!(a.status, 200, "{path}: {}", a.text);
    a
}

fn realtime(initial_s: i64, increment_s: i64) -> Value {
    json!({"kind": "realtime", "initial_s": initial_s, "increment_s": increment_s})
}

async fn seek(c: &mut ApiClient, body: Value) -> String {
    let a = post(c, "/api/seeks", body).await;
    assert_eq!(a.status, 201, "seek: {}", a.text);
    a.body["id"].as_str().expect("id").to_string()
}

/// The open seek `id` as `c` sees it in `GET /api/seeks`.
async fn listed(c: &mut ApiClient, id: &str) -> Option<Value> {
    let a = get(c, "/api/seeks").await;
    a.body
        .as_array()
        .expect("a list")
        .iter()
        .find(|s| s["id"] == id)
        .cloned()
}

/// Reads lobby events until one satisfies `pred` (10 s at most).
async fn wait_lobby(events: &mut EventStream, pred: impl Fn(&Value) -> bool) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let (name, data) = events.next_event().await.expect("the stream stays open");
            assert_eq!(name, "lobby");
            if pred(&data) {
                return data;
            }
        }
    })
    .await
    .expect("the lobby event arrives within 10 s")
}

async fn stream(c: &ApiClient) -> EventStream {
    let (status, events) = c.events("/api/lobby").await.expect("stream");
    assert_eq!(status, 200);
    events
}

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

#[tokio::test]
async fn seeks_are_made_seen_accepted_and_withdrawn() {
    seeks_flow(&sqlite_url("lobby-seeks")).await;
    if let Some(url) = postgres_url() {
        seeks_flow(&url).await;
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

#[tokio::test]
async fn bad_input_is_a_400_naming_the_field() {
    bad_input(&sqlite_url("lobby-bad")).await;
    if let Some(url) = postgres_url() {
        bad_input(&url).await;
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

#[tokio::test]
async fn a_player_holds_at_most_three_seeks() {
    seek_cap(&sqlite_url("lobby-cap")).await;
    if let Some(url) = postgres_url() {
        seek_cap(&url).await;
    }
}

/// The first legal move of game `id` now.
async fn first_legal(c: &mut ApiClient, id: &str) -> String {
    let v = get(c, &format!("/api/games/{id}")).await;
    v.body["legal"][0]["text"]
        .as_str()
        .expect("a legal move")
        .to_string()
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
    // The clock runs: White's time goes down before any move.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let v = get(&mut ann, &format!("/api/games/{game}")).await;
    assert_eq!(v.body["you"], "black");
    assert!(v.body["clock"]["white_ms"].as_i64().unwrap() <= 300_000);
    // Both play: the game is theirs.
    let first = first_legal(&mut bob, &game).await;
    play(&mut bob, &game, &first).await;
    let reply = first_legal(&mut ann, &game).await;
    let after = play(&mut ann, &game, &reply).await;
    assert_eq!(after["ply"], 2);
    assert_eq!(after["clock"]["running"], "white");
    // Its end changes both ratings.
    let over = post(&mut bob, &format!("/api/games/{game}/resign"), json!({})).await;
    assert_eq!(over.status, 200, "{}", over.text);
    assert_ne!(over.body["ratings"], Value::Null, "rated: {}", over.text);
    srv.stop().await;
}

#[tokio::test]
async fn a_rated_seek_between_accounts_makes_a_rated_game_with_a_running_clock() {
    rated_seek(&sqlite_url("lobby-rated")).await;
    if let Some(url) = postgres_url() {
        rated_seek(&url).await;
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

#[tokio::test]
async fn two_accepts_racing_for_one_seek_make_exactly_one_game() {
    race(&sqlite_url("lobby-race")).await;
    if let Some(url) = postgres_url() {
        race(&url).await;
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

#[tokio::test]
async fn real_time_seeks_lapse_when_their_owner_leaves() {
    presence(&sqlite_url("lobby-presence")).await;
    if let Some(url) = postgres_url() {
        presence(&url).await;
    }
}

async fn quick(url: &str) {
    let srv = start(url).await;
    // A control of this run's own, so that a shared database's other seeks do not match.
    let initial = 60 * (100 + (name("").parse::<i64>().unwrap() % 80));
    let body = json!({"variant": "iceage", "time_control": realtime(initial, 7), "rated": false});
    let mut a = srv.client();
    let mut b = srv.client();
    let first = post(&mut a, "/api/seeks/quick", body.clone()).await;
    assert_eq!(first.status, 201, "{}", first.text);
    assert_eq!(first.body["game"], Value::Null);
    let id = first.body["seek"]["id"].as_str().unwrap().to_string();
    assert_eq!(first.body["seek"]["color"], "random");
    // The same click again: the same seek.
    let again = post(&mut a, "/api/seeks/quick", body.clone()).await;
    assert_eq!(again.body["seek"]["id"], id.as_str());
    // Another player's click meets it.
    let mut events = stream(&a).await;
    let met = post(&mut b, "/api/seeks/quick", body.clone()).await;
    assert_eq!(met.status, 201, "{}", met.text);
    assert_eq!(met.body["seek"], Value::Null);
    let game = met.body["game"]["id"].as_str().unwrap().to_string();
    wait_lobby(&mut events, |v| {
        v["started"].as_array().unwrap().iter().any(|g| g == &game)
    })
    .await;
    assert!(listed(&mut b, &id).await.is_none());
    // Two clicks at once: never two games; nearly always one.
    let body2 =
        json!({"variant": "antarctos", "time_control": realtime(initial, 9), "rated": false});
    let mut c = srv.client();
    let mut d = srv.client();
    let (x, y) = tokio::join!(
        c.post("/api/seeks/quick", body2.clone()),
        d.post("/api/seeks/quick", body2.clone())
    );
    let (x, y) = (x.expect("c"), y.expect("d"));
    assert_eq!((x.status, y.status), (201, 201), "{} / {}", x.text, y.text);
    let ids = |v: Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect()
    };
    let c_games = ids(get(&mut c, "/api/my-games").await.body);
    let d_games = ids(get(&mut d, "/api/my-games").await.body);
    assert!(c_games.len() <= 1, "{c_games:?}");
    assert_eq!(c_games, d_games, "the same game, or none (both seeks wait)");
    if c_games.is_empty() {
        eprintln!("the two quick clicks crossed: both seeks wait");
    }
    // A rated quick seek needs an account.
    assert_error(
        &post(
            &mut c,
            "/api/seeks/quick",
            json!({"variant": "iceage", "time_control": realtime(60, 0), "rated": true}),
        )
        .await,
        401,
        "not_logged_in",
    );
    srv.stop().await;
}

#[tokio::test]
async fn quick_pairing_accepts_a_matching_seek_or_makes_one() {
    quick(&sqlite_url("lobby-quick")).await;
    if let Some(url) = postgres_url() {
        quick(&url).await;
    }
}

async fn challenges(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "ann").await;
    let (mut bob, bob_name) = account(&srv, "bob").await;
    let (mut carl, _) = account(&srv, "carl").await;
    let mut anon = srv.client();
    let body = |user: &str| json!({"username": user, "variant": "antarctos", "time_control": realtime(600, 5), "rated": true, "color": "white"});
    assert_error(
        &post(&mut anon, "/api/challenges", body(&bob_name)).await,
        401,
        "not_logged_in",
    );
    assert_error(
        &post(&mut ann, "/api/challenges", body("nobody_here_x")).await,
        404,
        "not_found",
    );
    let me = post(&mut ann, "/api/challenges", body(&ann_name.to_uppercase())).await;
    assert_error(&me, 400, "bad_request");
    assert!(
        me.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("yourself")
    );
    assert_error(
        &post(&mut ann, "/api/challenges", body("a b")).await,
        400,
        "bad_request",
    );
    // Bob sees it live, and declines; Ann learns it.
    let mut ann_events = stream(&ann).await;
    let mut bob_events = stream(&bob).await;
    let c = post(&mut ann, "/api/challenges", body(&bob_name)).await;
    assert_eq!(c.status, 201, "{}", c.text);
    let id = c.body["id"].as_str().unwrap().to_string();
    assert_eq!(c.body["direction"], "outgoing");
    let seen = wait_lobby(&mut bob_events, |v| {
        v["challenges"]["incoming"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == id)
    })
    .await;
    let incoming = &seen["challenges"]["incoming"][0];
    assert_eq!(incoming["challenger"], ann_name.as_str());
    assert_eq!(incoming["label"], "10+5");
    // Nobody else answers it.
    assert_error(
        &post(
            &mut carl,
            &format!("/api/challenges/{id}/accept"),
            json!({}),
        )
        .await,
        404,
        "not_found",
    );
    assert_error(
        &delete(&mut bob, &format!("/api/challenges/{id}")).await,
        404,
        "not_found",
    );
    let d = post(
        &mut bob,
        &format!("/api/challenges/{id}/decline"),
        json!({}),
    )
    .await;
    assert_eq!(d.status, 204, "{}", d.text);
    wait_lobby(&mut ann_events, |v| {
        v["challenges"]["outgoing"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == id && c["status"] == "declined")
    })
    .await;
    assert!(
        get(&mut bob, "/api/challenges").await.body["incoming"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        delete(&mut ann, &format!("/api/challenges/{id}"))
            .await
            .status,
        204
    );
    // Again, accepted: Ann's stream sends her to the game.
    let c = post(&mut ann, "/api/challenges", body(&bob_name)).await;
    let id = c.body["id"].as_str().unwrap().to_string();
    let g = post(&mut bob, &format!("/api/challenges/{id}/accept"), json!({})).await;
    assert_eq!(g.status, 201, "{}", g.text);
    assert_eq!(g.body["you"], "black");
    assert_eq!(g.body["rated"], true);
    assert_eq!(g.body["clock"]["running"], "white");
    let game = g.body["id"].as_str().unwrap().to_string();
    wait_lobby(&mut ann_events, |v| {
        v["started"].as_array().unwrap().iter().any(|g| g == &game)
    })
    .await;
    assert_eq!(
        get(&mut ann, &format!("/api/games/{game}")).await.body["you"],
        "white"
    );
    assert_error(
        &post(&mut bob, &format!("/api/challenges/{id}/accept"), json!({})).await,
        404,
        "not_found",
    );
    // The challenger's list says it was accepted, with the game, until dismissed.
    let out = get(&mut ann, "/api/challenges").await.body["outgoing"].clone();
    assert_eq!(out[0]["status"], "accepted");
    assert_eq!(out[0]["game"], game.as_str());
    assert_eq!(
        delete(&mut ann, &format!("/api/challenges/{id}"))
            .await
            .status,
        204
    );
    assert!(
        get(&mut ann, "/api/challenges").await.body["outgoing"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // At most 10 open challenges out.
    let corr = |user: &str| json!({"username": user, "variant": "iceage", "time_control": {"kind": "correspondence", "days": 7}, "rated": false});
    for _ in 0..10 {
        assert_eq!(
            post(&mut carl, "/api/challenges", corr(&bob_name))
                .await
                .status,
            201
        );
    }
    assert_error(
        &post(&mut carl, "/api/challenges", corr(&ann_name)).await,
        429,
        "too_many_challenges",
    );
    let lists = get(&mut bob, "/api/challenges").await.body;
    assert_eq!(lists["incoming"].as_array().unwrap().len(), 10);
    srv.stop().await;
}

#[tokio::test]
async fn challenges_are_sent_declined_and_accepted() {
    challenges(&sqlite_url("lobby-challenges")).await;
    if let Some(url) = postgres_url() {
        challenges(&url).await;
    }
}
