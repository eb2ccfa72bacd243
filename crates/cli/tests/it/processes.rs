//! Three `icebound serve --redis` processes on one SQLite file and one Redis (issue 12): a
//! move made through one reaches the WebSockets held by the others, each ply once and in
//! order; Redis going down loses nothing (the sockets resync from the database, `/healthz`
//! says so) and its return resumes pub/sub by itself; an engine move whose process was killed
//! (SIGKILL) is made by another process, once (the game's lease). The load harness ends near
//! its `--seconds`, with its summary, whatever its servers do (killed, stopped, silent).
//!
//! Redis is Debian's `redis-server`, started here on a free port (`.ci/setup-redis.sh`
//! installs it; under CI=true its absence fails).

use crate::common;

use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::serve::*;
use serde_json::{Value, json};
use server::client::{ApiClient, WsStream, next_json};
use test_support::dirs::TempDir;
use test_support::redis::Redis;
use test_support::services::redis_server as redis_binary;

/// Server processes, killed when dropped (however the test ends), and the folder of their
/// database, removed after them.
struct Procs(Vec<Spawned>, #[allow(dead_code)] TempDir);

/// Three `icebound serve --redis` on one fresh SQLite file, answering.
async fn three(redis: &Redis, tag: &str) -> (Procs, Vec<SocketAddr>) {
    three_with(redis, tag, &[]).await
}

/// [`three`] with `extra` arguments for each process.
async fn three_with(redis: &Redis, tag: &str, extra: &[&str]) -> (Procs, Vec<SocketAddr>) {
    let dir = temp_dir(tag);
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("site.db").display());
    let mut children = Vec::new();
    let mut addrs = Vec::new();
    let redis_url = redis.url();
    let mut args = vec!["--redis", redis_url.as_str()];
    args.extend_from_slice(extra);
    for _ in 0..3 {
        let addr = free_addr();
        children.push(start(&url, addr, &args));
        addrs.push(addr);
    }
    let mut procs = Procs(children, dir);
    for (child, addr) in procs.0.iter_mut().zip(&addrs) {
        wait_ready(child, *addr).await;
    }
    (procs, addrs)
}

/// Creates a game through `c`; asserts 201.
async fn create(c: &mut ApiClient, body: Value) -> Value {
    let a = c.post("/api/games", body).await.expect("request");
    assert_eq!(a.status, 201, "create: {}", a.text);
    a.body
}

async fn health(c: &mut ApiClient) -> Value {
    c.get("/healthz").await.expect("healthz").body
}

