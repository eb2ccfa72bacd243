// The Ice Age made readable (Ice Age Chess, C5-C9), from the facts the server sends with the
// move that brought it: the countdown, what froze, which squares filled and which stayed
// empty and why, the marks on the board, and the way to the position just before it.

import type { Color, GameView, IceAgeFacts, MoveView } from '../api';
import { andList, colorName, has, resultReason, t } from '../i18n';
import { h, type VNode } from '../snabbdom';
import { variantOf } from '../variants';

/** "Ice Age after Black's move 20" (the move number is the move's own). */
export function iceAgeTitle(m: MoveView): string {
  return t('ice.banner', { n: m.number });
}

/** The countdown line ("Ice Age in 3 Black moves"), or null when the server sends none. */
export function countdownText(g: GameView): string | null {
  if (!variantOf(g.variant).iceAges || g.status !== 'ongoing' || g.ice_age_in === undefined || g.ice_age_in === null) return null;
  return g.ice_age_in <= 1 ? t('ice.countdown_now') : t('ice.countdown', { n: g.ice_age_in });
}

function pieceWords(p: { square: string; color: Color; role: string }): string {
  const key = `piece.${p.role.toLowerCase()}`;
  const piece = has(key) ? t(key) : p.role;
  return t('piece.frozen', { color: colorName(p.color).toLowerCase(), piece, square: p.square });
}

/** The marks of an Ice Age on the board: frozen squares, new ice and the squares left empty. */
export function iceMarks(facts: IceAgeFacts | null | undefined): Map<string, string[]> {
  const marks = new Map<string, string[]>();
  if (!facts) return marks;
  const add = (sq: string, cls: string) => marks.set(sq, [...(marks.get(sq) ?? []), cls]);
  for (const p of facts.frozen) add(p.square, 'frozen');
  for (const sq of facts.filled) add(sq, 'new-ice');
  for (const sq of facts.closed) add(sq, 'closed');
  return marks;
}

export interface IcePanelEvents {
  /** Show the position before (`true`) or after (`false`) this Ice Age. */
  before: (show: boolean) => void;
}

/**
 * The account of Ice Age move `m`: its title, what froze, the filled and the closed squares, a
 * king's freezing and its result, a legend of the marks, and the switch to the position before
 * it (`showingBefore`).
 */
export function icePanel(g: GameView, m: MoveView, showingBefore: boolean, ev: IcePanelEvents): VNode[] {
  const f = m.ice_age;
  const lines: (VNode | null)[] = [h('strong.ice-title', `❄ ${iceAgeTitle(m)}`)];
  if (f) {
    lines.push(h('p.ice-frozen', f.frozen.length ? t('ice.frozen', { pieces: andList(f.frozen.map(pieceWords)) }) : t('ice.nothing_frozen')));
    lines.push(h('p.ice-filled', t('ice.filled', { n: f.filled.length })));
    lines.push(h('p.ice-closed', f.closed.length ? t('ice.closed', { squares: andList(f.closed) }) : t('ice.closed_none')));
    if (f.kings_frozen.length && g.result && m.ply === g.ply) lines.push(h('p.ice-kings', resultReason(g.result)));
    lines.push(h('p.ice-legend', [
      h('span.key.frozen', t('ice.legend_frozen')),
      h('span.key.new-ice', t('ice.legend_filled')),
      h('span.key.closed', t('ice.legend_closed'))]));
    lines.push(h('button#ice-before', { attrs: { type: 'button', 'aria-pressed': showingBefore ? 'true' : 'false' }, on: { click: () => ev.before(!showingBefore) } },
      showingBefore ? t('ice.show_after') : t('ice.show_before')));
    if (showingBefore) lines.push(h('p.ice-before-note', t('ice.before_note', { n: m.number })));
  } else if (m.event) {
    lines.push(h('p', m.event));
  }
  return lines.filter((l): l is VNode => l !== null);
}
