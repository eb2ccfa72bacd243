// The move list (numbered pairs, the Ice Age's rows, the result row) and the bar that steps
// through the game: start, previous, next, current. Clicking a move shows the position after it.

import type { GameView, MoveView } from '../api';
import { resultHeadline, resultReason, t } from '../i18n';
import { h, type VNode } from '../snabbdom';
import { iceAgeTitle } from './iceage';
import { myColors } from './model';

export interface MoveListEvents {
  /** Show the position after ply `ply` (0: the start). */
  go: (ply: number) => void;
}

/** The result row's text: the score and the result in words. An aborted game has none: the
 * status line says "Game aborted", once. */
export function resultRow(g: GameView): string | null {
  if (!g.result) return null;
  return `${g.result.result} · ${resultHeadline(g.result, myColors(g))}. ${resultReason(g.result, myColors(g))}`;
}

/** The moves of `g`, ply `at` marked current. */
export function moveList(g: GameView, at: number, ev: MoveListEvents): VNode {
  const rows: VNode[] = [];
  let row: VNode[] | null = null;
  let rowNumber = -1;
  const cell = (m: MoveView) =>
    h('button.move', {
      class: { current: at === m.ply },
      attrs: { type: 'button', 'aria-current': at === m.ply ? 'step' : false, 'data-ply': m.ply },
      on: { click: () => ev.go(m.ply) },
    }, m.text);
  for (const m of g.moves) {
    if (!row || m.number !== rowNumber || m.color === 'white') {
      rowNumber = m.number;
      row = [h('span.num', `${m.number}.`)];
      rows.push(h('div.move-row', row));
      if (m.color === 'black') row.push(h('span.move.empty', '…'));
    }
    row.push(cell(m));
    if (m.ice_age || m.event) {
      rows.push(h('button.move-event', { attrs: { type: 'button', 'data-ply': m.ply }, on: { click: () => ev.go(m.ply) } }, `❄ ${iceAgeTitle(m)}`));
      row = null;
    }
  }
  if (!g.moves.length) rows.push(h('p.muted.no-moves', t('game.no_moves')));
  const result = resultRow(g);
  if (result) rows.push(h('div.move-result', result));
  // The live position shows the newest move and, at the end, the result row below it.
  const scroll = (v: VNode) => {
    const list = v.elm as HTMLElement;
    if (at >= g.ply) list.scrollTop = list.scrollHeight;
    else {
      const current = list.querySelector<HTMLElement>('.current');
      if (current) scrollWithin(list, current);
    }
  };
  return h('div#moves.moves', { hook: { insert: scroll, postpatch: (_, v) => scroll(v) } }, rows);
}

/** The bar that steps through the game: start, previous, next, current. */
export function browseBar(g: GameView, at: number, ev: MoveListEvents): VNode {
  const last = g.ply;
  const step = (label: string, id: string, icon: string, target: number, disabled: boolean) =>
    h(`button#${id}`, { attrs: { type: 'button', title: label, 'aria-label': label, disabled }, on: { click: () => ev.go(target) } }, icon);
  return h('div.browse', [
    step(t('game.first'), 'step-first', '«', 0, at === 0),
    step(t('game.prev'), 'step-prev', '◀', at - 1, at === 0),
    step(t('game.next'), 'step-next', '▶', at + 1, at >= last),
    step(t('game.last'), 'step-last', '»', last, at >= last),
  ]);
}

/** Scrolls `box` (the move list) so that `el` shows, moving nothing else: `scrollIntoView`
 * would also scroll the window, which on a phone (list below the board) pulled the board
 * off the screen at every move. */
function scrollWithin(box: HTMLElement, el: HTMLElement): void {
  const b = box.getBoundingClientRect();
  const e = el.getBoundingClientRect();
  if (e.top < b.top) box.scrollTop -= b.top - e.top;
  else if (e.bottom > b.bottom) box.scrollTop += e.bottom - b.bottom;
}
