//! The clock's tests: charging, first moves, outages, ranges and the stored form.

use game::Color;

use super::*;

fn blitz() -> Clock {
    TimeControl::Realtime {
        initial_s: 180,
        increment_s: 2,
    }
    .new_clock()
    .expect("a clock")
}

/// A 3+2 clock past both first moves (those are not charged: their own tests).
fn blitz_in_play() -> Clock {
    let mut c = blitz();
    if let Clock::Realtime { moves, .. } = &mut c {
        *moves = 2;
    }
    c
}

#[test]
fn fischer_charges_the_mover_less_its_claimed_lag_and_adds_the_increment() {
    let mut c = blitz_in_play();
    c.start(Color::White, 1_000);
    assert_eq!(c.running(), Some(Color::White));
    // White thinks 10.25 s, its client claiming 250 ms of lag: charged 10 s, +2 s.
    assert_eq!(
        c.on_move_with_lag(Color::White, 11_250, Some(250)),
        Charge::Ok
    );
    assert_eq!(c.left_ms(Color::White, 11_250), 180_000 - 10_000 + 2_000);
    assert_eq!(c.running(), Some(Color::Black));
    // Black's clock runs from White's move.
    assert_eq!(c.left_ms(Color::Black, 21_250), 170_000);
    // A move whose whole time was lag costs nothing but still earns the increment.
    assert_eq!(
        c.on_move_with_lag(Color::Black, 11_400, Some(150)),
        Charge::Ok
    );
    assert_eq!(c.left_ms(Color::Black, 11_400), 182_000);
}

#[test]
fn time_is_up_at_zero_before_the_flag_falls() {
    let mut c = blitz_in_play();
    c.start(Color::White, 0);
    assert_eq!(c.time_up(179_999), None);
    assert_eq!(c.time_up(180_000), Some(Color::White));
    assert_eq!(c.flagged(180_100), None, "within the grace");
    assert_eq!(c.time_up(180_100), Some(Color::White));
    // Before the first moves, the first-move time counts.
    let mut first = blitz();
    first.start(Color::White, 0);
    assert_eq!(first.time_up(FIRST_MOVE_MS - 1), None);
    assert_eq!(first.time_up(FIRST_MOVE_MS), Some(Color::White));
    first.stop(10);
    assert_eq!(first.time_up(DAY_MS), None, "a stopped clock");
}

#[test]
fn an_instant_answer_without_a_claim_spends_its_time() {
    let mut c = blitz_in_play();
    c.start(Color::White, 0);
    // A bot answering in 50 ms, claiming no lag: 50 ms are charged (the flat 250 ms of old
    // charged it nothing).
    assert_eq!(c.on_move(Color::White, 50), Charge::Ok);
    assert_eq!(c.left_ms(Color::White, 50), 180_000 - 50 + 2_000);
}

#[test]
fn the_quota_caps_what_is_forgiven_and_grows_per_move_to_its_cap() {
    // 3+2: a gain of 1 s, a start of 3 s, a cap of 7 s (lag.rs's table).
    let mut c = blitz_in_play();
    assert_eq!(lag::gain_ms(180_000, 2_000), 1_000);
    assert_eq!(c.lag_quota_ms(Color::White), Some(3_000));
    c.start(Color::White, 0);
    // A client claiming a minute of lag on a 10 s move gets the quota, 3 s, no more.
    assert_eq!(
        c.on_move_with_lag(Color::White, 10_000, Some(60_000)),
        Charge::Ok
    );
    assert_eq!(c.left_ms(Color::White, 10_000), 180_000 - 7_000 + 2_000);
    assert_eq!(c.lag_quota_ms(Color::White), Some(1_000), "3 s - 3 s + 1 s");
    assert_eq!(
        c.lag_quota_ms(Color::Black),
        Some(3_000),
        "the other's is untouched"
    );
    // Moves without lag refill it by a gain each, up to seven gains.
    let mut now = 10_000;
    for _ in 0..20 {
        for side in [Color::Black, Color::White] {
            now += 100;
            assert_eq!(c.on_move(side, now), Charge::Ok);
        }
    }
    assert_eq!(c.lag_quota_ms(Color::White), Some(7_000));
    // A claim never forgives more than the move's own time.
    let before = c.left_ms(Color::Black, now);
    now += 300;
    assert_eq!(
        c.on_move_with_lag(Color::Black, now, Some(5_000)),
        Charge::Ok
    );
    assert_eq!(c.left_ms(Color::Black, now), before + 2_000);
    // 7 s - 0.3 s + 1 s, held at the cap of 7 s.
    assert_eq!(c.lag_quota_ms(Color::Black), Some(7_000));
}

