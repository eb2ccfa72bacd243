// The header's player search (browser finding 3): a field that lists, as the player types, the
// open accounts whose name starts with the text (`GET /api/players/search?q=`, 2 characters
// or more), each a link to `/@/<name>`; Enter opens the first one.

import { call } from '../api';
import { h, mount } from '../dom';
import { t } from '../i18n';
import { navigate } from '../nav';

interface Found { players: { username: string }[] }

const NAME_START = /^[A-Za-z0-9_-]{2,20}$/;

/** The search field and its list of found players. */
export function playerSearch(): HTMLElement {
  const list = h('ul#player-found.player-found', { role: 'listbox', hidden: true });
  const input = h('input#player-search', {
    type: 'search', maxlength: 20, autocomplete: 'off', spellcheck: false,
    placeholder: t('social.search_players'), 'aria-label': t('social.search_players'),
  }) as HTMLInputElement;
  let asked = '';
  const show = (names: string[]) => {
    list.hidden = names.length === 0 && !input.value.trim();
    mount(list, names.length
      ? names.map(n => h('li', h('a.player-found-link', { href: `/@/${encodeURIComponent(n)}` }, n)))
      : h('li.muted', t('social.search_none')));
  };
  input.addEventListener('input', () => {
    const q = input.value.trim();
    if (!NAME_START.test(q)) {
      list.hidden = true;
      return;
    }
    asked = q;
    call<Found>('GET', `/api/players/search?q=${encodeURIComponent(q)}`).then(r => {
      if (asked === q) show(r.players.map(p => p.username));
    }, () => { list.hidden = true; });
  });
  const form = h('form.player-search', {
    role: 'search',
    onsubmit: (e: Event) => {
      e.preventDefault();
      const first = list.querySelector<HTMLAnchorElement>('a.player-found-link');
      if (first) navigate(first.getAttribute('href')!);
    },
  }, input, list);
  return form;
}
