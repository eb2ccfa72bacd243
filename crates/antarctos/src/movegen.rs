//! Legal turn generation (A5-A11) on bitboards.
//!
//! The generator walks every legal turn once and hands it to a [`TurnSink`]: the sink
//! decides what a turn becomes (a [`crate::Move`], a child position for perft, a count).
//! All boards are seen from the side to move: `own` men, `opp` (enemy) men, `ice`.

use crate::board::{BOARD, Bits, DIRS, step};

/// Receives the turns of a position, in generation order.
pub(crate) trait TurnSink {
    /// A simple move (A5); `from` and `to` are single-bit boards.
    fn simple(&mut self, from: u64, to: u64);
    /// A jump sequence starts from square bit `from`.
    #[inline(always)]
    fn start(&mut self, _from: u32) {}
    /// The man lands on square bit `land` (one jump further down the sequence).
    #[inline(always)]
    fn push(&mut self, _land: u32) {}
    /// Undoes the last [`TurnSink::push`].
    #[inline(always)]
    fn pop(&mut self) {}
    /// A complete jump sequence from `from` to `to` (single bits; equal when the man came
    /// back to its start, A11), capturing `captured` and jumping the ice `iced`.
    fn jump_end(&mut self, from: u64, to: u64, captured: u64, iced: u64);
}

/// The forward steps of a side (A4/A5): north for White, south for Black.
#[inline(always)]
pub(crate) const fn forward(white: bool) -> [i32; 2] {
    if white { [4, 5] } else { [-4, -5] }
}

/// Men of `own` that can jump over a member of `over` onto an empty square.
#[inline(always)]
pub(crate) fn jumpers(own: u64, over: u64, empty: u64) -> u64 {
    let mut r = 0;
    for d in DIRS {
        r |= step(step(empty, -d) & over, -d);
    }
    r & own
}

/// Empty playable squares.
#[inline(always)]
pub(crate) fn empty_squares(own: u64, opp: u64, ice: u64) -> u64 {
    BOARD & !(own | opp | ice)
}

/// True when the side to move has at least one legal turn (used by A14).
pub(crate) fn has_turn(own: u64, opp: u64, ice: u64, white: bool) -> bool {
    let empty = empty_squares(own, opp, ice);
    let [a, b] = forward(white);
    (step(own, a) | step(own, b)) & empty != 0 || jumpers(own, opp | ice, empty) != 0
}

/// Generates every legal turn of the side to move (A9: if any man can capture, only jump
/// sequences that start with a capture; otherwise simple moves and sequences that start
/// with an ice jump), each exactly once.
pub(crate) fn generate<S: TurnSink>(own: u64, opp: u64, ice: u64, white: bool, sink: &mut S) {
    let empty = empty_squares(own, opp, ice);
    let capturers = jumpers(own, opp, empty);
    if capturers != 0 {
        for b in Bits(capturers) {
            let from = 1u64 << b;
            sink.start(b);
            walk(from, from, opp, ice, empty | from, 0, 0, sink);
        }
        return;
    }
    for d in forward(white) {
        for b in Bits(step(own, d) & empty) {
            let to = 1u64 << b;
            sink.simple(step(to, -d), to);
        }
    }
    for b in Bits(jumpers(own, ice, empty)) {
        let from = 1u64 << b;
        sink.start(b);
        walk(from, from, opp, ice, empty | from, 0, 0, sink);
    }
}

/// Number of legal turns (bulk counting for perft: simple moves by popcount).
pub(crate) fn count_turns(own: u64, opp: u64, ice: u64, white: bool) -> u64 {
    struct Count(u64);
    impl TurnSink for Count {
        #[inline(always)]
        fn simple(&mut self, _: u64, _: u64) {
            self.0 += 1;
        }
        #[inline(always)]
        fn jump_end(&mut self, _: u64, _: u64, _: u64, _: u64) {
            self.0 += 1;
        }
    }
    let empty = empty_squares(own, opp, ice);
    let mut count = Count(0);
    let capturers = jumpers(own, opp, empty);
    if capturers != 0 {
        for b in Bits(capturers) {
            let from = 1u64 << b;
            walk(from, from, opp, ice, empty | from, 0, 0, &mut count);
        }
        return count.0;
    }
    let [a, b] = forward(white);
    count.0 = ((step(own, a) & empty).count_ones() + (step(own, b) & empty).count_ones()) as u64;
    for b in Bits(jumpers(own, ice, empty)) {
        let from = 1u64 << b;
        walk(from, from, opp, ice, empty | from, 0, 0, &mut count);
    }
    count.0
}

/// Continues a jump sequence from `at` (A10): a capture of a man not yet captured this
/// turn if there is one (any of them), else an ice jump if there is one, else the
/// sequence ends. `live` holds the enemy men not yet captured, `ice` the ice not yet
/// jumped (so nothing is jumped twice, A8); `empty` is fixed for the whole turn, start
/// square included (A11): captured men stay on their squares until the turn ends, and a
/// removed ice square is never a landing square (wrong colour parity).
#[allow(clippy::too_many_arguments)]
#[inline]
fn walk<S: TurnSink>(
    at: u64,
    from: u64,
    live: u64,
    ice: u64,
    empty: u64,
    captured: u64,
    iced: u64,
    sink: &mut S,
) {
    let mut jumped = false;
    for d in DIRS {
        let mid = step(at, d) & live;
        if mid != 0 {
            let land = step(mid, d) & empty;
            if land != 0 {
                jumped = true;
                sink.push(land.trailing_zeros());
                walk(
                    land,
                    from,
                    live ^ mid,
                    ice,
                    empty,
                    captured | mid,
                    iced,
                    sink,
                );
                sink.pop();
            }
        }
    }
    if jumped {
        return;
    }
    for d in DIRS {
        let mid = step(at, d) & ice;
        if mid != 0 {
            let land = step(mid, d) & empty;
            if land != 0 {
                jumped = true;
                sink.push(land.trailing_zeros());
                walk(
                    land,
                    from,
                    live,
                    ice ^ mid,
                    empty,
                    captured,
                    iced | mid,
                    sink,
                );
                sink.pop();
            }
        }
    }
    if !jumped {
        sink.jump_end(from, at, captured, iced);
    }
}
