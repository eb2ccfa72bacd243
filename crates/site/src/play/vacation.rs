//! Vacation (issue 38): an account sets days off ahead, at most
//! [`vacation::MAX_DAYS_PER_YEAR`] a calendar year (UTC); while one lasts, the account's
//! correspondence clocks stop: each turn's deadline moves on by the part of its vacations in
//! the turn (`site_model::clock::vacation`). Counted when a turn starts or a move comes, when
//! the account's vacations change (every ongoing game of the account), and before a
//! correspondence game is flagged, so a game made by any path (the lobby, a rematch) is never
//! lost on time during a vacation.

use serde::Serialize;

use super::*;
use site_model::clock::Speed;
use site_model::clock::vacation::{self, MAX_DAYS_PER_YEAR};
use site_store::{VacationRefusal, VacationRow};

/// Longest a vacation may be set ahead, ms (a year).
const AHEAD_MS: i64 = 366 * site_model::clock::DAY_MS;

/// One vacation as `GET /api/me/vacation` shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct VacationView {
    /// Unix ms it starts; also its id (`DELETE /api/me/vacation/{start_ms}`).
    pub start_ms: i64,
    /// Unix ms it ends.
    pub end_ms: i64,
    /// The whole days it counts for.
    pub days: i64,
    /// Whether it is under way now.
    pub current: bool,
}

/// `GET /api/me/vacation`: the account's vacations not yet over and the days left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VacationsView {
    /// The calendar year (UTC) `days_left` is for: this one.
    pub year: i32,
    /// Days this year not yet taken or set.
    pub days_left: i64,
    /// Most days a year.
    pub max_days: i64,
    /// The vacations under way or ahead, by start.
    pub vacations: Vec<VacationView>,
}

/// `[start, end)` Unix ms of the calendar year (UTC) holding `ms`, and the year.
fn year_of(ms: i64) -> ([i64; 2], i32) {
    use chrono::{Datelike, TimeZone, Utc};
    let t = Utc.timestamp_millis_opt(ms).single().unwrap_or_default();
    let y = t.year();
    let start = |y: i32| {
        Utc.with_ymd_and_hms(y, 1, 1, 0, 0, 0)
            .single()
            .map_or(0, |d| d.timestamp_millis())
    };
    ([start(y), start(y + 1)], y)
}

fn as_pairs(rows: &[VacationRow]) -> Vec<[i64; 2]> {
    rows.iter().map(|v| [v.starts_at, v.ends_at]).collect()
}

impl GameService {
    /// Counts the running side's vacations in `row`'s correspondence clock (nothing for a
    /// real-time clock, or a side without an account). A failed read leaves the clock as it
    /// is: the next change or the flag's check counts them.
    pub(super) async fn hold_vacations(&self, row: &mut GameRow) {
        let Some(clock) = row.clock else {
            return;
        };
        let Some(side) = clock.running() else {
            return;
        };
        if clock.control().speed() != Some(Speed::Correspondence) {
            return;
        }
        let Some(name) = row.seat(side).name.clone() else {
            return;
        };
        // Vacations that ended more than a year ago cannot reach into a turn of at most 14 days.
        match self
            .store
            .vacations(&name, self.time.now_ms() - AHEAD_MS)
            .await
        {
            Ok(v) => {
                if let Some(clock) = row.clock.as_mut() {
                    clock.hold_for_vacations(&as_pairs(&v));
                }
            }
            Err(e) => tracing::warn!(game = %row.id, error = %e, "vacations unread"),
        }
    }

    /// `GET /api/me/vacation` for the account `username`.
    pub async fn vacations(&self, username: &str) -> Result<VacationsView, SiteError> {
        let now = self.time.now_ms();
        let (year, y) = year_of(now);
        let all = self.store.vacations(username, year[0] - AHEAD_MS).await?;
        let taken: i64 = all
            .iter()
            .filter(|v| year[0] <= v.starts_at && v.starts_at < year[1])
            .map(|v| vacation::days_of(v.starts_at, v.ends_at))
            .sum();
        Ok(VacationsView {
            year: y,
            days_left: (MAX_DAYS_PER_YEAR - taken).max(0),
            max_days: MAX_DAYS_PER_YEAR,
            vacations: all
                .iter()
                .filter(|v| v.ends_at > now)
                .map(|v| VacationView {
                    start_ms: v.starts_at,
                    end_ms: v.ends_at,
                    days: vacation::days_of(v.starts_at, v.ends_at),
                    current: v.starts_at <= now,
                })
                .collect(),
        })
    }

