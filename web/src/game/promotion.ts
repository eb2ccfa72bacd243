// The promotion picker (Ice Age Chess): the mover's pieces to choose from, and a cancel. Shown on
// the game page and in an offline game against the computer (pages/offline).

import type { Color, LegalMove } from '../api';
import { t } from '../i18n';
import { h, type VNode } from '../snabbdom';

/** A promotion being chosen: its candidate moves, the mover, and where the answer goes (null:
 * cancelled). */
export interface Promotion {
  cands: LegalMove[];
  color: Color;
  resolve: (m: LegalMove | null) => void;
}

/** The picker (`div.promotion`, a button per piece with its move id in `data-move`), or
 * nothing when no promotion is being chosen. */
export function promotionPicker(p: Promotion | null): VNode | null {
  if (!p) return null;
  return h('div.promotion', { attrs: { role: 'dialog', 'aria-label': t('game.promote') } }, [
    h('span', t('game.promote')),
    ...p.cands.map(m => h('button', {
      attrs: { type: 'button', title: m.text, 'aria-label': m.text, 'data-move': m.id },
      on: { click: () => p.resolve(m) },
    }, [h(`span.piece-icon.${m.id.slice(4) || 'q'}-piece.${p.color}`)])),
    h('button', { attrs: { type: 'button', 'aria-label': t('game.promote_cancel'), title: t('game.promote_cancel') }, on: { click: () => p.resolve(null) } }, '✕'),
  ]);
}