#[test]
fn the_gain_follows_the_control() {
    assert_eq!(lag::gain_ms(15_000, 0), 210);
    assert_eq!(lag::gain_ms(60_000, 0), 390);
    assert_eq!(lag::gain_ms(180_000, 0), 870);
    assert_eq!(lag::gain_ms(180_000, 2_000), 1_000);
    assert_eq!(lag::gain_ms(10_800_000, 60_000), 1_000);
    assert_eq!(lag::compensate(500, 390, Some(-5), 1_000), (0, 890));
    assert_eq!(lag::compensate(500, 390, None, 1_000), (0, 890));
    assert_eq!(
        lag::compensate(2_700, 390, Some(2_000), 1_000),
        (1_000, 2_090)
    );
}

#[test]
fn a_move_after_the_deadline_is_flagged_and_changes_nothing() {
    let mut c = blitz_in_play();
    c.start(Color::White, 0);
    let deadline = c.deadline_ms().expect("running");
    assert_eq!(deadline, 180_000 + FLAG_GRACE_MS);
    assert_eq!(c.flagged(deadline), None);
    assert_eq!(c.flagged(deadline + 1), Some(Color::White));
    let before = c;
    assert_eq!(c.on_move(Color::White, deadline + 1), Charge::Flagged);
    assert_eq!(c, before);
    // At the deadline itself the move counts only if its claimed lag covers the overrun.
    assert_eq!(c.on_move(Color::White, deadline), Charge::Flagged);
    assert_eq!(c, before);
    assert_eq!(
        c.on_move_with_lag(Color::White, deadline, Some(FLAG_GRACE_MS)),
        Charge::Ok
    );
    assert_eq!(c.left_ms(Color::White, deadline), 2_000);
}

#[test]
fn correspondence_restores_the_full_period_on_each_move() {
    let mut c = TimeControl::Correspondence { days: 2 }
        .new_clock()
        .expect("a clock");
    c.start(Color::White, 0);
    assert_eq!(c.deadline_ms(), Some(2 * DAY_MS));
    assert_eq!(c.on_move(Color::White, DAY_MS + 5), Charge::Ok);
    assert_eq!(c.deadline_ms(), Some(3 * DAY_MS + 5));
    assert_eq!(c.flagged(3 * DAY_MS + 6), Some(Color::Black));
    match c.view(DAY_MS) {
        ClockView::Correspondence {
            days,
            deadline_ms,
            running,
            vacation_until_ms: None,
        } => assert_eq!(
            (days, deadline_ms, running),
            (2, Some(3 * DAY_MS + 5), Some(Color::Black))
        ),
        other => panic!("not a correspondence view: {other:?}"),
    }
}

#[test]
fn stopping_charges_the_running_side_and_the_view_never_goes_negative() {
    let mut c = blitz_in_play();
    c.start(Color::White, 0);
    c.stop(5_000);
    assert_eq!(c.running(), None);
    assert_eq!(c.left_ms(Color::White, 99_999), 175_000);
    assert_eq!(c.deadline_ms(), None);
    let mut c = blitz_in_play();
    c.start(Color::Black, 0);
    assert!(matches!(
        c.view(400_000),
        ClockView::Realtime {
            black_ms: 0,
            white_ms: 180_000,
            ..
        }
    ));
}

