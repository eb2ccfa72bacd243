//! An arena of 30 bot players across three `icebound serve --redis` processes on PostgreSQL
//! (issue 40): one process is killed (SIGKILL) halfway and its players go on through the
//! others. At the end: every pairing's result is its stored game's, no player was paired
//! twice in a wave or into two games at once, the standings are the arena scoring of the
//! stored games (those ending after the arena's end left out), and every rated game was
//! rated once (each player's rated-game count is the number of their games with a rating
//! change).
//!
//! Needs `ICEBOUND_TEST_POSTGRES_URL` (`.ci/setup-postgres.sh`) and Debian's `redis-server`
//! (`.ci/setup-redis.sh`); without them it says so and is not run (under CI=true it fails).

use crate::common;

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::serve::*;
use serde_json::{Value, json};
use server::client::ApiClient;
use test_support::redis::Redis;
use test_support::services::{postgres_url, redis_server};

const PLAYERS: usize = 30;

async fn get(c: &mut ApiClient, path: &str) -> Option<Value> {
    match c.get(path).await {
        Ok(a) if a.status == 200 => Some(a.body),
        _ => None,
    }
}

/// One bot: plays its game in progress (a random legal move; resigns now and then so that
/// games end within the arena) until the arena is over and it has no game left.
async fn bot(
    mut c: ApiClient,
    id: String,
    name: String,
    seed: u64,
    mut at: SocketAddr,
    dead: SocketAddr,
    alive: SocketAddr,
) {
    let mut rng = seed;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let end = Instant::now() + Duration::from_secs(240);
    while Instant::now() < end {
        let Some(v) = get(&mut c, &format!("/api/tournaments/{id}")).await else {
            // The process this bot used was killed: go on through another.
            if at == dead {
                at = alive;
                c.set_addr(alive);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let over = v["status"] == "finished";
        // Once the arena is over `me.game` is gone; a game still running is found in the
        // pairings and played out (resigned).
        let game = v["me"]["game"].as_str().map(str::to_string).or_else(|| {
            v["pairings"].as_array().and_then(|ps| {
                ps.iter()
                    .find(|p| {
                        p["result"].is_null()
                            && (p["white"] == name.as_str() || p["black"] == name.as_str())
                    })
                    .and_then(|p| p["game"].as_str().map(str::to_string))
            })
        });
        let Some(game) = game else {
            if over {
                return;
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
            continue;
        };
        let Some(g) = get(&mut c, &format!("/api/games/{game}")).await else {
            continue;
        };
        let mine = g["you"].as_str().unwrap_or("");
        if g["status"] != "ongoing" || mine != g["turn"].as_str().unwrap_or("-") {
            tokio::time::sleep(Duration::from_millis(60)).await;
            continue;
        }
        let legal = g["legal"].as_array().cloned().unwrap_or_default();
        let ply = g["ply"].as_i64().unwrap_or(0);
        // Once the arena is over, games still running are resigned: they count for nobody.
        if legal.is_empty() || (ply >= 6 && next() % 12 == 0) || (over && ply >= 2) {
            let _ = c
                .post(&format!("/api/games/{game}/resign"), json!({}))
                .await;
            continue;
        }
        let mv = legal[(next() % legal.len() as u64) as usize]["id"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let _ = c
            .post(
                &format!("/api/games/{game}/moves"),
                json!({"move": mv, "ply": ply}),
            )
            .await;
    }
    panic!("bot on {id} still busy after 240 s");
}

/// lichess's arena scoring (issue 40): 2 a win, 1 a draw, doubled after two wins in a row
/// until a non-win. No berserk here; Antarctos has no early-draw rule.
fn arena_points(outcomes: &[f64]) -> u32 {
    let (mut total, mut streak) = (0, 0);
    for &o in outcomes {
        let base = if o == 1.0 {
            2
        } else if o == 0.5 {
            1
        } else {
            0
        };
        total += if streak >= 2 { base * 2 } else { base };
        streak = if o == 1.0 { streak + 1 } else { 0 };
    }
    total
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_of_thirty_across_three_processes_with_one_killed() {
    let Some(url) = postgres_url() else { return };
    let Some(redis_bin) = redis_server() else {
        return;
    };
    let redis = Redis::start(redis_bin);
    let redis_url = redis.url();
    let addrs: Vec<SocketAddr> = (0..3).map(|_| free_addr()).collect();
    let mut procs: Vec<Spawned> = addrs
        .iter()
        .map(|a| start(&url, *a, &["--redis", &redis_url, "--no-rate-limits"]))
        .collect();
    for (p, a) in procs.iter_mut().zip(&addrs) {
        wait_ready(p, *a).await;
    }
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis()
        % 100_000_000;
    let mut director = ApiClient::new(addrs[1]);
    let reg = |c: &mut ApiClient, name: String| {
        let mut c = c.clone();
        async move {
            let a = c
                .post(
                    "/api/accounts",
                    json!({"username": name, "password": "correct horse"}),
                )
                .await
                .expect("register");
            assert_eq!(a.status, 201, "{}", a.text);
            c
        }
    };
    director = reg(&mut director, format!("ad{stamp}")).await;
    let a = director
        .post(
            "/api/tournaments",
            json!({"kind": "arena", "variant": "antarctos", "minutes": 1, "rated": true,
                   "time_control": {"kind": "realtime", "initial_s": 60, "increment_s": 0}}),
        )
        .await
        .expect("create");
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.body["id"].as_str().expect("id").to_string();
    let mut bots = Vec::new();
    let mut names = Vec::new();
    for i in 0..PLAYERS {
        let name = format!("a{i}x{stamp}");
        let mut c = reg(&mut ApiClient::new(addrs[i % 3]), name.clone()).await;
        let j = c
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await
            .expect("join");
        assert_eq!(j.status, 204, "{}", j.text);
        names.push(name);
        bots.push(c);
    }
    let s = director
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await
        .expect("start");
    assert_eq!(s.status, 204, "{}", s.text);
    let tasks: Vec<_> = bots
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            tokio::spawn(bot(
                c,
                id.clone(),
                names[i].clone(),
                0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1),
                addrs[i % 3],
                addrs[0],
                addrs[1 + i % 2],
            ))
        })
        .collect();
    // Halfway through the minute, process 0 dies.
    tokio::time::sleep(Duration::from_secs(30)).await;
    let before_kill = get(&mut director, &format!("/api/tournaments/{id}"))
        .await
        .expect("view");
    procs[0].kill().expect("SIGKILL");
    let _ = procs[0].wait();
    let started = Instant::now();
    for t in tasks {
        t.await.expect("bot");
    }
    eprintln!("bots done {:?} after the kill", started.elapsed());
    // Every result in, through the survivors.
    let mut c = ApiClient::new(addrs[2]);
    let v = get(&mut c, &format!("/api/tournaments/{id}"))
        .await
        .expect("view");
    assert_eq!(v["status"], "finished");
    let pairings = v["pairings"].as_array().expect("pairings").clone();
    let waves_before = before_kill["round"].as_i64().unwrap_or(0);
    assert!(waves_before >= 1, "paired before the kill: {before_kill}");
    assert!(
        v["round"].as_i64().unwrap_or(0) > waves_before,
        "paired after the kill too"
    );
    let ends_at = v["ends_at"].as_i64().expect("ends_at");
    let mut games = HashSet::new();
    let mut per_wave: HashMap<i64, HashSet<String>> = HashMap::new();
    let mut outcomes: HashMap<String, Vec<(i64, f64)>> = HashMap::new();
    let mut rated: HashMap<String, i64> = HashMap::new();
    for p in &pairings {
        let (w, b) = (
            p["white"].as_str().expect("white"),
            p["black"].as_str().expect("black"),
        );
        let wave = per_wave
            .entry(p["round"].as_i64().expect("round"))
            .or_default();
        assert!(
            wave.insert(w.to_string()) && wave.insert(b.to_string()),
            "a player twice in one wave: {p}"
        );
        let game = p["game"].as_str().expect("a game");
        assert!(games.insert(game.to_string()), "a game in two pairings");
        let g = get(&mut c, &format!("/api/games/{game}"))
            .await
            .expect("the stored game");
        let result = p["result"].as_str().expect("a result");
        let stored = match (g["status"].as_str(), g["result"]["winner"].as_str()) {
            (Some("finished"), Some("white")) => "white",
            (Some("finished"), Some("black")) => "black",
            (Some("finished"), None) => "draw",
            (Some("aborted"), _) => {
                if result.ends_with("forfeit") {
                    result
                } else {
                    "aborted?"
                }
            }
            other => panic!("game {game} not over: {other:?}"),
        };
        assert_eq!(result, stored, "pairing {p} against game {g}");
        let ended = p["ended_at"].as_i64().expect("ended_at");
        if g["status"] == "finished" {
            let white = match result {
                "white" => 1.0,
                "black" => 0.0,
                _ => 0.5,
            };
            if ended <= ends_at {
                outcomes
                    .entry(w.to_string())
                    .or_default()
                    .push((ended, white));
                outcomes
                    .entry(b.to_string())
                    .or_default()
                    .push((ended, 1.0 - white));
            }
            // A rated game carries its rating change once rated (a pair's games past their
            // daily count end unrated: `unrated`, issue 41).
            if g["ratings"].is_object() {
                *rated.entry(w.to_string()).or_default() += 1;
                *rated.entry(b.to_string()).or_default() += 1;
            }
        }
    }
    // No one in two games at once: a player's games do not overlap in time.
    for name in &names {
        let mut spans: Vec<(i64, i64)> = pairings
            .iter()
            .filter(|p| p["white"] == name.as_str() || p["black"] == name.as_str())
            .map(|p| {
                (
                    p["round"].as_i64().unwrap(),
                    p["ended_at"].as_i64().unwrap(),
                )
            })
            .collect();
        spans.sort();
        for pair in spans.windows(2) {
            assert!(
                pair[0].1 <= pair[1].1,
                "{name}: a later wave's game ended first: {spans:?}"
            );
        }
    }
    let standings = v["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), PLAYERS);
    for s in standings {
        let name = s["username"].as_str().expect("name");
        let mut mine = outcomes.remove(name).unwrap_or_default();
        mine.sort_by_key(|(at, _)| *at);
        let want = arena_points(&mine.iter().map(|(_, o)| *o).collect::<Vec<_>>());
        assert_eq!(
            s["points"].as_f64(),
            Some(f64::from(want)),
            "{name}: {s} against {mine:?}"
        );
        // Rated once: the profile's game count is the player's rated finished games.
        let profile = get(&mut c, &format!("/api/players/{name}"))
            .await
            .expect("profile");
        let counted = profile["ratings"]["antarctos"]["realtime"]["games"]
            .as_i64()
            .unwrap_or(0);
        assert_eq!(
            counted,
            rated.get(name).copied().unwrap_or(0),
            "{name} rated once per game"
        );
    }
    eprintln!(
        "{} games in {} waves, {} before the kill",
        pairings.len(),
        v["round"],
        waves_before
    );
    drop(procs);
    drop(redis);
}
