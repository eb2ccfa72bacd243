// SPDX-License-Identifier: AGPL-3.0-or-later
// The engine's WebAssembly module against the native engine's expectations, under Node.js.
//
//   node web/wasm/test.mjs <module.wasm> <fixture.json>
//
// The fixture is written by crates/engine-wasm/tests/node.rs (`cargo test -p engine-wasm`
// runs both): for each game, positions with their sorted legal moves and the position after
// each move, and positions with the native engine's best move and score at a fixed depth
// (one thread, a fresh table of the same size). Prints one line per check that failed and a
// summary as its last line; exits 1 on any failure.

import { readFileSync } from "node:fs";
import { loadEngine, EngineError } from "./icebound-engine.mjs";

const [wasmPath, fixturePath] = process.argv.slice(2);
if (!wasmPath || !fixturePath) {
  console.error("usage: node web/wasm/test.mjs <module.wasm> <fixture.json>");
  process.exit(2);
}
const fixture = JSON.parse(readFileSync(fixturePath, "utf8"));
const engine = await loadEngine(readFileSync(wasmPath));

let failures = 0;
function fail(message) {
  failures += 1;
  if (failures <= 40) console.log(`FAIL ${message}`);
}
function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

let movePositions = 0;
let searches = 0;
for (const [variant, game] of Object.entries(fixture.games)) {
  // Legal moves, and the position after each one.
  for (const { fen, moves, after } of game.moves) {
    movePositions += 1;
    const info = engine.setPosition(variant, fen);
    if (info.fen !== fen) fail(`${variant} ${fen}: read back as ${info.fen}`);
    const got = engine.legalMoves();
    if (!same(got, moves)) {
      fail(`${variant} ${fen}: legal moves ${JSON.stringify(got)}, native ${JSON.stringify(moves)}`);
      continue;
    }
    if (!same(info.legalMoves, moves)) fail(`${variant} ${fen}: setPosition's legalMoves differ`);
    const gotAfter = moves.map((mv) => {
      engine.setPosition(variant, fen);
      return engine.play(mv).fen;
    });
    if (!same(gotAfter, after)) {
      fail(`${variant} ${fen}: positions after the moves ${JSON.stringify(gotAfter)}, native ${JSON.stringify(after)}`);
    }
  }
  if (game.moves.length === 0) fail(`${variant}: the fixture has no positions`);

  // Best move and score at a fixed depth, fresh table, one thread.
  for (const { fen, best, score, nodes } of game.search) {
    searches += 1;
    engine.setPosition(variant, fen);
    let iterations = 0;
    const r = engine.search({ depth: fixture.depth, hashMiB: fixture.hash_mib }, () => {
      iterations += 1;
      return false;
    });
    if (r.best !== best || r.score !== score || r.nodes !== nodes) {
      fail(
        `${variant} ${fen}: depth ${fixture.depth} gives ${r.best} (${r.score}, ${r.nodes} nodes), ` +
          `native ${best} (${score}, ${nodes} nodes)`,
      );
    }
    if (iterations === 0 || r.depth === 0) fail(`${variant} ${fen}: no iteration was reported`);
  }
}

// A game between two engines of the same level, as the native engine plays it.
let games = 0;
for (const [variant, { game }] of Object.entries(fixture.games)) {
  engine.setPosition(variant, "");
  const played = [];
  for (let ply = 0; ply < game.moves.length + 1; ply++) {
    const mv = engine.chooseMove(game.level, ply);
    if (mv === null) break;
    played.push(mv);
    engine.play(mv);
    if (played.length === game.moves.length) break;
  }
  if (!same(played, game.moves)) {
    const at = played.findIndex((m, i) => m !== game.moves[i]);
    fail(`${variant} level ${game.level} game: ply ${at} is ${played[at]}, native ${game.moves[at]}`);
  }
  if (engine.position().outcome !== game.outcome) {
    fail(`${variant} level ${game.level} game ends ${engine.position().outcome}, native ${game.outcome}`);
  }
  games += 1;
}

