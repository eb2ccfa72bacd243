//! `icebound load` (issue 12): the load harness. Plays `--games` friend games at once against
//! running `icebound serve` processes (a finished game is replaced by a new one at its table,
//! so the load stays), each player's WebSocket on a different process from its
//! opponent's (white on address i mod K, black on i+1 mod K), with `--think-ms` before each
//! move, for `--seconds`; then reads every game back and counts the acknowledged moves that
//! are not stored (`lost`). The games' first moves are spread over one think time (players
//! do not all move at once). Latency is from a move's submission (`POST .../moves`) to the
//! opponent's WebSocket receiving the state after it. `--kill-one` sends SIGKILL, halfway
//! through, to the process listening on the first address (found through Linux's /proc):
//! its clients move to the next address, and the time they take to resume is reported.
//!
//! Every request and WebSocket handshake gives up after [`REQUEST_TIMEOUT`]: a process that
//! accepts connections but does not answer (stopped, hung) is down as a killed one is, and its
//! players fail over the same way. The games still in play are cut off [`FINISH_GRACE`] after
//! `--seconds`, and the read back asks each address at most once after it failed, so a run
//! always ends, with its summary and the errors of what failed.
//!
//! Its last line is for scripts:
//! `moves_per_s R median_ms M p99_ms P max_ms X lost L`.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use serde_json::{Value, json};
use server::client::{Answer, ApiClient, WsStream, next_text};

mod processes;
mod read_back;
use processes::{distinct, listener_pid};
use read_back::read_back_any;

/// How long a request or a WebSocket handshake waits for its server. Without a limit, a
/// server that accepted the connection and then said nothing (SIGSTOP, a hung process) held
/// its players, and the run, without end; a few seconds is far above any answer measured
/// under load (docs/deploy.md: 1.7 s at most, saturated).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// How long after `--seconds` the games in play may take to finish the move they are in: the
/// rest are cut off then (their acknowledged moves still read back), so the run ends near
/// `--seconds` whatever its servers do.
const FINISH_GRACE: Duration = Duration::from_secs(5);

/// `icebound load` arguments.
#[derive(Debug, Args)]
pub struct LoadArgs {
    /// Server addresses, comma-separated (`127.0.0.1:8080,127.0.0.1:8081`).
    #[arg(long, value_delimiter = ',', required = true)]
    pub addr: Vec<SocketAddr>,
    /// Games played at once (1 to 20,000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=20_000))]
    pub games: u64,
    /// A player's thinking time before each move, ms.
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// How long to play, seconds (1 to 3,600).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3_600))]
    pub seconds: u64,
    /// Kill (SIGKILL) the process listening on the first address halfway through.
    #[arg(long)]
    pub kill_one: bool,
}

/// The parts of a state message the players read (serde skips the rest, the move list
/// included, without building it: the harness should measure the server, not itself).
#[derive(Deserialize)]
struct Message {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    game: Option<View>,
}

/// The game as a player here reads it.
#[derive(Deserialize)]
struct View {
    ply: u64,
    version: i64,
    turn: String,
    status: String,
    legal: Vec<Legal>,
}

/// One legal move: its machine form.
#[derive(Deserialize)]
struct Legal {
    id: String,
}

/// What one game measured.
#[derive(Default)]
struct GameResult {
    id: String,
    latencies: Vec<Duration>,
    /// Moves acknowledged with 200.
    acked: u64,
    /// Longest time a player of this game took to be served again after its server died:
    /// from the kill, and from when the player found its server gone (a thinking player finds
    /// it only at its next move, up to one think time after the kill).
    resumed: Option<Resumed>,
    /// Both players had the game's first state: it was played, not only tried.
    started: bool,
    error: Option<String>,
}

/// How long a player took to be served again after its server died.
#[derive(Clone, Copy, Default)]
struct Resumed {
    /// From the kill (or from `found`, without one).
    since_kill: Duration,
    /// From the failed request or closed socket that told the player.
    since_found: Duration,
}

