// A path the page has no route for, and a game or invitation that does not exist: a page with
// its own title and the ways on (home, a new game).

import { h, mount } from '../dom';
import { t, type Key } from '../i18n';
import { setTitle } from '../title';

const MARK = '\u0000';

/** The sentence with the path set as code (a path is not language). */
function withPath(sentence: string, path: string): (string | HTMLElement)[] {
  const [before, after = ''] = sentence.split(MARK);
  return [before, h('code', path), after];
}

export function notFoundPage(root: HTMLElement, path: string): void {
  setTitle(t('notfound.title'));
  mount(root, h('section.card#not-found',
    h('h1', t('notfound.title')),
    h('p', ...withPath(t('notfound.text', { path: MARK }), path)),
    h('p', h('a.button.primary', { href: '/' }, t('notfound.home')))));
}

/** A page that says what happened (`title`, then `text`), with links on: `more` first (e.g.
 * Watch the game), then Home and New game. */
export function deadEndPage(root: HTMLElement, title: Key, text: string, more: HTMLElement[] = []): void {
  setTitle(t(title));
  mount(root, h('section.card#dead-end', { 'data-what': title },
    h('h1', t(title)),
    h('p', text),
    h('p.actions', ...more,
      h('a.button#home-link', { href: '/' }, t('nav.home')),
      h('a.button#new-game-link', { href: '/', class: more.length ? undefined : 'primary' }, t('game.new_game')))));
}