// The seed's worked example 1, "Black begins and wins" (/work/shared/seeds, the quick rules:
// "1. ...cb6 ... 2. ... a7xc5xe3xc1#"), in the position docs/rules/antarctos.md gives it and
// crates/antarctos/tests/worked_examples.rs plays.
const example1 = { fen: "B:Wa5,d2,d4:Ba7,c7", line: ["c7-b6", "a5xc7", "a7xc5xe3xc1"] };
engine.setPosition("antarctos", example1.fen);
const proof = engine.solve({ maxPlies: 10 });
if (proof.result !== "win" || proof.plies !== 3 || !same(proof.line, example1.line)) {
  fail(`example 1: the solver says ${JSON.stringify(proof)}, the seed ${example1.line.join(" ")}`);
}
if (proof.text !== "win in 3 plies: 1... c7-b6 2. a5xc7 a7xc5xe3xc1#") {
  fail(`example 1: the proof reads '${proof.text}'`);
}
const end = engine.play(example1.line);
if (end.outcome === null || !end.outcome.startsWith("0-1")) {
  fail(`example 1: after the line the outcome is ${end.outcome}`);
}
engine.setPosition("antarctos", example1.fen);
// The board's view (the page's moves with their squares, as the server's /api/positions).
const view = engine.boardView();
const b6 = view.legal.find((m) => m.text === "c7-b6");
if (view.turn !== "black" || view.result !== null || !b6 || !same(b6.path, ["c7", "b6"])) {
  fail(`example 1: the board's view is ${JSON.stringify(view)}`);
}
engine.play(example1.line);
const over = engine.boardView();
if (over.legal.length !== 0 || over.result?.winner !== "black" || over.result?.reason !== "breakthrough") {
  fail(`example 1: after the line the board's view is ${JSON.stringify(over)}`);
}
engine.setPosition("antarctos", example1.fen);
const line = engine.search({ depth: 4 }).pv;
if (!same(line, example1.line)) fail(`example 1: the search's line is ${line.join(" ")}`);

// Bad input is an error with a message, never a trap, and leaves the position as it was.
engine.setPosition("antarctos", example1.fen);
for (const [what, call] of [
  ["a bad variant", () => engine.setPosition("chess", "")],
  ["a bad position", () => engine.setPosition("iceage", "rnbqkbnr/pppppppp w")],
  ["a bad move", () => engine.play("c7-c5")],
  ["a move after the end", () => engine.play("c7-b6 a5xc7 a7xc5xe3xc1 c1-d2")],
  ["a bad depth", () => engine.search({ depth: 500 })],
  ["a fractional node limit", () => engine.search({ nodes: 1.5 })],
  ["a bad table size", () => engine.search({ depth: 1, hashMiB: 5000 })],
  ["bad solver plies", () => engine.solve({ maxPlies: 0 })],
]) {
  try {
    call();
    fail(`${what} was accepted`);
  } catch (e) {
    if (!(e instanceof EngineError) || e.message.length === 0) fail(`${what}: ${e}`);
  }
}
if (engine.position().fen !== "B:Wd2,d4,a5:Ba7,c7") fail(`bad input changed the position`);
// The raw exports, as a loader written from the ABI's doc calls them: wrong lengths, a huge
// input, a level past a byte and a seed past 2^53 - 1 are errors, never a trap, and the
// instance answers the next call.
{
  const outText = (x) =>
    new TextDecoder().decode(new Uint8Array(x.memory.buffer, x.icebound_output_ptr(), x.icebound_output_len()));
  const raw = (await WebAssembly.instantiate(engine.module, {
    icebound: { now_ms: () => performance.now(), should_stop: () => 0, on_iteration: () => 0, panic: () => {} },
  })).exports;
  raw.icebound_init();
  for (const [what, call, words] of [
    ["lengths that wrap", () => (raw.icebound_input(10), raw.icebound_set_position(0xffffffff, 2)), "pass the input"],
    ["lengths past the input", () => (raw.icebound_input(3), raw.icebound_set_position(2, 2)), "pass the input"],
    ["a huge input", () => (raw.icebound_input(0xfffffff0) === 0 ? raw.icebound_play(5) : -1), "pass the input"],
    ["a level past a byte", () => raw.icebound_choose_move(257, 1), "not 257"],
    ["a seed past 2^53 - 1", () => raw.icebound_choose_move(1, 2 ** 53), "2^53 - 1"],
  ]) {
    let status;
    try {
      status = call();
    } catch (e) {
      fail(`${what}: the module trapped (${e})`);
      continue;
    }
    if (status !== 1 || !outText(raw).includes(words)) fail(`${what}: status ${status}, '${outText(raw)}'`);
  }
  if (raw.icebound_legal_moves() !== 0 || JSON.parse(outText(raw)).length === 0) {
    fail(`after the bad calls the module does not answer: ${outText(raw)}`);
  }
}


