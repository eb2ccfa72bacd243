// Statistics per game, like the seed's page ("Kazanılmış oyunların istatistiği": beyaz, siyah,
// Berabere, each with its percentage rounded to one decimal, in each language's words); then the
// engine's self-play runs and matches stored by `icebound selfplay|match --database`.

import { api, type LabRun, type VariantStats } from '../api';
import { h, mount } from '../dom';
import { date, errorWords, num, t } from '../i18n';
import { setTitle } from '../title';
import { ratedStats } from './rated_stats';

type VariantName = 'antarctos' | 'iceage';

function siteTable(s: VariantStats | undefined): HTMLElement {
  if (!s || s.total === 0) return h('p.muted', t('stats.none'));
  const row = (label: string, n: number, pct: number, cls: string) =>
    h('tr', { class: cls },
      h('th', label),
      h('td.num', num(n)),
      h('td.num', `(${num(pct, 1)} %)`),
      h('td.bar', h('span', { class: cls, style: `width:${Math.max(0, Math.min(100, pct))}%` })));
  return h('table.stats',
    row(t('stats.white'), s.white, s.white_pct, 'white'),
    row(t('stats.black'), s.black, s.black_pct, 'black'),
    row(t('stats.draws'), s.draws, s.draws_pct, 'draws'),
    h('tr.total', h('th', t('stats.total')), h('td.num', num(s.total)), h('td'), h('td')));
}

// The server rounds the percentages half-up to one decimal (2 of 3: 66.7 %).
const count = (n: number, pct: number) => `${n} (${num(pct, 1)} %)`;
const day = (ms: number) => date(ms);
const fixed = (x: number | null, digits: number) => (x === null ? '—' : x.toFixed(digits));

function settingCell(r: LabRun): HTMLElement {
  const extra = r.random_plies > 0 ? t('stats.random_plies', { n: r.random_plies }) : null;
  return h('td', h('code', r.setting), extra ? h('div.muted', extra) : null);
}

function selfplayTable(variant: VariantName, runs: LabRun[]): HTMLElement {
  const title = h('h3', t('stats.selfplay'));
  // How to store runs is for whoever runs the site (README.md, docs/strength.md), not for players.
  if (runs.length === 0) return h('div.lab-selfplay', { 'data-variant': variant }, title, h('p.muted', t('stats.selfplay_none')));
  const head = h('tr',
    h('th', t('stats.setting')), h('th.num', t('stats.games')), h('th.num', t('stats.white_wins')),
    h('th.num', t('stats.black_wins')), h('th.num', t('stats.draw_count')), h('th.num', t('stats.white_score')),
    h('th.num', t('stats.mean_length')), h('th.num', t('stats.finished')));
  const rows = runs.map(r => {
    const interval = r.white_lower === null || r.white_upper === null
      ? '' : ` (${r.white_lower.toFixed(3)}–${r.white_upper.toFixed(3)})`;
    return h('tr', { 'data-run': r.id },
      settingCell(r),
      h('td.num', String(r.games), r.capped > 0 ? h('div.muted', t('stats.capped', { n: r.capped })) : null),
      h('td.num', count(r.white_wins, r.white_pct)),
      h('td.num', count(r.black_wins, r.black_pct)),
      h('td.num', count(r.draws, r.draws_pct)),
      h('td.num', `${fixed(r.white_score, 3)}${interval}`),
      h('td.num', r.mean_plies === null ? '—' : t('stats.plies', { n: r.mean_plies.toFixed(1) })),
      h('td.num', day(r.finished_at)));
  });
  return h('div.lab-selfplay', title, h('div.table-scroll', h('table.stats.lab', h('thead', head), h('tbody', rows))));
}

function matchTable(runs: LabRun[]): HTMLElement | null {
  const matches = runs.filter(r => r.match !== null);
  if (matches.length === 0) return null;
  const head = h('tr',
    h('th', t('stats.match_pair')), h('th.num', t('stats.games')), h('th.num', t('stats.a_results')),
    h('th.num', t('stats.a_score')), h('th.num', t('stats.elo')), h('th', t('stats.sprt')),
    h('th.num', t('stats.finished')));
  const rows = matches.map(r => {
    const m = r.match!;
    const points = m.a_wins + m.a_draws / 2;
    const score = r.games > 0 ? (points / r.games).toFixed(3) : '—';
    const elo = m.elo === null ? '—' : `${m.elo >= 0 ? '+' : ''}${m.elo.toFixed(1)} ± ${fixed(m.elo_error, 1)}`;
    // H0 and H1 are the test's own terms; "continue" (no verdict yet) is a word.
    const verdict = m.sprt?.verdict === 'continue' ? t('stats.sprt_continue') : m.sprt?.verdict;
    // The test's parameters are notation: shown as code in every language.
    const sprt = m.sprt ? [`${verdict} (`, h('code', `${m.sprt.params}, LLR ${m.sprt.llr.toFixed(2)}`), ')'] : '—';
    return h('tr', { 'data-run': r.id },
      h('td', h('code', r.setting), ` ${t('stats.vs')} `, h('code', m.setting_b)),
      h('td.num', String(r.games)),
      h('td.num', `${m.a_wins} / ${m.a_draws} / ${m.a_losses}`),
      h('td.num', score),
      h('td.num', elo),
      h('td', sprt),
      h('td.num', day(r.finished_at)));
  });
  return h('div.lab-matches', h('h3', t('stats.matches')), h('div.table-scroll', h('table.stats.lab', h('thead', head), h('tbody', rows))));
}

function block(variant: VariantName, s: VariantStats | undefined): HTMLElement {
  return h('div.stats-block', { 'data-variant': variant },
    h('h2', t(`game.${variant}` as 'game.antarctos')),
    h('h3', t('stats.site')),
    siteTable(s),
    selfplayTable(variant, s?.selfplay ?? []),
    matchTable(s?.matches ?? []));
}

export function statsPage(root: HTMLElement): void {
  setTitle(t('nav.stats'));
  mount(root, h('section.card', h('h1', t('stats.title')), h('p.muted', t('page.loading'))));
  api.stats().then(
    stats => mount(root, h('section.card#stats', h('h1', t('stats.title')), h('p.stats-draws-note', t('stats.draws_counted')), h('p.muted', t('stats.site_note')),
      block('antarctos', stats.antarctos), block('iceage', stats.iceage), ratedStats(siteTable))),
    err => mount(root, h('section.card', h('p.error', errorWords(err)))),
  );
}
