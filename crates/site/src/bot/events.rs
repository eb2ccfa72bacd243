//! `GET /api/stream/event` (issue 44): a bot's incoming challenges and its games' starts and
//! ends, as lichess's event stream sends them. On opening it sends a `gameStart` for each of
//! the bot's games in progress and a `challenge` for each open challenge to it, so that a
//! client that reconnects loses nothing. It reads the database every [`POLL`] (changes made
//! through other processes are seen) and at once after a change of the lobby through this
//! one; while open it keeps the bot's own real-time challenges alive, as a lobby stream does.

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use serde_json::{Value, json};

use super::{KEEP_ALIVE, bots_of, challenge_json, line, seat_json, speed_of, status_name};
use crate::lobby::{ChallengeView, Lobby, POLL, StreamGuard};
use crate::view::GameView;
use site_model::error::SiteError;
use site_model::secrets::PlayerToken;
use site_model::state::{ChallengeStatus, GameStatus};
use site_store::now_ms;

/// One bot's open event stream.
pub struct EventFeed {
    lobby: Arc<Lobby>,
    token: PlayerToken,
    /// Open challenges to the bot already sent.
    challenges: HashSet<String>,
    /// The bot's games in progress already sent (`gameStart`).
    games: HashSet<String>,
    queue: VecDeque<Bytes>,
    first: bool,
    last_line: Instant,
    last_refresh: i64,
    shutdown: tokio::sync::watch::Receiver<bool>,
    guard: StreamGuard,
}

impl EventFeed {
    /// Opens `token`'s stream; 503 `too_many` past the caps on the lobby's streams (it counts
    /// as one).
    pub fn open(lobby: &Arc<Lobby>, token: PlayerToken) -> Result<EventFeed, SiteError> {
        let guard = StreamGuard::open(lobby, token.hash().as_str())?;
        Ok(EventFeed {
            lobby: lobby.clone(),
            token,
            challenges: HashSet::new(),
            games: HashSet::new(),
            queue: VecDeque::new(),
            first: true,
            last_line: Instant::now(),
            last_refresh: 0,
            shutdown: lobby.play().shutdown_signal(),
            guard,
        })
    }

    /// The next line: an event, or a lone `\n` after [`KEEP_ALIVE`] without one. `None` once
    /// the site shuts down.
    pub async fn next(&mut self) -> Option<Bytes> {
        loop {
            if let Some(l) = self.queue.pop_front() {
                self.last_line = Instant::now();
                return Some(l);
            }
            if !self.first {
                tokio::select! {
                    _ = tokio::time::sleep(POLL) => {}
                    _ = self.lobby.changed() => {}
                    _ = self.shutdown.changed() => {}
                }
            }
            self.first = false;
            if *self.shutdown.borrow() {
                return None;
            }
            let now = now_ms();
            let presence = self.lobby.presence_ms();
            if now - self.last_refresh >= presence / 3 && self.guard.refresh(now + presence).await {
                self.last_refresh = now;
            }
            if let Err(e) = self.poll().await {
                tracing::warn!(error = %e, "cannot read a bot's events");
            }
            if self.queue.is_empty() && self.last_line.elapsed() >= KEEP_ALIVE {
                self.last_line = Instant::now();
                return Some(Bytes::from_static(b"\n"));
            }
        }
    }

    /// Queues what changed since the last poll.
    async fn poll(&mut self) -> Result<(), SiteError> {
        let lists = self.lobby.list_challenges(&self.token).await?;
        let open: Vec<&ChallengeView> = lists
            .incoming
            .iter()
            .filter(|c| c.status == ChallengeStatus::Open)
            .collect();
        for c in &open {
            if self.challenges.insert(c.id.clone()) {
                let event = json!({"type": "challenge", "challenge": challenge_json(self.lobby.play().store(), c).await});
                self.queue.push_back(line(&event));
            }
        }
        self.challenges
            .retain(|id| open.iter().any(|c| &c.id == id));
        let play = self.lobby.play().clone();
        let mine = play.my_games(&self.token).await?;
        let ongoing: HashSet<String> = mine
            .iter()
            .filter(|g| g.status == GameStatus::Ongoing && g.you.is_some())
            .map(|g| g.id.clone())
            .collect();
        let mut started: Vec<String> = ongoing.difference(&self.games).cloned().collect();
        started.sort();
        for id in started {
            let view = play.get(&id, &self.token).await?;
            let event = json!({"type": "gameStart", "game": self.game_json(&view).await});
            self.queue.push_back(line(&event));
        }
        let mut ended: Vec<String> = self.games.difference(&ongoing).cloned().collect();
        ended.sort();
        for id in ended {
            match play.get(&id, &self.token).await {
                Ok(view) if view.status != GameStatus::Ongoing => {
                    let event = json!({"type": "gameFinish", "game": self.game_json(&view).await});
                    self.queue.push_back(line(&event));
                }
                // Still going (past the newest 100 of its games): no end to tell.
                Ok(_) => continue,
                Err(e) => tracing::warn!(game = %id, error = %e, "cannot read a bot's game"),
            }
        }
        self.games = ongoing;
        Ok(())
    }

    /// lichess's game object of a `gameStart` or `gameFinish` for the bot.
    async fn game_json(&self, view: &GameView) -> Value {
        let store = self.lobby.play().store();
        let bots = bots_of(store, view).await;
        let color = view
            .you
            .and_then(|y| y.color())
            .unwrap_or(game::Color::White);
        let opponent = match color {
            game::Color::White => &view.black,
            game::Color::Black => &view.white,
        };
        let mut opp = seat_json(opponent, &bots);
        if let Some(o) = opp.as_object_mut()
            && let Some(name) = o.get("name").cloned()
        {
            // lichess names the opponent `username` here.
            o.insert("username".into(), name);
        }
        let control = view.clock.map(|c| match c {
            site_model::clock::ClockView::Realtime {
                initial_ms,
                increment_ms,
                ..
            } => site_model::clock::TimeControl::Realtime {
                initial_s: initial_ms / 1000,
                increment_s: increment_ms / 1000,
            },
            site_model::clock::ClockView::Correspondence { days, .. } => {
                site_model::clock::TimeControl::Correspondence { days }
            }
        });
        let (wtime, btime, _, _) = super::times(view, now_ms());
        let seconds_left = match color {
            game::Color::White => wtime,
            game::Color::Black => btime,
        } / 1000;
        let mut game = json!({
            "gameId": view.id,
            "fullId": view.id,
            "id": view.id,
            "color": color.name(),
            "fen": view.fen,
            "hasMoved": view.moves.items().iter().any(|m| m.color == color),
            "isMyTurn": view.status == GameStatus::Ongoing && view.turn == color,
            "lastMove": view.moves.items().last().map(|m| m.id.clone()).unwrap_or_default(),
            "opponent": opp,
            "perf": view.variant.title(),
            "rated": view.rated,
            "secondsLeft": seconds_left,
            "source": "friend",
            "speed": control.map_or("correspondence", speed_of),
            "status": {"name": status_name(view)},
            "variant": super::variant_json(view.variant),
            "compat": {"bot": true, "board": false},
        });
        if let (Some(w), Some(obj)) = (super::winner(view), game.as_object_mut()) {
            obj.insert("winner".into(), json!(w));
        }
        game
    }
}
