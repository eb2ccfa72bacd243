// SPDX-License-Identifier: AGPL-3.0-or-later
// Search speed of the engine natively and under Node.js's WebAssembly, on the same fixed
// positions (those of crates/engine/benches/search.rs) to the same node limit, one thread, a
// fresh 16 MiB table per search, the same Rust code on both sides (engine_wasm::Session).
//
//   scripts/build-wasm.sh
//   cargo build --release -p engine-wasm --example bench_native
//   node web/wasm/bench.mjs [--nodes 1000000] [--rounds 3] [--wasm path] [--native path]
//
// Each round searches every position natively (one process for the round) then in wasm; a
// position's time is its best round's on each side, so that a burst of load from another
// process costs less. Nodes per second = the nodes of a game's positions / their time, where
// time is the search's own (from its start to its end, the table already allocated). Prints a
// table and, last, one JSON line with the figures.

import { readFileSync, existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadEngine } from "./icebound-engine.mjs";

const repo = join(dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
function option(name, fallback) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}
const nodes = Number(option("nodes", "1000000"));
const rounds = Number(option("rounds", "3"));
const wasmPath = option("wasm", join(repo, "web/wasm/icebound_engine.wasm"));
const nativePath = option("native", join(repo, "target/release/examples/bench_native"));
if (!Number.isInteger(nodes) || nodes < 1 || !Number.isInteger(rounds) || rounds < 1) {
  console.error("--nodes and --rounds must be whole numbers of at least 1");
  process.exit(2);
}
for (const [what, path, how] of [
  ["the wasm module", wasmPath, "scripts/build-wasm.sh"],
  ["the native bench", nativePath, "cargo build --release -p engine-wasm --example bench_native"],
]) {
  if (!existsSync(path)) {
    console.error(`${what} ${path} is missing: build it with ${how}`);
    process.exit(2);
  }
}

// crates/engine/benches/search.rs: start, an opening, a middlegame with ice, an ending.
const positions = [
  ["antarctos", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"],
  ["antarctos", "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,g3,f4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"],
  ["antarctos", "W:Wa1,c1,e1,g1,b2,d2,c3,g3,b4,d4,h4:Ba5,e5,f6,h6,a7,c7,e7,b8,d8,f8,h8:Ie3,f4"],
  ["antarctos", "W:Wa1,c1,e1,b2,d2,f2:Bf6,h6,a7,c7,e7,g7"],
  ["iceage", "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1"],
  ["iceage", "r1bqkbnr/pppppppp/**n*****/********/********/***P****/PPPP1PPP/RNBQKBNR w KQkq - 1 2"],
  ["iceage", "r3k2r/ppp2ppp/2n1bn2/3p4/3P4/2N1BN2/PPP2PPP/R3K2R w KQkq - 0 9"],
  ["iceage", "8/5pk1/6p1/8/3K4/8/5P2/8 w - - 0 38"],
].map(([variant, fen]) => ({ variant, fen }));

const engine = await loadEngine(readFileSync(wasmPath));
const best = { native: positions.map(() => null), wasm: positions.map(() => null) };
function keep(side, i, r) {
  const old = best[side][i];
  if (old !== null && old.nodes !== r.nodes) {
    throw new Error(`${side} ${positions[i].fen}: ${r.nodes} nodes, an earlier round ${old.nodes}`);
  }
  if (old === null || r.time_ms < old.time_ms) best[side][i] = r;
}

for (let round = 0; round < rounds; round++) {
  const native = spawnSync(nativePath, [String(nodes)], {
    input: JSON.stringify(positions),
    encoding: "utf8",
  });
  if (native.status !== 0) {
    console.error(`the native bench failed: ${native.stderr}`);
    process.exit(1);
  }
  JSON.parse(native.stdout).forEach((r, i) => keep("native", i, r));
  positions.forEach(({ variant, fen }, i) => {
    engine.setPosition(variant, fen);
    const r = engine.search({ nodes });
    keep("wasm", i, { nodes: r.nodes, time_ms: r.timeMs, best: r.best });
  });
}

const summary = {};
console.log(`node limit ${nodes}, best of ${rounds} rounds, one thread, fresh 16 MiB table`);
console.log("game        position                                   native n/s   wasm n/s   wasm/native");
for (const variant of ["antarctos", "iceage"]) {
  const total = { native: { nodes: 0, ms: 0 }, wasm: { nodes: 0, ms: 0 } };
  positions.forEach((p, i) => {
    if (p.variant !== variant) return;
    const [n, w] = [best.native[i], best.wasm[i]];
    if (n.nodes !== w.nodes || n.best !== w.best) {
      throw new Error(`${p.fen}: native ${n.best} (${n.nodes} nodes), wasm ${w.best} (${w.nodes} nodes)`);
    }
    for (const [side, r] of [["native", n], ["wasm", w]]) {
      total[side].nodes += r.nodes;
      total[side].ms += r.time_ms;
    }
    const nps = (r) => (r.time_ms > 0 ? Math.round((r.nodes * 1000) / r.time_ms) : 0);
    console.log(
      `${variant.padEnd(11)} ${p.fen.slice(0, 42).padEnd(42)} ${String(nps(n)).padStart(12)} ${String(nps(w)).padStart(10)}   ${(nps(w) / nps(n)).toFixed(2)}`,
    );
  });
  const nps = (t) => Math.round((t.nodes * 1000) / t.ms);
  summary[variant] = {
    native_nps: nps(total.native),
    wasm_nps: nps(total.wasm),
    ratio: Number((nps(total.wasm) / nps(total.native)).toFixed(3)),
  };
  console.log(
    `${variant.padEnd(11)} ${"all positions".padEnd(42)} ${String(summary[variant].native_nps).padStart(12)} ${String(summary[variant].wasm_nps).padStart(10)}   ${summary[variant].ratio.toFixed(2)}`,
  );
}
console.log(JSON.stringify({ nodes, rounds, node_version: process.version, ...summary }));
