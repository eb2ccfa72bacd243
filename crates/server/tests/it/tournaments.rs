//! Tournaments (issue 40) through the HTTP API on a real server: a Swiss event of 9 accounts
//! over 4 rounds played by bots (no pair twice, one bye at most each, colours within ±2,
//! points adding up to the games played, a TRF-16 export), a correspondence round robin of 4
//! with every game at once through a crash and a withdrawal (its unplayed games forfeited),
//! an arena (paired again at once, no immediate rematch, berserk, pause, the end by time),
//! the live stream, the entry conditions and the errors that name what is wrong.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use crate::common::lobby::{account, post, realtime};
use crate::common::tournaments::{create, options, sqlite, tomorrow, until, view};
use crate::common::*;
use serde_json::{Value, json};
use server::client::ApiClient;

/// Plays game `id` to a result: each side its first legal move, then `loser` resigns.
async fn play_out(
    players: &mut HashMap<String, ApiClient>,
    id: &str,
    white: &str,
    black: &str,
    loser: &str,
) {
    for name in [white, black] {
        let c = players.get_mut(name).expect("player");
        let g = c.get(&format!("/api/games/{id}")).await.expect("game").body;
        let mv = g["legal"][0]["id"]
            .as_str()
            .unwrap_or_else(|| panic!("a legal move in {g}"))
            .to_string();
        let a = c
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": mv, "ply": g["ply"]}),
            )
            .await
            .expect("move");
        assert_eq!(a.status, 200, "move: {}", a.text);
    }
    let c = players.get_mut(loser).expect("player");
    let a = c
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await
        .expect("resign");
    assert_eq!(a.status, 200, "resign: {}", a.text);
}

