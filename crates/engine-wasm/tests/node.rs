//! The WebAssembly build against the native engine, under Node.js: this test writes the
//! native expectations to a fixture (JSON) and runs `web/wasm/test.mjs`, which loads the
//! built module (`web/wasm/icebound_engine.wasm`, from `scripts/build-wasm.sh`) and checks,
//! for both games:
//! - the legal moves, and the position after each of them, on 200 positions taken from the
//!   rules crates' tests (every string literal in `crates/<game>/tests` that reads as a
//!   position, then positions a few plies on from those until there are 200);
//! - the best move (and score) at depth [`DEPTH`] on 50 of them, against a fresh one-thread
//!   `engine::Searcher` with the same table size (what `icebound analyze --depth D
//!   --threads 1 --hash 16` runs);
//! - a game between two engines of level 2 (seed = ply), move by move;
//! - the seed's worked example 1 proved by the solver with the seed's line.
//!
//! Without the built module or without `node`, the test fails under `CI=true` and is
//! skipped with a message otherwise. `ICEBOUND_WASM` names another module file.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use antarctos::Antarctos;
use engine::{EngineVariant, Limits, Searcher};
use game::Variant;
use iceage::IceAge;
use serde_json::{Value, json};

/// Positions per game for the legal-move comparison.
const MOVE_POSITIONS: usize = 200;
/// Positions per game for the best-move comparison.
const SEARCH_POSITIONS: usize = 50;
/// Depth of the best-move comparison, in plies.
const DEPTH: u32 = 6;
/// Level of the engine games compared move by move.
const GAME_LEVEL: u8 = 2;
/// Longest engine game compared, in plies.
const GAME_PLIES: u64 = 160;
/// Table size of both sides of the best-move comparison, in MiB (the wasm default).
const HASH_MIB: usize = engine_wasm::DEFAULT_HASH_MIB;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The contents of every string literal in the `.rs` files under `dir` (escapes `\"` and
/// `\\` undone; other escapes kept as written, which no position text has).
fn string_literals(dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            string_literals(&path, out);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("test source");
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c != '"' {
                continue;
            }
            let mut s = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => match chars.next() {
                        Some(e @ ('"' | '\\')) => s.push(e),
                        Some(e) => {
                            s.push('\\');
                            s.push(e);
                        }
                        None => break,
                    },
                    c => s.push(c),
                }
            }
            out.push(s);
        }
    }
}

/// `count` positions of `V`: the test positions of its rules crate, then positions reached
/// from them by a fixed walk (a linear congruential choice of moves), without duplicates.
fn positions<V: Variant>(crate_dir: &str, count: usize) -> Vec<V::Position> {
    let mut literals = Vec::new();
    string_literals(
        &repo().join("crates").join(crate_dir).join("tests"),
        &mut literals,
    );
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for text in literals {
        if text.trim().is_empty() || text.len() > 200 {
            continue;
        }
        if let Ok(pos) = V::parse_position(&text)
            && seen.insert(V::position_text(&pos))
        {
            out.push(pos);
        }
    }
    let from_tests = out.len();
    assert!(
        from_tests >= 20,
        "only {from_tests} test positions of {}",
        V::NAME
    );
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut i = 0;
    while out.len() < count && i < 100 * count {
        let mut pos = out[i % from_tests].clone();
        i += 1;
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let plies = 1 + (state >> 60) as usize % 8;
        for _ in 0..plies {
            let moves = V::legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            pos = V::play_unchecked(&pos, &moves[(state >> 33) as usize % moves.len()]);
        }
        if seen.insert(V::position_text(&pos)) {
            out.push(pos);
        }
    }
    out.truncate(count);
    assert_eq!(out.len(), count, "{}: not enough positions", V::NAME);
    println!(
        "{}: {} positions from crates/{crate_dir}/tests, {} reached from them",
        V::NAME,
        from_tests.min(count),
        count - from_tests.min(count)
    );
    out
}

