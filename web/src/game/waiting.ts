// The friend's waiting room: while the invited friend has not opened the link, the creator sees
// the link on top with Copy and Cancel (which asks once), and nobody can move, offer or resign.

import type { GameView } from '../api';
import { copyText } from '../dom';
import { colorName, t } from '../i18n';
import { h, type VNode } from '../snabbdom';
import { button, confirmButton, type ActionEvents } from './actions';

export interface WaitingEvents {
  cancel: () => void;
  /** Whether the link was copied (the button says so), and the way to say it was. */
  copied: boolean | null;
  setCopied: (ok: boolean) => void;
}

/** The waiting room card for the creator of `g` (who holds the invitation link). */
export function waitingRoom(g: GameView, ev: WaitingEvents, actions: ActionEvents): VNode {
  const url = `${location.origin}${g.invite_url ?? ''}`;
  const mine = g.you === 'white' || g.you === 'black' ? g.you : null;
  return h('section#waiting.waiting', { attrs: { 'aria-live': 'polite' } }, [
    h('h2', t('wait.title')),
    h('p', t('wait.text')),
    h('div.copy-row', [
      h('input#invite-url', {
        attrs: { type: 'text', readonly: true, 'aria-label': t('wait.title') },
        props: { value: url },
        on: { focus: e => (e.target as HTMLInputElement).select() },
      }),
      button('button#invite-copy.primary', actions, async () => ev.setCopied(await copyText(url)),
        ev.copied === true ? t('game.copied') : t('game.copy')),
    ]),
    mine ? h('p.muted', t('wait.you_play', { color: colorName(mine) })) : null,
    // Cancelling asks once, in place (Yes / No), before the link stops working.
    h('div.actions', [confirmButton('invite-cancel', t('wait.cancel'), t('wait.cancel_confirm'), ev.cancel, actions)]),
  ]);
}
