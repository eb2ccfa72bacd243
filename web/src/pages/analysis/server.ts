// The analysis board's talk with the server: each position's moves (`POST /api/positions`,
// asked once per position, or answered by the engine in the browser when the page runs it
// there) and the engine's live search of the shown position (a stream, analysis/engine.ts),
// started only where the player pauses and tried again when the server asks for patience.

import { api, type ApiError, type PositionView, type Variant } from '../../api';
import { startAnalysis, type EngineLine } from '../../analysis/engine';
import type { LocalEngine } from '../../engine/client';

/** The positions asked for, by their text: stepping back and forth asks once. `local()` names
 * the engine in the browser when the page uses it (the same answer, with no request). */
export class Positions {
  private readonly asked = new Map<string, Promise<PositionView>>();

  constructor(private readonly variant: Variant, private readonly local: () => Promise<LocalEngine | null>) {}

  private async ask(fen: string): Promise<PositionView> {
    const engine = await this.local();
    return engine ? engine.view({ variant: this.variant, fen }) : api.position(this.variant, fen);
  }

  get(fen: string): Promise<PositionView> {
    let p = this.asked.get(fen);
    if (!p) {
      p = this.ask(fen);
      p.catch(() => this.asked.delete(fen));
      this.asked.set(fen, p);
    }
    return p;
  }
}

export interface SearchEvents {
  line: (l: EngineLine) => void;
  /** The search ended: by its time cap (`null`) or an error. */
  end: (err: ApiError | null) => void;
}

/** One search at a time: a new one stops the last. */
export class EngineRunner {
  private stopFn: (() => void) | null = null;

  constructor(private readonly variant: Variant) {}

  /** Searches `fen` after a pause (a held arrow key starts nothing); `still()` says whether
   * the page still wants it. */
  start(fen: string, still: () => boolean, ev: SearchEvents): void {
    this.stop();
    const timer = window.setTimeout(() => { if (still()) this.search(fen, still, ev); }, 250);
    this.stopFn = () => window.clearTimeout(timer);
  }

  private search(fen: string, still: () => boolean, ev: SearchEvents): void {
    this.stopFn = startAnalysis(this.variant, fen, {
      line: l => { if (still()) ev.line(l); },
      end: err => {
        if (!still()) return;
        if (err?.code === 'rate_limited') {
          // Too many starts a minute: try again shortly, as long as the position stays.
          const retry = window.setTimeout(() => { if (still()) this.search(fen, still, ev); }, 1500);
          this.stopFn = () => window.clearTimeout(retry);
          return;
        }
        ev.end(err);
      },
    });
  }

  stop(): void {
    this.stopFn?.();
    this.stopFn = null;
  }
}
