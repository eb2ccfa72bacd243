//! Tournaments (issue 40), the limits and the absent: parallel creations and joins stop at
//! the limits exactly (counted in the insert's transaction), an arena does not pair a player
//! who is playing a real-time game elsewhere until it ends, a Swiss player who calls their
//! game off is withdrawn (not paired round after round), players away are told of the start
//! and of their games, requests that take nothing refuse
//! what is sent anyway, and the TRF-16 export holds whole rounds with ranks.

use std::time::Duration;

use crate::common::lobby::{account, post, realtime};
use crate::common::tournaments::{create, options, sqlite, tomorrow, until, view};
use crate::common::*;
use serde_json::{Value, json};

fn later_swiss() -> Value {
    json!({"kind": "swiss", "variant": "antarctos", "time_control": realtime(60, 0),
           "rounds": 3, "starts_at": tomorrow()})
}

fn standing<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .find(|s| s["username"] == name)
        .unwrap_or_else(|| panic!("{name} in {v}"))
}

#[tokio::test]
async fn parallel_creations_and_joins_stop_at_the_limits() {
    let srv = TestServer::start_with(&sqlite("t-limits"), options()).await;
    let (c, _) = account(&srv, "tlim").await;
    // 30 creations at once by one account: exactly 5 pass.
    let mut tasks = Vec::new();
    for _ in 0..30 {
        let mut c = c.clone();
        tasks.push(tokio::spawn(async move {
            post(&mut c, "/api/tournaments", later_swiss()).await.status
        }));
    }
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.expect("task"));
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == 201).count(),
        5,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 429).count(),
        25,
        "{statuses:?}"
    );
    // 21 events by five creators; one player joins all at once: 20 pass.
    let mut ids = Vec::new();
    for k in 0..5 {
        let (mut creator, _) = account(&srv, &format!("tlc{k}")).await;
        for _ in 0..5 {
            if ids.len() < 21 {
                ids.push(create(&mut creator, later_swiss()).await);
            }
        }
    }
    let (joiner, _) = account(&srv, "tlj").await;
    let mut tasks = Vec::new();
    for id in &ids {
        let (mut c, id) = (joiner.clone(), id.clone());
        tasks.push(tokio::spawn(async move {
            post(&mut c, &format!("/api/tournaments/{id}/join"), json!({})).await
        }));
    }
    let mut answers = Vec::new();
    for t in tasks {
        answers.push(t.await.expect("task"));
    }
    assert_eq!(answers.iter().filter(|a| a.status == 204).count(), 20);
    let refused: Vec<_> = answers.iter().filter(|a| a.status != 204).collect();
    assert_eq!(refused.len(), 1);
    assert_error(refused[0], 429, "rate_limited");
    assert!(
        refused[0].text.contains("at most 20"),
        "{}",
        refused[0].text
    );
    srv.stop().await;
}

#[tokio::test]
async fn requests_that_take_nothing_refuse_what_is_sent() {
    let srv = TestServer::start_with(&sqlite("t-strict"), options()).await;
    let (mut c, _) = account(&srv, "tstr").await;
    let id = create(&mut c, later_swiss()).await;
    let a = post(
        &mut c,
        &format!("/api/tournaments/{id}/join"),
        json!({"team": "x"}),
    )
    .await;
    assert_error(&a, 400, "bad_request");
    assert!(a.text.contains("no body"), "{}", a.text);
    assert_eq!(view(&mut c, &id).await["players"], 0, "nothing joined");
    let a = c
        .get(&format!("/api/tournaments/{id}?page=2"))
        .await
        .expect("get");
    assert_error(&a, 400, "bad_request");
    assert!(a.text.contains("page=2"), "{}", a.text);
    for path in [
        format!("/api/tournaments/{id}/stream?x=1"),
        "/api/players/nobody/tournaments?x=1".to_string(),
        "/api/tournaments?status=finished&status=created".to_string(),
    ] {
        let a = c.get(&path).await.expect("get");
        assert_error(&a, 400, "bad_request");
    }
    // An arena is played in real time.
    let a = post(
        &mut c,
        "/api/tournaments",
        json!({"kind": "arena", "variant": "antarctos", "minutes": 60,
               "time_control": {"kind": "correspondence", "days": 3}}),
    )
    .await;
    assert_error(&a, 400, "bad_request");
    assert!(a.text.contains("time_control"), "{}", a.text);
    // "Start now" once: a second before the director has started it is a conflict.
    assert_eq!(
        post(&mut c, &format!("/api/tournaments/{id}/start"), json!({}))
            .await
            .status,
        204
    );
    assert_error(
        &post(&mut c, &format!("/api/tournaments/{id}/start"), json!({})).await,
        409,
        "conflict",
    );
    let mut body = later_swiss();
    body["conditions"] = json!([5, 1000, 2000]);
    let a = post(&mut c, "/api/tournaments", body).await;
    assert_error(&a, 400, "bad_request");
    assert!(a.text.contains("conditions"), "{}", a.text);
    // `{}` is nothing.
    let id2 = create(&mut c, later_swiss()).await;
    assert_eq!(
        post(&mut c, &format!("/api/tournaments/{id2}/join"), json!({}))
            .await
            .status,
        204
    );
    srv.stop().await;
}

