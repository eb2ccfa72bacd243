// The Ice Age made readable (Ice Age Chess, C5-C9), from the facts the server sends with the
// move that brought it: the countdown, what froze, which squares filled and which stayed
// empty and why, the marks on the board, and the way to the position just before it.

import type { Color, GameView, IceAgeFacts, ResultView, Variant } from '../api';
import { andList, colorName, has, resultReason, t } from '../i18n';
import { h, type VNode } from '../snabbdom';
import { variantOf } from '../variants';

/** A move that brought an Ice Age, as the game page (MoveView) and the analysis board (its
 * tree's moves) both have it. */
export interface IceMove {
  /** The move number (Black's 20th: 20). */
  number: number;
  /** What the Ice Age did, when the server sent it. */
  ice_age?: IceAgeFacts | null;
  /** The rules' note of it (`Ice Age: Rh8 frozen`, C13): a record's Ice Age comment. */
  event?: string | null;
}

/** "Ice Age after Black's move 20" (the move number is the move's own). */
export function iceAgeTitle(m: IceMove): string {
  return t('ice.banner', { n: m.number });
}

/** The countdown line ("Ice Age in 3 Black moves") of a position of `variant` with
 * `iceAgeIn` Black moves to the next Ice Age, or null without one (another game, an ended
 * one, or no figure from the server). */
export function countdownWords(variant: Variant, iceAgeIn: number | null | undefined): string | null {
  if (!variantOf(variant).iceAges || iceAgeIn === undefined || iceAgeIn === null) return null;
  return iceAgeIn <= 1 ? t('ice.countdown_now') : t('ice.countdown', { n: iceAgeIn });
}

/** The countdown line of a game, or null when the server sends none. */
export function countdownText(g: GameView): string | null {
  return g.status === 'ongoing' ? countdownWords(g.variant, g.ice_age_in) : null;
}

/** The countdown box (`#ice-countdown`): `text` from [`countdownWords`], hidden without one. */
export function countdownBox(text: string | null, hidden = false): VNode {
  return h('div#ice-countdown.countdown', { attrs: { hidden: !text || hidden, title: t('ice.countdown_title') } }, text ? `❄ ${text}` : '');
}

/** The marks of the Ice Age of `iceMove` on the board at a position: its squares, but those the
 * reply to it (`replyPath`, the move shown just after it, if any) moved through. */
export function iceBoardMarks(facts: IceAgeFacts | null | undefined, replyPath: string[] = []): Map<string, string[]> {
  const marks = new Map<string, string[]>();
  for (const [sq, cls] of iceMarks(facts)) if (!replyPath.includes(sq)) marks.set(sq, cls);
  return marks;
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
 * king's freezing and the game's result (`ended`: the result when this Ice Age ended the
 * game), a legend of the marks, and the switch to the position before it (`showingBefore`).
 */
export function icePanel(m: IceMove, ended: ResultView | null, showingBefore: boolean, ev: IcePanelEvents): VNode[] {
  const f = m.ice_age;
  const lines: (VNode | null)[] = [h('strong.ice-title', `❄ ${iceAgeTitle(m)}`)];
  if (f) {
    lines.push(h('p.ice-frozen', f.frozen.length ? t('ice.frozen', { pieces: andList(f.frozen.map(pieceWords)) }) : t('ice.nothing_frozen')));
    lines.push(h('p.ice-filled', t('ice.filled', { n: f.filled.length })));
    lines.push(h('p.ice-closed', f.closed.length ? t('ice.closed', { squares: andList(f.closed) }) : t('ice.closed_none')));
    if (f.kings_frozen.length && ended) lines.push(h('p.ice-kings', resultReason(ended)));
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