/// Waits until `/healthz` of `c` says Redis is `want` ("ok" or "unreachable").
async fn wait_redis(c: &mut ApiClient, want: &str) {
    let end = Instant::now() + Duration::from_secs(15);
    loop {
        let h = health(c).await;
        if h["redis"] == want {
            return;
        }
        assert!(Instant::now() < end, "redis not {want} within 15 s: {h}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Reads states from `ws` until one at `ply`; every state read must be a newer version than
/// the one before, at the same or a later ply (each ply once, in order; a change that is not
/// a move, such as the friend joining, keeps the ply). `seen` holds (version, ply) of each.
async fn until_ply(ws: &mut WsStream, seen: &mut Vec<(i64, i64)>, ply: i64) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let msg = next_json(ws).await.expect("websocket open");
            if msg["type"] != "state" {
                continue;
            }
            let p = msg["game"]["ply"].as_i64().expect("ply");
            let v = msg["game"]["version"].as_i64().expect("version");
            if let Some(&(last_v, last_p)) = seen.last() {
                assert!(
                    v > last_v && p >= last_p,
                    "version {v} ply {p} after version {last_v} ply {last_p}: each state once and in order"
                );
            }
            seen.push((v, p));
            if p == ply {
                return msg["game"].clone();
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("ply {ply} not delivered within 10 s (saw {seen:?})"))
}

/// Plays the first legal move of game `id` as `c`; returns the ply after it.
async fn play_first_legal(c: &mut ApiClient, id: &str) -> i64 {
    let g = c.get(&format!("/api/games/{id}")).await.expect("get").body;
    let mv = g["legal"][0]["id"]
        .as_str()
        .expect("a legal move")
        .to_string();
    let a = c
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": mv, "ply": g["ply"]}),
        )
        .await
        .expect("move");
    assert_eq!(a.status, 200, "move {mv}: {}", a.text);
    a.body["ply"].as_i64().expect("ply")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_processes_share_live_play_through_redis_and_survive_its_loss() {
    let Some(binary) = redis_binary() else { return };
    let mut redis = Redis::start(binary);
    let (_procs, addrs) = three(&redis, "three-processes").await;
    let (a, b, c) = (addrs[0], addrs[1], addrs[2]);
    for addr in &addrs {
        wait_redis(&mut ApiClient::new(*addr), "ok").await;
    }
    // A friend game made through A, joined through B, watched through C.
    let mut alice = ApiClient::new(a);
    let g = create(
        &mut alice,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let invite = g["invite_url"]
        .as_str()
        .expect("invite")
        .replace("/join/", "");
    let mut bob = ApiClient::new(b);
    let joined = bob
        .post(&format!("/api/join/{invite}"), json!({}))
        .await
        .expect("join");
    assert_eq!(joined.status, 200, "{}", joined.text);
    let mut bob_at_a = ApiClient::with_token(a, bob.token().expect("token"));
    let mut alice_ws = alice.ws(&id).await.expect("ws on A");
    let mut bob_ws = bob.ws(&id).await.expect("ws on B");
    let watcher = ApiClient::new(c);
    let mut watch_ws = watcher.ws(&id).await.expect("ws on C");
    let (mut sa, mut sb, mut sc) = (vec![], vec![], vec![]);
    until_ply(&mut alice_ws, &mut sa, 0).await;
    until_ply(&mut bob_ws, &mut sb, 0).await;
    until_ply(&mut watch_ws, &mut sc, 0).await;
    // Moves through A and B alternately (Bob also through A: any process serves anyone).
    for round in 0..3 {
        let p = play_first_legal(&mut alice, &id).await;
        let started = Instant::now();
        until_ply(&mut watch_ws, &mut sc, p).await;
        eprintln!("ply {p}: on C after {:?}", started.elapsed());
        until_ply(&mut bob_ws, &mut sb, p).await;
        until_ply(&mut alice_ws, &mut sa, p).await;
        let mover = if round == 1 { &mut bob_at_a } else { &mut bob };
        let p = play_first_legal(mover, &id).await;
        until_ply(&mut watch_ws, &mut sc, p).await;
        until_ply(&mut alice_ws, &mut sa, p).await;
        until_ply(&mut bob_ws, &mut sb, p).await;
    }
    // Redis goes down: moves are still stored and answered, and reach the other processes'
    // sockets from the database; /healthz tells.
    redis.down();
    wait_redis(&mut ApiClient::new(a), "unreachable").await;
    assert_eq!(
        ApiClient::new(a)
            .get("/healthz")
            .await
            .expect("healthz")
            .status,
        503
    );
    let p = play_first_legal(&mut alice, &id).await;
    let seen = until_ply(&mut watch_ws, &mut sc, p).await;
    until_ply(&mut bob_ws, &mut sb, p).await;
    // Redis comes back: each process resubscribes by itself.
    redis.up();
    for addr in &addrs {
        wait_redis(&mut ApiClient::new(*addr), "ok").await;
    }
    let p = play_first_legal(&mut bob, &id).await;
    let last = until_ply(&mut watch_ws, &mut sc, p).await;
    until_ply(&mut alice_ws, &mut sa, p).await;
    assert_eq!(
        last["moves"].as_array().map(Vec::len),
        Some(usize::try_from(p).expect("ply")),
        "the watcher has every move"
    );
    assert_eq!(seen["moves"].as_array().map(Vec::len), Some(7));
    // Redis stalls (CLIENT PAUSE 3 s: commands wait, connections stay): the announcement is
    // kept and sent again, and arrives once Redis goes on.
    redis.command("CLIENT PAUSE 3000");
    let p = play_first_legal(&mut alice, &id).await;
    let after_stall = until_ply(&mut watch_ws, &mut sc, p).await;
    until_ply(&mut bob_ws, &mut sb, p).await;
    assert_eq!(
        after_stall["moves"].as_array().map(Vec::len),
        Some(usize::try_from(p).expect("ply")),
        "the move made during the stall reached the watcher"
    );
    // The database holds each acknowledged move once.
    let stored = ApiClient::new(c)
        .get(&format!("/api/games/{id}"))
        .await
        .expect("get");
    assert_eq!(stored.body["ply"], p);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_move_whose_process_was_killed_is_made_by_another_once() {
    let Some(binary) = redis_binary() else { return };
    let redis = Redis::start(binary);
    let (mut procs, addrs) = three(&redis, "engine-lease").await;
    // The engine moves first at the strongest level (2.5 s); its process is killed at once.
    let mut me = ApiClient::new(addrs[0]);
    let g = create(
        &mut me,
        json!({"variant": "iceage", "opponent": "engine", "level": 8, "color": "black"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    assert_eq!(g["engine_thinking"], true);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let _ = procs.0[0].kill();
    let _ = procs.0[0].wait();
    let killed = Instant::now();
    // B or C takes the move up once A's lease on it has expired (10 s).
    let watcher = ApiClient::new(addrs[1]);
    let mut ws = watcher.ws(&id).await.expect("ws on B");
    let g = tokio::time::timeout(Duration::from_secs(40), async {
        loop {
            let msg = next_json(&mut ws).await.expect("websocket open");
            if msg["type"] == "state" && msg["game"]["ply"].as_i64() >= Some(1) {
                return msg["game"].clone();
            }
        }
    })
    .await
    .expect("the engine's move within 40 s of the kill");
    eprintln!("engine move made {:?} after the kill", killed.elapsed());
    assert_eq!(g["ply"], 1, "one engine move: {g}");
    assert_eq!(g["moves"][0]["color"], "white");
    assert_eq!(g["turn"], "black");
    // Only one: a while later both survivors still show ply 1, the player's turn.
    tokio::time::sleep(Duration::from_secs(3)).await;
    for addr in &addrs[1..] {
        let v = ApiClient::new(*addr)
            .get(&format!("/api/games/{id}"))
            .await
            .expect("get");
        assert_eq!(v.body["ply"], 1, "{}", v.text);
        assert_eq!(v.body["engine_thinking"], false, "{}", v.text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_harness_survives_a_killed_process_and_loses_nothing() {
    let Some(binary) = redis_binary() else { return };
    let redis = Redis::start(binary);
    // As docs/deploy.md says for a load test: every player comes from one address.
    let (_procs, addrs) = three_with(
        &redis,
        "load",
        &["--no-rate-limits", "--max-connections-per-address", "0"],
    )
    .await;
    let list = addrs
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let out = tokio::task::spawn_blocking(move || {
        common::bin()
            .command()
            .args(["load", "--addr", &list, "--games", "6", "--think-ms", "50"])
            .args(["--seconds", "6", "--kill-one"])
            .output()
            .expect("run icebound load")
    })
    .await
    .expect("load");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let last = stdout.lines().last().unwrap_or_default();
    let fields: Vec<&str> = last.split(' ').collect();
    let names: Vec<&str> = fields.iter().step_by(2).copied().collect();
    assert_eq!(
        names,
        ["moves_per_s", "median_ms", "p99_ms", "max_ms", "lost"],
        "{stdout}"
    );
    assert_eq!(fields[9], "0", "nothing acknowledged is lost: {stdout}");
    let rate: f64 = fields[1].parse().expect("a rate");
    assert!(rate > 0.0, "{stdout}");
    assert!(
        stdout.contains("killed the process on") || stderr.contains("killed the process on"),
        "{stdout}{stderr}"
    );
    assert!(stdout.contains("after the kill:"), "{stdout}");
}

#[test]
fn the_load_harness_fails_when_no_game_could_be_played() {
    let dead = free_addr();
    let out = common::bin()
        .command()
        .args([
            "load",
            "--addr",
            &dead.to_string(),
            "--games",
            "2",
            "--seconds",
            "1",
        ])
        .output()
        .expect("run icebound load");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "a run that played nothing fails");
    assert!(stderr.contains("2 of 2 games failed"), "{stderr}");
    assert!(stderr.contains("(not created)"), "{stderr}");
    // Games tried are not games played (it said "2 games played").
    assert!(stdout.contains(": 0 games played,"), "{stdout}");
}

/// Runs `icebound load ARGS`: (success, stdout, stderr, how long it ran). One still running
/// after `limit` is killed and fails the test (the harness hung).
fn run_load(args: &[String], limit: Duration) -> (bool, String, String, Duration) {
    let started = Instant::now();
    let mut child = common::bin()
        .command()
        .arg("load")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run icebound load");
    let hung = loop {
        if child.try_wait().expect("wait for icebound load").is_some() {
            break false;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            break true;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let took = started.elapsed();
    let out = child.wait_with_output().expect("icebound load's output");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !hung,
        "icebound load {args:?} still ran after {limit:?}:\n{stdout}\n{stderr}"
    );
    (out.status.success(), stdout, stderr, took)
}

/// [`run_load`] on a blocking thread, for the async tests whose servers run meanwhile.
async fn run_load_async(args: &[&str], limit: Duration) -> (bool, String, String, Duration) {
    let args: Vec<String> = args.iter().map(ToString::to_string).collect();
    tokio::task::spawn_blocking(move || run_load(&args, limit))
        .await
        .expect("icebound load")
}

/// The fields of the summary, the last line of stdout: asserts their names.
fn summary(stdout: &str) -> Vec<String> {
    let last = stdout.lines().last().unwrap_or_default();
    let fields: Vec<String> = last.split(' ').map(str::to_string).collect();
    let names: Vec<&str> = fields.iter().step_by(2).map(String::as_str).collect();
    assert_eq!(
        names,
        ["moves_per_s", "median_ms", "p99_ms", "max_ms", "lost"],
        "{stdout}"
    );
    fields
}

/// A server that accepts connections and never answers, as a stopped or hung process does
/// (the kernel completes the handshake): each connection is held open, unread.
async fn silent_server() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    addr
}

/// One `icebound serve` on a fresh SQLite file, without limits (as for a load test).
async fn one_server(tag: &str) -> (Procs, SocketAddr) {
    let dir = temp_dir(tag);
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("site.db").display());
    let addr = free_addr();
    let args = ["--no-rate-limits", "--max-connections-per-address", "0"];
    let mut procs = Procs(vec![start(&url, addr, &args)], dir);
    wait_ready(&mut procs.0[0], addr).await;
    (procs, addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_harness_ends_against_a_server_that_never_answers() {
    let silent = silent_server().await;
    let addr = silent.to_string();
    let (ok, stdout, stderr, took) = run_load_async(
        &["--addr", &addr, "--games", "2", "--seconds", "3"],
        Duration::from_secs(60),
    )
    .await;
    assert!(!ok, "{stdout}\n{stderr}");
    assert!(took < Duration::from_secs(20), "ran {took:?}: {stderr}");
    summary(&stdout);
    assert!(stderr.contains("did not answer within 5 s"), "{stderr}");
    assert!(stdout.contains(": 0 games played,"), "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_harness_ends_when_one_of_its_servers_never_answers() {
    let silent = silent_server().await;
    let (_procs, real) = one_server("load-silent").await;
    // The silent address first: the games are read back from the next one.
    let list = format!("{silent},{real}");
    let (ok, stdout, stderr, took) = run_load_async(
        &["--addr", &list, "--games", "2", "--seconds", "3"],
        Duration::from_secs(60),
    )
    .await;
    assert!(!ok, "no move was played: {stdout}\n{stderr}");
    assert!(took < Duration::from_secs(25), "ran {took:?}: {stderr}");
    let fields = summary(&stdout);
    assert_eq!(fields[9], "0", "{stdout}");
    assert!(stderr.contains("did not answer within 5 s"), "{stderr}");
    // A create or join sent to the silent server moved to the real one after the timeout,
    // as a move does (no game failed for it), too late to play within the 3 s; the games
    // were read back from the real server.
    assert!(stderr.contains("0 of 2 games failed"), "{stderr}");
    assert!(
        stderr.contains(&format!("{silent} is not asked again")),
        "{stderr}"
    );
    assert!(!stderr.contains("could not be read back"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_harness_reports_the_status_of_an_empty_refusal() {
    // `icebound serve` always says why in its body; a proxy in front of it may not (a 503
    // with an empty body): the status is then all there is to tell.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buf = [0u8; 4096];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                let _ = socket
                    .write_all(b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n")
                    .await;
                let _ = socket.read(&mut buf).await;
            });
        }
    });
    let list = addr.to_string();
    let (ok, stdout, stderr, _) = run_load_async(
        &["--addr", &list, "--games", "1", "--seconds", "1"],
        Duration::from_secs(60),
    )
    .await;
    assert!(!ok, "{stdout}\n{stderr}");
    assert!(stderr.contains("create: 503"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_harness_will_not_kill_the_only_process() {
    let (mut procs, addr) = one_server("load-kill-only").await;
    let list = format!("{addr},{addr}");
    let (ok, stdout, stderr, _) = run_load_async(
        &[
            "--addr",
            &list,
            "--games",
            "1",
            "--seconds",
            "2",
            "--kill-one",
        ],
        Duration::from_secs(60),
    )
    .await;
    assert!(!ok, "{stdout}\n{stderr}");
    assert!(
        stderr.contains("--kill-one needs at least two different server addresses"),
        "{stderr}"
    );
    assert!(
        procs.0[0].try_wait().expect("wait").is_none(),
        "the server was killed: {stdout}\n{stderr}"
    );
    assert!(ApiClient::new(addr).get("/api/stats").await.is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_harness_fails_over_from_a_stopped_process_and_ends_in_time() {
    let Some(binary) = redis_binary() else { return };
    let redis = Redis::start(binary);
    let (procs, addrs) = three_with(
        &redis,
        "load-stopped",
        &["--no-rate-limits", "--max-connections-per-address", "0"],
    )
    .await;
    let list = addrs
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let load = tokio::spawn(run_load_async_owned(list));
    // The first process stops answering (SIGSTOP: its sockets stay open) 2 s in, for the rest
    // of the run; the tester's run of 15 s lasted until it went on, 40 s.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let pid = procs.0[0].id().to_string();
    let signal = |name: &str| {
        let status = Command::new("kill")
            .args([name, &pid])
            .status()
            .expect("kill");
        assert!(status.success(), "kill {name} {pid}");
    };
    signal("-STOP");
    let outcome = load.await;
    signal("-CONT");
    let (_, stdout, stderr, took) = outcome.expect("icebound load");
    assert!(took < Duration::from_secs(35), "ran {took:?}: {stderr}");
    let fields = summary(&stdout);
    assert_eq!(
        fields[9], "0",
        "nothing acknowledged is lost: {stdout}\n{stderr}"
    );
    assert!(stderr.contains("did not answer within 5 s"), "{stderr}");
}

/// The run of the stopped-process test: 6 games of 8 s.
async fn run_load_async_owned(list: String) -> (bool, String, String, Duration) {
    run_load_async(
        &[
            "--addr",
            &list,
            "--games",
            "6",
            "--think-ms",
            "50",
            "--seconds",
            "8",
        ],
        Duration::from_secs(90),
    )
    .await
}
