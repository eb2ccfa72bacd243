//! The module's ABI: plain `extern "C"` exports over one [`Session`], strings through linear
//! memory. `web/wasm/icebound-engine.mjs` is its loader; a caller in another language follows
//! the same steps.
//!
//! Strings in: call `icebound_input(len)`, write `len` bytes of UTF-8 at the pointer it
//! returns (re-read the memory's buffer first: the call may grow it), then call the export
//! with the lengths of its string arguments, which lie one after the other in that buffer.
//! `icebound_input` returns 0 (null) for more than [`MAX_INPUT`] bytes or when memory runs
//! out; the buffer is then empty and the next call answers an error.
//! Answers out: every export but `icebound_input` returns a status, 0 for success (the
//! output is JSON text) or 1 for an error (the output is the message; for
//! `icebound_set_position`, JSON `{message, position}` when the rules refused the position,
//! see [`crate::Session::set_position`]), and the output is read from
//! `icebound_output_ptr()`, `icebound_output_len()` bytes, until the next call.
//!
//! No argument, however wrong, traps: a trap leaves the instance unusable (its cells stay
//! borrowed), so every length, level and number is checked before use.
//!
//! Exports (`u32`/`usize` are wasm `i32`, `f64` is `f64`):
//! - `icebound_init()`: registers the clock and a panic hook; call once after instantiating.
//! - `icebound_input(len) -> ptr`.
//! - `icebound_set_position(variant_len, fen_len)`: variant name then position text (empty
//!   for the start position) → [`crate::PositionInfo`].
//! - `icebound_position()` → [`crate::PositionInfo`].
//! - `icebound_legal_moves()` → JSON array of canonical move texts, sorted.
//! - `icebound_board_view()` → [`crate::BoardView`] (the board's moves with their squares).
//! - `icebound_play(moves_len)`: moves separated by spaces → [`crate::PositionInfo`].
//! - `icebound_search(depth, nodes, movetime_ms, hash_mib, keep_table)`: 0 for "no limit" in
//!   each of the first four (`nodes` and `movetime_ms` are `f64` whole numbers, so that JS
//!   needs no BigInt) → [`crate::SearchInfo`]. Calls the import `on_iteration` after each
//!   iteration.
//! - `icebound_choose_move(level, seed)`: the move of strength level 1-8 (`seed` an `f64`
//!   whole number up to 2^53 - 1, JavaScript's `Number.MAX_SAFE_INTEGER`) →
//!   `{"move": <text or null>}`.
//! - `icebound_solve(max_plies, movetime_ms)`: `movetime_ms` 0 for none →
//!   [`crate::SolveInfo`].
//! - `icebound_output_ptr()`, `icebound_output_len()`.
//!
//! Imports, module `icebound`:
//! - `now_ms() -> f64`: a monotonic clock in milliseconds (`performance.now()`).
//! - `should_stop() -> i32`: asked every 1,024 search nodes (4,096 solver nodes); non-zero
//!   stops the search or the solver, which then answers with its best so far.
//! - `on_iteration(ptr, len) -> i32`: a completed iteration as JSON
//!   ([`crate::IterationInfo`]); non-zero stops the search.
//! - `panic(ptr, len)`: the message of a panic (a bug) just before the module traps.
//!
//! While an export runs (e.g. from `on_iteration`), a second call answers status 1, "busy".

use std::cell::RefCell;

use engine::search::StopFlag;

use crate::{SearchParams, Session, to_json};

#[link(wasm_import_module = "icebound")]
unsafe extern "C" {
    safe fn now_ms() -> f64;
    safe fn should_stop() -> i32;
    fn on_iteration(ptr: *const u8, len: usize) -> i32;
    fn panic(ptr: *const u8, len: usize);
}

thread_local! {
    static SESSION: RefCell<Session> = RefCell::new(Session::new());
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

fn host_now() -> f64 {
    now_ms()
}

fn host_should_stop() -> bool {
    should_stop() != 0
}

/// Registers the host's clock and a panic hook that hands the message to the host.
#[unsafe(no_mangle)]
pub extern "C" fn icebound_init() {
    engine::clock::set_source(host_now);
    std::panic::set_hook(Box::new(|info| {
        let text = info.to_string();
        // SAFETY: the host reads `len` bytes at `ptr`, which `text` keeps alive.
        unsafe { panic(text.as_ptr(), text.len()) };
    }));
}

/// The longest input [`icebound_input`] gives a buffer for, in bytes (16 MiB: a game's moves
/// or a position take a few KiB).
pub const MAX_INPUT: usize = 16 << 20;

/// A buffer of `len` bytes for the next call's string arguments, or null (0) for more than
/// [`MAX_INPUT`] bytes or when memory runs out; see the module doc.
#[unsafe(no_mangle)]
pub extern "C" fn icebound_input(len: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|input| {
        input.clear();
        if len > MAX_INPUT || input.try_reserve_exact(len).is_err() {
            *input = Vec::new();
            return std::ptr::null_mut();
        }
        input.resize(len, 0);
        input.as_mut_ptr()
    })
}

/// The output of the last call.
#[unsafe(no_mangle)]
pub extern "C" fn icebound_output_ptr() -> *const u8 {
    OUTPUT.with_borrow(|out| out.as_ptr())
}

/// The length of the output of the last call, in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn icebound_output_len() -> usize {
    OUTPUT.with_borrow(Vec::len)
}

