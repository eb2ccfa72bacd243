//! Scheduled events (`serve --tournaments-schedule FILE`, docs/tournaments.md): a JSON list
//! of events the site makes itself, daily or weekly at a UTC time, e.g.
//!
//! ```json
//! [{"kind":"arena","variant":"antarctos","time_control":{"kind":"realtime","initial_s":180,"increment_s":2},
//!   "minutes":60,"every":"daily","at":"18:00"},
//!  {"kind":"swiss","variant":"iceage","time_control":{"kind":"realtime","initial_s":300,"increment_s":3},
//!   "rounds":7,"every":"sun","at":"16:00"}]
//! ```
//!
//! Every process makes the next occurrence of each entry once it is less than a period away;
//! its key (`schedule_key`, unique) makes that happen once across processes.

use chrono::{DateTime, Datelike, Duration, NaiveTime, Utc, Weekday};
use serde::Deserialize;

use super::request::{CreateBody, NewTournament};
use super::{Tournaments, new_row};

/// One line of the file: an event's body as `POST /api/tournaments` takes it (without
/// `starts_at`), and when: `every` (`daily`, or a weekday `mon`..`sun`) at `at` (`HH:MM`,
/// UTC).
#[derive(Debug, Clone, Deserialize)]
pub struct EntryText {
    /// `daily` or `mon`, `tue`, `wed`, `thu`, `fri`, `sat`, `sun`.
    pub every: String,
    /// `HH:MM`, UTC.
    pub at: String,
    /// The event.
    #[serde(flatten)]
    pub body: serde_json::Value,
}

/// A checked schedule entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The event.
    pub event: NewTournament,
    /// `None`: daily; else the weekday.
    pub weekday: Option<Weekday>,
    /// The time of day, UTC.
    pub at: NaiveTime,
}

/// Reads a schedule file's text. Errors name the entry (0-based) and the field.
pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    let lines: Vec<EntryText> = serde_json::from_str(text)
        .map_err(|e| format!("the schedule is not a JSON list of events: {e}"))?;
    lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            let weekday = match l.every.as_str() {
                "daily" => None,
                day => Some(day.parse::<Weekday>().map_err(|_| {
                    format!("entry {i}: every: '{day}' is not daily or a weekday (mon..sun)")
                })?),
            };
            let at = NaiveTime::parse_from_str(&l.at, "%H:%M")
                .map_err(|_| format!("entry {i}: at: '{}' is not HH:MM", l.at))?;
            if l.body.get("starts_at").is_some() {
                return Err(format!(
                    "entry {i}: starts_at: a scheduled event's start is its every and at"
                ));
            }
            let body: CreateBody =
                serde_json::from_value(l.body).map_err(|e| format!("entry {i}: {e}"))?;
            let event =
                NewTournament::try_from(body).map_err(|e| format!("entry {i}: {}", e.message))?;
            Ok(Entry { event, weekday, at })
        })
        .collect()
}

/// The first occurrence of `entry` at or after `now`, and its key.
pub fn next(entry: &Entry, now: DateTime<Utc>) -> (DateTime<Utc>, String) {
    let mut day = now.date_naive();
    loop {
        let at = day.and_time(entry.at).and_utc();
        let fits = entry.weekday.is_none_or(|w| day.weekday() == w);
        if fits && at >= now {
            let every = entry
                .weekday
                .map_or("daily".to_string(), |w| w.to_string().to_lowercase());
            let key = format!(
                "{every}-{}-{}-{}-{}",
                entry.event.kind,
                entry.event.variant,
                day.format("%Y-%m-%d"),
                entry.at.format("%H%M")
            );
            return (at, key);
        }
        day += Duration::days(1);
    }
}

impl Tournaments {
    /// Sets the schedule (`serve --tournaments-schedule`).
    pub fn set_schedule(&self, entries: Vec<Entry>) {
        if let Ok(mut s) = self.schedule.lock() {
            *s = entries;
        }
    }

    /// Makes each scheduled entry's next occurrence once it is less than a period (a day, or
    /// a week for a weekly one) away, unless some process made it already.
    pub async fn make_scheduled(&self) {
        let entries = self.schedule.lock().map(|s| s.clone()).unwrap_or_default();
        let now_ms = self.now();
        let Some(now) = DateTime::from_timestamp_millis(now_ms) else {
            return;
        };
        for entry in entries {
            let (at, key) = next(&entry, now);
            let lead = if entry.weekday.is_some() {
                Duration::days(7)
            } else {
                Duration::days(1)
            };
            if at - now > lead {
                continue;
            }
            let row = new_row(
                entry.event.clone(),
                None,
                at.timestamp_millis(),
                now_ms,
                Some(key.clone()),
            );
            match self.store().insert_tournament(&row).await {
                Ok(true) => {
                    tracing::info!(tournament = %row.id, %key, "scheduled tournament made");
                    self.touch();
                }
                Ok(false) => {}
                Err(e) => tracing::warn!(%key, error = %e, "cannot make a scheduled tournament"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"[
      {"kind":"arena","variant":"antarctos","time_control":{"kind":"realtime","initial_s":180,"increment_s":2},"minutes":60,"every":"daily","at":"18:00"},
      {"kind":"swiss","variant":"iceage","time_control":{"kind":"realtime","initial_s":300,"increment_s":3},"rounds":7,"every":"sun","at":"16:00"}
    ]"#;

    #[test]
    fn next_occurrences_and_keys() {
        let entries = parse(FILE).unwrap();
        // Sunday 2026-12-06 17:00 UTC.
        let now = DateTime::parse_from_rfc3339("2026-12-06T17:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let (at, key) = next(&entries[0], now);
        assert_eq!(at.to_rfc3339(), "2026-12-06T18:00:00+00:00");
        assert_eq!(key, "daily-arena-antarctos-2026-12-06-1800");
        // The Sunday Swiss at 16:00 has passed: next Sunday.
        let (at, key) = next(&entries[1], now);
        assert_eq!(at.to_rfc3339(), "2026-12-13T16:00:00+00:00");
        assert_eq!(key, "sun-swiss-iceage-2026-12-13-1600");
    }

    #[test]
    fn errors_name_the_entry_and_field() {
        let e = parse(r#"[{"kind":"arena","variant":"antarctos","time_control":{"kind":"realtime","initial_s":180,"increment_s":2},"minutes":60,"every":"often","at":"18:00"}]"#).unwrap_err();
        assert!(e.contains("entry 0: every"), "{e}");
        let e = parse(r#"[{"kind":"arena","variant":"antarctos","time_control":{"kind":"realtime","initial_s":180,"increment_s":2},"every":"daily","at":"18:00"}]"#).unwrap_err();
        assert!(e.contains("entry 0: minutes"), "{e}");
        let e = parse(r#"[{"kind":"arena","variant":"antarctos","time_control":{"kind":"realtime","initial_s":180,"increment_s":2},"minutes":60,"every":"daily","at":"25:00"}]"#).unwrap_err();
        assert!(e.contains("entry 0: at"), "{e}");
        assert!(parse("{}").unwrap_err().contains("JSON list"));
    }
}