#[test]
fn first_moves_are_not_charged_to_the_clock() {
    let mut c = blitz();
    c.start(Color::White, 0);
    // Waiting for White's first move: the main clocks stand at the initial time.
    assert_eq!(c.left_ms(Color::White, 10_000), 180_000);
    assert_eq!(c.first_move_left_ms(10_000), Some(FIRST_MOVE_MS - 10_000));
    match c.view(10_000) {
        ClockView::Realtime {
            white_ms,
            black_ms,
            running,
            first_move_ms,
            ..
        } => assert_eq!(
            (white_ms, black_ms, running, first_move_ms),
            (180_000, 180_000, Some(Color::White), Some(20_000))
        ),
        other => panic!("not a real-time view: {other:?}"),
    }
    // White thinks 10 s, Black 12 s: neither is charged, and no increment is added
    // (lichess: the uncharged first moves earn none).
    assert_eq!(c.on_move(Color::White, 10_000), Charge::Ok);
    assert_eq!(c.left_ms(Color::White, 10_000), 180_000);
    assert_eq!(c.left_ms(Color::Black, 20_000), 180_000);
    assert_eq!(c.first_move_left_ms(20_000), Some(FIRST_MOVE_MS - 10_000));
    assert_eq!(c.on_move(Color::Black, 22_000), Charge::Ok);
    assert_eq!(c.left_ms(Color::Black, 22_000), 180_000);
    // Black's first move starts White's main clock.
    assert_eq!(c.first_move_left_ms(22_000), None);
    assert_eq!(c.running(), Some(Color::White));
    assert_eq!(c.left_ms(Color::White, 27_000), 175_000);
    assert_eq!(
        c.deadline_ms(),
        Some(22_000 + 180_000 + FLAG_GRACE_MS),
        "from the third move on the whole clock counts"
    );
    // White's second move is the first one charged, with the increment.
    assert_eq!(
        c.on_move_with_lag(Color::White, 27_250, Some(250)),
        Charge::Ok
    );
    assert_eq!(c.left_ms(Color::White, 27_250), 180_000 - 5_000 + 2_000);
    // Stopping before the first moves charges nothing either.
    let mut c = blitz();
    c.start(Color::White, 0);
    c.stop(20_000);
    assert_eq!(c.left_ms(Color::White, 20_000), 180_000);
}

#[test]
fn a_missing_first_move_aborts_after_30_s() {
    // The game service aborts a game flagged before ply 2 (tests/clocks.rs); here, when.
    let mut c = blitz();
    c.start(Color::White, 0);
    let white_deadline = FIRST_MOVE_MS + FLAG_GRACE_MS;
    assert_eq!(c.deadline_ms(), Some(white_deadline));
    assert_eq!(c.flagged(white_deadline), None);
    assert_eq!(c.flagged(white_deadline + 1), Some(Color::White));
    let before = c;
    assert_eq!(
        c.on_move(Color::White, white_deadline + 1),
        Charge::Flagged,
        "a first move after its 30 s is refused"
    );
    assert_eq!(c, before);
    // Black's 30 s count from White's first move.
    assert_eq!(c.on_move(Color::White, 10_000), Charge::Ok);
    assert_eq!(
        c.deadline_ms(),
        Some(10_000 + FIRST_MOVE_MS + FLAG_GRACE_MS)
    );
    assert_eq!(
        c.flagged(10_000 + FIRST_MOVE_MS + FLAG_GRACE_MS + 1),
        Some(Color::Black)
    );
    // A clock shorter than 30 s waits its initial time (lichess's ultra-bullet: 15 s).
    let mut c = TimeControl::Realtime {
        initial_s: 15,
        increment_s: 0,
    }
    .new_clock()
    .expect("a clock");
    c.start(Color::White, 0);
    assert_eq!(c.deadline_ms(), Some(15_000 + FLAG_GRACE_MS));
    // A stored clock without the count is past its first moves.
    let old = r#"{"kind":"realtime","initial_ms":60000,"increment_ms":0,"white_ms":60000,"black_ms":60000,"running":"white","since_ms":0}"#;
    let c: Clock = serde_json::from_str(old).expect("parse");
    assert_eq!(c.deadline_ms(), Some(60_000 + FLAG_GRACE_MS));
    assert_eq!(c.first_move_left_ms(0), None);
}

#[test]
fn an_outage_is_credited_to_the_running_side() {
    let mut c = blitz_in_play();
    c.start(Color::White, 0);
    c.credit(30_000);
    assert_eq!(c.left_ms(Color::White, 30_000), 180_000);
    assert_eq!(c.left_ms(Color::Black, 30_000), 180_000);
    let mut c = TimeControl::Correspondence { days: 1 }
        .new_clock()
        .expect("a clock");
    c.start(Color::Black, 0);
    c.credit(5);
    assert_eq!(c.deadline_ms(), Some(DAY_MS + 5));
}

#[test]
fn an_outage_is_credited_only_for_the_time_the_clock_ran_through_it() {
    // Running since before the outage: all of it.
    let mut c = blitz_in_play();
    c.start(Color::White, 0);
    c.credit_outage(10_000, 40_000);
    assert_eq!(c.left_ms(Color::White, 40_000), 180_000 - 10_000);
    // Started during it (a move once the database was back): only its own wait.
    let mut c = blitz_in_play();
    c.start(Color::Black, 39_000);
    c.credit_outage(10_000, 40_000);
    assert_eq!(c.left_ms(Color::Black, 41_000), 180_000 - 1_000);
    // Started after it: nothing.
    let mut c = blitz_in_play();
    c.start(Color::Black, 41_000);
    c.credit_outage(10_000, 40_000);
    assert_eq!(c.left_ms(Color::Black, 42_000), 179_000);
}

