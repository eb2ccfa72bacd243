// The header's player search (browser finding 3): a field that lists, as the player types, the
// open accounts whose name starts with the text (`GET /api/players/search?q=`, 2 characters
// or more), each a link to `/@/<name>`; Enter opens the first one. On a desktop the field waits
// behind a magnifier button, so the header stays one row; on a phone it stands in the menu. The
// arrows walk the found names; Escape closes the names, then the field.

import { call } from '../api';
import { h, mount, svgIcon } from '../dom';
import { t } from '../i18n';
import { navigate } from '../nav';

interface Found { players: { username: string }[] }

const NAME_START = /^[A-Za-z0-9_-]{2,20}$/;

/** The search field and its list of found players. */
export function playerSearch(): HTMLElement {
  const list = h('ul#player-found.player-found', { hidden: true });
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
  const open = h('button.player-search-open#player-search-open', {
    type: 'button', title: t('social.search_players'), 'aria-label': t('social.search_players'),
    'aria-controls': 'player-search', 'aria-expanded': 'false',
  }, magnifier()) as HTMLButtonElement;
  const form = h('form.player-search', {
    role: 'search',
    onsubmit: (e: Event) => {
      e.preventDefault();
      const first = list.querySelector<HTMLAnchorElement>('a.player-found-link');
      if (first) navigate(first.getAttribute('href')!);
    },
  }, open, h('span.player-search-box', input, list));
  const set = (on: boolean) => {
    form.classList.toggle('open', on);
    open.setAttribute('aria-expanded', String(on));
  };
  open.addEventListener('click', () => {
    set(!form.classList.contains('open'));
    if (form.classList.contains('open')) input.focus();
  });
  // Focus leaving the search closes it, the text kept for the next open (browser finding 1
  // of round 5: Tab left it open over the page).
  // A click elsewhere (no new focus, as Safari's on a link) is main.ts's to close: closing
  // here would hide a found name before its click lands.
  form.addEventListener('focusout', (e: FocusEvent) => {
    const to = e.relatedTarget as Node | null;
    if (to === null || form.contains(to)) return;
    list.hidden = true;
    set(false);
  });
  input.addEventListener('focus', () => {
    if (input.value.trim() && list.childElementCount) list.hidden = false;
  });
  form.addEventListener('keydown', (e: KeyboardEvent) => {
    const links = [...list.querySelectorAll<HTMLAnchorElement>('a.player-found-link')];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      // The arrows walk from the field through the found names and back.
      if (list.hidden || !links.length) return;
      e.preventDefault();
      const next = e.key === 'ArrowDown' ? Math.min(at + 1, links.length - 1) : at - 1;
      (next < 0 ? input : links[next]).focus();
      return;
    }
    if (e.key !== 'Escape') return;
    // One Escape at a time: the found names, then the field, then (main.ts) the phone's menu.
    if (!list.hidden) {
      e.preventDefault();
      list.hidden = true;
      input.focus();
    } else if (form.classList.contains('open')) {
      e.preventDefault();
      set(false);
      open.focus();
    }
  });
  return form;
}

function magnifier(): SVGSVGElement {
  return svgIcon('M10 3a7 7 0 1 0 4.2 12.6l5.1 5.1 1.4-1.4-5.1-5.1A7 7 0 0 0 10 3Zm0 2a5 5 0 1 1 0 10 5 5 0 0 1 0-10Z', 20);
}
