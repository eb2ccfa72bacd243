// Game search, `/games/search` (issue 41): a form whose fields are the query string of the page
// (so a search is a link), and the finished games found, 30 a page, newest first
// (`GET /api/games/search`, docs/api.md).

import { call, type Variant } from '../api';
import { h, mount } from '../dom';
import { date, errorWords, resultLine, t } from '../i18n';
import { navigate } from '../nav';
import { setTitle } from '../title';

interface Seat { kind: 'human' | 'engine'; username?: string; level?: number }
interface FoundGame {
  id: string;
  variant: Variant;
  white: Seat;
  black: Seat;
  winner: 'white' | 'black' | null;
  reason: string | null;
  rated: boolean;
  speed: string;
  plies: number;
  created_at: number;
  ended_at: number;
}
interface SearchAnswer { page: number; per_page: number; next: boolean; games: FoundGame[] }

const FIELDS = ['player', 'opponent', 'variant', 'result', 'rated', 'speed', 'from', 'to'] as const;
type Field = (typeof FIELDS)[number];

function seat(s: Seat): HTMLElement {
  if (s.username) return h('a', { href: `/@/${encodeURIComponent(s.username)}` }, s.username);
  if (s.kind === 'engine') return h('span', t('search.engine', { level: s.level ?? 0 }));
  return h('span.muted', t('search.anonymous'));
}

function row(g: FoundGame): HTMLElement {
  const outcome = g.winner === 'white' ? '1-0' : g.winner === 'black' ? '0-1' : '½-½';
  const words = g.reason ? resultLine({ winner: g.winner, reason: g.reason } as Parameters<typeof resultLine>[0]) : outcome;
  // The link to the game comes first: on a phone the row's end is off screen (finding 16).
  return h('tr', { 'data-game': g.id },
    h('td', h('a.search-open', { href: `/game/${g.id}` }, t('search.open'))),
    h('td', t(`game.${g.variant}` as 'game.antarctos')),
    h('td', seat(g.white)),
    h('td', seat(g.black)),
    h('td', { title: words }, outcome),
    h('td', `${t(g.rated ? 'search.rated_yes' : 'search.rated_no')} · ${t(`search.${g.speed}` as 'search.realtime')}`),
    h('td.num', String(g.plies)),
    h('td', date(g.created_at)));
}

function select(name: Field, value: string, options: [string, string][]): HTMLElement {
  return h('label', t(`search.${name}` as 'search.player'),
    h(`select#search-${name}`, { name },
      h('option', { value: '' }, t('search.any')),
      options.map(([v, label]) => h('option', { value: v, selected: v === value ? true : undefined }, label))));
}

export function gameSearchPage(root: HTMLElement): void {
  setTitle(t('search.title'));
  const query = new URLSearchParams(location.search);
  const value = (f: Field) => query.get(f) ?? '';
  const page = Math.max(1, Number(query.get('page') ?? '1') || 1);
  const text = (name: Field, type = 'text') =>
    h('label', t(`search.${name}` as 'search.player'),
      h(`input#search-${name}`, { name, type, value: value(name), maxlength: type === 'text' ? 64 : undefined, autocomplete: 'off' }));
  const form = h('form#game-search.search-form', {
    onsubmit: (e: Event) => {
      e.preventDefault();
      const data = new FormData(e.target as HTMLFormElement);
      const q = new URLSearchParams();
      for (const f of FIELDS) {
        const v = String(data.get(f) ?? '').trim();
        if (v) q.set(f, v);
      }
      navigate(`/games/search${q.toString() ? `?${q}` : ''}`);
    },
  },
  text('player'), text('opponent'),
  select('variant', value('variant'), [['antarctos', t('game.antarctos')], ['iceage', t('game.iceage')]]),
  select('result', value('result'), (['win', 'loss', 'draw', 'white', 'black'] as const).map(r => [r, t(`search.${r}`)])),
  select('rated', value('rated'), [['true', t('search.rated_yes')], ['false', t('search.rated_no')]]),
  select('speed', value('speed'), (['realtime', 'correspondence', 'unlimited'] as const).map(s => [s, t(`search.${s}`)])),
  text('from', 'date'), text('to', 'date'),
  h('div.actions', h('button.primary', { type: 'submit' }, t('search.submit'))));
  const results = h('div#search-results', h('p.muted', t('page.loading')));
  mount(root, h('section.card', h('h1', t('search.title')), h('p.muted', t('search.note')), form, results));

  const api = new URLSearchParams();
  for (const f of FIELDS) if (value(f)) api.set(f, value(f));
  if (page > 1) api.set('page', String(page));
  const at = (n: number) => {
    const q = new URLSearchParams(api);
    if (n > 1) q.set('page', String(n)); else q.delete('page');
    return `/games/search?${q}`;
  };
  call<SearchAnswer>('GET', `/api/games/search?${api}`).then(r => {
    const head = h('tr', h('th', h('span.sr-only', t('search.open'))), h('th', t('search.variant')), h('th', t('search.white_col')), h('th', t('search.black_col')),
      h('th', t('search.outcome')), h('th', t('search.speed')), h('th.num', t('search.plies')), h('th', t('search.date')),
    );
    const pager = h('div.actions',
      r.page > 1 ? h('a.button#search-newer', { href: at(r.page - 1) }, t('search.newer')) : null,
      h('span.muted', t('search.page', { n: r.page })),
      r.next ? h('a.button#search-older', { href: at(r.page + 1) }, t('search.older')) : null);
    mount(results, r.games.length
      ? [h('div.table-scroll', h('table.list.search-games', h('thead', head), h('tbody', r.games.map(row)))), pager]
      : [h('p.muted', t('search.none')), r.page > 1 ? pager : null]);
  }, err => mount(results, h('p.error', errorWords(err))));
}
