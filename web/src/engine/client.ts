// The engine in the player's browser (issue 42): the WebAssembly module of crates/engine-wasm,
// run in module Web Workers (web/wasm/engine-worker.mjs, bundled by web/build.mjs as
// /assets/engine-worker-<hash>.js, whose name the build gives as ENGINE_WORKER_URL) so that
// the page never freezes.
//
// The module is found through `/engine/manifest.json` (written by crates/site-http/build.rs,
// `{"wasm": "/engine/icebound_engine-<hash>.wasm"}`), compiled once, and handed to each worker.
// A site built without the wasm toolchain has no manifest: `localEngine()` then answers null
// and says so once on the console, and the pages use the server's engine.
//
// Each kind of work has its own worker (a lane): the board's positions, the live search, the
// solver and the computer opponent, so that a long search never holds up a position. The page
// is not cross-origin isolated (no SharedArrayBuffer), so stopping a running search or solve
// ends its worker; the next request starts another from the compiled module (milliseconds).
// The engine offers one principal variation per search (no multi-PV).

import type { At, BoardView, Iteration, SearchInfo, SearchLimits, SolveInfo } from './types';
import type { PositionFault } from '../api';

export type { At, BoardView, Iteration, SearchInfo, SearchLimits, SolveInfo } from './types';

/** Where the bundled worker is served: `/assets/engine-worker-<hash>.js` (web/build.mjs). */
declare const ENGINE_WORKER_URL: string;
const WORKER_URL = ENGINE_WORKER_URL;
const MANIFEST_URL = '/engine/manifest.json';

/** An error the engine answered with (a bad position, move or limit), or a worker that died. */
export class EngineError extends Error {
  /** For a refused position: the rules' fault as data, as the server's `error.position`. */
  readonly position?: PositionFault;

  constructor(message: string, readonly stopped = false) {
    // A refused position comes as JSON: the rules' words and the fault (engine-wasm).
    let fault: PositionFault | undefined;
    if (message.startsWith('{"message"')) {
      try {
        const parsed = JSON.parse(message) as { message: string; position?: PositionFault };
        message = parsed.message;
        fault = parsed.position;
      } catch {
        // Not JSON after all: the text as it is.
      }
    }
    super(message);
    this.name = 'EngineError';
    this.position = fault;
  }
}

/** A running piece of work: its answer, and how to stop it (the answer then rejects with an
 * `EngineError` whose `stopped` is true). */
export interface Job<T> {
  result: Promise<T>;
  stop(): void;
}

type Pending = { resolve: (v: unknown) => void; reject: (e: unknown) => void; onIteration?: (it: Iteration) => void };

/** One worker, started when first needed; requests run in order. */
class Lane {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private next = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly module: WebAssembly.Module) {}

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = new Worker(WORKER_URL, { type: 'module', name: 'icebound-engine' });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      const first = (e: MessageEvent) => {
        worker.removeEventListener('message', first);
        const m = e.data as { type: string; error?: string };
        if (m.type === 'ready') resolve();
        else reject(new EngineError(m.error ?? 'the engine did not load'));
      };
      worker.addEventListener('message', first);
      worker.addEventListener('error', e => {
        const why = `the engine's worker failed: ${e.message}`;
        reject(new EngineError(why));
        if (this.worker === worker) this.kill(why, false);
      });
    });
    worker.addEventListener('message', e => this.answer(e.data));
    worker.postMessage({ type: 'init', module: this.module });
    this.ready.catch(() => { if (this.worker === worker) this.kill('the engine did not load', false); });
    return this.ready;
  }

  private answer(m: { id?: number; type: string; value?: unknown; error?: string; iteration?: Iteration }): void {
    if (m.id === undefined) return;
    const p = this.pending.get(m.id);
    if (!p) return;
    if (m.type === 'iteration' && m.iteration) {
      p.onIteration?.(m.iteration);
      return;
    }
    this.pending.delete(m.id);
    if (m.type === 'result') p.resolve(m.value);
    else p.reject(new EngineError(m.error ?? 'the engine failed'));
  }

  /** Calls `method` of the worker's engine. */
  async call<T>(method: string, args: unknown[], onIteration?: (it: Iteration) => void): Promise<T> {
    await this.start();
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: v => resolve(v as T), reject, onIteration });
      this.worker!.postMessage({ id, method, args });
    });
  }

  /** Ends the worker and whatever it runs (rejected with `why`; `stopped`: on purpose); the
   * next call starts another. */
  kill(why = 'stopped', stopped = true): void {
    this.worker?.terminate();
    this.worker = null;
    this.ready = null;
    for (const p of this.pending.values()) p.reject(new EngineError(why, stopped));
    this.pending.clear();
  }

  /** Whether a request is under way. */
  busy(): boolean {
    return this.pending.size > 0;
  }
}

/** The engine in this browser: every method sets the position it works on first. */
export class LocalEngine {
  private readonly rules: Lane;
  private readonly searchLane: Lane;
  private readonly solveLane: Lane;
  private readonly playLane: Lane;