impl Resumed {
    /// The longer of each figure.
    fn max(self, other: Resumed) -> Resumed {
        Resumed {
            since_kill: self.since_kill.max(other.since_kill),
            since_found: self.since_found.max(other.since_found),
        }
    }
}

/// Adds `took` to the slowest resume so far.
fn note_resume(resumed: &mut Option<Resumed>, took: Resumed) {
    *resumed = Some(resumed.unwrap_or_default().max(took));
}

/// A player: its client and socket, and the addresses it may fall back to.
struct Player {
    client: ApiClient,
    ws: Option<WsStream>,
    addrs: Vec<SocketAddr>,
    at: usize,
    /// When `--kill-one` killed its process: resuming is timed from then.
    killed_at: Arc<OnceLock<Instant>>,
}

impl Player {
    async fn connect(&mut self, id: &str) -> Result<(), String> {
        self.ws = Some(
            self.client
                // As the site's page does: each state carries only the new moves.
                .ws_query(id, "moves=changes")
                .await
                .map_err(|e| format!("websocket of game {id}: {e}"))?,
        );
        Ok(())
    }

    /// Moves to the next address and reconnects (its server went away); returns how long it
    /// took to be served again.
    async fn fail_over(&mut self, id: &str) -> Result<Resumed, String> {
        let found = Instant::now();
        let started = *self.killed_at.get().unwrap_or(&found);
        for _ in 0..(self.addrs.len() * 20) {
            self.at = (self.at + 1) % self.addrs.len();
            self.client.set_addr(self.addrs[self.at]);
            if self.connect(id).await.is_ok() {
                return Ok(Resumed {
                    since_kill: started.elapsed(),
                    since_found: found.elapsed(),
                });
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err("no server answers".into())
    }

    /// POSTs through this player's server, moving to the next one when the request finds no
    /// server (it died as the game was being made): its answer, or the last failure.
    async fn post_failing_over(&mut self, path: &str, body: Value) -> Result<Answer, String> {
        let mut last = String::new();
        for _ in 0..self.addrs.len() {
            match self.client.post(path, body.clone()).await {
                Ok(answer) => return Ok(answer),
                Err(e) => {
                    last = e.to_string();
                    self.at = (self.at + 1) % self.addrs.len();
                    self.client.set_addr(self.addrs[self.at]);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
        Err(last)
    }

    /// The next state at `ply` or later from this player's socket.
    async fn wait_ply(&mut self, ply: u64) -> Result<View, String> {
        let ws = self.ws.as_mut().ok_or("not connected")?;
        loop {
            let text = next_text(ws).await.ok_or("websocket closed")?;
            let msg: Message =
                serde_json::from_str(&text).map_err(|e| format!("a message unread: {e}"))?;
            if let (true, Some(game)) = (msg.kind == "state", msg.game)
                && game.ply >= ply
            {
                return Ok(game);
            }
        }
    }
}

/// The state at `ply` or later as `p` sees it, failing over (and reading the game afresh)
/// when its server is gone; adds the time to resume to `resumed`.
async fn state_at(
    p: &mut Player,
    id: &str,
    ply: u64,
    resumed: &mut Option<Resumed>,
) -> Result<View, String> {
    for _ in 0..3 {
        match tokio::time::timeout(Duration::from_secs(10), p.wait_ply(ply)).await {
            Ok(Ok(v)) => return Ok(v),
            Ok(Err(_)) | Err(_) => {
                let took = p.fail_over(id).await?;
                note_resume(resumed, took);
            }
        }
    }
    Err(format!("ply {ply} never arrived"))
}

/// What every game shares: the addresses, the clock, the counters.
struct Shared {
    addrs: Vec<SocketAddr>,
    deadline: Instant,
    think: Duration,
    moves: AtomicU64,
    stop: AtomicBool,
    killed_at: Arc<OnceLock<Instant>>,
}

/// One table: plays game after game (a finished game is replaced at once, so `--games`
/// stay in play) until the run ends or a game fails.
async fn one_table(index: u64, shared: Arc<Shared>) -> Vec<GameResult> {
    let mut results = Vec::new();
    let mut round = 0;
    let cut_off = tokio::time::Instant::from_std(shared.deadline + FINISH_GRACE);
    while Instant::now() < shared.deadline && !shared.stop.load(Ordering::SeqCst) {
        let mut out = GameResult::default();
        // A game cut off keeps in `out` what it measured so far (its id, its acknowledged
        // moves), so it is still read back.
        let played = tokio::time::timeout_at(cut_off, play_game(index, round, &shared, &mut out));
        let failed = match played.await {
            Ok(Ok(())) => false,
            Ok(Err(e)) => {
                out.error = Some(e);
                true
            }
            Err(_) => {
                out.error = Some(format!(
                    "cut off {} s after the run's end, still waiting for a server",
                    FINISH_GRACE.as_secs()
                ));
                true
            }
        };
        results.push(out);
        if failed {
            break;
        }
        round += 1;
    }
    results
}

async fn play_game(
    index: u64,
    round: u64,
    shared: &Shared,
    out: &mut GameResult,
) -> Result<(), String> {
    let addrs = &shared.addrs;
    let k = addrs.len();
    let i = usize::try_from(index).unwrap_or(0);
    let variant = if (index + round).is_multiple_of(2) {
        "antarctos"
    } else {
        "iceage"
    };
    let player = |at: usize| Player {
        client: ApiClient::new(addrs[at])
            .keep_alive()
            .timeout(REQUEST_TIMEOUT),
        ws: None,
        addrs: addrs.clone(),
        at,
        killed_at: shared.killed_at.clone(),
    };
    // Once `--kill-one` killed the first address's process, new games start on the others.
    let first = usize::from(shared.killed_at.get().is_some() && k > 1);
    let live = k - first;
    let mut white = player(first + i % live);
    let mut black = player(first + (i + 1) % live);
    let g = white
        .post_failing_over(
            "/api/games",
            json!({"variant": variant, "opponent": "friend", "color": "white"}),
        )
        .await
        .map_err(|e| format!("create: {e}"))?;
    if g.status != 201 {
        return Err(format!("create: {} {}", g.status, g.text));
    }
    let id = g.body["id"].as_str().ok_or("no id")?.to_string();
    out.id = id.clone();
    let invite = g.body["invite_url"].as_str().ok_or("no invite")?;
    let j = black
        .post_failing_over(&format!("/api{invite}"), json!({}))
        .await
        .map_err(|e| format!("join: {e}"))?;
    if j.status != 200 {
        return Err(format!("join: {} {}", j.status, j.text));
    }
    for p in [&mut white, &mut black] {
        if p.connect(&id).await.is_err() {
            let took = p.fail_over(&id).await?;
            note_resume(&mut out.resumed, took);
        }
    }
    let mut view = state_at(&mut white, &id, 0, &mut out.resumed).await?;
    state_at(&mut black, &id, 0, &mut out.resumed).await?;
    out.started = true;
    let mut rng = rand::rngs::StdRng::seed_from_u64(index.wrapping_mul(1_000_003) + round);
    let path = format!("/api/games/{id}/moves");
    // Players do not all move in the same instant: each table's first game starts its first
    // think at a random point within one think time, so the games' moves spread over it.
    let think_ms = u64::try_from(shared.think.as_millis()).unwrap_or(u64::MAX);
    if think_ms > 0 && round == 0 {
        think_until(shared, Duration::from_millis(rng.random_range(0..think_ms))).await;
    }
    while view.status == "ongoing"
        && Instant::now() < shared.deadline
        && !shared.stop.load(Ordering::SeqCst)
    {
        if !think_until(shared, shared.think).await {
            break;
        }
        if view.legal.is_empty() {
            break;
        }
        let mv = view.legal[rng.random_range(0..view.legal.len())].id.clone();
        let ply = view.ply;
        let (mover, opponent) = if view.turn == "white" {
            (&mut white, &mut black)
        } else {
            (&mut black, &mut white)
        };
        let start = Instant::now();
        // With the version it holds, as the site's page sends it: the answer carries the
        // new move alone.
        let body = json!({"move": mv, "ply": ply, "version": view.version});
        // A submission whose server died is sent again through the next one: the server
        // answers the retry of a stored move as the move (docs/api.md), so nothing doubles.
        let mut answer = mover.client.post_unparsed(&path, &body).await;
        if answer.is_err() {
            let took = mover.fail_over(&id).await?;
            note_resume(&mut out.resumed, took);
            answer = mover.client.post_unparsed(&path, &body).await;
        }
        let answer = answer.map_err(|e| format!("move {mv} at ply {ply}: {e}"))?;
        if answer.status != 200 {
            return Err(format!(
                "move {mv} at ply {ply}: {} {}",
                answer.status, answer.text
            ));
        }
        out.acked += 1;
        shared.moves.fetch_add(1, Ordering::Relaxed);
        view = state_at(opponent, &id, ply + 1, &mut out.resumed).await?;
        out.latencies.push(start.elapsed());
        state_at(mover, &id, ply + 1, &mut out.resumed).await?;
    }
    Ok(())
}

/// Sleeps `think`, or until the run's end if that comes first; whether the run goes on.
async fn think_until(shared: &Shared, think: Duration) -> bool {
    let end = tokio::time::Instant::from_std(shared.deadline);
    tokio::time::sleep_until((tokio::time::Instant::now() + think).min(end)).await;
    Instant::now() < shared.deadline && !shared.stop.load(Ordering::SeqCst)
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

pub fn load(args: LoadArgs) -> Result<(), String> {
    let addrs = distinct(&args.addr);
    // Counted by process, not by name: `--addr A,A` killed the only process, and the run
    // ended reading its games back from it, without a summary.
    if args.kill_one && addrs.len() < 2 {
        return Err(format!(
            "--kill-one needs at least two different server addresses (processes) to fail over \
             to, got only {}",
            addrs[0]
        ));
    }
    let victim = if args.kill_one {
        let pid = listener_pid(args.addr[0])?;
        // Another name of the same process (127.0.0.2 for a server on 0.0.0.0) is no survivor.
        if addrs[1..]
            .iter()
            .all(|a| listener_pid(*a).is_ok_and(|p| p == pid))
        {
            return Err(format!(
                "--kill-one needs a second server process to fail over to: every address is \
                 served by the process on {} (pid {pid})",
                args.addr[0]
            ));
        }
        Some(pid)
    } else {
        None
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("tokio runtime: {e}"))?;
    runtime.block_on(async move {
        let started = Instant::now();
        let run_for = Duration::from_secs(args.seconds);
        let deadline = started + run_for;
        let shared = Arc::new(Shared {
            // Each process once: a repeated address would put a table's players on the
            // killed process again after `--kill-one`.
            addrs: addrs.clone(),
            deadline,
            think: Duration::from_millis(args.think_ms),
            moves: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            killed_at: Arc::new(OnceLock::new()),
        });
        let bar = ProgressBar::new(args.seconds);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} s  {msg}")
                .map_err(|e| e.to_string())?,
        );
        let tasks: Vec<_> = (0..args.games)
            .map(|i| tokio::spawn(one_table(i, shared.clone())))
            .collect();
        let mut killed = false;
        while Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(250)).await;
            let elapsed = started.elapsed();
            bar.set_position(elapsed.as_secs().min(args.seconds));
            bar.set_message(format!("{} moves", shared.moves.load(Ordering::Relaxed)));
            if let Some(pid) = victim
                && !killed
                && elapsed >= run_for / 2
            {
                killed = true;
                let _ = shared.killed_at.set(Instant::now());
                // As an operator would: the system's kill, SIGKILL (no graceful shutdown).
                let status = std::process::Command::new("kill")
                    .args(["-9", &pid.to_string()])
                    .status()
                    .map_err(|e| format!("kill: {e}"))?;
                if !status.success() {
                    return Err(format!("kill -9 {pid} failed ({status})"));
                }
                bar.suspend(|| {
                    println!(
                        "killed the process on {} (pid {pid}) with SIGKILL",
                        args.addr[0]
                    );
                });
            }
        }
        shared.stop.store(true, Ordering::SeqCst);
        bar.finish_and_clear();
        let mut results = Vec::new();
        for t in tasks {
            results.extend(t.await.map_err(|e| format!("a table's task failed: {e}"))?);
        }
        let wall = started.elapsed();
        // Every acknowledged move must be stored: read each game back from a live process.
        let mut live: Vec<SocketAddr> = addrs
            .iter()
            .copied()
            .filter(|a| !killed || *a != args.addr[0])
            .collect();
        let mut lost = 0u64;
        let mut unread = 0usize;
        let mut failed = 0usize;
        let mut resume_max = Resumed::default();
        let mut resumed_games = 0usize;
        for r in &results {
            if let Some(e) = &r.error {
                failed += 1;
                let name = if r.id.is_empty() {
                    "(not created)"
                } else {
                    r.id.as_str()
                };
                eprintln!("game {name}: {e}");
            }
            if let Some(d) = r.resumed {
                resumed_games += 1;
                resume_max = resume_max.max(d);
            }
            if r.id.is_empty() {
                continue;
            }
            match read_back_any(&mut live, &r.id).await {
                Some(Ok(stored)) => lost += r.acked.saturating_sub(stored),
                Some(Err(e)) => {
                    eprintln!("{e}");
                    unread += 1;
                }
                None => unread += 1,
            }
        }
        if live.is_empty() && unread > 0 {
            eprintln!("reading games back: no address answers");
        }
        let played = results.iter().filter(|r| r.started).count();
        let mut all: Vec<Duration> = results.iter().flat_map(|r| r.latencies.clone()).collect();
        all.sort();
        let total = shared.moves.load(Ordering::Relaxed);
        let rate = total as f64 / wall.as_secs_f64();
        println!(
            "games {} at once on {} process(es), think {} ms: {} games played, {} moves in {:.1} s, {} games failed",
            args.games,
            addrs.len(),
            args.think_ms,
            played,
            total,
            wall.as_secs_f64(),
            failed
        );
        if killed {
            println!(
                "after the kill: {resumed_games} games had a player move to another process, \
                 the slowest was served again {:.2} s after the kill; each was served again \
                 within {:.2} s of finding its server gone (a thinking player finds it at its \
                 next move)",
                resume_max.since_kill.as_secs_f64(),
                resume_max.since_found.as_secs_f64()
            );
        }
        println!(
            "moves_per_s {:.0} median_ms {:.2} p99_ms {:.2} max_ms {:.2} lost {lost}",
            rate,
            ms(percentile(&all, 50.0)),
            ms(percentile(&all, 99.0)),
            ms(all.last().copied().unwrap_or_default())
        );
        if lost > 0 {
            return Err(format!("{lost} acknowledged moves are not stored"));
        }
        if unread > 0 {
            return Err(format!(
                "{unread} games could not be read back: their lost moves are not known"
            ));
        }
        if measured_nothing(failed, total, args.think_ms, args.seconds) {
            return Err(format!(
                "{failed} of {} games failed and {total} moves were played: see the lines above",
                args.games
            ));
        }
        Ok(())
    })
}

/// Whether a run measured nothing worth a number: games failed, or nothing was played although
/// the players had time to move. A think time as long as the run (the memory measure of
/// docs/performance.md holds games open and moves nothing) expects no move.
fn measured_nothing(failed: usize, moves: u64, think_ms: u64, seconds: u64) -> bool {
    failed > 0 || (moves == 0 && think_ms < seconds.saturating_mul(1000))
}

#[cfg(test)]
mod measured_nothing_tests {
    use super::measured_nothing;

    #[test]
    fn a_run_that_only_holds_games_open_measured_something() {
        assert!(!measured_nothing(0, 0, 3_600_000, 50), "the memory measure");
        assert!(
            measured_nothing(0, 0, 3_000, 30),
            "players who could move did not"
        );
        assert!(measured_nothing(1, 500, 0, 20), "a failed game");
        assert!(!measured_nothing(0, 500, 0, 20));
    }
}
