// The analysis board's engine in the player's browser (issue 42, engine/client.ts): the live
// search and the solver run locally, with the same limits as the server's (a 30 s search, a
// 30-ply proof in at most 10 s), and their answers take the server's shapes, so that the rest
// of the page does not know where they come from. Nothing here talks to the server.

import type { SolveView, Variant } from '../../api';
import type { EngineLine, Score } from '../../analysis/engine';
import type { Iteration, LocalEngine } from '../../engine/client';

/** The server's analysis stream cap (site::analysis::MAX_STREAM_MS). */
const SEARCH_MS = 30_000;
/** The server's solver limits (site::solve::DEFAULT_PLIES, MAX_SOLVE_MS). */
const SOLVE_PLIES = 30;
const SOLVE_MS = 10_000;
/** The analysis search's table, MiB (the server's analyses use 16). */
const TABLE_MIB = 16;

/** A score text of the engine (`35`, `win 3`, `loss 4`) as the page's score. */
export function scoreOf(score: number, text: string): Score {
  const m = /^(win|loss) (\d+)$/.exec(text.trim());
  if (m) return m[1] === 'win' ? { win: Number(m[2]) } : { loss: Number(m[2]) };
  return { cp: score };
}

function lineOf(it: Iteration, done = false): EngineLine {
  return {
    depth: it.depth,
    score: scoreOf(it.score, it.scoreText),
    pv: it.pv,
    nodes: it.nodes,
    // A rate over a few milliseconds says nothing.
    nps: it.timeMs >= 100 ? Math.round((it.nodes * 1000) / it.timeMs) : undefined,
    elapsed_ms: it.timeMs,
    done,
  };
}

export interface LocalEvents {
  line: (l: EngineLine) => void;
  /** The search ended by its limit (`null`) or failed (the engine's message). */
  end: (error: string | null) => void;
}

/** One local search at a time: a new one stops the last. */
export class LocalRunner {
  private stopFn: (() => void) | null = null;

  constructor(private readonly engine: LocalEngine, private readonly variant: Variant) {}

  /** Searches `fen` after a short pause (a held arrow key starts nothing); `still()` says
   * whether the page still wants it. */
  start(fen: string, still: () => boolean, ev: LocalEvents): void {
    this.stop();
    const timer = window.setTimeout(() => { if (still()) this.search(fen, still, ev); }, 150);
    this.stopFn = () => window.clearTimeout(timer);
  }

  private search(fen: string, still: () => boolean, ev: LocalEvents): void {
    const job = this.engine.search({ variant: this.variant, fen }, { movetimeMs: SEARCH_MS, hashMiB: TABLE_MIB }, it => {
      if (still()) ev.line(lineOf(it));
    });
    this.stopFn = () => job.stop();
    job.result.then(
      () => { if (still()) ev.end(null); },
      (e: unknown) => {
        const stopped = (e as { stopped?: boolean })?.stopped === true;
        if (!stopped && still()) ev.end(e instanceof Error ? e.message : String(e));
      },
    );
  }

  stop(): void {
    this.stopFn?.();
    this.stopFn = null;
  }
}

/** The solver in the browser, answering as `POST /api/solve` does; `turn`: the side to move. */
export async function solveLocally(engine: LocalEngine, variant: Variant, fen: string, turn: 'white' | 'black', register: (stop: () => void) => void): Promise<SolveView> {
  const job = engine.solve({ variant, fen }, { maxPlies: SOLVE_PLIES, movetimeMs: SOLVE_MS });
  register(() => job.stop());
  const r = await job.result;
  const other = turn === 'white' ? 'black' : 'white';
  return {
    result: r.result,
    winner: r.result === 'win' ? turn : r.result === 'loss' ? other : null,
    plies: r.result === 'unknown' ? null : r.plies,
    line: r.line,
    max_plies: SOLVE_PLIES,
    stopped: r.stopped,
    nodes: r.nodes,
  };
}
