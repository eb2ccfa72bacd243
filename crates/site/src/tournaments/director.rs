//! The director: what the site does to its events on its own. One task per process looks
//! every [`POLL`] (and at once after a change in its process) at the events due, and for each
//! one, holding its lease (`tournament:<id>`, as the clocks' sweeper holds its own), starts
//! it, pairs its next round or arena wave, or ends it.
//!
//! The lease keeps the work on one process; the store makes it exactly once whatever
//! happens: a round is stored with its games in one transaction that moves the event's
//! pairing counter on only from the value the pairer read (`Store::store_pairings`), so a
//! kill -9 mid-pairing leaves all or nothing, and a second pairer that read the same counter
//! stores nothing.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use site_model::clock::TimeControl;
use site_model::error::SiteError;
use site_model::tournament::{TournamentKind, TournamentStatus};
use site_store::{EntryRow, TournamentRow, now_ms};

use super::Tournaments;
use super::notify;
use super::pairing::{self, Planned, active};

/// Longest wait between looks.
pub const POLL: Duration = Duration::from_secs(1);
/// An event's lease, ms: a dead holder's events pass to another process after this.
pub const LEASE_MS: i64 = 10_000;
/// How often the schedule is looked at.
const SCHEDULE_EVERY: Duration = Duration::from_secs(60);

/// The lease of event `id`.
pub fn lease_name(id: &str) -> String {
    format!("tournament:{id}")
}

/// Runs until `shutdown` turns true.
pub async fn run(t: Arc<Tournaments>, mut shutdown: watch::Receiver<bool>) {
    let mut scheduled: Option<std::time::Instant> = None;
    loop {
        if scheduled.is_none_or(|at| at.elapsed() >= SCHEDULE_EVERY) {
            scheduled = Some(std::time::Instant::now());
            t.make_scheduled().await;
        }
        t.look().await;
        tokio::select! {
            _ = tokio::time::sleep(POLL) => {}
            _ = t.changed() => {}
            _ = shutdown.changed() => return,
        }
        if *shutdown.borrow() {
            return;
        }
    }
}

