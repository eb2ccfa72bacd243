//! The native side of `web/wasm/bench.mjs`: the same searches as the WebAssembly module, with
//! the same code ([`engine_wasm::Session`], one thread, a fresh 16 MiB table), compiled for
//! this machine.
//!
//! `cargo run --release -p engine-wasm --example bench_native -- <nodes>` reads a JSON array of
//! `{"variant": ..., "fen": ...}` on stdin and prints a JSON array of
//! `{"variant", "fen", "nodes", "time_ms", "best"}`, one per position, in order.

use std::io::Read;

use engine::search::StopFlag;
use engine_wasm::{SearchParams, Session};
use serde_json::{Value, json};

fn main() -> Result<(), String> {
    let nodes: u64 = std::env::args()
        .nth(1)
        .ok_or("usage: bench_native <nodes> < positions.json")?
        .parse()
        .map_err(|e| format!("the node limit: {e}"))?;
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| format!("stdin: {e}"))?;
    let positions: Vec<Value> =
        serde_json::from_str(&input).map_err(|e| format!("stdin is not a JSON array: {e}"))?;
    let mut out = Vec::new();
    for p in &positions {
        let (Some(variant), Some(fen)) = (p["variant"].as_str(), p["fen"].as_str()) else {
            return Err(format!("not a {{variant, fen}} object: {p}"));
        };
        let mut session = Session::new();
        session.set_position(variant, fen)?;
        let params = SearchParams {
            nodes: Some(nodes),
            ..SearchParams::default()
        };
        let r = session.search(&params, &StopFlag::new(), |_| false)?;
        out.push(json!({
            "variant": variant,
            "fen": fen,
            "nodes": r.nodes,
            "time_ms": r.time_ms,
            "best": r.best,
        }));
    }
    println!("{}", Value::Array(out));
    Ok(())
}
