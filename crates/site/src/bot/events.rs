//! `GET /api/stream/event` (issue 44): a bot's incoming challenges and its games' starts and
//! ends, as lichess's event stream sends them. On opening it sends a `gameStart` for each of
//! the bot's games in progress and a `challenge` for each open challenge to it, so that a
//! client that reconnects loses nothing. It reads the database every [`POLL`](crate::lobby::POLL) (changes made
//! through other processes are seen) and at once after a change of the lobby through this
//! one; while open it keeps the bot's own real-time challenges alive, as a lobby stream does.
//! A challenge to the bot that closes without a game (withdrawn, or lapsed with its
//! challenger's presence) is told as `challengeCanceled`, and the bot's own challenge that is
//! declined as `challengeDeclined` (bot client finding 5), as lichess tells them.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use serde_json::{Value, json};

use super::{KEEP_ALIVE, challenge_json, line, seat_json, speed_of, status_name};
use crate::lobby::{ChallengeView, Lobby, StreamGuard};
use crate::view::GameView;
use site_model::error::SiteError;
use site_model::secrets::PlayerToken;
use site_model::state::{ChallengeStatus, GameStatus};
use site_store::now_ms;

/// One bot's open event stream.
pub struct EventFeed {
    lobby: Arc<Lobby>,
    token: PlayerToken,
    /// Open challenges to the bot already sent, as sent.
    challenges: HashMap<String, Value>,
    /// The bot's own challenges known declined (told once; those declined before the stream
    /// opened are not told).
    declined: HashSet<String>,
    /// A poll has run: declines seen from now on are news.
    primed: bool,
    /// The site's origin (`https://host`), for the challenges' absolute `url`.
    origin: String,
    /// The bot's games in progress already sent (`gameStart`).
    games: HashSet<String>,
    queue: VecDeque<Bytes>,
    last_line: Instant,
    guard: StreamGuard,
}

impl EventFeed {
    /// Opens `token`'s stream; 503 `too_many` past the caps on the lobby's streams (it counts
    /// as one).
    /// `origin` is the site's (`https://host`, or empty for paths).
    pub fn open(
        lobby: &Arc<Lobby>,
        token: PlayerToken,
        origin: String,
    ) -> Result<EventFeed, SiteError> {
        let guard = StreamGuard::open(lobby, token.hash().as_str())?;
        Ok(EventFeed {
            lobby: lobby.clone(),
            token,
            challenges: HashMap::new(),
            declined: HashSet::new(),
            primed: false,
            origin,
            games: HashSet::new(),
            queue: VecDeque::new(),
            last_line: Instant::now(),
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
            if !self.guard.next_turn().await {
                return None;
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
        self.poll_challenges().await?;
        self.primed = true;
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

    /// Queues the challenges to the bot that opened (`challenge`) or closed without a game
    /// (`challengeCanceled`), and the bot's own that were declined (`challengeDeclined`).
    async fn poll_challenges(&mut self) -> Result<(), SiteError> {
        let lobby = self.lobby.clone();
        let store = lobby.play().store();
        let lists = lobby.list_challenges(&self.token).await?;
        let open: Vec<&ChallengeView> = lists
            .incoming
            .iter()
            .filter(|c| c.status == ChallengeStatus::Open)
            .collect();
        for c in &open {
            if !self.challenges.contains_key(&c.id) {
                let challenge = challenge_json(store, c, &self.origin).await;
                let event = json!({"type": "challenge", "challenge": challenge});
                self.queue.push_back(line(&event));
                self.challenges.insert(c.id.clone(), challenge);
            }
        }
        let mut closed: Vec<String> = self
            .challenges
            .keys()
            .filter(|id| !open.iter().any(|c| &c.id == *id))
            .cloned()
            .collect();
        closed.sort();
        for id in closed {
            let Some(mut challenge) = self.challenges.remove(&id) else {
                continue;
            };
            // Accepted: its game's `gameStart` tells; declined: by the bot itself.
            let answered = store
                .challenge(&id)
                .await?
                .is_some_and(|row| row.status != ChallengeStatus::Open);
            if answered {
                continue;
            }
            challenge["status"] = json!("canceled");
            let event = json!({"type": "challengeCanceled", "challenge": challenge});
            self.queue.push_back(line(&event));
        }
        for c in lists
            .outgoing
            .iter()
            .filter(|c| c.status == ChallengeStatus::Declined)
        {
            if self.declined.insert(c.id.clone()) && self.primed {
                let mut challenge = challenge_json(store, c, &self.origin).await;
                challenge["declineReason"] = json!("I'm not accepting challenges at the moment.");
                challenge["declineReasonKey"] = json!("generic");
                let event = json!({"type": "challengeDeclined", "challenge": challenge});
                self.queue.push_back(line(&event));
            }
        }
        Ok(())
    }

    /// lichess's game object of a `gameStart` or `gameFinish` for the bot.
    async fn game_json(&self, view: &GameView) -> Value {
        let color = view
            .you
            .and_then(|y| y.color())
            .unwrap_or(game::Color::White);
        let opponent = match color {
            game::Color::White => &view.black,
            game::Color::Black => &view.white,
        };
        let mut opp = seat_json(opponent);
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
            "status": {"id": super::status_id(status_name(view)), "name": status_name(view)},
            "variant": super::variant_json(view.variant),
            "compat": {"bot": true, "board": false},
        });
        if let (Some(w), Some(obj)) = (super::winner(view), game.as_object_mut()) {
            obj.insert("winner".into(), json!(w));
        }
        game
    }
}
