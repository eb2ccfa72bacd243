// The engine's live analysis of one position: `POST /api/analysis/stream` read as server-sent
// events (docs/api.md). Stopping aborts the request, which stops the search on the server.

import { ApiError, type MoveFault, type Variant } from '../api';

/** A score from the side to move: centi-units, or a proven result in plies. */
export type Score = { cp: number } | { win: number } | { loss: number };

/** One completed iteration (or, with `done`, the search's final answer). */
export interface EngineLine {
  depth: number;
  score: Score;
  pv: string[];
  nodes: number;
  nps?: number;
  elapsed_ms?: number;
  done?: boolean;
}

export interface EngineEvents {
  line: (l: EngineLine) => void;
  /** The search ended: by its time cap (`null`) or an error. */
  end: (error: ApiError | null) => void;
}

/** Starts a search of `fen`; returns the function that stops it. */
export function startAnalysis(variant: Variant, fen: string, ev: EngineEvents): () => void {
  const ctl = new AbortController();
  let stopped = false;
  const run = async () => {
    let res: Response;
    try {
      res = await fetch('/api/analysis/stream', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ variant, fen }),
        signal: ctl.signal,
      });
    } catch (e) {
      if (!stopped) ev.end(new ApiError('network', String(e), 0));
      return;
    }
    if (!res.ok || !res.body) {
      let err: { code?: string; message?: string; move?: MoveFault } | undefined;
      try {
        err = ((await res.json()) as { error?: typeof err }).error;
      } catch {
        err = undefined;
      }
      if (!stopped) ev.end(new ApiError(err?.code ?? 'http', err?.message ?? String(res.status), res.status));
      return;
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = block.split('\n').filter(l => l.startsWith('data: ')).map(l => l.slice(6)).join('');
          if (!data || (name !== 'iteration' && name !== 'done')) continue;
          const line = JSON.parse(data) as EngineLine;
          if (!stopped) ev.line({ ...line, done: name === 'done' });
        }
      }
    } catch (e) {
      if (!stopped) ev.end(new ApiError('network', String(e), 0));
      return;
    }
    if (!stopped) ev.end(null);
  };
  void run();
  return () => {
    stopped = true;
    ctl.abort();
  };
}
