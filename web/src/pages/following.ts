// `/following` (issue 41): the players the account follows, online ones first, with their
// games in play and a Challenge button (to the lobby's form, the name filled in); `/@/{name}/followers`: who follows a player (public).

import { ApiError } from '../api';
import { h, mount } from '../dom';
import { errorWords, t } from '../i18n';
import { socialApi } from '../social/api';
import { setTitle } from '../title';
import { loginHref } from '../account';

/** How often the list asks again who is online and playing, ms (browser finding 2: it showed
 * a player online until a reload). */
const REFRESH_MS = 10_000;

export function followingPage(root: HTMLElement): () => void {
  setTitle(t('social.following_title'));
  mount(root, h('section.card', h('h1', t('social.following_title')), h('p.muted', t('page.loading'))));
  let timer: number | undefined;
  let gone = false;
  const load = () => socialApi.following().then(list => {
    if (gone) return;
    // A redraw keeps the focus where it was (a Challenge button), by the player's name.
    const focused = (document.activeElement as HTMLElement | null)?.closest('li[data-username]')?.getAttribute('data-username');
    mount(root, h('section.card#following',
      h('h1', t('social.following_title')),
      list.length === 0 ? h('p.muted', t('social.following_none')) : h('ul.following-list', list.map(f => h('li', { 'data-username': f.username },
        h('span', { class: f.online ? 'online-dot on' : 'online-dot', title: f.online ? t('social.online') : t('social.offline') }, f.online ? '● ' : '○ '),
        h('a', { href: `/@/${encodeURIComponent(f.username)}` }, f.username),
        f.online ? ` · ${t('social.online')}` : '',
        ...f.playing.map((g, i) => [' · ', h('a', { href: `/game/${encodeURIComponent(g)}` }, f.playing.length > 1 ? t('social.watch_n', { n: i + 1 }) : t('social.watch'))]).flat(),
        ' ', h('a.button.following-challenge', { href: `/?challenge=${encodeURIComponent(f.username)}` }, t('social.challenge')))))));
    if (focused) root.querySelector<HTMLElement>(`li[data-username="${CSS.escape(focused)}"] a.following-challenge`)?.focus();
  }, err => {
    if (gone) return;
    // Not logged in (any more): no asking again every 10 s, and the way to log in.
    if (err instanceof ApiError && err.status === 401) {
      gone = true;
      mount(root, h('section.card', h('h1', t('social.following_title')), h('p.error', errorWords(err)), h('p', h('a.button.primary', { href: loginHref() }, t('nav.login')))));
      return;
    }
    mount(root, h('section.card', h('h1', t('social.following_title')), h('p.error', errorWords(err))));
  })
    .finally(() => { if (!gone) timer = window.setTimeout(load, REFRESH_MS); });
  void load();
  return () => { gone = true; window.clearTimeout(timer); };
}

export function followersPage(root: HTMLElement, rawName: string): void {
  const name = decodeURIComponent(rawName);
  setTitle(t('social.followers_title', { name }));
  socialApi.followers(name).then(list => {
    mount(root, h('section.card#followers',
      h('h1', t('social.followers_title', { name: list.username })),
      list.count === 0 ? h('p.muted', t('social.followers_none')) : h('ul', list.players.map(p =>
        h('li', h('a', { href: `/@/${encodeURIComponent(p.username)}` }, p.username))))));
  }, err => mount(root, h('section.card', h('h1', name), h('p.error', errorWords(err)))));
}
