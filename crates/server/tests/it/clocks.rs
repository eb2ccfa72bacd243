//! Clocks (issue 13): time controls are checked, the first moves are not charged, the server
//! charges each later move with the lag allowance and adds the increment, GameView shows the
//! clock, and a side whose time runs out loses (A15a, C11b) or, when its first move does not
//! come in time, aborts the game, even with nobody connected and across a restart.

use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use server::SiteOptions;
use server::client::ApiClient;

/// A friend game of `control` between two fresh browsers, joined; returns (creator, friend,
/// id, creator's colour).
pub(crate) async fn friend_game(
    srv: &TestServer,
    variant: &str,
    control: Value,
    color: &str,
) -> (ApiClient, ApiClient, String) {
    let mut a = srv.client();
    let mut b = srv.client();
    let g = create_and_join(
        &mut a,
        &mut b,
        json!({"variant": variant, "opponent": "friend", "color": color, "time_control": control}),
    )
    .await;
    assert_eq!(
        g["clock"]["running"],
        Value::Null,
        "not running before the friend: {g}"
    );
    let id = g["id"].as_str().expect("id").to_string();
    (a, b, id)
}

pub(crate) async fn get(c: &mut ApiClient, id: &str) -> Value {
    let a = c.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(a.status, 200, "{}", a.text);
    a.body
}

/// A game time that starts as the system's and moves only when the test says, and options
/// that give it to a test server (`WallTime::advance`: no 15-second sleeps).
pub(crate) fn moved_time() -> (site_model::time::WallTime, SiteOptions) {
    let time = site_model::time::WallTime::system();
    let options = SiteOptions {
        services: server::ServiceOptions {
            time: time.clone(),
            ..server::ServiceOptions::default()
        },
        ..SiteOptions::default()
    };
    (time, options)
}

pub(crate) fn ms(v: &Value, side: &str) -> i64 {
    v["clock"][format!("{side}_ms")].as_i64().expect("ms")
}

async fn controls_are_checked(url: &str) {
    let srv = TestServer::start(url).await;
    let mut c = srv.client();
    let bad = [
        json!({"kind": "realtime", "initial_s": 14, "increment_s": 0}),
        json!({"kind": "realtime", "initial_s": 10_801, "increment_s": 0}),
        json!({"kind": "realtime", "initial_s": 60, "increment_s": 61}),
        json!({"kind": "realtime", "initial_s": 60}),
        json!({"kind": "correspondence", "days": 4}),
        json!({"kind": "bullet"}),
        json!("3+2"),
    ];
    for tc in bad {
        let a = c
            .post(
                "/api/games",
                json!({"variant": "antarctos", "opponent": "friend", "time_control": tc}),
            )
            .await
            .expect("post");
        assert_error(&a, 400, "bad_request");
    }
    // One screen stays unlimited (the engine may have a clock: `a_game_against_the_engine_can_have_a_clock`).
    for opponent in [json!({"opponent": "local"})] {
        let mut body = json!({"variant": "iceage",
            "time_control": {"kind": "realtime", "initial_s": 180, "increment_s": 2}});
        for (k, v) in opponent.as_object().expect("object") {
            body[k] = v.clone();
        }
        let a = c.post("/api/games", body).await.expect("post");
        assert_error(&a, 400, "bad_request");
    }
    // Rated needs an account and a clock.
    let a = c
        .post(
            "/api/games",
            json!({"variant": "antarctos", "opponent": "friend", "rated": true,
                "time_control": {"kind": "correspondence", "days": 3}}),
        )
        .await
        .expect("post");
    assert_error(&a, 401, "not_logged_in");
    let a = c
        .post(
            "/api/games",
            json!({"variant": "antarctos", "opponent": "friend", "rated": true}),
        )
        .await
        .expect("post");
    assert_error(&a, 400, "bad_request");
    // A rated game cannot start from a set-up position (it could hand one side the win).
    let mut ann = srv.client();
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_micros() % 1_000_000_000)
        .unwrap_or(0);
    let r = ann
        .post(
            "/api/accounts",
            json!({"username": format!("clk{n}"), "password": "correct horse"}),
        )
        .await
        .expect("register");
    assert_eq!(r.status, 201, "{}", r.text);
    let a = ann
        .post(
            "/api/games",
            json!({"variant": "antarctos", "opponent": "friend", "rated": true,
                "fen": "B:Wa5,d2,d4:Ba7,c7",
                "time_control": {"kind": "realtime", "initial_s": 60, "increment_s": 0}}),
        )
        .await
        .expect("post");
    assert_error(&a, 400, "bad_request");
    assert!(a.text.contains("set-up position"), "{}", a.text);
    // Extra fields are refused on every kind of control.
    let a = c
        .post(
            "/api/games",
            json!({"variant": "antarctos", "opponent": "friend",
                "time_control": {"kind": "unlimited", "days": 3}}),
        )
        .await
        .expect("post");
    assert_error(&a, 400, "bad_request");
    // Unlimited is the default, with no clock.
    let g = create(
        &mut c,
        json!({"variant": "antarctos", "opponent": "friend"}),
    )
    .await;
    assert_eq!(g["clock"], Value::Null);
    assert_eq!(g["rated"], false);
    srv.stop().await;
}

