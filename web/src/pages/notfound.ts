// A path the page has no route for.

import { h, mount } from '../dom';
import { t } from '../i18n';
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
