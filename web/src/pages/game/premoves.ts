// The game page's premove queue (issue 38): moves entered while the opponent is to move,
// played one per turn while each is legal, and the hint line's words about them.

import type { GameView } from '../../api';
import { t } from '../../i18n';

/** A premove: the squares a piece goes from and to. */
export type Premove = { from: string; to: string };

/** Most premoves queued at once (issue 38). */
export const PREMOVE_MAX = 5;

/** What the queue does on a new state: the move to send (its id), and the hint's new words. */
export type PremoveStep = { send: string | null; words: string | null };

export class PremoveQueue {
  /** Queued, oldest first. */
  list: Premove[] = [];

  /** Queues `p` behind the others unless [`PREMOVE_MAX`] wait: the hint's words either way. */
  add(p: Premove): string | null {
    if (this.list.length >= PREMOVE_MAX) return t('game.premove_full', { n: PREMOVE_MAX });
    this.list = [...this.list, p];
    return this.words();
  }

  /** Drops every queued premove. */
  clear(): void {
    this.list = [];
  }

  /** The hint's words for what is queued; null when nothing is. */
  words(): string | null {
    const q = this.list;
    if (!q.length) return null;
    if (q.length === 1) return t('game.premove_set', q[0]);
    return t('game.premoves_set', { list: q.map(p => `${p.from}–${p.to}`).join(', ') });
  }

  /** On the player's turn in `g` (the caller checks that they may move now): the first
   * premove if `g` offers it as legal (a promotion takes the queen), the rest kept for the
   * next turns. One that is not legal drops the whole queue: the ones after it were meant to
   * follow it. */
  next(g: GameView): PremoveStep | null {
    const [p, ...rest] = this.list;
    if (!p) return null;
    const cands = g.legal.filter(m => m.path[0] === p.from && m.path[m.path.length - 1] === p.to);
    const pick = cands.length === 1 ? cands[0] : cands.find(m => m.id.endsWith('q')) ?? null;
    if (pick) {
      this.list = rest;
      return { send: pick.id, words: this.words() };
    }
    this.list = [];
    return { send: null, words: rest.length ? t('game.premoves_dropped', { ...p, n: rest.length + 1 }) : t('game.premove_dropped', p) };
  }
}