    /// `POST /api/me/vacation`: `days` whole days (1 to the most a year) from `start_ms`
    /// (Unix ms, from now up to a year ahead; a start a minute past is taken as now). 400 for
    /// a bad range; 409 `conflict` for an overlap with another vacation or a year's days
    /// passed (the message says how many are left). Then every ongoing correspondence game of
    /// the account counts it.
    pub async fn set_vacation(
        &self,
        username: &str,
        start_ms: i64,
        days: i64,
    ) -> Result<VacationsView, SiteError> {
        let now = self.time.now_ms();
        if !(1..=MAX_DAYS_PER_YEAR).contains(&days) {
            return Err(SiteError::bad_request(format!(
                "days: {days}; a vacation is 1 to {MAX_DAYS_PER_YEAR} days"
            )));
        }
        if start_ms < now - 60_000 {
            return Err(SiteError::bad_request(
                "start_ms: in the past; a vacation is set ahead (or from now)",
            ));
        }
        if start_ms > now + AHEAD_MS {
            return Err(SiteError::bad_request("start_ms: more than a year ahead"));
        }
        let start = start_ms.max(now);
        let v = VacationRow {
            starts_at: start,
            ends_at: start + days * site_model::clock::DAY_MS,
        };
        let (year, y) = year_of(start);
        match self
            .store
            .add_vacation(username, v, year, MAX_DAYS_PER_YEAR, vacation::days_of, now)
            .await?
        {
            Ok(()) => {}
            Err(VacationRefusal::Overlaps(o)) => {
                return Err(SiteError::new(
                    ErrorCode::Conflict,
                    format!(
                        "it overlaps your vacation from {} to {} (Unix ms)",
                        o.starts_at, o.ends_at
                    ),
                ));
            }
            Err(VacationRefusal::TooManyDays { taken }) => {
                return Err(SiteError::new(
                    ErrorCode::Conflict,
                    format!(
                        "{days} days would pass the {MAX_DAYS_PER_YEAR} of {y}: {} left",
                        (MAX_DAYS_PER_YEAR - taken).max(0)
                    ),
                ));
            }
        }
        tracing::info!(days, "vacation set");
        self.recount_games_of(username).await;
        self.vacations(username).await
    }

    /// `DELETE /api/me/vacation/{start_ms}`: a vacation ahead is cancelled, one under way
    /// ends now (its days so far stay taken). 404 when there is none such (or it is over).
    pub async fn end_vacation(
        &self,
        username: &str,
        start_ms: i64,
    ) -> Result<VacationsView, SiteError> {
        let now = self.time.now_ms();
        if self
            .store
            .end_vacation(username, start_ms, now)
            .await?
            .is_none()
        {
            return Err(SiteError::new(
                ErrorCode::NotFound,
                format!("no vacation of yours under way or ahead starts at {start_ms}"),
            ));
        }
        self.recount_games_of(username).await;
        self.vacations(username).await
    }

    /// Counts the account's vacations again in each of its ongoing correspondence games.
    async fn recount_games_of(&self, username: &str) {
        let ids = match self.store.ongoing_games_of(username).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!(error = %e, "games of a vacation unread");
                return;
            }
        };
        for id in ids {
            let Ok(slot) = self.slot(&id).await else {
                continue;
            };
            let Ok(mut g) = self.lock_fresh(&slot).await else {
                continue;
            };
            let mut row = g.row().clone();
            let before = row.clock;
            self.hold_vacations(&mut row).await;
            if row.clock != before
                && let Err(e) = self.save_state(&slot, &mut g, row).await
            {
                tracing::warn!(game = %id, error = %e.message, "a vacation was not counted");
            }
        }
    }
}
