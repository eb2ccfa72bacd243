// What the engine in the browser answers (crates/engine-wasm, through web/wasm/icebound-engine.mjs
// and the worker web/wasm/engine-worker.mjs): the loader's own field names.

import type { PositionView, Variant } from '../api';

/** Limits of a search; at least one should be set. */
export interface SearchLimits {
  /** Deepest iteration, 1-127 plies. */
  depth?: number;
  /** Node budget. */
  nodes?: number;
  /** Time budget, milliseconds. */
  movetimeMs?: number;
  /** Transposition table, MiB (default 16). */
  hashMiB?: number;
  /** Keep the table of the previous search in the same worker (analysis). */
  keepTable?: boolean;
}

/** One completed iteration of a search. */
export interface Iteration {
  depth: number;
  /** From the side to move: centi-units, or near ±1,000,000 for a proven result. */
  score: number;
  /** `35`, `win 3` or `loss 4` (plies to the end). */
  scoreText: string;
  /** Nodes since the search started. */
  nodes: number;
  /** Milliseconds since the search started. */
  timeMs: number;
  /** Principal variation, canonical move texts, best move first. */
  pv: string[];
}

/** A finished (or stopped) search. */
export interface SearchInfo extends Omit<Iteration, 'timeMs'> {
  /** The best move; null only when the game is over. */
  best: string | null;
  timeMs: number;
  /** Whether a stop ended it. */
  stopped: boolean;
}

/** The exact solver's answer, for the side to move. */
export interface SolveInfo {
  result: 'win' | 'loss' | 'unknown';
  /** Plies to the end of a win or loss; for `unknown`, the plies searched in full. */
  plies: number;
  /** The main line (empty for `unknown`). */
  line: string[];
  /** `win in 3 plies: 1... c7-b6 2. a5xc7 a7xc5xe3xc1#`. */
  text: string;
  nodes: number;
  stopped: boolean;
}

/** The board's view of a position: the server's `POST /api/positions` shape. */
export type BoardView = PositionView;

/** Where a request runs: a variant, a position text ("" for the start) and moves after it. */
export interface At {
  variant: Variant;
  fen: string;
  moves?: string[];
}