both_databases! {
    async fn time_controls_are_checked(url: &str) {
        controls_are_checked(url).await;
    }
}

#[tokio::test]
async fn first_moves_are_not_charged_then_fischer_charges_the_mover_and_adds_the_increment() {
    // The game clocks run on a time this test moves forward instead of sleeping.
    let (time, options) = moved_time();
    let srv = TestServer::start_with(&sqlite_url("clock-fischer"), options).await;
    let control = json!({"kind": "realtime", "initial_s": 60, "increment_s": 5});
    let (mut white, mut black, id) = friend_game(&srv, "antarctos", control, "white").await;
    let g = get(&mut white, &id).await;
    assert_eq!(g["clock"]["kind"], "realtime");
    assert_eq!(g["clock"]["initial_ms"], 60_000);
    assert_eq!(g["clock"]["increment_ms"], 5_000);
    assert_eq!(
        g["clock"]["running"], "white",
        "White's first-move wait runs once both sit: {g}"
    );
    let wait = g["clock"]["first_move_ms"].as_i64().expect("first_move_ms");
    assert!((29_000..=30_000).contains(&wait), "30 s to move: {g}");
    // The first moves cost nothing and earn no increment (as lichess).
    time.advance(Duration::from_millis(1_300));
    let g = play(&mut white, &id, "c3-d4").await;
    assert_eq!(ms(&g, "white"), 60_000, "White's first move is free: {g}");
    assert_eq!(g["clock"]["running"], "black");
    assert!(g["clock"]["first_move_ms"].as_i64().is_some(), "{g}");
    time.advance(Duration::from_millis(600));
    assert_eq!(
        ms(&get(&mut black, &id).await, "black"),
        60_000,
        "not ticking"
    );
    let g = play(&mut black, &id, "f6-g5").await;
    assert_eq!(ms(&g, "black"), 60_000, "Black's first move is free: {g}");
    assert_eq!(g["clock"]["first_move_ms"], Value::Null, "{g}");
    // From Black's first move White's main clock runs.
    assert_eq!(g["clock"]["running"], "white");
    time.advance(Duration::from_millis(1_300));
    let g = play(&mut white, &id, "d4-e5").await;
    // About 1.3 s thought, no lag claimed (all of it is charged), plus 5 s.
    let w = ms(&g, "white");
    assert!((63_500..=64_000).contains(&w), "white has {w} ms: {g}");
    assert_eq!(g["clock"]["running"], "black");
    // Resigning stops the clock where it stood.
    let r = white
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await
        .expect("resign");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["clock"]["running"], Value::Null);
    let left = ms(&r.body, "white");
    time.advance(Duration::from_millis(300));
    assert_eq!(
        ms(&get(&mut black, &id).await, "white"),
        left,
        "a stopped clock stays"
    );
    // The game list shows the clock too.
    let my = white.get("/api/my-games").await.expect("my games");
    assert_eq!(my.body[0]["clock"]["kind"], "realtime", "{}", my.text);
    srv.stop().await;
}

