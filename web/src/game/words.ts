// The game page's words for things the server sends as data: a seat as its viewer sees it, a
// move as a reader names it, a typed move's fault (A17, C13, with the men that must take, A9),
// and the sound switch's icon.

import type { Color, GameView, MoveFault, MoveView, Seat } from '../api';
import { has, orList, t, type Key } from '../i18n';
import { h, type VNode } from '../snabbdom';
import { variantOf } from '../variants';

/** The name of `g`'s seat `c` as its viewer sees it: You, Opponent (the other human of a game
 * the viewer plays), Player (a watcher), a computer level, or the open seat. */
export function seatName(g: GameView, c: Color): string {
  const seat: Seat = g[c];
  // An account's name for everyone (as lichess shows both names from the first move).
  if (seat.kind === 'human' && seat.username && g.you !== 'both') {
    return g.you === c ? `${seat.username} (${t('game.you_seat')})` : seat.username;
  }
  if (seat.kind === 'human' && (g.you === c || g.you === 'both')) return t('game.you_seat');
  if (seat.kind === 'human' && g.you !== null) return t('game.opponent');
  if (seat.kind === 'engine') {
    const level = seat.level ?? 0;
    const words = level >= 1 && level <= 8 ? t(`level.${level}` as 'level.1') : '?';
    return t('game.engine_level', { level: level || '?', words });
  }
  if (seat.kind === 'open') return t('game.open_seat');
  return t('game.human');
}

/** A speaker, with sound waves when the sound is on and a cross when it is off. */
export function speakerIcon(on: boolean): VNode {
  return h('svg', { attrs: { viewBox: '0 0 24 24', width: 20, height: 20, 'aria-hidden': 'true' } }, [
    h('path', {
      attrs: {
        d: on
          ? 'M4 9h4l5-4v14l-5-4H4z M16 8.5a5 5 0 0 1 0 7 M18.5 6a8.5 8.5 0 0 1 0 12'
          : 'M4 9h4l5-4v14l-5-4H4z M16 9l6 6 M22 9l-6 6',
        fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linejoin': 'round', 'stroke-linecap': 'round',
      },
    }),
  ]);
}

/** Why typed move text was not played, in words, from the server's fault data (A17, C13) and
 * the facts of the view (a compulsory capture, A9). */
export function moveFaultWords(g: GameView, f: MoveFault): string {
  const text = f.text;
  if (g.legal.length === 0) return t('game.kbd_over');
  if (f.kind === 'unreadable') {
    const examples = variantOf(g.variant).moveExamples;
    return t('game.kbd_unreadable', { text, example: orList(examples) });
  }
  if (f.kind === 'ambiguous') return t('game.kbd_ambiguous', { text, moves: orList(f.candidates) });
  if (f.candidates.length) return t('game.kbd_incomplete', { text, moves: orList(f.candidates) });
  // A compulsory capture is said with the men that must take (A9).
  const capture = !f.reason || f.reason.code === 'capture_compulsory' || f.reason.code === 'capture_first';
  const why = f.reason ? `why.${f.reason.code}` : '';
  if (f.reason && has(why) && !(capture && g.capture_compulsory)) {
    const [a = '', b = ''] = f.reason.squares;
    return t('game.kbd_why', { text, why: t(why as Key, { a, b }) });
  }
  if (g.capture_compulsory) {
    const from = [...new Set(g.legal.map(m => m.path[0]))];
    return t('game.kbd_no_match_capture', { text, squares: orList(from) });
  }
  return t('game.kbd_no_match', { text });
}

/** A move as a reader names it: `12. Nf3` for White, `12… Nf6` for Black. */
export function moveLabel(m: MoveView): string {
  return `${m.number}${m.color === 'white' ? '.' : '…'} ${m.text}`;
}
