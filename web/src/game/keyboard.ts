// Keyboard move entry, as lichess's: type a move in the game's notation (`c3-d4`, `c3xe5`, `Nf3`,
// `e2e4`) and press Enter. A text that names exactly one legal move plays it; any other text goes
// to the server, which reads every accepted form (A17, C13) and says what is wrong.

import type { LegalMove, Variant } from '../api';
import { h } from '../dom';
import { t } from '../i18n';
import { variantOf } from '../variants';

export interface KeyboardEvents {
  /** Returns the board to the live position (a move typed while looking back is meant for
   * the game as it stands, as on lichess). */
  live: () => void;
  /** Whether the player may move now. */
  canMove: () => boolean;
  /** The legal moves now. */
  legal: () => LegalMove[];
  /** Send a move (a legal move's id, or text the page could not match, which the server reads):
   * `true` when played, otherwise why not, in words. */
  send: (text: string) => Promise<true | string>;
}

/** The legal move `text` names, by its notation or machine form (exact first, then ignoring
 * case), or null when none or several fit. */
export function matchMove(text: string, legal: LegalMove[]): LegalMove | null {
  const s = text.trim();
  if (!s) return null;
  const exact = legal.filter(m => m.text === s || m.id === s || m.text.replace(/[+#]$/, '') === s);
  if (exact.length === 1) return exact[0];
  const lower = s.toLowerCase();
  const loose = legal.filter(m => m.text.toLowerCase() === lower || m.id.toLowerCase() === lower);
  return loose.length === 1 ? loose[0] : null;
}

/** The input box and what the page tells it. */
export interface KeyboardInput {
  element: HTMLElement;
  /** A move was played (by anyone): the answer to an earlier text is out of date. */
  moved: () => void;
}

/** The input box: a label, the field, the line that answers it, and what Enter does. A text
 * that is not played stays in the box, with the reason beside it until the next move. */
export function keyboardInput(variant: Variant, ev: KeyboardEvents): KeyboardInput {
  const input = h('input#move-input', {
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    autocapitalize: 'off',
    placeholder: t(variantOf(variant).kbdHintKey),
  }) as HTMLInputElement;
  const says = h('p.kbd-says#kbd-says', { role: 'status', hidden: true });
  const say = (text: string) => {
    says.hidden = !text;
    says.textContent = text;
  };
  input.addEventListener('input', () => say(''));
  input.addEventListener('keydown', async e => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    ev.live();
    if (!ev.canMove()) {
      say(t('game.kbd_not_your_turn'));
      return;
    }
    say('');
    const m = matchMove(text, ev.legal());
    const answer = await ev.send(m ? m.id : text);
    if (answer === true) {
      if (input.value.trim() === text) input.value = '';
    } else say(answer);
  });
  return {
    element: h('div.kbd-entry', h('label.kbd', h('span', t('game.kbd_label')), input), says),
    moved: () => say(''),
  };
}
