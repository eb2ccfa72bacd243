// Statistics per game, like the seed's page: games won by White, by Black, drawn, with percentages.

import { api, errorText, type VariantStats } from '../api';
import { h, mount } from '../dom';
import { t } from '../i18n';

function table(variant: 'antarctos' | 'iceage', s: VariantStats | undefined): HTMLElement {
  const title = h('h2', t(`game.${variant}` as 'game.antarctos'));
  if (!s || s.total === 0) return h('div.stats-block', { 'data-variant': variant }, title, h('p.muted', t('stats.none')));
  const row = (label: string, n: number, pct: number, cls: string) =>
    h('tr', { class: cls },
      h('th', label),
      h('td.num', String(n)),
      h('td.num', `(${pct.toFixed(2)} %)`),
      h('td.bar', h('span', { class: cls, style: `width:${Math.max(0, Math.min(100, pct))}%` })));
  return h('div.stats-block', { 'data-variant': variant }, title,
    h('table.stats',
      row(t('stats.white'), s.white, s.white_pct, 'white'),
      row(t('stats.black'), s.black, s.black_pct, 'black'),
      row(t('stats.draws'), s.draws, s.draws_pct, 'draws'),
      h('tr.total', h('th', t('stats.total')), h('td.num', String(s.total)), h('td'), h('td'))));
}

export function statsPage(root: HTMLElement): void {
  mount(root, h('section.card', h('h1', t('stats.title')), h('p.muted', '…')));
  api.stats().then(
    stats => mount(root, h('section.card#stats', h('h1', t('stats.title')), table('antarctos', stats.antarctos), table('iceage', stats.iceage))),
    err => mount(root, h('section.card', h('p.error', errorText(err)))),
  );
}
