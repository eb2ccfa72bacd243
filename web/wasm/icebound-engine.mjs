// SPDX-License-Identifier: AGPL-3.0-or-later
// The loader of the engine's WebAssembly module (crates/engine-wasm, built by
// scripts/build-wasm.sh): no wasm-bindgen, no dependencies; runs in Node.js (>= 18), a
// browser page or a Web Worker. The module's ABI is documented in crates/engine-wasm/src/wasm.rs.
//
//   import { loadEngine } from "./icebound-engine.mjs";
//   const engine = await loadEngine(bytesOrUrlOrModule, { stopCell });
//   engine.setPosition("antarctos", "B:Wa5,d2,d4:Ba7,c7");
//   engine.search({ depth: 8 }, (it) => console.log(it.depth, it.scoreText, it.pv));
//   engine.solve({ maxPlies: 20 });
//
// Every call is synchronous and runs to its end on the calling thread: run searches in a Web
// Worker. Stopping a running search or solve, from another thread:
// - `stopCell`: an Int32Array over a SharedArrayBuffer (the page must be cross-origin isolated,
//   COOP/COEP headers); the engine reads `Atomics.load(stopCell, 0)` every 1,024 search nodes
//   (4,096 solver nodes) and stops when it is not 0. The caller owns the cell:
//   `requestStop(stopCell)` sets it, `clearStop(stopCell)` clears it before the next search.
// - the iteration callback returning `true` stops the search after that iteration;
// - without a shared buffer the page terminates the worker and starts another with the same
//   compiled `WebAssembly.Module` (`engine.module`), which takes milliseconds.

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** An error the engine answered with (a bad position, move or limit): `message` says why. */
export class EngineError extends Error {
  constructor(message) {
    super(message);
    this.name = "EngineError";
  }
}

/** Sets a stop cell (an Int32Array over a SharedArrayBuffer): the running search stops. */
export function requestStop(stopCell) {
  Atomics.store(stopCell, 0, 1);
}

/** Clears a stop cell before the next search. */
export function clearStop(stopCell) {
  Atomics.store(stopCell, 0, 0);
}

/**
 * Compiles (if needed) and instantiates the module.
 * @param source a `WebAssembly.Module`, the module's bytes (ArrayBuffer or typed array), a
 *   `Response`, or a URL (string or URL object; fetched, compiled while streaming where the
 *   server sends `Content-Type: application/wasm`).
 * @param options.stopCell optional Int32Array over a SharedArrayBuffer (see above).
 * @param options.now optional clock in milliseconds; default `performance.now()`.
 * @returns {Promise<IceboundEngine>}
 */
export async function loadEngine(source, options = {}) {
  let module;
  if (source instanceof WebAssembly.Module) {
    module = source;
  } else if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    module = await WebAssembly.compile(source);
  } else {
    const response =
      typeof Response !== "undefined" && source instanceof Response ? source : await fetch(source);
    if (!response.ok) {
      throw new EngineError(`cannot load the engine: ${response.status} ${response.statusText}`);
    }
    module =
      WebAssembly.compileStreaming && response.headers.get("Content-Type") === "application/wasm"
        ? await WebAssembly.compileStreaming(response)
        : await WebAssembly.compile(await response.arrayBuffer());
  }
  return new IceboundEngine(module, await instantiate(module, options), options);
}

async function instantiate(module, options) {
  const state = { exports: null, onIteration: null, panicMessage: null };
  const now = options.now ?? (() => performance.now());
  const stopCell = options.stopCell ?? null;
  const imports = {
    icebound: {
      now_ms: () => now(),
      should_stop: () => (stopCell !== null && Atomics.load(stopCell, 0) !== 0 ? 1 : 0),
      on_iteration: (ptr, len) => {
        if (state.onIteration === null) return 0;
        const it = iterationFromJson(JSON.parse(readString(state.exports, ptr, len)));
        return state.onIteration(it) === true ? 1 : 0;
      },
      panic: (ptr, len) => {
        state.panicMessage = readString(state.exports, ptr, len);
      },
    },
  };
  const instance = await WebAssembly.instantiate(module, imports);
  state.exports = instance.exports;
  state.exports.icebound_init();
  return state;
}

function readString(exports, ptr, len) {
  return decoder.decode(new Uint8Array(exports.memory.buffer, ptr, len));
}

function iterationFromJson(j) {
  return {
    depth: j.depth,
    score: j.score,
    scoreText: j.score_text,
    nodes: j.nodes,
    timeMs: j.time_ms,
    pv: j.pv,
  };
}

function positionFromJson(j) {
  return {
    variant: j.variant,
    fen: j.fen,
    sideToMove: j.side_to_move,
    outcome: j.outcome,
    legalMoves: j.legal_moves,
  };
}

/** One engine instance: one position of either game. Methods throw `EngineError` on bad input. */
export class IceboundEngine {
  constructor(module, state, options) {
    /** The compiled module: post it to a new worker to start another engine cheaply. */
    this.module = module;
    this.stopCell = options.stopCell ?? null;
    this._state = state;
  }

