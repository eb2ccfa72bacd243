//! Tournaments (issue 40; docs/tournaments.md): arenas, Swiss events and round robins, for
//! both games, real-time or correspondence. This module is what a player does (create, join,
//! withdraw, pause, start early, read); the director (`director`) is what the site does on its
//! own (start, pair, end), under a lease per event. Games are the site's ordinary games
//! (`play`), made in the pairing's transaction; their results enter the pairings in the
//! transaction that ends them (`site_store`), so play knows nothing of tournaments.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

use crate::accounts::Account;
use crate::play::GameService;
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::PlayerToken;
use site_model::tournament::{TournamentKind, TournamentStatus};
use site_store::{EntryRow, JoinOutcome, PairingRow, Store, TournamentRow, tournament_error};

pub mod director;
mod moderation;
pub mod notify;
pub mod pairing;
pub mod request;
pub mod schedule;
pub mod standings;
pub mod stream;
pub mod view;

pub use request::{CreateBody, NewTournament};
pub use view::{MeView, PairingView, PlayerTournament, TournamentSummary, TournamentView};

/// Most events one account may have created and not yet finished (spam).
pub const MAX_OPEN_PER_ACCOUNT: usize = 5;
/// Most events not yet over that one account may be in at once (spam; lichess's own limit
/// is of the same order).
pub const MAX_JOINED_PER_ACCOUNT: i64 = 20;
/// Most events a list answers.
pub const LIST_LIMIT: i64 = 50;
/// Views kept built, by event (the newest version of each).
const CACHED_VIEWS: usize = 256;

/// An event as read at one version: its rows and the view built from them.
struct Built {
    row: TournamentRow,
    entries: Vec<EntryRow>,
    pairings: Vec<PairingRow>,
    view: TournamentView,
}

/// The tournaments of the site.
pub struct Tournaments {
    play: Arc<GameService>,
    views: Mutex<HashMap<String, Arc<Built>>>,
    /// Woken when this process changed an event (its streams read again at once).
    changed: Notify,
    /// The scheduled events to keep made (`serve --tournaments-schedule`).
    schedule: Mutex<Vec<schedule::Entry>>,
}

fn no_tournament(id: &str) -> SiteError {
    SiteError::new(
        ErrorCode::NotFound,
        format!("no such tournament '{}'", game::excerpt(id)),
    )
}

