//! The players of `icebound load`: one table plays friend game after game, each player with
//! its own client and WebSocket, failing over to the next address when its server is gone.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use serde::Deserialize;
use serde_json::{Value, json};
use server::client::{Answer, ApiClient, WsStream, next_text, send_json};

use super::{FINISH_GRACE, REQUEST_TIMEOUT};

/// The parts of a state message the players read (serde skips the rest, the move list
/// included, without building it: the harness should measure the server, not itself).
#[derive(Deserialize)]
struct Message {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    game: Option<View>,
    /// An `error` message's error (a refused move over the socket).
    #[serde(default)]
    error: Option<Value>,
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
pub(super) struct GameResult {
    pub(super) id: String,
    /// Each move's latency, with when it was sent (since the run's start).
    pub(super) latencies: Vec<(Duration, Duration)>,
    /// Moves acknowledged with 200.
    pub(super) acked: u64,
    /// Longest time a player of this game took to be served again after its server died:
    /// from the kill, and from when the player found its server gone (a thinking player finds
    /// it only at its next move, up to one think time after the kill).
    pub(super) resumed: Option<Resumed>,
    /// Both players had the game's first state: it was played, not only tried.
    pub(super) started: bool,
    pub(super) error: Option<String>,
}

/// How long a player took to be served again after its server died.
#[derive(Clone, Copy, Default)]
pub(super) struct Resumed {
    /// From the kill (or from `found`, without one).
    pub(super) since_kill: Duration,
    /// From the failed request or closed socket that told the player.
    pub(super) since_found: Duration,
}

impl Resumed {
    /// The longer of each figure.
    pub(super) fn max(self, other: Resumed) -> Resumed {
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
        let mut last = String::new();
        for _ in 0..(self.addrs.len() * 20) {
            self.at = (self.at + 1) % self.addrs.len();
            self.client.set_addr(self.addrs[self.at]);
            match self.connect(id).await {
                Ok(()) => {
                    return Ok(Resumed {
                        since_kill: started.elapsed(),
                        since_found: found.elapsed(),
                    });
                }
                Err(e) => last = e,
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err(format!("no server answers; the last try: {last}"))
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
        match self.wait_own(ply).await? {
            Own::State(v) => Ok(v),
            // Only a mover's own message is answered with an error.
            Own::Refused(e) => Err(format!("an error on the socket: {e}")),
        }
    }

    /// The next state at `ply` or later from this player's socket, or the error message the
    /// server sent instead (its answer to a refused message of this player's). `Err`: the
    /// socket closed or sent what does not read.
    async fn wait_own(&mut self, ply: u64) -> Result<Own, String> {
        let ws = self.ws.as_mut().ok_or("not connected")?;
        loop {
            let text = next_text(ws).await.ok_or("websocket closed")?;
            let msg: Message =
                serde_json::from_str(&text).map_err(|e| format!("a message unread: {e}"))?;
            if msg.kind == "error" {
                return Ok(Own::Refused(msg.error.unwrap_or_default().to_string()));
            }
            if let (true, Some(game)) = (msg.kind == "state", msg.game)
                && game.ply >= ply
            {
                return Ok(Own::State(game));
            }
        }
    }

    /// Sends move `body` (at ply `ply`) over this player's socket and waits there for the
    /// state after it, which the server sends only once the move is stored: the move's
    /// acknowledgement. A socket gone is failed over and the move sent again (the server
    /// answers the retry of a stored move as the move); a refusal is this move's error.
    async fn move_over_socket(
        &mut self,
        id: &str,
        body: &Value,
        ply: u64,
        resumed: &mut Option<Resumed>,
    ) -> Result<View, String> {
        for _ in 0..3 {
            let sent = match self.ws.as_mut() {
                Some(ws) => send_json(ws, body).await.is_ok(),
                None => false,
            };
            if sent {
                match tokio::time::timeout(Duration::from_secs(10), self.wait_own(ply + 1)).await {
                    Ok(Ok(Own::State(v))) => return Ok(v),
                    Ok(Ok(Own::Refused(e))) => return Err(format!("refused: {e}")),
                    Ok(Err(_)) | Err(_) => {}
                }
            }
            let took = self.fail_over(id).await?;
            note_resume(resumed, took);
        }
        Err(format!("ply {} never arrived", ply + 1))
    }
}

/// What a player's socket said: the state it waited for, or an error message.
enum Own {
    State(View),
    Refused(String),
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
pub(super) struct Shared {
    pub(super) addrs: Vec<SocketAddr>,
    /// When this process's run began: latencies are placed in time from it.
    pub(super) started: Instant,
    pub(super) deadline: Instant,
    pub(super) think: Duration,
    pub(super) moves: AtomicU64,
    pub(super) stop: AtomicBool,
    pub(super) killed_at: Arc<OnceLock<Instant>>,
    /// Moves go over the players' WebSockets (`--moves socket`), not `POST .../moves`.
    pub(super) moves_over_socket: bool,
}

/// One table: plays game after game (a finished game is replaced at once, so `--games`
/// stay in play) until the run ends or a game fails.
pub(super) async fn one_table(index: u64, shared: Arc<Shared>) -> Vec<GameResult> {
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
    // With moves over the socket a player's HTTP client makes one request (the game's
    // creation or the join): its connection closes after it, as a page's idle one would, and
    // the player holds one connection while it plays.
    let client = |at: usize| {
        let c = ApiClient::new(addrs[at]).timeout(REQUEST_TIMEOUT);
        if shared.moves_over_socket {
            c
        } else {
            c.keep_alive()
        }
    };
    let player = |at: usize| Player {
        client: client(at),
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
        if shared.moves_over_socket {
            // As the page's socket sends it; acknowledged by the state after it, on the
            // mover's socket, read first: the opponent's, sent at the same moment, is then
            // read at once, so the latency is the later of the two.
            let body = json!({"type": "move", "move": mv, "ply": ply});
            mover
                .move_over_socket(&id, &body, ply, &mut out.resumed)
                .await
                .map_err(|e| format!("move {mv} at ply {ply}: {e}"))?;
            out.acked += 1;
            shared.moves.fetch_add(1, Ordering::Relaxed);
            view = state_at(opponent, &id, ply + 1, &mut out.resumed).await?;
            out.latencies
                .push((start - shared.started, start.elapsed()));
            continue;
        }
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
        out.latencies
            .push((start - shared.started, start.elapsed()));
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
