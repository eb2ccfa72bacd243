//! Issue 9, section 6: under a flood of level-8 engine games (ten players with ten games each,
//! every engine move answered at once), another player's level-1 engine still replies within
//! its budget (50 ms) plus 100 ms, measured from the stored moves' timestamps (so the figure is
//! the queue's scheduling, not the test client's latency). Alone in its file: the flood takes
//! both cores while it lasts.

#[path = "it/common/mod.rs"]
mod common;

use std::time::Duration;

use common::*;
use serde_json::{Value, json};
use server::client::{ApiClient, next_json, send_json};

const FLOODERS: usize = 10;
const GAMES_EACH: usize = 10;
const VICTIM_MOVES: usize = 8;
/// Level 1's budget (50 ms) plus the 100 ms the issue allows.
const WANTED_MS: i64 = 150;

/// Answers every engine move of game `id` at once with the first legal move, until the game
/// ends or the server goes away.
async fn answer_at_once(c: ApiClient, id: String) {
    let Ok(mut ws) = c.ws(&id).await else { return };
    while let Some(msg) = next_json(&mut ws).await {
        let g = &msg["game"];
        if msg["type"] != "state" {
            continue;
        }
        if g["status"] != "ongoing" {
            return;
        }
        if g["turn"] == g["you"]
            && let Some(mv) = g["legal"][0]["id"].as_str()
        {
            let answer = json!({"type": "move", "move": mv, "ply": g["ply"]});
            if send_json(&mut ws, &answer).await.is_err() {
                return;
            }
        }
    }
}

/// Games of `c` that wait for the engine now.
async fn waiting_for_engine(c: &mut ApiClient) -> usize {
    let mine = c.get("/api/my-games").await.expect("my games");
    mine.body
        .as_array()
        .expect("list")
        .iter()
        .filter(|g| g["status"] == "ongoing" && g["your_turn"] == false)
        .count()
}

fn median(mut xs: Vec<i64>) -> i64 {
    xs.sort_unstable();
    xs[xs.len() / 2]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_level_1_reply_keeps_its_budget_under_a_level_8_flood() {
    // The flooders would come from many addresses; here all come from 127.0.0.1, so the
    // per-address creation limit is off (the queue, not the edge, is under test).
    let options = server::SiteOptions {
        rate_limits: server::options::RateLimits::off(),
        ..server::SiteOptions::default()
    };
    let srv = TestServer::start_with(&sqlite_url("flood"), options).await;
    let mut flooders = Vec::new();
    let mut answering = tokio::task::JoinSet::new();
    for _ in 0..FLOODERS {
        let mut c = srv.client();
        for _ in 0..GAMES_EACH {
            // The engine plays White: it moves at once.
            let g = create(
                &mut c,
                json!({"variant": "antarctos", "opponent": "engine", "level": 8, "color": "black"}),
            )
            .await;
            let id = g["id"].as_str().expect("id").to_string();
            answering.spawn(answer_at_once(c.clone(), id));
        }
        flooders.push(c);
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;

    let mut victim = srv.client();
    let g = create(
        &mut victim,
        json!({"variant": "iceage", "opponent": "engine", "level": 1, "color": "white"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut ws = victim.ws(&id).await.expect("ws");
    let mut view: Value = wait_state(&mut ws, |_| true).await;
    for _ in 0..VICTIM_MOVES {
        if view["status"] != "ongoing" {
            break;
        }
        let mv = view["legal"][0]["id"]
            .as_str()
            .expect("a legal move")
            .to_string();
        let ply = view["ply"].as_i64().expect("ply");
        send_json(&mut ws, &json!({"type": "move", "move": mv, "ply": ply}))
            .await
            .expect("send");
        view = wait_state(&mut ws, |g| {
            g["ply"].as_i64() == Some(ply + 2) || g["status"] == "finished"
        })
        .await;
    }
    let mut backlog = 0;
    for c in &mut flooders {
        backlog += waiting_for_engine(c).await;
    }

    // Each engine reply's delay: its stored time minus the stored time of the move it answers.
    let (_, moves) = srv
        .site
        .service()
        .store()
        .load_game(&id)
        .await
        .expect("load")
        .expect("stored");
    let delays: Vec<i64> = moves
        .windows(2)
        .filter(|w| w[1].ply % 2 == 0)
        .map(|w| w[1].created_at - w[0].created_at)
        .collect();
    let (mid, max) = (
        median(delays.clone()),
        delays.iter().copied().max().unwrap_or(0),
    );
    println!(
        "flood probe: {} level-8 games, {backlog} still waiting for the engine after the probe; \
         level-1 replies (ms from the stored move): {delays:?}; median {mid}, max {max}",
        FLOODERS * GAMES_EACH
    );
    answering.abort_all();
    srv.stop().await;

    assert!(
        delays.len() >= 4,
        "the victim's game got {} replies",
        delays.len()
    );
    assert!(
        backlog >= FLOODERS * GAMES_EACH / 2,
        "the flood was real: {backlog} of {} games still waited for the engine",
        FLOODERS * GAMES_EACH
    );
    // The median, not every reply: a loaded CI machine may deschedule the whole process for a
    // moment; a queue that lets the flood go first misses by seconds on every reply.
    assert!(
        mid <= WANTED_MS,
        "level-1 replies took {delays:?} ms (median {mid}); wanted at most {WANTED_MS}"
    );
}