/// `record` (PGN or PDN) with its `Event` tag set to `event` and its `Round` tag to `round`
/// (added after `Event` when missing), both escaped as PGN's tag values are (`\"`, `\\`).
pub fn retag(record: &str, event: &str, round: &str) -> String {
    let quote = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    let mut out = String::with_capacity(record.len() + 64);
    let mut in_headers = true;
    let mut had_round = record
        .lines()
        .take_while(|l| l.starts_with('['))
        .any(|l| l.starts_with("[Round "));
    for line in record.lines() {
        if in_headers && !line.starts_with('[') {
            in_headers = false;
        }
        if in_headers && line.starts_with("[Event ") {
            out.push_str(&format!("[Event \"{}\"]\n", quote(event)));
            if !had_round {
                out.push_str(&format!("[Round \"{}\"]\n", quote(round)));
                had_round = true;
            }
        } else if in_headers && line.starts_with("[Round ") {
            out.push_str(&format!("[Round \"{}\"]\n", quote(round)));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Whether `id` can be an event's id (8 letters and digits), checked before any query.
pub fn valid_id(id: &str) -> bool {
    id.len() == 8 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

impl Tournaments {
    /// The tournaments of a site whose games are `play`'s.
    pub fn new(play: Arc<GameService>) -> Arc<Tournaments> {
        Arc::new(Tournaments {
            play,
            views: Mutex::new(HashMap::new()),
            changed: Notify::new(),
            schedule: Mutex::new(Vec::new()),
        })
    }

    fn store(&self) -> &Store {
        self.play.store()
    }

    fn now(&self) -> i64 {
        self.play.time().now_ms()
    }

    /// Waits until this process changes an event (streams also poll the stored version).
    pub fn changed(&self) -> tokio::sync::futures::Notified<'_> {
        self.changed.notified()
    }

    pub(crate) fn touch(&self) {
        self.changed.notify_waiters();
    }

    /// `POST /api/tournaments` by `account`: the new event's id. 403 `muted` for a name from
    /// an account a moderator muted. 429 `too_many` past
    /// [`MAX_OPEN_PER_ACCOUNT`] open events; `bad_request` for a start in the past or more
    /// than 90 days ahead.
    pub async fn create(&self, account: &Account, req: NewTournament) -> Result<String, SiteError> {
        let now = self.now();
        let starts_at = req.starts_at.unwrap_or(now + request::DEFAULT_LEAD_MS);
        if starts_at < now - 60_000 || starts_at > now + request::MAX_LEAD_MS {
            return Err(SiteError::bad_request(
                "starts_at: between now and 90 days ahead (Unix ms)",
            ));
        }
        // A name is public text: a muted account may not write one (hostile finding 2).
        if req.custom_name
            && let Some(state) = self.store().mod_state_of(&account.id).await?
            && crate::social::moderation::is_muted(&state, now)
        {
            return Err(SiteError::new(
                ErrorCode::Muted,
                "name: a moderator muted you: create the event without a name (it gets the \
                 default one)",
            ));
        }
        let row = new_row(req, Some(account.id.clone()), starts_at.max(now), now, None);
        if let Err(open) = self
            .store()
            .create_tournament(&row, &account.id, MAX_OPEN_PER_ACCOUNT as i64)
            .await
            .map_err(tournament_error)?
        {
            return Err(SiteError::new(
                ErrorCode::RateLimited,
                format!(
                    "you have {open} tournaments not yet finished: at most {MAX_OPEN_PER_ACCOUNT}"
                ),
            ));
        }
        tracing::info!(tournament = %row.id, kind = %row.kind, by = %account.username, "tournament created");
        self.touch();
        Ok(row.id)
    }

    async fn row(&self, id: &str) -> Result<TournamentRow, SiteError> {
        if !valid_id(id) {
            return Err(no_tournament(id));
        }
        self.store()
            .tournament(id)
            .await?
            .ok_or_else(|| no_tournament(id))
    }

    /// `POST /api/tournaments/{id}/join`: 403 `not_eligible` when a condition fails (the
    /// message says which), 409 `conflict` when full or closed.
    pub async fn join(&self, account: &Account, id: &str) -> Result<(), SiteError> {
        let t = self.row(id).await?;
        let speed = t.control.speed();
        let rating = self
            .store()
            .ratings_of(&account.id)
            .await?
            .into_iter()
            .find(|r| r.variant == t.variant && Some(r.speed) == speed);
        let (value, games) = rating.map_or((1500.0, 0), |r| (r.rating.rating, r.games));
        if let Some(why) = t.conditions.refusal(value, games) {
            return Err(SiteError::new(ErrorCode::NotEligible, why));
        }
        let outcome = self
            .store()
            .join_tournament(
                id,
                &account.id,
                &account.username,
                value.round() as i64,
                self.now(),
                MAX_JOINED_PER_ACCOUNT,
            )
            .await
            .map_err(tournament_error)?;
        match outcome {
            JoinOutcome::Joined => {
                self.touch();
                Ok(())
            }
            JoinOutcome::Full => Err(SiteError::new(
                ErrorCode::Conflict,
                format!("the tournament is full ({} players)", t.max_players),
            )),
            JoinOutcome::Closed => Err(SiteError::new(
                ErrorCode::Conflict,
                match t.status {
                    TournamentStatus::Started => "a round robin takes no entries once started",
                    _ => "the tournament is over",
                },
            )),
            JoinOutcome::Missing => Err(no_tournament(id)),
            JoinOutcome::TooMany(n) => Err(SiteError::new(
                ErrorCode::RateLimited,
                format!(
                    "you are in {n} tournaments not yet finished: at most {MAX_JOINED_PER_ACCOUNT}"
                ),
            )),
        }
    }

    /// `POST /api/tournaments/{id}/withdraw`: the player is paired no more. In a Swiss event
    /// or a round robin their games in progress are resigned (before move 2: forfeited) and
    /// their unplayed round-robin games are forfeits; the games played stand (FIDE). An
    /// arena's game in progress goes on and counts.
    pub async fn withdraw(
        &self,
        account: &Account,
        token: &PlayerToken,
        id: &str,
    ) -> Result<(), SiteError> {
        let t = self.row(id).await?;
        if matches!(
            t.status,
            TournamentStatus::Finished | TournamentStatus::Canceled
        ) {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "the tournament is over",
            ));
        }
        if !self
            .store()
            .withdraw_from_tournament(id, &account.id, self.now())
            .await
            .map_err(tournament_error)?
        {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "you are not in this tournament",
            ));
        }
        if t.kind != TournamentKind::Arena {
            for p in self.store().tournament_pairings(id).await? {
                let mine = p.white == account.id || p.black.as_deref() == Some(&account.id);
                let (true, None, Some(game)) = (mine, p.result, &p.game_id) else {
                    continue;
                };
                match self.play.resign(game, token).await {
                    Ok(_) => {}
                    Err(e) if e.code == ErrorCode::GameOver => {}
                    Err(e) => {
                        tracing::warn!(tournament = %id, %game, error = %e, "withdrawal: game not resigned")
                    }
                }
            }
        }
        tracing::info!(tournament = %id, player = %account.username, "withdrew");
        self.touch();
        Ok(())
    }

    /// `POST /api/tournaments/{id}/pause` (`paused` false: come back): an arena player who
    /// pauses is not paired until they come back. 409 for another kind.
    pub async fn pause(&self, account: &Account, id: &str, paused: bool) -> Result<(), SiteError> {
        let t = self.row(id).await?;
        if t.kind != TournamentKind::Arena {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "only an arena player can pause",
            ));
        }
        if matches!(
            t.status,
            TournamentStatus::Finished | TournamentStatus::Canceled
        ) {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "the tournament is over",
            ));
        }
        if !self
            .store()
            .pause_in_tournament(id, &account.id, paused)
            .await
            .map_err(tournament_error)?
        {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "you are not in this tournament",
            ));
        }
        self.touch();
        Ok(())
    }

    /// `POST /api/tournaments/{id}/start`: its creator starts it now (the director starts it
    /// at its next look, or cancels it with fewer than its minimum of players). 403
    /// `not_a_player` for anyone else, 409 once started.
    pub async fn start(&self, account: &Account, id: &str) -> Result<(), SiteError> {
        let t = self.row(id).await?;
        if t.created_by.as_deref() != Some(&account.id) {
            return Err(SiteError::new(
                ErrorCode::NotAPlayer,
                "only the tournament's creator can start it early",
            ));
        }
        if !self
            .store()
            .start_tournament_now(id, self.now())
            .await
            .map_err(tournament_error)?
        {
            let why = match t.status {
                TournamentStatus::Canceled => "the tournament was canceled",
                TournamentStatus::Finished => "the tournament is over",
                _ => "the tournament has started already (or is starting now)",
            };
            return Err(SiteError::new(ErrorCode::Conflict, why));
        }
        self.touch();
        Ok(())
    }

    /// The event as stored at its current version, built once per version.
    async fn built(&self, id: &str) -> Result<Arc<Built>, SiteError> {
        if !valid_id(id) {
            return Err(no_tournament(id));
        }
        let version = self
            .store()
            .tournament_version(id)
            .await?
            .ok_or_else(|| no_tournament(id))?;
        if let Some(b) = self.views.lock().map_err(poisoned)?.get(id)
            && b.row.version == version
        {
            return Ok(b.clone());
        }
        let row = self.row(id).await?;
        let entries = self.store().tournament_entries(id).await?;
        let pairings = self.store().tournament_pairings(id).await?;
        let view = view::build(&row, &entries, &pairings);
        let built = Arc::new(Built {
            row,
            entries,
            pairings,
            view,
        });
        let mut views = self.views.lock().map_err(poisoned)?;
        if views.len() >= CACHED_VIEWS {
            views.clear();
        }
        views.insert(id.to_string(), built.clone());
        Ok(built)
    }

    /// `GET /api/tournaments/{id}` as `account` sees it.
    pub async fn view(
        &self,
        id: &str,
        account: Option<&Account>,
    ) -> Result<TournamentView, SiteError> {
        let b = self.built(id).await?;
        let mut v = b.view.clone();
        v.me = account.map(|a| view::me(&b.row, &b.entries, &b.pairings, &a.id));
        Ok(v)
    }

    /// The stored version of event `id` (streams poll it), `None` once it is gone.
    pub async fn version(&self, id: &str) -> Result<Option<i64>, SiteError> {
        Ok(self.store().tournament_version(id).await?)
    }

    /// `GET /api/tournaments?status=S`: up to [`LIST_LIMIT`] events in `status`.
    pub async fn list(
        &self,
        status: TournamentStatus,
    ) -> Result<Vec<TournamentSummary>, SiteError> {
        let rows = self.store().tournaments_in(status, LIST_LIMIT).await?;
        let ids: Vec<String> = rows.iter().map(|t| t.id.clone()).collect();
        let counts = self.store().entry_counts(&ids).await?;
        Ok(rows
            .iter()
            .map(|t| TournamentSummary {
                players: Some(counts.get(&t.id).copied().unwrap_or(0)),
                ..TournamentSummary::of(t)
            })
            .collect())
    }

    /// `GET /api/players/{username}/tournaments`: the last 20 events the player entered,
    /// newest first, with their place in the finished ones. 404 for an unknown player.
    pub async fn of_player(&self, username: &str) -> Result<Vec<PlayerTournament>, SiteError> {
        let unknown = || {
            SiteError::new(
                ErrorCode::NotFound,
                format!("no player named '{}'", game::excerpt(username)),
            )
        };
        if !crate::accounts::valid_username(username) {
            return Err(unknown());
        }
        let account = self
            .store()
            .profile_account(username)
            .await?
            .ok_or_else(unknown)?;
        let rows = self.store().tournaments_of(&account.id, 20).await?;
        let mut out = Vec::with_capacity(rows.len());
        for t in rows {
            let place = if t.status == TournamentStatus::Finished {
                let b = self.built(&t.id).await?;
                b.view
                    .standings
                    .iter()
                    .find(|s| s.username == account.username)
                    .map(|s| s.rank)
            } else {
                None
            };
            out.push(PlayerTournament {
                tournament: TournamentSummary::of(&t),
                place,
            });
        }
        Ok(out)
    }

    /// `GET /api/tournaments/{id}/trf`: a Swiss event or round robin as TRF-16 (FIDE), for
    /// checking with other programs; 409 for an arena.
    pub async fn trf(&self, id: &str) -> Result<String, SiteError> {
        let b = self.built(id).await?;
        if b.row.kind == TournamentKind::Arena {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "an arena has no rounds to export as TRF",
            ));
        }
        // Rounds up to the last one whose games all ended: TRF-16 has no way to say "in
        // progress" (a blank result reads as an absence), and other tools pair from whole
        // rounds.
        let complete = standings::complete_rounds(&b.row, &b.pairings);
        let row = TournamentRow {
            round: complete,
            ..b.row.clone()
        };
        let mut record = standings::as_record(&row, &b.entries, &b.pairings);
        record.initial_colour = Some(tournament::Colour::White);
        for s in tournament::tiebreak::standings(&record) {
            record.players[s.tpn as usize - 1].rank = s.rank;
        }
        Ok(tournament::trf::write(&record))
    }

    /// `GET /api/tournaments/{id}/games`: file name and the records of its finished games,
    /// one after the other (PGN for Ice Age Chess, PDN for Antarctos).
    pub async fn records(&self, id: &str) -> Result<(String, String), SiteError> {
        let b = self.built(id).await?;
        let mut text = String::new();
        let mut ext = "pgn";
        for p in &b.pairings {
            let (Some(game), Some(result)) = (&p.game_id, p.result) else {
                continue;
            };
            if !result.is_played() {
                continue;
            }
            let (name, record) = self.play.record(game).await?;
            ext = if name.ends_with(".pdn") { "pdn" } else { "pgn" };
            // Round "-" (PGN: not applicable) for an arena's games, which have no rounds.
            let round = match b.row.kind {
                TournamentKind::Arena => "-".to_string(),
                _ => format!("{}.{}", p.round, p.board),
            };
            text.push_str(retag(&record, &b.row.name, &round).trim_end());
            text.push_str("\n\n");
        }
        Ok((format!("icebound-tournament-{id}.{ext}"), text))
    }

    /// `POST /api/tournaments/{id}/berserk` with the game: the player halves their own clock
    /// for an extra point on a win (arena only, before their first move).
    pub async fn berserk(
        &self,
        account: &Account,
        token: &PlayerToken,
        id: &str,
    ) -> Result<(), SiteError> {
        let b = self.built(id).await?;
        if b.row.kind != TournamentKind::Arena {
            return Err(SiteError::new(
                ErrorCode::Conflict,
                "berserk is for arena games",
            ));
        }
        let me = view::me(&b.row, &b.entries, &b.pairings, &account.id);
        let game = me.game.ok_or_else(|| {
            SiteError::new(ErrorCode::Conflict, "you have no game in progress here")
        })?;
        let side = self.play.berserk(&game, token).await?;
        self.store().set_berserk(&game, side).await?;
        self.touch();
        Ok(())
    }
}