#[tokio::test]
async fn an_arena_waits_for_a_player_busy_elsewhere() {
    let srv = TestServer::start_with(&sqlite("t-busy"), options()).await;
    let (mut td, _) = account(&srv, "tbtd").await;
    let id = create(
        &mut td,
        json!({"kind": "arena", "variant": "antarctos", "time_control": realtime(60, 0),
               "minutes": 30, "starts_at": tomorrow()}),
    )
    .await;
    let (mut a, an) = account(&srv, "tba").await;
    let (mut b, _) = account(&srv, "tbb").await;
    let (mut friend, _) = account(&srv, "tbf").await;
    for c in [&mut a, &mut b] {
        assert_eq!(
            post(c, &format!("/api/tournaments/{id}/join"), json!({}))
                .await
                .status,
            204
        );
    }
    // `a` is in a real-time game with a friend (a move each: it is under way).
    let g = create_and_join(
        &mut a,
        &mut friend,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white",
               "time_control": realtime(300, 0)}),
    )
    .await;
    let gid = g["id"].as_str().expect("game id").to_string();
    let mv = crate::common::lobby::first_legal(&mut a, &gid).await;
    play(&mut a, &gid, &mv).await;
    // `b` plays the engine in real time (a move made: under way).
    let eg = crate::common::create(
        &mut b,
        json!({"variant": "antarctos", "opponent": "engine", "level": 1, "color": "white",
               "time_control": realtime(300, 0)}),
    )
    .await;
    let eg = eg["id"].as_str().expect("engine game id").to_string();
    let mv = crate::common::lobby::first_legal(&mut b, &eg).await;
    play(&mut b, &eg, &mv).await;
    assert_eq!(
        post(&mut td, &format!("/api/tournaments/{id}/start"), json!({}))
            .await
            .status,
        204
    );
    until(&mut td, &id, "started", |v| v["status"] == "started").await;
    // Three looks of the director: nobody paired while `a` and `b` play elsewhere.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let v = view(&mut td, &id).await;
    assert_eq!(v["pairings"].as_array().map(Vec::len), Some(0), "{v}");
    let r = a
        .post(&format!("/api/games/{gid}/resign"), json!({}))
        .await
        .expect("resign");
    assert_eq!(r.status, 200, "{}", r.text);
    tokio::time::sleep(Duration::from_secs(2)).await;
    let v = view(&mut td, &id).await;
    assert_eq!(
        v["pairings"].as_array().map(Vec::len),
        Some(0),
        "b still plays the engine: {v}"
    );
    let r = b
        .post(&format!("/api/games/{eg}/resign"), json!({}))
        .await
        .expect("resign");
    assert_eq!(r.status, 200, "{}", r.text);
    let v = until(&mut td, &id, "paired once free", |v| {
        v["pairings"].as_array().is_some_and(|p| p.len() == 1)
    })
    .await;
    let p = &v["pairings"][0];
    assert!(
        p["white"] == an.as_str() || p["black"] == an.as_str(),
        "{v}"
    );
    srv.stop().await;
}

