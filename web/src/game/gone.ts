// A gone opponent (issue 38; docs/api.md, "claim"): when the other player's pages all closed,
// the game page counts down to the moment the game may be claimed, then offers "Claim
// victory" and, in Ice Age Chess, "Call it a draw". The countdown ticks here; the server decides.

import { ApiError, call, type GameView } from '../api';
import { t } from '../i18n';
import { h, type VNode } from '../snabbdom';

export class GoneBox {
  error = '';
  pending = false;
  private timer: number | undefined;

  constructor(readonly id: string, readonly redraw: () => void, readonly done: (g: GameView) => void) {}

  /** Keeps a one-second tick while an opponent is gone. */
  refresh(g: GameView): void {
    const on = this.shown(g);
    if (on && this.timer === undefined) this.timer = window.setInterval(() => this.redraw(), 1000);
    if (!on && this.timer !== undefined) {
      window.clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  stop(): void {
    window.clearInterval(this.timer);
    this.timer = undefined;
  }

  private shown(g: GameView): boolean {
    return !!g.gone && g.status === 'ongoing' && (g.you === 'white' || g.you === 'black') && g.gone.side !== g.you;
  }

  private async claim(action: 'win' | 'draw'): Promise<void> {
    this.pending = true;
    this.error = '';
    this.redraw();
    try {
      this.done(await call<GameView>('POST', `/api/games/${encodeURIComponent(this.id)}/claim`, { action }));
    } catch (err) {
      this.error = err instanceof ApiError ? err.message : String(err);
    }
    this.pending = false;
    this.redraw();
  }

  view(g: GameView): VNode | null {
    if (!this.shown(g) || !g.gone) return null;
    const left = Math.max(0, Math.ceil((g.gone.claim_at_ms - Date.now()) / 1000));
    return h('section#gone.gone', { attrs: { role: 'status' } }, [
      h('p.gone-text', left > 0 ? t('gone.countdown', { n: left }) : t('gone.claimable')),
      left > 0 ? null : h('div.actions', [
        h('button#gone-win.primary', { attrs: { type: 'button', disabled: this.pending }, on: { click: () => void this.claim('win') } }, t('gone.win')),
        // Antarctos has no draws (A15): only the win is claimed there.
        g.variant === 'iceage'
          ? h('button#gone-draw', { attrs: { type: 'button', disabled: this.pending }, on: { click: () => void this.claim('draw') } }, t('gone.draw'))
          : null,
      ]),
      this.error ? h('p.error', { attrs: { role: 'alert' } }, this.error) : null,
    ]);
  }
}