  constructor(readonly module: WebAssembly.Module) {
    this.rules = new Lane(module);
    this.searchLane = new Lane(module);
    this.solveLane = new Lane(module);
    this.playLane = new Lane(module);
  }

  private async setUp(lane: Lane, at: At): Promise<void> {
    await lane.call('setPosition', [at.variant, at.fen]);
    if (at.moves?.length) await lane.call('play', [at.moves]);
  }

  /** The position's legal moves with their squares, its result and facts, as the server's
   * `POST /api/positions` answers them. */
  async view(at: At): Promise<BoardView> {
    await this.setUp(this.rules, at);
    return this.rules.call<BoardView>('boardView', []);
  }

  /** Runs `work` on `lane` after setting the position; `exclusive` stops what the lane runs. */
  private job<T>(lane: Lane, at: At, exclusive: boolean, work: () => Promise<T>): Job<T> {
    if (exclusive && lane.busy()) lane.kill();
    let stopped = false;
    const result = this.setUp(lane, at).then(() => {
      if (stopped) throw new EngineError('stopped', true);
      return work();
    });
    return { result, stop: () => { stopped = true; if (lane.busy()) lane.kill(); } };
  }

  /** A search of `at` within `limits`; `onIteration` after each completed iteration. A new
   * search stops the one running. */
  search(at: At, limits: SearchLimits, onIteration: (it: Iteration) => void): Job<SearchInfo> {
    return this.job(this.searchLane, at, true, () => this.searchLane.call<SearchInfo>('search', [limits], onIteration));
  }

  /** The exact solver on `at`: a forced win or loss within `maxPlies`, for the side to move.
   * A new solve stops the one running. */
  solve(at: At, opts: { maxPlies: number; movetimeMs?: number }): Job<SolveInfo> {
    return this.job(this.solveLane, at, true, () => this.solveLane.call<SolveInfo>('solve', [opts]));
  }

  /** The computer opponent's move at `level` (1-8, the server's levels: engine::level) in
   * `at`; null when the game is over. `seed` varies the levels that randomise; level 8 keeps
   * its table from one move to the next, as the server's does. */
  chooseMove(at: At, level: number, seed: number): Job<string | null> {
    return this.job(this.playLane, at, false, () => this.playLane.call<string | null>('chooseMove', [level, seed]));
  }

  /** Ends every worker. */
  close(): void {
    for (const lane of [this.rules, this.searchLane, this.solveLane, this.playLane]) lane.kill('closed');
  }
}

/** How long the module may take to download, compile and start (ms); past it the pages use
 * the server's engine (a stalled download must not leave them waiting). */
export const LOAD_TIMEOUT_MS = 15_000;

let loading: Promise<LocalEngine | null> | null = null;
let failure: string | null = null;

/** The engine in this browser, loaded once per page; null (said once on the console) when the
 * site has no wasm module, the browser cannot run it, or it did not load within
 * [`LOAD_TIMEOUT_MS`] (then `engineFailure()` says why, and `retryLocalEngine()` tries again). */
export function localEngine(): Promise<LocalEngine | null> {
  if (loading) return loading;
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new Error(`no answer within ${LOAD_TIMEOUT_MS / 1000} s`));
    }, LOAD_TIMEOUT_MS);
  });
  loading = Promise.race([load(abort.signal), late])
    .catch((e: unknown) => {
      failure = e instanceof Error ? e.message : String(e);
      console.info(`icebound: the engine cannot run in this browser (${failure}); the server's engine is used`);
      return null;
    })
    .finally(() => clearTimeout(timer));
  return loading;
}

/** Why the engine in this browser did not load (a failed or stalled download, a module that
 * does not run); null while it loads, once loaded, or when the site has none. */
export function engineFailure(): string | null {
  return failure;
}

/** Forgets a failed load and loads again (as `localEngine()`). */
export function retryLocalEngine(): Promise<LocalEngine | null> {
  if (failure !== null) {
    failure = null;
    loading = null;
  }
  return localEngine();
}

async function load(signal: AbortSignal): Promise<LocalEngine | null> {
  if (typeof Worker === 'undefined' || typeof WebAssembly === 'undefined') {
    throw new Error('no Web Workers or WebAssembly');
  }
  const res = await fetch(MANIFEST_URL, { credentials: 'same-origin', signal });
  if (!res.ok) {
    console.info('icebound: this site was built without the engine\'s WebAssembly module (scripts/build-wasm.sh); the server\'s engine is used');
    return null;
  }
  const { wasm } = (await res.json()) as { wasm: string };
  const bin = await fetch(wasm, { signal });
  if (!bin.ok) throw new Error(`${wasm}: ${bin.status}`);
  const module = bin.headers.get('Content-Type') === 'application/wasm'
    ? await WebAssembly.compileStreaming(bin)
    : await WebAssembly.compile(await bin.arrayBuffer());
  const engine = new LocalEngine(module);
  // One call proves the worker and the module load here.
  await engine.view({ variant: 'antarctos', fen: '' });
  return engine;
}