  /**
   * Sets the position.
   * @param variant "antarctos" or "iceage"
   * @param fen the position's text (Antarctos `B:Wa5,d2,d4:Ba7,c7`, Ice Age Chess FEN); "" for
   *   the start position
   * @returns {{variant, fen, sideToMove: "white"|"black", outcome: string|null, legalMoves: string[]}}
   */
  setPosition(variant, fen = "") {
    return positionFromJson(this._call("icebound_set_position", [String(variant), String(fen)]));
  }

  /** The position, as `setPosition` returns it. */
  position() {
    return positionFromJson(this._call("icebound_position", []));
  }

  /**
   * The position as a board shows it, in the shape of the server's `POST /api/positions`
   * answer (web/src/api.ts `PositionView`): `{variant, fen, turn, number, legal: [{id, text,
   * path, fen, event}], result: {result, winner, reason, words}|null, capture_compulsory,
   * ice_age_in}`.
   */
  boardView() {
    return this._call("icebound_board_view", []);
  }

  /** Every legal move in canonical text (`c7-b6`, `a7xc5xe3xc1`, `Nf3`), sorted. */
  legalMoves() {
    return this._call("icebound_legal_moves", []);
  }

  /**
   * Plays moves (an array, or one string of moves separated by spaces), all or nothing.
   * @returns the new position, as `setPosition` returns it
   */
  play(moves) {
    const text = Array.isArray(moves) ? moves.join(" ") : String(moves);
    return positionFromJson(this._call("icebound_play", [text]));
  }

  /**
   * Searches the position on this thread.
   * @param limits.depth deepest iteration in plies (1-127)
   * @param limits.nodes node budget
   * @param limits.movetimeMs time budget in milliseconds
   * @param limits.hashMiB transposition table, MiB (default 16)
   * @param limits.keepTable keep the table of the previous search (analysis); default false,
   *   a fresh table, which makes depth and node limits reproducible
   * @param onIteration called after each completed iteration with
   *   `{depth, score, scoreText, nodes, timeMs, pv}`; return `true` to stop
   * @returns `{best, score, scoreText, depth, nodes, timeMs, pv, stopped}`; `best` is null
   *   only when the game is over. Scores are from the side to move, in centi-units, or
   *   `scoreText` "win n" / "loss n" (plies).
   */
  search(limits = {}, onIteration = null) {
    const { depth = 0, nodes = 0, movetimeMs = 0, hashMiB = 0, keepTable = false } = limits;
    this._state.onIteration = onIteration;
    try {
      const j = this._invoke("icebound_search", [], [
        depth >>> 0,
        Number(nodes),
        Number(movetimeMs),
        hashMiB >>> 0,
        keepTable ? 1 : 0,
      ]);
      return {
        best: j.best,
        score: j.score,
        scoreText: j.score_text,
        depth: j.depth,
        nodes: j.nodes,
        timeMs: j.time_ms,
        pv: j.pv,
        stopped: j.stopped,
      };
    } finally {
      this._state.onIteration = null;
    }
  }

  /**
   * The computer opponent's move at a strength level, as the site's (levels 1-8; level 8 keeps
   * its table from one call to the next while the game stays the same).
   * @param level 1 (beginner) to 8 (full strength)
   * @param seed a whole number (0 to 2^53) that varies the levels that randomise
   * @returns the move's canonical text, or null when the game is over
   */
  chooseMove(level, seed = 0) {
    return this._invoke("icebound_choose_move", [], [level >>> 0, Number(seed)]).move;
  }

  /**
   * Proves a forced win or loss for the side to move with the exact solver.
   * @param opts.maxPlies longest proof looked for (1-126; default 20)
   * @param opts.movetimeMs give up after this many milliseconds (default: no limit)
   * @returns `{result: "win"|"loss"|"unknown", plies, line, text, nodes, stopped}`
   */
  solve({ maxPlies = 20, movetimeMs = 0 } = {}) {
    return this._invoke("icebound_solve", [], [maxPlies >>> 0, Number(movetimeMs)]);
  }

  _call(name, strings) {
    return this._invoke(name, strings, []);
  }

  _invoke(name, strings, numbers) {
    const exports = this._state.exports;
    const bytes = strings.map((s) => encoder.encode(s));
    if (bytes.length > 0) {
      const total = bytes.reduce((n, b) => n + b.length, 0);
      const ptr = exports.icebound_input(total);
      if (ptr === 0) throw new EngineError(`the engine takes no input of ${total} bytes`);
      const view = new Uint8Array(exports.memory.buffer, ptr, total);
      let at = 0;
      for (const b of bytes) {
        view.set(b, at);
        at += b.length;
      }
    }
    let status;
    try {
      status = exports[name](...bytes.map((b) => b.length), ...numbers);
    } catch (e) {
      const why = this._state.panicMessage;
      this._state.panicMessage = null;
      // A trap: a bug in the engine. This instance is unusable from here on; load another.
      throw new EngineError(`the engine failed (a bug): ${why ?? e.message}`);
    }
    const text = readString(exports, exports.icebound_output_ptr(), exports.icebound_output_len());
    if (status !== 0) throw new EngineError(text);
    return JSON.parse(text);
  }
}
