// Keyboard move entry, as lichess's: type a move in the game's notation (`c3-d4`, `c3xe5`, `Nf3`,
// `e2e4`) and press Enter. A text that names exactly one legal move plays it; any other text goes
// to the server, which reads every accepted form (A17, C13) and says what is wrong.

import type { LegalMove, Variant } from '../api';
import { h } from '../dom';
import { t } from '../i18n';

export interface KeyboardEvents {
  /** Whether the player may move now. */
  canMove: () => boolean;
  /** The legal moves now. */
  legal: () => LegalMove[];
  /** Play a legal move. */
  play: (m: LegalMove) => void;
  /** Send text the page could not match to the server. */
  send: (text: string) => void;
  /** Say something about the input. */
  say: (text: string) => void;
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

/** The input box: a label, the field, and what it does on Enter. */
export function keyboardInput(variant: Variant, ev: KeyboardEvents): HTMLElement {
  const input = h('input#move-input', {
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    autocapitalize: 'off',
    placeholder: t(variant === 'antarctos' ? 'game.kbd_hint_antarctos' : 'game.kbd_hint_iceage'),
  }) as HTMLInputElement;
  input.addEventListener('keydown', e => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (!ev.canMove()) {
      ev.say(t('game.kbd_not_your_turn'));
      return;
    }
    const m = matchMove(text, ev.legal());
    input.value = '';
    if (m) ev.play(m);
    else ev.send(text);
  });
  return h('label.kbd', h('span', t('game.kbd_label')), input);
}
