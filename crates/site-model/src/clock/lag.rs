//! Lag compensation by a quota (issue 38), after the idea of lichess's `LagTracker` (lila,
//! scalachess): each player of a real-time game holds a quota of network time. The client
//! sends its own estimate of a move's lag (the page measures its socket's round trips); the
//! server takes from the quota at most what was claimed, and never more than the quota holds.
//! Each move adds a gain to the quota, up to a cap. A client that claims huge lag gets at most
//! the quota; a client that claims none (or an instant bot) is charged its whole time.
//!
//! The gain depends on the control's expected length, `initial + 40 × increment` seconds: 4 ms
//! per such second plus 150 ms, at most 1 s (lila's `(base + 40 inc) / 2.5 + 15` centiseconds,
//! capped at 100). The quota starts at three gains and holds at most seven.
//!
//! | control | gain | start | cap |
//! |---|---|---|---|
//! | ¼+0 | 210 ms | 630 ms | 1,470 ms |
//! | 1+0 | 390 ms | 1,170 ms | 2,730 ms |
//! | 3+0 | 870 ms | 2,610 ms | 6,090 ms |
//! | 3+2 and longer | 1,000 ms | 3,000 ms | 7,000 ms |

/// The most a quota gains per move, ms.
pub const MAX_GAIN_MS: i64 = 1_000;
/// The quota at the start, in gains.
pub const START_GAINS: i64 = 3;
/// The most a quota holds, in gains.
pub const MAX_GAINS: i64 = 7;
/// The most lag a client may claim for one move, ms (a larger claim is read as this).
pub const MAX_CLAIM_MS: i64 = 60_000;

/// The quota's gain per move for a control of `initial_ms` and `increment_ms`, ms.
pub fn gain_ms(initial_ms: i64, increment_ms: i64) -> i64 {
    let expected_s = (initial_ms + 40 * increment_ms) / 1000;
    (expected_s * 4 + 150).clamp(0, MAX_GAIN_MS)
}

/// A quota at the start of a game with that gain, ms.
pub fn start_ms(gain_ms: i64) -> i64 {
    gain_ms * START_GAINS
}

/// What a move with `claimed_ms` of lag (the client's word, `None`: none claimed) and
/// `elapsed_ms` on the clock takes from a quota of `quota_ms` with gain `gain_ms`: the time
/// forgiven, and the quota after the move. Never more than was claimed, than the quota held,
/// or than the move's elapsed time.
pub fn compensate(
    quota_ms: i64,
    gain_ms: i64,
    claimed_ms: Option<i64>,
    elapsed_ms: i64,
) -> (i64, i64) {
    let claimed = claimed_ms.unwrap_or(0).clamp(0, MAX_CLAIM_MS);
    let comp = claimed.min(quota_ms.max(0)).min(elapsed_ms.max(0));
    let quota = (quota_ms - comp + gain_ms).min(gain_ms * MAX_GAINS);
    (comp, quota)
}