#[tokio::test]
async fn a_swiss_of_nine_over_four_rounds() {
    let srv = TestServer::start_with(&sqlite("t-swiss"), options()).await;
    let (mut director, _) = account(&srv, "td").await;
    let id = create(
        &mut director,
        json!({"kind": "swiss", "variant": "antarctos", "time_control": realtime(180, 2),
               "rounds": 4, "starts_at": tomorrow(), "name": "Nine over four"}),
    )
    .await;
    let mut players: HashMap<String, ApiClient> = HashMap::new();
    for i in 0..9 {
        let (mut c, name) = account(&srv, &format!("sw{i}")).await;
        let a = post(&mut c, &format!("/api/tournaments/{id}/join"), json!({})).await;
        assert_eq!(a.status, 204, "join: {}", a.text);
        players.insert(name, c);
    }
    // Only its creator starts it early.
    let some = players.keys().next().cloned().expect("a player");
    let a = post(
        players.get_mut(&some).expect("p"),
        &format!("/api/tournaments/{id}/start"),
        json!({}),
    )
    .await;
    assert_error(&a, 403, "not_a_player");
    let a = post(
        &mut director,
        &format!("/api/tournaments/{id}/start"),
        json!({}),
    )
    .await;
    assert_eq!(a.status, 204, "{}", a.text);
    let mut flip = false;
    for round in 1..=4 {
        let v = until(&mut director, &id, "the round paired", |v| {
            v["round"] == round
        })
        .await;
        let pairings: Vec<Value> = v["pairings"]
            .as_array()
            .expect("pairings")
            .iter()
            .filter(|p| p["round"] == round)
            .cloned()
            .collect();
        assert_eq!(pairings.len(), 5, "four games and a bye: {v}");
        for p in &pairings {
            let (Some(game), Some(black)) = (p["game"].as_str(), p["black"].as_str()) else {
                assert_eq!(p["result"], "bye");
                continue;
            };
            let white = p["white"].as_str().expect("white");
            // The player sees "your game is ready".
            let me = view(players.get_mut(white).expect("white"), &id).await;
            assert_eq!(me["me"]["game"], game);
            flip = !flip;
            let loser = if flip { white } else { black };
            play_out(&mut players, game, white, black, loser).await;
        }
    }
    let v = until(&mut director, &id, "the event over", |v| {
        v["status"] == "finished"
    })
    .await;
    let all = v["pairings"].as_array().expect("pairings");
    assert_eq!(all.len(), 20);
    let mut met = HashSet::new();
    let mut byes: HashMap<&str, u32> = HashMap::new();
    let mut colours: HashMap<&str, i32> = HashMap::new();
    let mut games = 0.0;
    for p in all {
        let w = p["white"].as_str().expect("white");
        match p["black"].as_str() {
            None => *byes.entry(w).or_default() += 1,
            Some(b) => {
                let pair = if w < b { (w, b) } else { (b, w) };
                assert!(met.insert(pair), "{pair:?} met twice");
                *colours.entry(w).or_default() += 1;
                *colours.entry(b).or_default() -= 1;
                assert!(
                    ["white", "black"].contains(&p["result"].as_str().expect("result")),
                    "{p}"
                );
                games += 1.0;
            }
        }
    }
    assert!(
        byes.values().all(|&n| n <= 1),
        "one bye at most each: {byes:?}"
    );
    assert_eq!(byes.values().sum::<u32>(), 4);
    assert!(
        colours.values().all(|d| d.abs() <= 2),
        "colours within ±2: {colours:?}"
    );
    let standings = v["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 9);
    let points: f64 = standings
        .iter()
        .map(|s| s["points"].as_f64().expect("points"))
        .sum();
    assert_eq!(points, games + 4.0, "a point per game and per bye");
    assert!(standings[0]["tiebreaks"]["buchholz_cut1"].is_number());
    assert_eq!(v["podium"].as_array().map(Vec::len), Some(3));
    // TRF-16 for other programs: one 001 line per player, four rounds each.
    let trf = director
        .get(&format!("/api/tournaments/{id}/trf"))
        .await
        .expect("trf");
    assert_eq!(trf.status, 200);
    assert_eq!(
        trf.text.lines().filter(|l| l.starts_with("001")).count(),
        9,
        "{}",
        trf.text
    );
    // The games' records, one after the other.
    let pdn = director
        .get(&format!("/api/tournaments/{id}/games"))
        .await
        .expect("games");
    assert_eq!(pdn.status, 200);
    assert_eq!(
        pdn.text.matches("[Event ").count(),
        16,
        "{}",
        &pdn.text[..pdn.text.len().min(500)]
    );
    let white_tag = format!("[White \"{}\"]", all[0]["white"].as_str().expect("white"));
    assert!(
        pdn.text.contains(&white_tag),
        "the records name the players: {}",
        &pdn.text[..pdn.text.len().min(500)]
    );
    // Listed as finished; a player's profile lists it with the place.
    let list = director
        .get("/api/tournaments?status=finished")
        .await
        .expect("list")
        .body;
    assert!(list.as_array().expect("list").iter().any(|t| t["id"] == id));
    let winner = standings[0]["username"].as_str().expect("name");
    let mine = director
        .get(&format!("/api/players/{winner}/tournaments"))
        .await
        .expect("profile")
        .body;
    assert_eq!(mine[0]["id"], id.as_str(), "{mine}");
    assert_eq!(mine[0]["place"], 1);
    srv.stop().await;
}

#[tokio::test]
async fn a_correspondence_round_robin_through_a_crash_and_a_withdrawal() {
    let url = sqlite("t-rr");
    let srv = TestServer::start_with(&url, options()).await;
    let (mut director, _) = account(&srv, "rrtd").await;
    let id = create(
        &mut director,
        json!({"kind": "round_robin", "variant": "iceage",
               "time_control": {"kind": "correspondence", "days": 3}, "starts_at": tomorrow()}),
    )
    .await;
    let mut players: HashMap<String, ApiClient> = HashMap::new();
    let mut names = Vec::new();
    for i in 0..4 {
        let (mut c, name) = account(&srv, &format!("rr{i}")).await;
        assert_eq!(
            post(&mut c, &format!("/api/tournaments/{id}/join"), json!({}))
                .await
                .status,
            204
        );
        names.push(name.clone());
        players.insert(name, c);
    }
    assert_eq!(
        post(
            &mut director,
            &format!("/api/tournaments/{id}/start"),
            json!({})
        )
        .await
        .status,
        204
    );
    // Every game at once: 3 rounds of 2.
    let v = until(&mut director, &id, "every game made", |v| v["round"] == 3).await;
    assert_eq!(v["pairings"].as_array().expect("p").len(), 6);
    // A late entry is refused once a round robin runs.
    let (mut late, _) = account(&srv, "late").await;
    assert_error(
        &post(&mut late, &format!("/api/tournaments/{id}/join"), json!({})).await,
        409,
        "conflict",
    );
    // Two games played to a result, then the server dies and comes back.
    let pairings = v["pairings"].as_array().expect("p").clone();
    for p in pairings.iter().take(2) {
        let (w, b, g) = (
            p["white"].as_str().unwrap(),
            p["black"].as_str().unwrap(),
            p["game"].as_str().unwrap(),
        );
        play_out(&mut players, g, w, b, b).await;
    }
    srv.crash().await;
    let srv = TestServer::start_with(&url, options()).await;
    for c in players.values_mut() {
        c.set_addr(srv.addr);
    }
    director.set_addr(srv.addr);
    let v = view(&mut director, &id).await;
    assert_eq!(v["status"], "started");
    let done = v["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !p["result"].is_null())
        .count();
    assert_eq!(done, 2, "the results stored before the crash stand: {v}");
    // One player withdraws: their games not yet over are lost (before move 2: forfeited).
    let quitter = names[3].clone();
    let a = post(
        players.get_mut(&quitter).unwrap(),
        &format!("/api/tournaments/{id}/withdraw"),
        json!({}),
    )
    .await;
    assert_eq!(a.status, 204, "{}", a.text);
    let v = view(&mut director, &id).await;
    for p in v["pairings"].as_array().unwrap() {
        let theirs = p["white"] == quitter.as_str() || p["black"] == quitter.as_str();
        if theirs {
            assert!(
                !p["result"].is_null(),
                "the withdrawn player's games are decided: {p}"
            );
        }
    }
    // The others finish theirs.
    for p in v["pairings"].as_array().unwrap().clone() {
        if !p["result"].is_null() {
            continue;
        }
        let (w, b, g) = (
            p["white"].as_str().unwrap(),
            p["black"].as_str().unwrap(),
            p["game"].as_str().unwrap(),
        );
        play_out(&mut players, g, w, b, w).await;
    }
    let v = until(&mut director, &id, "the round robin over", |v| {
        v["status"] == "finished"
    })
    .await;
    let standings = v["standings"].as_array().unwrap();
    let total: f64 = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 6.0, "one point a game: {v}");
    let gone = standings
        .iter()
        .find(|s| s["username"] == quitter.as_str())
        .unwrap();
    assert_eq!(gone["withdrawn"], true);
    srv.stop().await;
}

#[tokio::test]
async fn an_arena_pairs_again_at_once_and_ends_on_time() {
    let time = site_model::time::WallTime::default();
    let mut opts = options();
    opts.services.time = time.clone();
    let srv = TestServer::start_with(&sqlite("t-arena"), opts).await;
    let (mut director, _) = account(&srv, "artd").await;
    let id = create(
        &mut director,
        json!({"kind": "arena", "variant": "iceage", "time_control": realtime(60, 0), "minutes": 30}),
    )
    .await;
    let mut players: HashMap<String, ApiClient> = HashMap::new();
    for i in 0..4 {
        let (mut c, name) = account(&srv, &format!("ar{i}")).await;
        assert_eq!(
            post(&mut c, &format!("/api/tournaments/{id}/join"), json!({}))
                .await
                .status,
            204
        );
        players.insert(name, c);
    }
    assert_eq!(
        post(
            &mut director,
            &format!("/api/tournaments/{id}/start"),
            json!({})
        )
        .await
        .status,
        204
    );
    let stream_client = players.values().next().unwrap().clone();
    let (status, mut events) = stream_client
        .events(&format!("/api/tournaments/{id}/stream"))
        .await
        .expect("stream");
    assert_eq!(status, 200);
    let (name, first) = events.next_event().await.expect("a first view");
    assert_eq!(name, "tournament");
    assert_eq!(first["id"], id.as_str());
    let v = until(&mut director, &id, "two games", |v| {
        v["pairings"].as_array().is_some_and(|p| p.len() == 2)
    })
    .await;
    // Berserk before the first move: the clock is halved, once.
    let p0 = v["pairings"][0].clone();
    let (w, b, g) = (
        p0["white"].as_str().unwrap().to_string(),
        p0["black"].as_str().unwrap().to_string(),
        p0["game"].as_str().unwrap().to_string(),
    );
    let a = post(
        players.get_mut(&w).unwrap(),
        &format!("/api/tournaments/{id}/berserk"),
        json!({}),
    )
    .await;
    assert_eq!(a.status, 204, "{}", a.text);
    let again = post(
        players.get_mut(&w).unwrap(),
        &format!("/api/tournaments/{id}/berserk"),
        json!({}),
    )
    .await;
    assert_error(&again, 409, "conflict");
    let game = players
        .get_mut(&w)
        .unwrap()
        .get(&format!("/api/games/{g}"))
        .await
        .unwrap()
        .body;
    assert_eq!(game["clock"]["white_ms"], 30_000, "{}", game["clock"]);
    // White wins (Black resigns after a move each): the stream shows the change.
    play_out(&mut players, &g, &w, &b, &b).await;
    let v = until(&mut director, &id, "the result in", |v| {
        v["pairings"][0]["result"] == "white"
    })
    .await;
    assert_eq!(v["pairings"][0]["berserk_white"], true);
    // The second game ends too; all four are paired again at once, never with the last
    // opponent when another is waiting.
    let p1 = v["pairings"][1].clone();
    let (w1, b1, g1) = (
        p1["white"].as_str().unwrap().to_string(),
        p1["black"].as_str().unwrap().to_string(),
        p1["game"].as_str().unwrap().to_string(),
    );
    play_out(&mut players, &g1, &w1, &b1, &w1).await;
    let v = until(&mut director, &id, "a second wave", |v| {
        v["pairings"].as_array().is_some_and(|p| p.len() == 4)
    })
    .await;
    for p in &v["pairings"].as_array().unwrap()[2..] {
        let pair: HashSet<&str> =
            [p["white"].as_str().unwrap(), p["black"].as_str().unwrap()].into();
        assert_ne!(
            pair,
            HashSet::from([w.as_str(), b.as_str()]),
            "no rematch: {v}"
        );
        assert_ne!(
            pair,
            HashSet::from([w1.as_str(), b1.as_str()]),
            "no rematch: {v}"
        );
    }
    let top = &v["standings"][0];
    assert_eq!(
        top["points"], 2.0,
        "a win is 2 (berserk's point needs 7 moves): {v}"
    );
    loop {
        let (name, data) = tokio::time::timeout(Duration::from_secs(10), events.next_event())
            .await
            .expect("an update")
            .expect("open");
        assert_eq!(name, "tournament");
        if data["pairings"].as_array().is_some_and(|p| p.len() == 4) {
            break;
        }
    }
    // A player who calls their game off before moving forfeits it and is paused (lichess's
    // arena pauses a player who does not play); the opponent waits for the next wave.
    let p2 = v["pairings"][2].clone();
    let (w2, g2) = (
        p2["white"].as_str().unwrap().to_string(),
        p2["game"].as_str().unwrap().to_string(),
    );
    let a = players
        .get_mut(&w2)
        .unwrap()
        .post(&format!("/api/games/{g2}/resign"), json!({}))
        .await
        .unwrap();
    assert_eq!(a.status, 200, "{}", a.text);
    let v2 = until(&mut director, &id, "the forfeit in", |v| {
        v["pairings"][2]["result"] == "black_forfeit"
    })
    .await;
    let absent = v2["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["username"] == w2.as_str())
        .unwrap()
        .clone();
    assert_eq!(absent["paused"], true, "{v2}");
    let a = post(
        players.get_mut(&w2).unwrap(),
        &format!("/api/tournaments/{id}/resume"),
        json!({}),
    )
    .await;
    assert_eq!(a.status, 204);
    // A player pauses: not paired again until they come back.
    let a = post(
        players.get_mut(&w).unwrap(),
        &format!("/api/tournaments/{id}/pause"),
        json!({}),
    )
    .await;
    assert_eq!(a.status, 204);
    let v = view(players.get_mut(&w).unwrap(), &id).await;
    assert_eq!(v["me"]["paused"], true);
    // Time passes: the arena ends; the games still running then (here lost on time, at the
    // jump of the clock) count for nobody.
    // Names with points and games (a player whose game there was lost before its first move
    // is paused meanwhile: that is no score).
    let scores = |v: &Value| -> Vec<(Value, Value, Value)> {
        v["standings"]
            .as_array()
            .expect("standings")
            .iter()
            .map(|s| {
                (
                    s["username"].clone(),
                    s["points"].clone(),
                    s["games"].clone(),
                )
            })
            .collect()
    };
    let before = scores(&view(&mut director, &id).await);
    time.advance(Duration::from_secs(31 * 60));
    let v = until(
        &mut director,
        &id,
        "the arena over, its last games decided",
        |v| {
            v["status"] == "finished"
                && v["pairings"]
                    .as_array()
                    .is_some_and(|p| p.iter().all(|p| !p["result"].is_null()))
        },
    )
    .await;
    assert_eq!(
        scores(&v),
        before,
        "games ending after the arena count for nobody"
    );
    assert_eq!(v["podium"].as_array().map(Vec::len), Some(3));
    // The list of finished events shows the players and the winners (first place, ties all).
    let list = director
        .get("/api/tournaments?status=finished")
        .await
        .expect("list")
        .body;
    let item = list
        .as_array()
        .expect("a list")
        .iter()
        .find(|x| x["id"] == id.as_str())
        .unwrap_or_else(|| panic!("{id} listed: {list}"))
        .clone();
    assert_eq!(item["players"], 4, "{item}");
    let firsts: Vec<Value> = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["rank"] == 1)
        .map(|s| s["username"].clone())
        .collect();
    assert!(!firsts.is_empty());
    assert_eq!(item["winners"], Value::Array(firsts), "{item} {v}");
    srv.stop().await;
}

#[tokio::test]
async fn bad_requests_and_conditions_say_what_is_wrong() {
    let srv = TestServer::start_with(&sqlite("t-errors"), options()).await;
    let mut anon = srv.client();
    let a = post(&mut anon, "/api/tournaments", json!({"kind": "arena", "variant": "antarctos", "time_control": realtime(60, 0), "minutes": 10})).await;
    assert_error(&a, 401, "not_logged_in");
    let (mut c, _) = account(&srv, "terr").await;
    let a = post(
        &mut c,
        "/api/tournaments",
        json!({"kind": "arena", "variant": "antarctos", "time_control": realtime(60, 0)}),
    )
    .await;
    assert_error(&a, 400, "bad_request");
    assert!(a.text.contains("minutes"), "{}", a.text);
    let a = post(
        &mut c,
        "/api/tournaments",
        json!({"kind": "swiss", "variant": "chess", "time_control": realtime(60, 0), "rounds": 3}),
    )
    .await;
    assert_error(&a, 400, "bad_request");
    let a = anon.get("/api/tournaments/nope").await.unwrap();
    assert_error(&a, 404, "not_found");
    let a = anon.get("/api/tournaments?status=later").await.unwrap();
    assert_error(&a, 400, "bad_request");
    // Entry conditions: a new account has no rated games.
    let id = create(
        &mut c,
        json!({"kind": "swiss", "variant": "iceage", "time_control": realtime(60, 0), "rounds": 3,
               "starts_at": tomorrow(), "conditions": {"min_rated_games": 5}}),
    )
    .await;
    let a = post(&mut c, &format!("/api/tournaments/{id}/join"), json!({})).await;
    assert_error(&a, 403, "not_eligible");
    assert!(a.text.contains("5 rated games"), "{}", a.text);
    // Pausing is for arenas; withdrawing needs an entry.
    assert_error(
        &post(&mut c, &format!("/api/tournaments/{id}/pause"), json!({})).await,
        409,
        "conflict",
    );
    assert_error(
        &post(
            &mut c,
            &format!("/api/tournaments/{id}/withdraw"),
            json!({}),
        )
        .await,
        409,
        "conflict",
    );
    // Too few players at the start: canceled, no games.
    assert_eq!(
        post(&mut c, &format!("/api/tournaments/{id}/start"), json!({}))
            .await
            .status,
        204
    );
    let v = until(&mut c, &id, "canceled", |v| v["status"] == "canceled").await;
    assert_eq!(v["pairings"].as_array().map(Vec::len), Some(0));
    srv.stop().await;
}