/// The native expectations of one game.
fn game_fixture<V: EngineVariant>(crate_dir: &str) -> Value {
    let all = positions::<V>(crate_dir, MOVE_POSITIONS);
    let moves: Vec<Value> = all
        .iter()
        .map(|pos| {
            let mut after: Vec<(String, String)> = V::legal_moves(pos)
                .iter()
                .map(|m| {
                    let next = V::play(pos, m).expect("a legal move plays");
                    (V::move_text(pos, m), V::position_text(&next))
                })
                .collect();
            after.sort();
            json!({
                "fen": V::position_text(pos),
                "moves": game::sorted_move_texts::<V>(pos),
                "after": after.into_iter().map(|(_, fen)| fen).collect::<Vec<_>>(),
            })
        })
        .collect();
    let open: Vec<&V::Position> = all.iter().filter(|p| V::outcome(p).is_none()).collect();
    assert!(
        open.len() >= SEARCH_POSITIONS,
        "{}: too few open positions",
        V::NAME
    );
    let step = open.len() / SEARCH_POSITIONS;
    let search: Vec<Value> = (0..SEARCH_POSITIONS)
        .map(|k| {
            let pos = open[k * step];
            let table = Arc::new(engine::tt::Table::new(HASH_MIB));
            let limits = Limits {
                depth: Some(DEPTH),
                ..Limits::default()
            };
            let result = Searcher::<V>::with_table(table, 1).search(pos, &limits, |_| {});
            let best = result.best.as_ref().expect("an open position has a move");
            json!({
                "fen": V::position_text(pos),
                "best": V::move_text(pos, best),
                "score": result.score,
                "nodes": result.nodes,
            })
        })
        .collect();
    json!({ "moves": moves, "search": search, "game": level_game::<V>() })
}

/// A game from the start between two engines of level [`GAME_LEVEL`] (the site's
/// settings: `EngineConfig::level`, seed = the ply), to its end or [`GAME_PLIES`] plies.
fn level_game<V: EngineVariant>() -> Value {
    let mut pos = V::start_position();
    let mut moves = Vec::new();
    for ply in 0..GAME_PLIES {
        let mut config = engine::EngineConfig::level(GAME_LEVEL);
        config.seed = ply;
        let Some(mv) = engine::choose_move::<V>(&pos, &config) else {
            break;
        };
        moves.push(V::move_text(&pos, &mv));
        pos = V::play(&pos, &mv).expect("the engine's move is legal");
    }
    json!({
        "level": GAME_LEVEL,
        "moves": moves,
        "outcome": V::outcome(&pos).map(|o| o.to_string()),
    })
}

fn fixture() -> Value {
    json!({
        "depth": DEPTH,
        "hash_mib": HASH_MIB,
        "games": {
            "antarctos": game_fixture::<Antarctos>("antarctos"),
            "iceage": game_fixture::<IceAge>("iceage"),
        },
    })
}

/// Fails under `CI=true`, otherwise says why the test is skipped.
fn unavailable(why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{why} (CI=true: the wasm build is required; .ci/setup-wasm.sh builds it)");
    }
    // Written to the process's stderr, past the test harness's capture, so that it shows.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED engine-wasm node test: {why} (it fails instead under CI=true)"
    );
}

#[test]
fn wasm_module_under_node_matches_native_engine() {
    let wasm = std::env::var_os("ICEBOUND_WASM")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("web/wasm/icebound_engine.wasm"));
    if !wasm.is_file() {
        return unavailable(&format!(
            "{} is missing; build it with scripts/build-wasm.sh",
            wasm.display()
        ));
    }
    if Command::new("node").arg("--version").output().is_err() {
        return unavailable("node (Node.js) is not on PATH");
    }
    let dir = std::env::temp_dir().join(format!("icebound-wasm-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let fixture_path = match std::env::var_os("ICEBOUND_WASM_FIXTURE") {
        // Keeps the fixture where asked (for running web/wasm/test.mjs by hand).
        Some(path) => PathBuf::from(path),
        None => dir.join("fixture.json"),
    };
    std::fs::write(&fixture_path, fixture().to_string()).expect("fixture written");
    let out = Command::new("node")
        .arg(repo().join("web/wasm/test.mjs"))
        .arg(&wasm)
        .arg(&fixture_path)
        .output()
        .expect("node runs");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(
        out.status.success(),
        "web/wasm/test.mjs failed (a module older than the engine's sources fails too: rebuild it \
         with scripts/build-wasm.sh): {stderr}"
    );
    // The script's last line is its summary; it must have checked every position.
    let summary = stdout.lines().last().unwrap_or_default();
    let expected = format!(
        "ok: {} move positions, {} searches, 2 level games, example 1 proved",
        2 * MOVE_POSITIONS,
        2 * SEARCH_POSITIONS
    );
    assert_eq!(summary, expected);
}