#[tokio::test]
async fn a_swiss_player_who_calls_their_game_off_is_withdrawn() {
    let srv = TestServer::start_with(&sqlite("t-noshow"), options()).await;
    let (mut td, _) = account(&srv, "tntd").await;
    let id = create(
        &mut td,
        json!({"kind": "swiss", "variant": "antarctos", "time_control": realtime(60, 0),
               "rounds": 3, "starts_at": tomorrow()}),
    )
    .await;
    let mut players = Vec::new();
    for i in 0..4 {
        let (mut c, name) = account(&srv, &format!("tn{i}")).await;
        assert_eq!(
            post(&mut c, &format!("/api/tournaments/{id}/join"), json!({}))
                .await
                .status,
            204
        );
        players.push((name, c));
    }
    assert_eq!(
        post(&mut td, &format!("/api/tournaments/{id}/start"), json!({}))
            .await
            .status,
        204
    );
    let v = until(&mut td, &id, "round 1", |v| {
        v["pairings"].as_array().is_some_and(|p| p.len() == 2)
    })
    .await;
    // Each player away from the page is told: the start, and their game (the bell, push).
    for (name, c) in players.iter_mut() {
        let n = c
            .get("/api/notifications")
            .await
            .expect("notifications")
            .body;
        let items = n["items"].as_array().expect("items");
        let started: Vec<&Value> = items
            .iter()
            .filter(|i| i["kind"] == "tournament_started")
            .collect();
        assert_eq!(started.len(), 1, "{name}: {n}");
        assert_eq!(started[0]["tournament"], id.as_str());
        let mine = v["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["white"] == name.as_str() || p["black"] == name.as_str())
            .expect("paired");
        let games: Vec<&Value> = items
            .iter()
            .filter(|i| i["kind"] == "tournament_game")
            .collect();
        assert_eq!(games.len(), 1, "{name}: {n}");
        assert_eq!(games[0]["game"], mine["game"], "{n}");
        assert_eq!(games[0]["tournament"], id.as_str());
    }
    // Board 1's White calls the game off before moving; board 2 is played out.
    let absent = v["pairings"][0]["white"].as_str().unwrap().to_string();
    let g0 = v["pairings"][0]["game"].as_str().unwrap().to_string();
    let c = &mut players.iter_mut().find(|(n, _)| *n == absent).unwrap().1;
    let r = c
        .post(&format!("/api/games/{g0}/resign"), json!({}))
        .await
        .expect("resign");
    assert_eq!(r.status, 200, "{}", r.text);
    let (w1, b1, g1) = (
        v["pairings"][1]["white"].as_str().unwrap().to_string(),
        v["pairings"][1]["black"].as_str().unwrap().to_string(),
        v["pairings"][1]["game"].as_str().unwrap().to_string(),
    );
    // A move each (fewer than two plies would make the resignation a forfeit).
    for side in [&w1, &b1] {
        let c = &mut players.iter_mut().find(|(n, _)| n == side).unwrap().1;
        let mv = crate::common::lobby::first_legal(c, &g1).await;
        play(c, &g1, &mv).await;
    }
    let c = &mut players.iter_mut().find(|(n, _)| *n == w1).unwrap().1;
    let r = c
        .post(&format!("/api/games/{g1}/resign"), json!({}))
        .await
        .expect("resign");
    assert_eq!(r.status, 200, "{}", r.text);
    // The game page knows its tournament; there is no rematch (the event pairs the next).
    let c = &mut players.iter_mut().find(|(n, _)| *n == w1).unwrap().1;
    let g = c.get(&format!("/api/games/{g1}")).await.expect("game").body;
    assert_eq!(g["tournament"], id.as_str(), "{g}");
    assert!(
        !g["actions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "rematch"),
        "{g}"
    );
    let r = c
        .post(&format!("/api/games/{g1}/rematch"), json!({}))
        .await
        .expect("rematch");
    assert_error(&r, 409, "conflict");
    assert!(r.text.contains("tournament"), "{}", r.text);
    // Round 2: the absent player is withdrawn, not paired; the three others are (a bye).
    let v = until(&mut td, &id, "round 2", |v| {
        v["pairings"]
            .as_array()
            .is_some_and(|p| p.iter().any(|p| p["round"] == 2))
    })
    .await;
    assert_eq!(standing(&v, &absent)["withdrawn"], true, "{v}");
    let round2: Vec<&Value> = v["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["round"] == 2)
        .collect();
    assert_eq!(round2.len(), 2, "a game and a bye: {v}");
    assert!(
        round2
            .iter()
            .all(|p| p["white"] != absent.as_str() && p["black"] != absent.as_str()),
        "{v}"
    );
    // TRF-16 while round 2 runs: round 1 only, every player ranked.
    let trf = td
        .get(&format!("/api/tournaments/{id}/trf"))
        .await
        .expect("trf")
        .text;
    let players_lines: Vec<&str> = trf.lines().filter(|l| l.starts_with("001")).collect();
    assert_eq!(players_lines.len(), 4, "{trf}");
    for l in &players_lines {
        let rank = l.get(85..89).unwrap_or("").trim();
        assert!(
            rank.parse::<u32>().is_ok(),
            "a rank in columns 86-89: {l:?}"
        );
        let rounds = l.get(91..).unwrap_or("").trim_end();
        assert!(
            rounds.len() <= 8,
            "one round (8 columns) while round 2 runs: {l:?}"
        );
        assert!(!rounds.contains("0000 - Z"), "{l:?}");
    }
    srv.stop().await;
}