/// Sets the position: the input holds the variant name (`variant_len` bytes) then the
/// position text (`fen_len` bytes).
#[unsafe(no_mangle)]
pub extern "C" fn icebound_set_position(variant_len: usize, fen_len: usize) -> i32 {
    let strings = input_strings(&[variant_len, fen_len]);
    answer(strings.and_then(|s| {
        with_session(|session| session.set_position(&s[0], &s[1]).map(|p| to_json(&p)))
    }))
}

/// The position.
#[unsafe(no_mangle)]
pub extern "C" fn icebound_position() -> i32 {
    answer(with_session(|session| Ok(to_json(&session.position()))))
}

/// The legal moves.
#[unsafe(no_mangle)]
pub extern "C" fn icebound_legal_moves() -> i32 {
    answer(with_session(|session| Ok(to_json(&session.legal_moves()))))
}

/// The position as the board shows it.
#[unsafe(no_mangle)]
pub extern "C" fn icebound_board_view() -> i32 {
    answer(with_session(|session| Ok(to_json(&session.board_view()))))
}

/// Plays the moves in the input (`moves_len` bytes, separated by spaces).
#[unsafe(no_mangle)]
pub extern "C" fn icebound_play(moves_len: usize) -> i32 {
    let strings = input_strings(&[moves_len]);
    answer(strings.and_then(|s| with_session(|session| session.play(&s[0]).map(|p| to_json(&p)))))
}

/// Searches the position; see the module doc for the arguments.
#[unsafe(no_mangle)]
pub extern "C" fn icebound_search(
    depth: u32,
    nodes: f64,
    movetime_ms: f64,
    hash_mib: u32,
    keep_table: u32,
) -> i32 {
    let params = (|| {
        Ok(SearchParams {
            depth: (depth != 0).then_some(depth),
            nodes: whole("node limit", nodes)?,
            movetime_ms: whole("time limit", movetime_ms)?,
            hash_mib: (hash_mib != 0).then_some(hash_mib as usize),
            keep_table: keep_table != 0,
        })
    })();
    answer(params.and_then(|params| {
        with_session(|session| {
            let stop = StopFlag::polling(host_should_stop);
            let info = session.search(&params, &stop, |it| {
                let text = to_json(it);
                // SAFETY: the host reads `len` bytes at `ptr` during the call, which `text`
                // outlives.
                unsafe { on_iteration(text.as_ptr(), text.len()) != 0 }
            })?;
            Ok(to_json(&info))
        })
    }))
}

/// The engine's move at a strength level (1-8) with a seed (a whole `f64`, up to 2^53):
/// `{"move": "<text>"}`, or `{"move": null}` when the game is over.
#[unsafe(no_mangle)]
pub extern "C" fn icebound_choose_move(level: u32, seed: f64) -> i32 {
    answer(whole("seed", seed).and_then(|seed| {
        with_session(|session| {
            let stop = StopFlag::polling(host_should_stop);
            let mv = session.choose_move(level, seed.unwrap_or(0), &stop)?;
            Ok(to_json(&serde_json::json!({ "move": mv })))
        })
    }))
}

/// Solves the position; see the module doc.
#[unsafe(no_mangle)]
pub extern "C" fn icebound_solve(max_plies: u32, movetime_ms: f64) -> i32 {
    answer(whole("time limit", movetime_ms).and_then(|ms| {
        with_session(|session| {
            let stop = StopFlag::polling(host_should_stop);
            session.solve(max_plies, ms, &stop).map(|s| to_json(&s))
        })
    }))
}

/// The largest whole number a JavaScript number holds exactly, 2^53 - 1
/// (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// `value` as a whole number, `None` for 0.
fn whole(what: &str, value: f64) -> Result<Option<u64>, String> {
    if !value.is_finite() || value < 0.0 || value.fract() != 0.0 || value > MAX_SAFE_INTEGER {
        return Err(format!(
            "the {what} must be a whole number from 0 (none) to 2^53 - 1, not {value}"
        ));
    }
    Ok((value != 0.0).then_some(value as u64))
}

/// The input buffer cut into strings of the given lengths.
fn input_strings(lengths: &[usize]) -> Result<Vec<String>, String> {
    INPUT.with_borrow(|input| {
        let total = lengths
            .iter()
            .try_fold(0usize, |sum, &len| sum.checked_add(len));
        let Some(total) = total.filter(|&total| total <= input.len()) else {
            return Err(format!(
                "the arguments' lengths ({lengths:?} bytes) pass the input's {} bytes",
                input.len()
            ));
        };
        let mut at = 0;
        let mut out = Vec::with_capacity(lengths.len());
        for &len in lengths {
            let text = std::str::from_utf8(&input[at..at + len])
                .map_err(|e| format!("an argument is not UTF-8: {e}"))?;
            out.push(text.to_string());
            at += len;
        }
        Ok(out)
    })
}

fn with_session(f: impl FnOnce(&mut Session) -> Result<String, String>) -> Result<String, String> {
    SESSION.with(|cell| match cell.try_borrow_mut() {
        Ok(mut session) => f(&mut session),
        Err(_) => Err("busy: another call to the engine is running".to_string()),
    })
}

/// Stores the answer in the output and returns its status.
fn answer(result: Result<String, String>) -> i32 {
    let (status, text) = match result {
        Ok(json) => (0, json),
        Err(message) => (1, message),
    };
    OUTPUT.with_borrow_mut(|out| {
        out.clear();
        out.extend_from_slice(text.as_bytes());
    });
    status
}