#[test]
fn an_outage_given_back_twice_gives_nothing_the_second_time() {
    // The giver died after this clock got the outage [10 s, 40 s]; the next giver, at
    // 50 s, gives the same outage again. The clock ran from 40 s, and its game took moves
    // from then (site::timeouts): nothing more is owed, neither the outage nor 40-50 s.
    let mut c = blitz_in_play();
    c.start(Color::White, 0);
    assert_eq!(c.given_back(), None);
    c.credit_outage(10_000, 40_000);
    assert_eq!(c.given_back(), Some(10_000));
    c.credit_outage(10_000, 50_000);
    assert_eq!(c.left_ms(Color::White, 50_000), 180_000 - 20_000);
    // The mark is stored with the clock; a clock stored without it reads as never given.
    let stored = serde_json::to_string(&c).expect("json");
    let read: Clock = serde_json::from_str(&stored).expect("parse");
    assert_eq!(read, c);
    let fresh = serde_json::to_string(&blitz()).expect("json");
    assert!(!fresh.contains("given_back"), "{fresh}");
    // A later outage is given again: the clock ran 0-10 s and 40-60 s.
    c.credit_outage(60_000, 70_000);
    assert_eq!(c.given_back(), Some(60_000));
    assert_eq!(c.left_ms(Color::White, 70_000), 180_000 - 30_000);
}

#[test]
fn a_clock_started_after_an_outage_is_marked_and_given_nothing_of_it() {
    let mut c = blitz_in_play();
    c.start(Color::White, 45_000);
    c.mark_given_back(10_000);
    assert_eq!(c.given_back(), Some(10_000));
    c.credit_outage(10_000, 50_000);
    assert_eq!(c.left_ms(Color::White, 50_000), 180_000 - 5_000);
}

#[test]
fn an_outage_shifts_the_first_move_wait() {
    let mut c = blitz();
    c.start(Color::White, 0);
    let before = c.deadline_ms().expect("a deadline");
    c.credit_outage(10_000, 40_000);
    assert_eq!(c.deadline_ms(), Some(before + 30_000));
}

#[test]
fn controls_outside_the_offered_ranges_are_refused() {
    let rt = |initial_s, increment_s| {
        TimeControl::Realtime {
            initial_s,
            increment_s,
        }
        .validate()
    };
    assert!(rt(15, 0).is_ok() && rt(10_800, 60).is_ok());
    assert!(rt(14, 0).is_err() && rt(10_801, 0).is_err());
    assert!(rt(60, -1).is_err() && rt(60, 61).is_err());
    for days in CORRESPONDENCE_DAYS {
        assert!(TimeControl::Correspondence { days }.validate().is_ok());
    }
    for days in [0, 4, 6, 15, -1] {
        let e = TimeControl::Correspondence { days }
            .validate()
            .expect_err("not offered");
        assert!(e.to_string().contains(&format!("{days} days")), "{e}");
    }
    for (m, i) in REALTIME_PRESETS {
        assert!(rt(m * 60, i).is_ok());
    }
    assert_eq!(rt(180, 2).map(TimeControl::label).ok(), Some("3+2".into()));
    assert_eq!(rt(30, 0).map(TimeControl::label).ok(), Some("½+0".into()));
}

#[test]
fn the_stored_form_round_trips_through_json() {
    let mut c = blitz();
    c.start(Color::Black, 123);
    let text = serde_json::to_string(&c).expect("json");
    let back: Clock = serde_json::from_str(&text).expect("parse");
    assert_eq!(back, c);
    assert_eq!(back.control().label(), "3+2");
    let tc: TimeControl =
        serde_json::from_str(r#"{"kind":"realtime","initial_s":300,"increment_s":3}"#)
            .expect("parse");
    assert_eq!(tc.speed(), Some(Speed::Realtime));
    assert!(
        serde_json::from_str::<TimeControl>(r#"{"kind":"blitz"}"#).is_err(),
        "unknown kinds are refused"
    );
    let unlimited: TimeControl =
        serde_json::from_str(r#"{"kind":"unlimited"}"#).expect("unlimited");
    assert_eq!(unlimited, TimeControl::Unlimited {});
    assert_eq!(
        serde_json::to_string(&unlimited).ok().as_deref(),
        Some(r#"{"kind":"unlimited"}"#)
    );
    assert!(
        serde_json::from_str::<TimeControl>(r#"{"kind":"unlimited","days":3}"#).is_err(),
        "extra fields are refused on every kind"
    );
}
