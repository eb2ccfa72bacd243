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

use site_model::clock::TimeControl;

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

/// Reads a schedule file's text. Errors name the entry (0-based) and the field; two entries
/// that would make the same events (same kind, game, control, day and time) are refused.
pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    let lines: Vec<serde_json::Value> = serde_json::from_str(text)
        .map_err(|e| format!("the schedule is not a JSON list of events: {e}"))?;
    let mut entries: Vec<Entry> = Vec::with_capacity(lines.len());
    for (i, line) in lines.into_iter().enumerate() {
        let l: EntryText = serde_json::from_value(line).map_err(|e| format!("entry {i}: {e}"))?;
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
        let entry = Entry { event, weekday, at };
        if let Some(j) = entries.iter().position(|e| same_key(e, &entry)) {
            return Err(format!(
                "entry {i}: the same kind, game, time control, day and time as entry {j}"
            ));
        }
        entries.push(entry);
    }
    Ok(entries)
}

/// Whether `a` and `b` make events of one key (the same occurrences).
fn same_key(a: &Entry, b: &Entry) -> bool {
    a.weekday == b.weekday
        && a.at == b.at
        && a.event.kind == b.event.kind
        && a.event.variant == b.event.variant
        && a.event.control == b.event.control
}

/// The time control as a key part: `180+2` (seconds and increment), `3d` (days a move).
fn control_key(c: TimeControl) -> String {
    match c {
        TimeControl::Realtime {
            initial_s,
            increment_s,
        } => format!("{initial_s}+{increment_s}"),
        TimeControl::Correspondence { days } => format!("{days}d"),
        TimeControl::Unlimited {} => "unlimited".to_string(),
    }
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
                "{every}-{}-{}-{}-{}-{}",
                entry.event.kind,
                entry.event.variant,
                control_key(entry.event.control),
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
        assert_eq!(key, "daily-arena-antarctos-180+2-2026-12-06-1800");
        // The Sunday Swiss at 16:00 has passed: next Sunday.
        let (at, key) = next(&entries[1], now);
        assert_eq!(at.to_rfc3339(), "2026-12-13T16:00:00+00:00");
        assert_eq!(key, "sun-swiss-iceage-300+3-2026-12-13-1600");
    }

    #[test]
    fn entries_of_two_controls_make_two_events_and_repeats_are_refused() {
        let two = r#"[
          {"kind":"arena","variant":"antarctos","time_control":{"kind":"realtime","initial_s":180,"increment_s":2},"minutes":60,"every":"daily","at":"18:00"},
          {"kind":"arena","variant":"antarctos","time_control":{"kind":"realtime","initial_s":60,"increment_s":0},"minutes":60,"every":"daily","at":"18:00"}
        ]"#;
        let entries = parse(two).unwrap();
        let now = DateTime::parse_from_rfc3339("2026-12-06T17:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_ne!(next(&entries[0], now).1, next(&entries[1], now).1);
        let repeated = two.replace(
            "\"initial_s\":60,\"increment_s\":0",
            "\"initial_s\":180,\"increment_s\":2",
        );
        let e = parse(&repeated).unwrap_err();
        assert!(e.contains("entry 1") && e.contains("entry 0"), "{e}");
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
        let e = parse(r#"[{"kind":"arena","variant":"antarctos","time_control":{"kind":"realtime","initial_s":180,"increment_s":2},"minutes":60,"at":"18:00"}]"#).unwrap_err();
        assert!(e.starts_with("entry 0:") && e.contains("every"), "{e}");
    }
}
