// Conditional premoves of a correspondence game (issue 38; docs/api.md): on the opponent's turn
// a player enters a line, "if they play X, I play Y, then if Z, W", which the server plays the
// moment the opponent's move matches. Only its author sees it. A box of the game page: the line
// if there is one, with Cancel; otherwise a field of moves (any accepted notation, separated by
// spaces or commas) and Save.

import { ApiError, call, type GameView } from '../api';
import { t } from '../i18n';
import { h, type VNode } from '../snabbdom';

/** A line as the server keeps it. */
export interface ConditionalView {
  after_ply: number;
  moves: { id: string; text: string }[];
}

const path = (id: string) => `/api/games/${encodeURIComponent(id)}/conditional`;

/** Whether `g` takes lines from this player now: a correspondence or unlimited game between
 * two players, under way, on the opponent's turn. */
export function takesLine(g: GameView): boolean {
  const slow = !g.clock || g.clock.kind === 'correspondence';
  const seat = g.you === 'white' || g.you === 'black';
  const two = g.white.kind === 'human' && g.black.kind === 'human';
  return slow && seat && two && g.status === 'ongoing' && g.turn !== g.you;
}

export class ConditionalBox {
  line: ConditionalView | null = null;
  input = '';
  error = '';
  pending = false;
  private loadedAt = -1;

  constructor(readonly id: string, readonly redraw: () => void) {}

  /** Reads the line again when the game moved on (its ply changed). */
  refresh(g: GameView): void {
    if (!takesLine(g)) {
      this.line = null;
      this.loadedAt = -1;
      return;
    }
    if (this.loadedAt === g.ply) return;
    this.loadedAt = g.ply;
    call<ConditionalView | null>('GET', path(this.id))
      .then(line => { this.line = line; this.redraw(); })
      .catch(() => undefined);
  }

  private async run(work: () => Promise<void>): Promise<void> {
    this.pending = true;
    this.error = '';
    this.redraw();
    try {
      await work();
    } catch (err) {
      this.error = err instanceof ApiError ? err.message : String(err);
    }
    this.pending = false;
    this.redraw();
  }

  save(): Promise<void> {
    const moves = this.input.split(/[\s,;]+/).map(m => m.trim()).filter(Boolean);
    return this.run(async () => {
      this.line = await call<ConditionalView>('PUT', path(this.id), { moves });
      this.input = '';
    });
  }

  cancel(): Promise<void> {
    return this.run(async () => {
      await call<void>('DELETE', path(this.id), {});
      this.line = null;
    });
  }

  view(g: GameView): VNode | null {
    if (!takesLine(g)) return null;
    const error = h('p.error', { attrs: { role: 'alert' } }, this.error);
    if (this.line && this.line.moves.length >= 2) {
      const pairs: string[] = [];
      for (let i = 0; i + 1 < this.line.moves.length; i += 2) {
        pairs.push(t('cond.pair', { theirs: this.line.moves[i].text, mine: this.line.moves[i + 1].text }));
      }
      return h('section#conditional.conditional', [
        h('h2', t('cond.title')),
        h('ol.cond-line', pairs.map(p => h('li', p))),
        h('div.actions', [h('button#cond-cancel', { attrs: { type: 'button', disabled: this.pending }, on: { click: () => void this.cancel() } }, t('cond.cancel'))]),
        error,
      ]);
    }
    return h('details#conditional.conditional', [
      h('summary', t('cond.title')),
      h('p.hint', t('cond.hint')),
      h('form.cond-form', {
        on: { submit: (e: Event) => { e.preventDefault(); void this.save(); } },
      }, [
        h('input#cond-moves', {
          attrs: { type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-label': t('cond.moves'), placeholder: t('cond.placeholder') },
          props: { value: this.input },
          on: { input: (e: Event) => { this.input = (e.target as HTMLInputElement).value; } },
        }),
        h('button#cond-save.primary', { attrs: { type: 'submit', disabled: this.pending } }, t('cond.save')),
      ]),
      error,
    ]);
  }
}
