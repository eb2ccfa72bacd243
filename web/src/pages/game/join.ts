// `/join/<invite>`: takes the open seat, then shows the game. A used or cancelled invitation
// says what happened and offers the game to watch; an unknown one is a page of its own.

import { api, ApiError } from '../../api';
import { h, mount } from '../../dom';
import { errorWords, t, type Key } from '../../i18n';
import { navigate } from '../../nav';
import { setTitle } from '../../title';
import { deadEndPage } from '../notfound';

export function joinPage(root: HTMLElement, invite: string): void {
  setTitle(t('page.loading'));
  mount(root, h('section.card', h('p', t('page.loading'))));
  api.join(invite).then(
    game => navigate(`/game/${game.id}`, true),
    async err => {
      if (!(err instanceof ApiError)) return mount(root, h('section.card', h('p.error', errorWords(err))));
      if (err.status === 404) return deadEndPage(root, 'invitenf.title', t('game.invite_not_found'));
      const watch = (key: Key) => err.game ? [h('a.button.primary#watch-link', { href: `/game/${err.game}` }, t(key))] : [];
      if (err.code === 'own_invite' && err.game) {
        return deadEndPage(root, 'invite.own_title', t('invite.own'),
          [h('a.button.primary#back-link', { href: `/game/${err.game}` }, t('invite.back'))]);
      }
      if (err.code === 'invite_cancelled') return deadEndPage(root, 'invite.cancelled_title', t('invite.cancelled'), watch('invite.see'));
      if (err.code === 'invite_used') {
        // Under way or over: the game says which.
        const over = err.game ? await api.game(err.game).then(g => g.status !== 'ongoing', () => false) : false;
        return deadEndPage(root, 'invite.used_title', t(over ? 'invite.used_over' : 'invite.used_live'), watch(over ? 'invite.see' : 'invite.watch'));
      }
      mount(root, h('section.card', h('p.error', errorWords(err))));
    },
  );
}
