// A path the page has no route for.

import { h, mount } from '../dom';
import { t } from '../i18n';
import { setTitle } from '../title';

export function notFoundPage(root: HTMLElement, path: string): void {
  setTitle(t('notfound.title'));
  mount(root, h('section.card#not-found',
    h('h1', t('notfound.title')),
    h('p', t('notfound.text', { path })),
    h('p', h('a.button.primary', { href: '/' }, t('notfound.home')))));
}
