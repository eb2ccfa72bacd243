//! Load script: plays many friend games at once against a running `icebound serve` and prints
//! how long a move takes from its submission (`POST .../moves`) to the opponent's WebSocket
//! receiving the new state (median, 99th percentile, max). Bounded: at most `--moves` moves
//! per game and `--seconds` of wall time, then it stops by itself. `--think-ms` waits that long
//! before each move (a player thinking); 0, the default, submits each move as soon as the last
//! one arrived, which saturates the server and measures its queueing. Every player connects
//! from this machine's one address: the server needs its per-address limits off (below).
//!
//! ```sh
//! cargo run --release -- serve --database /tmp/load.db --no-rate-limits --max-connections-per-address 0 &
//! cargo run --release -p server --example load -- --addr 127.0.0.1:8080 --games 100
//! ```

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use server::client::{ApiClient, WsStream, next_json};

struct Options {
    addr: SocketAddr,
    games: usize,
    moves: usize,
    seconds: u64,
    think_ms: u64,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        addr: "127.0.0.1:8080".parse().map_err(|e| format!("{e}"))?,
        games: 100,
        moves: 40,
        seconds: 60,
        think_ms: 0,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args
            .get(i + 1)
            .ok_or(format!("{} needs a value", args[i]))?;
        match args[i].as_str() {
            "--addr" => o.addr = value.parse().map_err(|e| format!("--addr: {e}"))?,
            "--games" => o.games = value.parse().map_err(|e| format!("--games: {e}"))?,
            "--moves" => o.moves = value.parse().map_err(|e| format!("--moves: {e}"))?,
            "--seconds" => o.seconds = value.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--think-ms" => o.think_ms = value.parse().map_err(|e| format!("--think-ms: {e}"))?,
            other => {
                return Err(format!(
                    "unknown option {other} (--addr --games --moves --seconds --think-ms)"
                ));
            }
        }
        i += 2;
    }
    o.games = o.games.clamp(1, 1000);
    o.seconds = o.seconds.clamp(1, 600);
    Ok(o)
}

/// Reads states until one with `ply` arrives.
async fn wait_ply(ws: &mut WsStream, ply: u64) -> Result<Value, String> {
    loop {
        let msg = next_json(ws).await.ok_or("websocket closed")?;
        if msg["type"] == "state" && msg["game"]["ply"].as_u64() >= Some(ply) {
            return Ok(msg["game"].clone());
        }
    }
}

/// One game: two players, each with its WebSocket; returns the latencies of its moves.
async fn one_game(
    addr: SocketAddr,
    index: usize,
    max_moves: usize,
    deadline: Instant,
    think: Duration,
) -> Result<Vec<Duration>, String> {
    let variant = if index.is_multiple_of(2) {
        "antarctos"
    } else {
        "iceage"
    };
    let mut white = ApiClient::new(addr);
    let mut black = ApiClient::new(addr);
    let g = white
        .post(
            "/api/games",
            json!({"variant": variant, "opponent": "friend", "color": "white"}),
        )
        .await
        .map_err(|e| e.to_string())?;
    if g.status != 201 {
        return Err(format!("create: {}", g.text));
    }
    let id = g.body["id"].as_str().ok_or("no id")?.to_string();
    let invite = g.body["invite_url"]
        .as_str()
        .ok_or("no invite")?
        .to_string();
    let j = black
        .post(&format!("/api{invite}"), json!({}))
        .await
        .map_err(|e| e.to_string())?;
    if j.status != 200 {
        return Err(format!("join: {}", j.text));
    }
    let mut ws_white = white.ws(&id).await.map_err(|e| e.to_string())?;
    let mut ws_black = black.ws(&id).await.map_err(|e| e.to_string())?;
    let mut view = wait_ply(&mut ws_white, 0).await?;
    wait_ply(&mut ws_black, 0).await?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(index as u64);
    let mut latencies = Vec::new();
    let path = format!("/api/games/{id}/moves");
    while latencies.len() < max_moves && view["status"] == "ongoing" && Instant::now() < deadline {
        // A player's thinking time before each move (0: as fast as the server answers).
        tokio::time::sleep(think).await;
        let legal = view["legal"].as_array().ok_or("no legal list")?;
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.random_range(0..legal.len())]["id"]
            .as_str()
            .ok_or("no move id")?
            .to_string();
        let ply = view["ply"].as_u64().ok_or("no ply")?;
        let white_moves = view["turn"] == "white";
        let (mover, mover_ws, opponent_ws) = if white_moves {
            (&mut white, &mut ws_white, &mut ws_black)
        } else {
            (&mut black, &mut ws_black, &mut ws_white)
        };
        let start = Instant::now();
        let body = json!({"move": mv, "ply": ply});
        let post = mover.post(&path, body);
        let seen = async {
            let v = wait_ply(opponent_ws, ply + 1).await;
            (v, start.elapsed())
        };
        let (answer, (seen, latency), own) = tokio::join!(post, seen, wait_ply(mover_ws, ply + 1));
        let answer = answer.map_err(|e| e.to_string())?;
        if answer.status != 200 {
            return Err(format!("move {mv}: {}", answer.text));
        }
        own?;
        view = seen?;
        latencies.push(latency);
    }
    Ok(latencies)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let deadline = started + Duration::from_secs(o.seconds);
    let tasks: Vec<_> = (0..o.games)
        .map(|i| {
            let think = Duration::from_millis(o.think_ms);
            tokio::spawn(one_game(o.addr, i, o.moves, deadline, think))
        })
        .collect();
    let mut all = Vec::new();
    let mut failed = 0;
    for t in tasks {
        match t.await {
            Ok(Ok(l)) => all.extend(l),
            Ok(Err(e)) => {
                failed += 1;
                eprintln!("game failed: {e}");
            }
            Err(e) => {
                failed += 1;
                eprintln!("game task failed: {e}");
            }
        }
    }
    let wall = started.elapsed();
    all.sort();
    println!(
        "games {} at once on {} ({} failed), moves {}, wall {:.1} s, {:.0} moves/s",
        o.games,
        o.addr,
        failed,
        all.len(),
        wall.as_secs_f64(),
        all.len() as f64 / wall.as_secs_f64()
    );
    println!(
        "move latency (submit -> opponent's WebSocket): median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms(percentile(&all, 50.0)),
        ms(percentile(&all, 99.0)),
        ms(all.last().copied().unwrap_or_default())
    );
    if failed > 0 {
        std::process::exit(1);
    }
}
