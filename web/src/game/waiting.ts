// The friend's waiting room: while the invited friend has not opened the link, the creator sees
// the link on top with Copy and Cancel (which asks once), and nobody can move, offer or resign.

import type { GameView } from '../api';
import { copyText, h } from '../dom';
import { colorName, t } from '../i18n';
import { confirmButton } from './actions';

export interface WaitingEvents {
  cancel: () => void;
}

/** The waiting room card for the creator of `g` (who holds the invitation link). */
export function waitingRoom(g: GameView, ev: WaitingEvents): HTMLElement {
  const url = `${location.origin}${g.invite_url ?? ''}`;
  const input = h('input#invite-url', { type: 'text', readonly: true, value: url, 'aria-label': t('wait.title') }) as HTMLInputElement;
  input.addEventListener('focus', () => input.select());
  const copy = h('button.primary#invite-copy', {
    type: 'button',
    onclick: async () => {
      copy.textContent = (await copyText(url)) ? t('game.copied') : t('game.copy');
    },
  }, t('game.copy'));
  const mine = g.you === 'white' || g.you === 'black' ? g.you : null;
  return h('section.waiting#waiting', { 'aria-live': 'polite' },
    h('h2', t('wait.title')),
    h('p', t('wait.text')),
    h('div.copy-row', input, copy),
    mine ? h('p.muted', t('wait.you_play', { color: colorName(mine) })) : null,
    // Cancelling asks once, in place (Yes / No), before the link stops working.
    h('div.actions', confirmButton('invite-cancel', t('wait.cancel'), t('wait.cancel_confirm'), ev.cancel)),
  );
}
