// The move list (numbered pairs, the Ice Age's rows, the result row) and the bar that steps
// through the game: start, previous, next, current. Clicking a move shows the position after it.

import type { GameView, MoveView } from '../api';
import { h, mount } from '../dom';
import { resultHeadline, resultReason, t } from '../i18n';
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
  return `${g.result.result} · ${resultHeadline(g.result, myColors(g))}. ${resultReason(g.result)}`;
}

/** Draws the moves of `g` into `list`, ply `at` marked current, and the step bar into `bar`. */
export function drawMoveList(list: HTMLElement, bar: HTMLElement, g: GameView, at: number, ev: MoveListEvents): void {
  const rows: HTMLElement[] = [];
  let row: HTMLElement | null = null;
  let rowNumber = -1;
  const cell = (m: MoveView) =>
    h('button.move', {
      type: 'button',
      class: at === m.ply ? 'current' : undefined,
      'aria-current': at === m.ply ? 'step' : undefined,
      'data-ply': m.ply,
      onclick: () => ev.go(m.ply),
    }, m.text);
  for (const m of g.moves) {
    if (!row || m.number !== rowNumber || m.color === 'white') {
      rowNumber = m.number;
      row = h('div.move-row', h('span.num', `${m.number}.`));
      rows.push(row);
      if (m.color === 'black') row.append(h('span.move.empty', '…'));
    }
    row.append(cell(m));
    if (m.ice_age || m.event) {
      rows.push(h('button.move-event', { type: 'button', 'data-ply': m.ply, onclick: () => ev.go(m.ply) }, `❄ ${iceAgeTitle(m)}`));
      row = null;
    }
  }
  if (!g.moves.length) rows.push(h('p.muted.no-moves', t('game.no_moves')));
  const result = resultRow(g);
  if (result) rows.push(h('div.move-result', result));
  mount(list, ...rows);
  const last = g.ply;
  const step = (label: string, id: string, icon: string, target: number, disabled: boolean) =>
    h('button', { type: 'button', id, title: label, 'aria-label': label, disabled, onclick: () => ev.go(target) }, icon);
  mount(bar,
    step(t('game.first'), 'step-first', '«', 0, at === 0),
    step(t('game.prev'), 'step-prev', '◀', at - 1, at === 0),
    step(t('game.next'), 'step-next', '▶', at + 1, at >= last),
    step(t('game.last'), 'step-last', '»', last, at >= last),
  );
  // The live position shows the newest move and, at the end, the result row below it.
  if (at >= last) list.scrollTop = list.scrollHeight;
  else {
    const current = list.querySelector<HTMLElement>('.current');
    if (current) scrollWithin(list, current);
  }
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