impl Tournaments {
    /// One look: every event due, each under its lease.
    pub async fn look(&self) {
        let ids = match self.store().tournaments_due(self.now()).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the tournaments due");
                return;
            }
        };
        for id in ids {
            let holder = self.play.process_id();
            match self
                .store()
                .take_lease(&lease_name(&id), holder, now_ms(), LEASE_MS)
                .await
            {
                Ok(true) => {}
                Ok(false) => continue,
                Err(e) => {
                    tracing::warn!(tournament = %id, error = %e, "cannot take the tournament's lease");
                    continue;
                }
            }
            if let Err(e) = self.advance(&id).await {
                tracing::warn!(tournament = %id, error = %e, "tournament not advanced");
            }
        }
    }

    /// Starts, pairs or ends event `id` as its state and the time say.
    pub async fn advance(&self, id: &str) -> Result<(), SiteError> {
        let Some(t) = self.store().tournament(id).await? else {
            return Ok(());
        };
        match t.status {
            TournamentStatus::Created if self.now() >= t.starts_at => self.begin(&t).await,
            TournamentStatus::Started => self.step(&t).await,
            _ => Ok(()),
        }
    }

    /// Starts `t` (numbering its players by rating) or cancels it for want of players.
    async fn begin(&self, t: &TournamentRow) -> Result<(), SiteError> {
        let mut players: Vec<EntryRow> = self
            .store()
            .tournament_entries(&t.id)
            .await?
            .into_iter()
            .filter(active)
            .collect();
        let now = self.now();
        let rounds = match t.kind {
            TournamentKind::RoundRobin => pairing::round_robin_length(players.len(), t.double),
            _ => t.rounds,
        };
        let enough = players.len() as i64 >= t.min_players
            && (t.kind != TournamentKind::RoundRobin || rounds.is_some());
        if !enough {
            if self
                .store()
                .end_tournament(&t.id, TournamentStatus::Canceled, now, &[])
                .await?
            {
                tracing::info!(tournament = %t.id, players = players.len(), "tournament canceled: too few players");
                self.touch();
            }
            return Ok(());
        }
        players.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.joined_at.cmp(&b.joined_at)));
        let tpns: Vec<(String, i64)> = players
            .iter()
            .enumerate()
            .map(|(i, e)| (e.account_id.clone(), i as i64 + 1))
            .collect();
        let ends_at = t.minutes.map(|m| now + m * 60_000);
        let hashes = self
            .store()
            .entry_player_hashes(&t.id)
            .await?
            .into_iter()
            .collect();
        let notes = notify::started(t, &players, &hashes);
        if self
            .store()
            .start_tournament(&t.id, &tpns, rounds, now, ends_at, &notes)
            .await?
        {
            tracing::info!(tournament = %t.id, players = players.len(), "tournament started");
            self.play.notifications().made(&notes);
            self.touch();
            if let Some(t) = self.store().tournament(&t.id).await? {
                self.step(&t).await?;
            }
        }
        Ok(())
    }

    /// Pairs the next round or wave of the running event `t`, or ends it.
    async fn step(&self, t: &TournamentRow) -> Result<(), SiteError> {
        let now = self.now();
        let entries = self.store().tournament_entries(&t.id).await?;
        let pairings = self.store().tournament_pairings(&t.id).await?;
        let round_open = pairings
            .iter()
            .any(|p| p.round == t.round && p.result.is_none());
        match t.kind {
            TournamentKind::Arena => {
                if t.ends_at.is_some_and(|end| now >= end) {
                    return self.finish(t).await;
                }
                // A player in a real-time game elsewhere waits until it ends (lichess does not
                // pair a player who is playing).
                let elsewhere = self.store().entries_in_realtime_games(&t.id).await?;
                let planned = pairing::arena_wave(t, &entries, &pairings, &elsewhere);
                self.store_planned(t, &entries, &planned, t.round + 1).await
            }
            TournamentKind::Swiss => {
                if round_open {
                    return Ok(());
                }
                if t.round >= t.rounds.unwrap_or(0) {
                    return self.finish(t).await;
                }
                let entries = self.number_late_entries(t, entries).await?;
                if entries
                    .iter()
                    .filter(|e| e.tpn.is_some() && active(e))
                    .count()
                    < 2
                {
                    return self.finish(t).await;
                }
                let (row, e2, p2) = (t.clone(), entries.clone(), pairings);
                let planned =
                    tokio::task::spawn_blocking(move || pairing::swiss_round(&row, &e2, &p2))
                        .await
                        .map_err(|e| {
                            SiteError::new(site_model::error::ErrorCode::Internal, e.to_string())
                        })?;
                match planned {
                    Ok(planned) => self.store_planned(t, &entries, &planned, t.round + 1).await,
                    Err(e) => {
                        // No pairing meets the absolute criteria: the event ends here, as
                        // an arbiter would end it.
                        tracing::warn!(tournament = %t.id, error = %e, "Swiss round not pairable: ended");
                        self.finish(t).await
                    }
                }
            }
            TournamentKind::RoundRobin => {
                let total = t.rounds.unwrap_or(0);
                if round_open {
                    return Ok(());
                }
                if t.round >= total {
                    return self.finish(t).await;
                }
                // Correspondence: every game at once, as on the seed's site; real time: a
                // round at a time.
                let to = match t.control {
                    TimeControl::Correspondence { .. } => total,
                    _ => t.round + 1,
                };
                let planned = pairing::round_robin_rounds(&entries, t.double, t.round + 1, to)?;
                self.store_planned(t, &entries, &planned, to).await
            }
        }
    }

    /// Numbers the Swiss entries made since the start (after everyone numbered, by entry).
    async fn number_late_entries(
        &self,
        t: &TournamentRow,
        entries: Vec<EntryRow>,
    ) -> Result<Vec<EntryRow>, SiteError> {
        if entries.iter().all(|e| e.tpn.is_some() || !active(e)) {
            return Ok(entries);
        }
        let mut next = entries.iter().filter_map(|e| e.tpn).max().unwrap_or(0);
        for e in entries.iter().filter(|e| e.tpn.is_none() && active(e)) {
            next += 1;
            self.store()
                .number_entry(&t.id, &e.account_id, next)
                .await?;
        }
        Ok(self.store().tournament_entries(&t.id).await?)
    }

    /// Stores `planned` as rounds up to `to`, with their games.
    async fn store_planned(
        &self,
        t: &TournamentRow,
        entries: &[EntryRow],
        planned: &[Planned],
        to: i64,
    ) -> Result<(), SiteError> {
        if planned.is_empty() {
            return Ok(());
        }
        let hashes = self
            .store()
            .entry_player_hashes(&t.id)
            .await?
            .into_iter()
            .collect();
        let now = self.now();
        let rows = pairing::rows(t, entries, &hashes, planned, now)?;
        let notes = notify::games_ready(t, &rows);
        if self
            .store()
            .store_pairings(&t.id, t.round, to, &rows, &notes, now)
            .await?
        {
            self.play.notifications().made(&notes);
            let games = rows.iter().filter(|r| r.game.is_some()).count();
            tracing::info!(tournament = %t.id, round = to, games, "paired");
            self.play.clock_changed.notify_one();
            self.touch();
        }
        Ok(())
    }

    async fn finish(&self, t: &TournamentRow) -> Result<(), SiteError> {
        let entries = self.store().tournament_entries(&t.id).await?;
        let pairings = self.store().tournament_pairings(&t.id).await?;
        let winners: Vec<String> = super::standings::standings(t, &entries, &pairings)
            .into_iter()
            .filter(|s| s.rank == 1 && s.games > 0)
            .map(|s| s.username)
            .collect();
        if self
            .store()
            .end_tournament(&t.id, TournamentStatus::Finished, self.now(), &winners)
            .await?
        {
            tracing::info!(tournament = %t.id, "tournament finished");
            self.touch();
        }
        Ok(())
    }
}
