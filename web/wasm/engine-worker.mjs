// SPDX-License-Identifier: AGPL-3.0-or-later
// The engine in a worker: a module Web Worker in the browser
// (`new Worker(url, { type: "module" })`; web/build.mjs bundles this file as
// dist/assets/engine-worker.js and web/src/engine/client.ts drives it), or a Node.js worker
// thread (the Node test uses it).
// It owns one IceboundEngine (./icebound-engine.mjs) and answers messages:
//
//   → { type: "init", module, stopBuffer? }
//       module: a WebAssembly.Module (postMessage clones it cheaply), the module's bytes, or its
//       URL; stopBuffer: a SharedArrayBuffer of at least 4 bytes, the stop cell (only where the
//       page is cross-origin isolated).
//   ← { type: "ready" } or { type: "error", error }
//   → { id, method, args }   method: setPosition, position, boardView, legalMoves, play, search,
//                            solve, chooseMove;
//                            args: that method's arguments (search: [limits]; solve: [opts])
//   ← { id, type: "iteration", iteration }   after each completed iteration of a search
//   ← { id, type: "result", value }  or  { id, type: "error", error }
//
// Requests run one at a time, in order. To stop a search or a solve: set the stop cell
// (`Atomics.store(new Int32Array(stopBuffer), 0, 1)`; clear it before the next search) or,
// without one, terminate the worker and start another with the same module.

import { loadEngine } from "./icebound-engine.mjs";

const isWebWorker = typeof self !== "undefined" && typeof self.postMessage === "function";
const port = isWebWorker ? self : (await import("node:worker_threads")).parentPort;
const post = (message) => port.postMessage(message);
const listen = (handler) =>
  isWebWorker ? self.addEventListener("message", (e) => handler(e.data)) : port.on("message", handler);

const METHODS = new Set([
  "setPosition",
  "position",
  "boardView",
  "legalMoves",
  "play",
  "search",
  "solve",
  "chooseMove",
]);
let engine = null;

listen(async (message) => {
  if (message?.type === "init") {
    try {
      const stopCell = message.stopBuffer ? new Int32Array(message.stopBuffer) : undefined;
      engine = await loadEngine(message.module, { stopCell });
      post({ type: "ready" });
    } catch (e) {
      post({ type: "error", error: String(e?.message ?? e) });
    }
    return;
  }
  const { id, method, args = [] } = message ?? {};
  if (engine === null) {
    post({ id, type: "error", error: "the engine is not loaded: send init first" });
    return;
  }
  if (!METHODS.has(method)) {
    post({ id, type: "error", error: `unknown method '${method}'` });
    return;
  }
  try {
    const value =
      method === "search"
        ? engine.search(args[0] ?? {}, (iteration) => {
            post({ id, type: "iteration", iteration });
            return false;
          })
        : engine[method](...args);
    post({ id, type: "result", value });
  } catch (e) {
    post({ id, type: "error", error: String(e?.message ?? e) });
  }
});