// Stopping: the iteration callback's `true`, and the shared stop cell.
engine.setPosition("iceage", "");
const stoppedByCallback = engine.search({ depth: 30 }, (it) => it.depth >= 3);
if (!stoppedByCallback.stopped || stoppedByCallback.depth < 3 || stoppedByCallback.depth > 4) {
  fail(`a callback's stop: ${JSON.stringify(stoppedByCallback)}`);
}
const cell = new Int32Array(new SharedArrayBuffer(4));
const stoppable = await loadEngine(engine.module, { stopCell: cell });
stoppable.setPosition("iceage", "");
const stoppedByCell = stoppable.search({ depth: 30 }, (it) => {
  if (it.depth === 2) Atomics.store(cell, 0, 1);
  return false;
});
if (!stoppedByCell.stopped || stoppedByCell.depth > 3 || stoppedByCell.best === null) {
  fail(`the stop cell: ${JSON.stringify(stoppedByCell)}`);
}
stoppable.setPosition("antarctos", "");
const solveStopped = stoppable.solve({ maxPlies: 60 });
if (!solveStopped.stopped || solveStopped.result !== "unknown") {
  fail(`the stop cell did not stop the solver: ${JSON.stringify(solveStopped)}`);
}

// The worker (engine-worker.mjs) on its own thread, stopped from this one through the cell.
{
  const { Worker } = await import("node:worker_threads");
  const worker = new Worker(new URL("./engine-worker.mjs", import.meta.url));
  const stopBuffer = new SharedArrayBuffer(4);
  const replies = [];
  let wake = null;
  worker.on("message", (m) => {
    if (m.type === "iteration" && m.iteration.depth >= 4) Atomics.store(new Int32Array(stopBuffer), 0, 1);
    replies.push(m);
    wake?.();
  });
  const next = async (type) => {
    for (;;) {
      const i = replies.findIndex((m) => m.type === type || m.type === "error");
      if (i >= 0) return replies.splice(i, 1)[0];
      await new Promise((resolve) => (wake = resolve));
    }
  };
  worker.postMessage({ type: "init", module: engine.module, stopBuffer });
  const ready = await next("ready");
  if (ready.type !== "ready") fail(`the worker did not load: ${ready.error}`);
  worker.postMessage({ id: 1, method: "setPosition", args: ["iceage", ""] });
  worker.postMessage({ id: 2, method: "search", args: [{ depth: 60 }] });
  worker.postMessage({ id: 3, method: "play", args: ["e2e5"] });
  const set = await next("result");
  const searched = await next("result");
  const bad = await next("error");
  const iterations = replies.filter((m) => m.type === "iteration" && m.id === 2).length;
  if (set.id !== 1 || set.value.legalMoves.length === 0) fail(`worker setPosition: ${JSON.stringify(set)}`);
  if (searched.id !== 2 || !searched.value.stopped || searched.value.depth < 4 || searched.value.depth > 12) {
    fail(`worker search stopped through the cell: ${JSON.stringify(searched)}`);
  }
  if (iterations < 4) fail(`the worker sent ${iterations} iterations`);
  if (bad.id !== 3 || !bad.error.includes("e2e5")) fail(`worker bad move: ${JSON.stringify(bad)}`);
  await worker.terminate();
}

if (failures > 0) {
  console.log(`FAILED: ${failures} checks`);
  process.exit(1);
}
console.log(`ok: ${movePositions} move positions, ${searches} searches, ${games} level games, example 1 proved`);