/// Plays `mv` claiming `lag` ms of network lag (`lag` of the move's body).
async fn play_with_lag(c: &mut ApiClient, id: &str, mv: &str, lag: u64) -> Value {
    let ply = get(c, id).await["ply"].clone();
    let a = c
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": mv, "ply": ply, "lag": lag}),
        )
        .await
        .expect("request");
    assert_eq!(a.status, 200, "move {mv}: {}", a.text);
    a.body
}

#[tokio::test]
async fn claimed_lag_is_forgiven_within_the_quota_and_no_more() {
    let (time, options) = moved_time();
    let srv = TestServer::start_with(&sqlite_url("clock-lag"), options).await;
    // 3+2: a quota of 3 s to start, 1 s gained per move, at most 7 s (clock::lag).
    let control = json!({"kind": "realtime", "initial_s": 180, "increment_s": 2});
    let (mut white, mut black, id) = friend_game(&srv, "antarctos", control, "white").await;
    play(&mut white, &id, "c3-d4").await;
    play(&mut black, &id, "f6-g5").await;
    // White thinks 10 s and claims a minute of lag: the quota's 3 s are forgiven, no more.
    time.advance(Duration::from_secs(10));
    let g = play_with_lag(&mut white, &id, "d4-e5", 60_000).await;
    let w = ms(&g, "white");
    assert!(
        (180_000 - 7_000 + 2_000 - 200..=180_000 - 7_000 + 2_000).contains(&w),
        "charged 10 s less 3 s: {w}"
    );
    // Black answers at once and claims nothing: its few ms are charged (no flat allowance).
    let legal = get(&mut black, &id).await["legal"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    let g = play(&mut black, &id, &legal).await;
    let b = ms(&g, "black");
    assert!(
        b < 182_000 && b > 181_500,
        "an instant answer spends time: {b}"
    );
    // White's quota is down to 1 s (3 - 3 + 1): a claim of 2.5 s on a 5 s move gets 1 s.
    time.advance(Duration::from_secs(5));
    let legal = get(&mut white, &id).await["legal"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    let g = play_with_lag(&mut white, &id, &legal, 2_500).await;
    let w2 = ms(&g, "white");
    assert!(
        (w - 4_000 + 2_000 - 200..=w - 4_000 + 2_000).contains(&w2),
        "charged 5 s less 1 s: {w} -> {w2}"
    );
    // Over the socket the same field is read.
    let mut ws = black.ws(&id).await.expect("ws");
    first_state(&mut ws).await;
    let legal = get(&mut black, &id).await["legal"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    let ply = get(&mut black, &id).await["ply"].as_i64().unwrap();
    time.advance(Duration::from_secs(2));
    server::client::send_json(
        &mut ws,
        &json!({"type": "move", "move": legal, "ply": ply, "lag": 1_500}),
    )
    .await
    .expect("send");
    let g = wait_state(&mut ws, |g| g["ply"].as_i64() == Some(ply + 1)).await;
    let b2 = ms(&g, "black");
    assert!(
        (b - 500 + 2_000 - 200..=b - 500 + 2_000).contains(&b2),
        "2 s less 1.5 s claimed (its quota holds 4 s): {b} -> {b2}"
    );
    srv.stop().await;
}

#[tokio::test]
async fn correspondence_restores_the_days_on_each_move() {
    let srv = TestServer::start(&sqlite_url("clock-corr")).await;
    let control = json!({"kind": "correspondence", "days": 3});
    let (mut white, _black, id) = friend_game(&srv, "iceage", control, "white").await;
    let day = 86_400_000_i64;
    let before = site_store::now_ms();
    let g = play(&mut white, &id, "g1f3").await;
    let deadline = g["clock"]["deadline_ms"].as_i64().expect("deadline");
    assert_eq!(g["clock"]["days"], 3);
    assert_eq!(g["clock"]["running"], "black");
    assert!(
        (before + 3 * day..=site_store::now_ms() + 3 * day).contains(&deadline),
        "the deadline is three days after the move: {g}"
    );
    srv.stop().await;
}

/// Waits (polling the API, as a client that just looks would) until `pred` holds of game `id`.
pub(crate) async fn wait_for(
    c: &mut ApiClient,
    id: &str,
    secs: u64,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    let end = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let g = get(c, id).await;
        if pred(&g) {
            return g;
        }
        assert!(std::time::Instant::now() < end, "not within {secs} s: {g}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// One 15-second clock for three games at once: the side to move after two moves loses on
/// time (both games: A15a, C11b), across a crash and restart with nobody connected; a game
/// whose first move never comes is aborted, not lost.
async fn time_runs_out(url: &str) {
    let (time, options) = moved_time();
    let srv = TestServer::start_with(url, options.clone()).await;
    let control = json!({"kind": "realtime", "initial_s": 15, "increment_s": 0});
    let (mut a, mut b, antarctos) = friend_game(&srv, "antarctos", control.clone(), "white").await;
    play(&mut a, &antarctos, "c3-d4").await;
    play(&mut b, &antarctos, "f6-g5").await;
    let (mut c, mut d, iceage) = friend_game(&srv, "iceage", control.clone(), "black").await;
    play(&mut d, &iceage, "g1f3").await;
    play(&mut c, &iceage, "g8f6").await;
    let (mut e, _f, unplayed) = friend_game(&srv, "antarctos", control, "white").await;
    // The server goes down and comes back; nobody is connected or asks meanwhile.
    srv.crash().await;
    let srv = TestServer::start_with(url, options).await;
    let mut watcher = srv.client();
    time.advance(Duration::from_secs(15));
    // The new process flags once the dead one's sweeper lease has expired (LEASE_MS, real
    // time: the lease says whether a process is alive).
    let g = wait_for(&mut watcher, &antarctos, 15, |g| g["status"] != "ongoing").await;
    assert_eq!(g["status"], "finished", "{g}");
    assert_eq!(g["result"]["winner"], "black", "White ran out: {g}");
    assert_eq!(g["result"]["reason"], "time forfeit");
    assert_eq!(g["result"]["result"], "0-1");
    assert_eq!(ms(&g, "white"), 0);
    assert_eq!(g["clock"]["running"], Value::Null);
    let g = wait_for(&mut watcher, &iceage, 5, |g| g["status"] != "ongoing").await;
    assert_eq!(
        g["result"]["winner"], "black",
        "White (the friend) ran out: {g}"
    );
    assert_eq!(g["result"]["reason"], "time forfeit");
    let g = wait_for(&mut watcher, &unplayed, 5, |g| g["status"] != "ongoing").await;
    assert_eq!(
        g["status"], "aborted",
        "no first move: aborted, not lost: {g}"
    );
    assert_eq!(g["result"], Value::Null);
    // A move after the flag is refused (the players' browsers now reach the new server).
    a.set_addr(srv.addr);
    e.set_addr(srv.addr);
    let late = a
        .post(
            &format!("/api/games/{antarctos}/moves"),
            json!({"move": "d4-e5", "ply": 2}),
        )
        .await
        .expect("post");
    assert_error(&late, 409, "game_over");
    // The first-move notice is told to the players.
    let g = get(&mut e, &unplayed).await;
    assert_eq!(g["notice"]["code"], "first_move_missed", "{g}");
    assert_eq!(g["notice"]["by"], "white");
    srv.stop().await;
}

both_databases! {
    async fn a15a_c11b_time_forfeit_loses_with_nobody_connected_after_a_restart(url: &str) {
        time_runs_out(url).await;
    }
}

/// The database out of reach for 20 s while the site runs (here the SQLite file held locked
/// by another program; a stopped PostgreSQL server alike): nobody could move, so the running
/// clock gets that time back, once, before anything is flagged, even by a flag that was
/// already waiting for the database. (A hostile tester's 30 s game was lost on time after a
/// 35 s PostgreSQL outage.)
/// A move of a timed game checks whether an outage is owed to its clock (crate::timeouts),
/// which read the sweeper's lease from the database once per move (a hostile review). The
/// moves now share a reading for `LEASE_READ_FRESH`: a quick run of moves reads it about once
/// per that time, not once per move.
#[tokio::test]
async fn timed_moves_share_one_reading_of_the_sweepers_lease() {
    let url = sqlite_url("clock-lease-reads");
    let srv = TestServer::start(&url).await;
    let control = json!({"kind": "realtime", "initial_s": 600, "increment_s": 0});
    let (mut a, mut b, id) = friend_game(&srv, "antarctos", control, "white").await;
    let service = srv.site.service();
    // The join's reading goes stale first, so the moves must read it again.
    tokio::time::sleep(site::timeouts::LEASE_READ_FRESH).await;
    let before = service.sweeper_lease_reads();
    let started = std::time::Instant::now();
    let mut moves = 0u64;
    for turn in 0..16 {
        let c = if turn % 2 == 0 { &mut a } else { &mut b };
        let view = get(c, &id).await;
        if view["status"] != "ongoing" {
            break;
        }
        let played = c
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": view["legal"][0]["id"], "ply": view["ply"]}),
            )
            .await
            .expect("request");
        assert_eq!(played.status, 200, "{}", played.text);
        moves += 1;
    }
    let reads = service.sweeper_lease_reads() - before;
    let windows = started.elapsed().as_millis() as u64
        / site::timeouts::LEASE_READ_FRESH.as_millis() as u64
        + 1;
    assert!(moves >= 8, "only {moves} moves");
    assert!(reads >= 1, "the moves read the lease once it was stale");
    assert!(
        reads <= windows,
        "{moves} timed moves read the lease {reads} times in {windows} windows of freshness"
    );
    srv.stop().await;
}

#[tokio::test]
async fn a_game_against_the_engine_can_have_a_clock() {
    let srv = TestServer::start(&sqlite_url("clock-engine")).await;
    let mut c = srv.client();
    let g = create(
        &mut c,
        json!({"variant": "antarctos", "opponent": "engine", "level": 1, "color": "white",
               "time_control": {"kind": "realtime", "initial_s": 60, "increment_s": 0}}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["clock"]["kind"], "realtime");
    assert_eq!(g["clock"]["running"], "white", "it runs at once: {g}");
    assert_eq!(g["rated"], false);
    // Two moves each: the engine answers on its clock, charged like a player.
    for ply in [2, 4] {
        let mv = get(&mut c, &id).await["legal"][0]["text"]
            .as_str()
            .unwrap()
            .to_string();
        play(&mut c, &id, &mv).await;
        wait_for(&mut c, &id, 20, |g| g["ply"].as_i64() == Some(ply)).await;
    }
    let g = get(&mut c, &id).await;
    let engine = ms(&g, "black");
    assert!(
        (59_000..60_000).contains(&engine),
        "the engine's second move was charged, less than a second: {engine}"
    );
    assert_eq!(g["clock"]["running"], "white");
    // A correspondence clock too; one screen takes none.
    let g = create(
        &mut c,
        json!({"variant": "iceage", "opponent": "engine", "level": 2, "color": "white",
               "time_control": {"kind": "correspondence", "days": 2}}),
    )
    .await;
    assert_eq!(g["clock"]["kind"], "correspondence");
    let r = c
        .post(
            "/api/games",
            json!({"variant": "iceage", "opponent": "local",
                   "time_control": {"kind": "realtime", "initial_s": 60, "increment_s": 0}}),
        )
        .await
        .unwrap();
    assert_error(&r, 400, "bad_request");
    srv.stop().await;
}