fn poisoned<T>(_: std::sync::PoisonError<T>) -> SiteError {
    SiteError::new(
        ErrorCode::Internal,
        "the tournament views' lock was poisoned",
    )
}

/// A new event's row from a checked request.
pub(crate) fn new_row(
    req: NewTournament,
    created_by: Option<String>,
    starts_at: i64,
    now: i64,
    schedule_key: Option<String>,
) -> TournamentRow {
    TournamentRow {
        id: crate::play::random_token(8),
        kind: req.kind,
        variant: req.variant,
        name: req.name,
        control: req.control,
        rated: req.rated,
        status: TournamentStatus::Created,
        created_by,
        starts_at,
        minutes: req.minutes,
        rounds: req.rounds,
        double: req.double,
        min_players: req.min_players,
        max_players: req.max_players,
        conditions: req.conditions,
        round: 0,
        started_at: None,
        ends_at: None,
        finished_at: None,
        schedule_key,
        winners: Vec::new(),
        version: 0,
        created_at: now,
    }
}

#[cfg(test)]
mod tests {
    use super::retag;

    #[test]
    fn records_name_their_tournament_and_round() {
        let pgn = "[Event \"icebound game ab\"]\n[Site \"x\"]\n[Round \"?\"]\n\n1. e4 *\n";
        let out = retag(pgn, "Cup \"A\"", "3.1");
        assert_eq!(
            out,
            "[Event \"Cup \\\"A\\\"\"]\n[Site \"x\"]\n[Round \"3.1\"]\n\n1. e4 *\n"
        );
        let pdn = "[Event \"icebound game ab\"]\n[GameType \"Antarctos\"]\n\n1. c3-d4 *\n";
        let out = retag(pdn, "Arena", "-");
        assert!(
            out.starts_with("[Event \"Arena\"]\n[Round \"-\"]\n[GameType"),
            "{out}"
        );
        // A "[Round" in the moves' text is not a tag.
        let odd = "[Event \"e\"]\n\n{[Round \"x\"]} 1. e4 *\n";
        assert!(retag(odd, "E", "1").contains("{[Round \"x\"]}"));
    }
}
