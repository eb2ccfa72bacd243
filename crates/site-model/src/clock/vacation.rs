//! Vacation (issue 38, as the correspondence site of seed 002 has it): a player sets days off
//! ahead, at most [`MAX_DAYS_PER_YEAR`] a calendar year; while a vacation lasts, the player's
//! correspondence clocks stop. Here the arithmetic: a turn's deadline moves on by the part of
//! each vacation that falls in the turn, counted from the turn's start and up to its
//! (moving) deadline. The site stores the vacations and calls
//! [`Clock::hold_for_vacations`] when a turn starts and when the player's vacations change.

use super::{Clock, DAY_MS};

/// Most vacation days a player may take in one calendar year (UTC).
pub const MAX_DAYS_PER_YEAR: i64 = 30;

/// The whole days a vacation `[start, end)` (Unix ms) counts for: a part of a day is a day.
pub fn days_of(start_ms: i64, end_ms: i64) -> i64 {
    let ms = (end_ms - start_ms).max(0);
    (ms + DAY_MS - 1) / DAY_MS
}

/// How far vacations push a turn's deadline: the turn started at `turn_start` and its days
/// alone end it at `base_deadline`; each vacation (`[start, end)`, in any order) that begins
/// before the deadline as pushed so far adds the part of it after the turn's start. Returns the
/// time added, ms, and the last vacation that added any.
pub fn held(
    turn_start: i64,
    base_deadline: i64,
    vacations: &[[i64; 2]],
) -> (i64, Option<[i64; 2]>) {
    let mut sorted: Vec<[i64; 2]> = vacations.iter().copied().filter(|[s, e]| s < e).collect();
    sorted.sort_unstable();
    let mut deadline = base_deadline;
    let mut last = None;
    for [start, end] in sorted {
        if start >= deadline || end <= turn_start {
            continue;
        }
        let from = start.max(turn_start);
        deadline = deadline.saturating_add(end - from);
        last = Some([start, end]);
    }
    (deadline - base_deadline, last)
}

impl Clock {
    /// Counts the running side's `vacations` (`[start, end)` Unix ms) in a correspondence
    /// clock's deadline, replacing what was counted before (a vacation set, ended or
    /// cancelled). A real-time or stopped clock is left as it is.
    pub fn hold_for_vacations(&mut self, vacations: &[[i64; 2]]) {
        if let Clock::Correspondence {
            days,
            deadline_ms,
            running: Some(_),
            held_ms,
            vacation,
            ..
        } = self
        {
            let base = deadline_ms.saturating_sub(*held_ms);
            let turn_start = base.saturating_sub(days.saturating_mul(DAY_MS));
            let (add, last) = held(turn_start, base, vacations);
            *deadline_ms = base.saturating_add(add);
            *held_ms = add;
            *vacation = last;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{ClockView, TimeControl};
    use game::Color;

    const H: i64 = 3_600_000;

    fn clock(days: i64, now: i64) -> Clock {
        let mut c = TimeControl::Correspondence { days }
            .new_clock()
            .expect("a clock");
        c.start(Color::White, now);
        c
    }

    #[test]
    fn a_vacation_in_the_turn_stops_the_clock_for_its_length() {
        let t0 = 1_000 * DAY_MS;
        let mut c = clock(3, t0);
        assert_eq!(c.deadline_ms(), Some(t0 + 3 * DAY_MS));
        // Two days off from day 1: the deadline moves on two days.
        c.hold_for_vacations(&[[t0 + DAY_MS, t0 + 3 * DAY_MS]]);
        assert_eq!(c.deadline_ms(), Some(t0 + 5 * DAY_MS));
        // The view says so while it lasts, and not before or after.
        let until = |now| match c.view(now) {
            ClockView::Correspondence {
                vacation_until_ms, ..
            } => vacation_until_ms,
            other => panic!("{other:?}"),
        };
        assert_eq!(until(t0 + H), None);
        assert_eq!(until(t0 + DAY_MS + H), Some(t0 + 3 * DAY_MS));
        assert_eq!(until(t0 + 3 * DAY_MS), None);
        // Counted again (the vacation cut short to one day): not added twice.
        c.hold_for_vacations(&[[t0 + DAY_MS, t0 + 2 * DAY_MS]]);
        assert_eq!(c.deadline_ms(), Some(t0 + 4 * DAY_MS));
        c.hold_for_vacations(&[]);
        assert_eq!(c.deadline_ms(), Some(t0 + 3 * DAY_MS));
    }

    #[test]
    fn only_the_part_after_the_turns_start_and_before_its_deadline_counts() {
        let t0 = 1_000 * DAY_MS;
        // Started two days before the turn: only its last day counts.
        assert_eq!(
            held(t0, t0 + 3 * DAY_MS, &[[t0 - 2 * DAY_MS, t0 + DAY_MS]]).0,
            DAY_MS
        );
        // Starting after the deadline: nothing (the turn was over by then).
        assert_eq!(
            held(t0, t0 + 3 * DAY_MS, &[[t0 + 4 * DAY_MS, t0 + 6 * DAY_MS]]).0,
            0
        );
        // A second vacation that starts after the first deadline but before the pushed one.
        let (add, last) = held(
            t0,
            t0 + 3 * DAY_MS,
            &[
                [t0 + 4 * DAY_MS, t0 + 5 * DAY_MS],
                [t0 + DAY_MS, t0 + 3 * DAY_MS],
            ],
        );
        assert_eq!(add, 3 * DAY_MS);
        assert_eq!(last, Some([t0 + 4 * DAY_MS, t0 + 5 * DAY_MS]));
        // Ended before the turn: nothing.
        assert_eq!(
            held(t0, t0 + DAY_MS, &[[t0 - 3 * DAY_MS, t0 - DAY_MS]]).0,
            0
        );
    }

    #[test]
    fn a_new_turn_and_an_outage_keep_the_count_straight() {
        let t0 = 1_000 * DAY_MS;
        let mut c = clock(2, t0);
        c.hold_for_vacations(&[[t0, t0 + DAY_MS]]);
        assert_eq!(c.deadline_ms(), Some(t0 + 3 * DAY_MS));
        // An outage of an hour is given back on top of the vacation.
        c.credit_outage(t0 + 10 * H, t0 + 11 * H);
        assert_eq!(c.deadline_ms(), Some(t0 + 3 * DAY_MS + H));
        // The move starts Black's turn: White's vacation is not Black's.
        assert_eq!(
            c.on_move(Color::White, t0 + 12 * H),
            crate::clock::Charge::Ok
        );
        assert_eq!(c.deadline_ms(), Some(t0 + 12 * H + 2 * DAY_MS));
        assert_eq!(days_of(0, 1), 1);
        assert_eq!(days_of(0, DAY_MS), 1);
        assert_eq!(days_of(0, DAY_MS + 1), 2);
    }

    #[test]
    fn a_realtime_clock_takes_no_vacation() {
        let mut c = TimeControl::Realtime {
            initial_s: 60,
            increment_s: 0,
        }
        .new_clock()
        .expect("a clock");
        c.start(Color::White, 0);
        let before = c;
        c.hold_for_vacations(&[[0, DAY_MS]]);
        assert_eq!(c, before);
    }
}
