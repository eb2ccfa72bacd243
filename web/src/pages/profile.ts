// A player's profile, `/@/{username}` (issue 13): the ratings per game and speed ("1500?" while
// provisional), an SVG graph of the rating history (one game and speed at a time, switchable),
// the win/loss/draw counts and the game list, filterable by game, with results from the
// player's side and links to the games. Issue 41: the player's bio (text, never markup), their
// country by name, and the recent activity (games, tournaments, puzzles, follows).

import type { Variant } from '../api';
import { h, mount } from '../dom';
import { dateTime, errorWords, num, t } from '../i18n';
import {
  SPEEDS, ratingsApi, shownDiff, shownRating,
  type History, type HistoryPoint, type PlayerGame, type PlayerView, type Speed,
} from '../ratings_api';
import { countryName } from '../countries';
import { socialBox } from '../social/profile_box';
import { setTitle } from '../title';
import { tournamentsApi } from '../tournaments/api';
import { parseVariant } from '../variants';

const VARIANTS: Variant[] = ['antarctos', 'iceage'];
const gameName = (v: Variant) => t(`game.${v}` as 'game.antarctos');
const speedName = (s: Speed) => t(`rating.${s}`);

function ratingCards(p: PlayerView): HTMLElement {
  const cards = VARIANTS.flatMap(v => SPEEDS.map(s => {
    const r = p.ratings[v][s];
    return h('div.rating-card', { 'data-variant': v, 'data-speed': s },
      h('div.muted.small', `${gameName(v)} · ${speedName(s)}`),
      h('div.rating-value', { title: r.provisional ? t('rating.provisional') : undefined }, shownRating(r.rating, r.provisional)),
      h('div.muted.small', t('rating.games_n', { n: r.games })));
  }));
  return h('div.rating-cards', cards);
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag: string, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** The rating after each game as a line, oldest on the left; the highest and lowest rating on
 * the left edge, the first and last date below. Scales to the card's width. */
function graph(points: HistoryPoint[], label: string): HTMLElement {
  if (points.length === 0) return h('p.muted#rating-graph-empty', t('rating.no_history'));
  const [w, ht, left, top, bottom] = [600, 220, 48, 12, 24];
  const ratings = points.map(p => p.rating);
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  if (hi - lo < 50) { lo -= 25; hi += 25; }
  const x = (i: number) => left + (points.length === 1 ? (w - left) / 2 : (i * (w - left - 8)) / (points.length - 1));
  const y = (r: number) => top + ((hi - r) * (ht - top - bottom)) / (hi - lo);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  const dots = points.map((p, i) => svg('a', { href: `/game/${p.game}` },
    svg('circle', { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 4, class: 'dot' },
      svg('title', {}, `${p.rating} · ${dateTime(p.at)}`))));
  const text = (tx: number, ty: number, s: string, anchor = 'end') =>
    svg('text', { x: tx, y: ty, 'text-anchor': anchor, class: 'axis' }, s);
  return h('div.graph',
    svg('svg', { viewBox: `0 0 ${w} ${ht}`, role: 'img', 'aria-label': label},
      svg('line', { x1: left, y1: top, x2: left, y2: ht - bottom, class: 'frame' }),
      svg('line', { x1: left, y1: ht - bottom, x2: w, y2: ht - bottom, class: 'frame' }),
      text(left - 6, top + 4, String(hi)),
      text(left - 6, ht - bottom, String(lo)),
      text(left, ht - 6, dateTime(points[0].at), 'start'),
      points.length > 1 ? text(w - 4, ht - 6, dateTime(points[points.length - 1].at)) : '',
      svg('polyline', { points: line, class: 'rating-line' }),
      ...dots) as unknown as Node);
}

function historyBox(history: History): HTMLElement {
  const pairs = VARIANTS.flatMap(v => SPEEDS.map(s => [v, s] as [Variant, Speed]));
  // The game and speed with the most rated games first.
  let shown = pairs.reduce((best, p) => history[p[0]][p[1]].length > history[best[0]][best[1]].length ? p : best, pairs[0]);
  const box = h('div#rating-graph');
  const tabs = h('div.tabs.wrap', { role: 'group', 'aria-label': t('rating.history') });
  const draw = () => {
    mount(tabs, pairs.map(([v, s]) => h('button', {
      type: 'button',
      class: v === shown[0] && s === shown[1] ? 'primary' : undefined,
      'aria-pressed': String(v === shown[0] && s === shown[1]),
      'data-variant': v, 'data-speed': s,
      onclick: () => { shown = [v, s]; draw(); },
    }, `${gameName(v)} · ${speedName(s)}`)));
    const [v, s] = shown;
    mount(box, graph(history[v][s], t('rating.graph_label', { game: gameName(v), speed: speedName(s) })));
  };
  draw();
  return h('div', tabs, box);
}

function record(p: PlayerView): HTMLElement {
  const item = (key: 'rating.total' | 'rating.wins' | 'rating.losses' | 'rating.draws', n: number, id: string) =>
    h('div.record-item', h('div.muted.small', t(key)), h('strong', { id }, num(n)));
  return h('div.record#record',
    item('rating.total', p.games.total, 'record-total'), item('rating.wins', p.games.wins, 'record-wins'),
    item('rating.losses', p.games.losses, 'record-losses'), item('rating.draws', p.games.draws, 'record-draws'));
}

function opponentCell(g: PlayerGame): HTMLElement {
  const o = g.opponent;
  if (o.kind === 'engine') {
    const level = o.level ?? 0;
    // An uploaded game's level is the uploader's claim: said so.
    return h('td', t('game.engine_level', { level: level || '?', words: level >= 1 && level <= 8 ? t(`level.${level}` as 'level.1') : '?' }),
      g.offline ? h('div.muted.small.offline-tag', t('offline.unverified')) : null);
  }
  return h('td', o.username ? h('a', { href: `/@/${o.username}` }, o.username) : t('rating.anonymous'));
}

function gameRow(g: PlayerGame): HTMLElement {
  const outcome = g.outcome === null ? t('rating.ongoing') : t(`rating.${g.outcome}`);
  const diff = g.rating_diff === null ? '' : shownDiff(g.rating_diff);
  return h('tr', { 'data-id': g.id, class: g.outcome ?? 'ongoing' },
    h('td', gameName(g.variant), h('div.muted.small', `${g.rated ? t('rating.rated') : t('rating.casual')}${g.speed ? ` · ${speedName(g.speed)}` : ''}`)),
    opponentCell(g),
    h('td.outcome', outcome),
    h('td.num', diff ? h('span.rating-diff', { class: g.rating_diff! > 0 ? 'up' : g.rating_diff! < 0 ? 'down' : undefined }, diff) : '',
      g.rating_after !== null ? h('div.muted.small', shownRating(g.rating_after, !!g.provisional)) : null),
    h('td.muted.small', dateTime(g.updated_at)),
    h('td', h('a.button', { href: `/game/${g.id}` }, t('rating.open'))));
}

function gamesBox(name: string): HTMLElement {
  let variant: Variant | null = null;
  let page = 1;
  const list = h('div#profile-games');
  const select = h('select#games-filter', {
    'aria-label': t('rating.games'),
    onchange: (e: Event) => {
      const v = (e.target as HTMLSelectElement).value;
      variant = parseVariant(v)?.key ?? null;
      page = 1;
      load();
    },
  }, h('option', { value: '' }, t('rating.all_games')), ...VARIANTS.map(v => h('option', { value: v }, gameName(v))));
  const load = () => {
    ratingsApi.games(name, variant, page).then(r => {
      const head = h('tr', h('th', t('home.game')), h('th', t('rating.opponent')), h('th', t('rating.result')),
        h('th.num', t('rating.change')), h('th', t('rating.when')), h('th', h('span.sr-only', t('rating.open'))));
      const pager = h('div.actions',
        page > 1 ? h('button#games-newer', { type: 'button', onclick: () => { page--; load(); } }, t('rating.newer')) : null,
        r.more ? h('button#games-older', { type: 'button', onclick: () => { page++; load(); } }, t('rating.older')) : null);
      mount(list, r.games.length
        ? [h('div.table-scroll', h('table.list.profile-games', h('thead', head), h('tbody', r.games.map(gameRow)))), pager]
        : h('p.muted', t('rating.no_games')));
    }, err => mount(list, h('p.error', errorWords(err))));
  };
  load();
  return h('div', h('div.actions', select), list);
}

/** The player's last events and places (issue 40), filled in when they arrive. */
function tournamentsBox(name: string): HTMLElement {
  const box = h('div#profile-tournaments');
  tournamentsApi.ofPlayer(name).then(list => {
    if (list.length === 0) return;
    mount(box, h('h2', t('tour.profile')), h('ul.tournament-list', list.map(x => h('li', { 'data-id': x.id },
      x.place ? h('strong', `#${x.place} `) : '',
      h('a', { href: `/tournament/${x.id}` }, x.name), ' · ', t(`tour.status.${x.status}` as 'tour.status.created'),
      ' · ', dateTime(x.starts_at)))));
  }, () => undefined);
  return box;
}

/** The bio (as text: a line break is kept, markup is shown as written) and the country. */
function about(p: PlayerView): HTMLElement | null {
  if (!p.bio && !p.country) return null;
  return h('div.profile-about',
    p.country ? h('p.profile-country#profile-country', { 'data-code': p.country }, countryName(p.country)) : null,
    p.bio ? h('p.profile-bio#profile-bio', p.bio) : null);
}

/** The recent activity, as lichess's: each line a game with its result, a tournament, the
 * puzzles of 30 days, a follow. */
function activity(p: PlayerView): HTMLElement {
  const a = p.activity;
  const lines: HTMLElement[] = [];
  for (const g of a.games) {
    const level = g.opponent.level ?? 0;
    const opponent = g.opponent.kind === 'engine'
      ? t('game.engine_level', { level: level || '?', words: level >= 1 && level <= 8 ? t(`level.${level}` as 'level.1') : '?' })
      : g.opponent.username ?? t('rating.anonymous');
    lines.push(h('li.act-game', { 'data-id': g.id, 'data-outcome': g.outcome ?? '' },
      h('a', { href: `/game/${g.id}` }, t('profile.act_game', { result: g.outcome ? t(`rating.${g.outcome}`) : t('rating.ongoing'), opponent })),
      h('span.muted.small', ` · ${gameName(g.variant)} · ${dateTime(g.updated_at)}`)));
  }
  for (const x of a.tournaments) {
    lines.push(h('li.act-tournament', { 'data-id': x.id },
      h('a', { href: `/tournament/${x.id}` }, t(x.won ? 'profile.act_tournament_won' : 'profile.act_tournament', { name: x.name }))));
  }
  if (a.puzzles.attempted > 0) {
    lines.push(h('li.act-puzzles', t('profile.act_puzzles', { solved: a.puzzles.solved, n: a.puzzles.attempted })));
  }
  for (const f of a.follows) {
    // The name is a link wherever the language puts it.
    const [before, after] = t('profile.act_follow', { name: '\u0000' }).split('\u0000');
    lines.push(h('li.act-follow', before, h('a', { href: `/@/${f.username}` }, f.username), after ?? '',
      h('span.muted.small', ` · ${dateTime(f.at)}`)));
  }
  return h('div#profile-activity',
    h('h2', t('profile.activity')),
    lines.length ? h('ul.activity', lines) : h('p.muted', t('profile.activity_none')));
}

export function profilePage(root: HTMLElement, rawName: string): void {
  const name = decodeURIComponent(rawName);
  setTitle(t('rating.profile_title', { name }));
  mount(root, h('section.card', h('h1', t('rating.profile_title', { name })), h('p.muted', t('page.loading'))));
  Promise.all([ratingsApi.player(name), ratingsApi.history(name)]).then(
    ([p, history]) => {
      setTitle(t('rating.profile_title', { name: p.username }));
      mount(root, h('section.card#profile', { 'data-username': p.username },
        h('h1', t('rating.profile_title', { name: p.username }),
          p.title ? h('span.bot-title', { attrs: { title: t('game.bot_title') } }, ' BOT') : ''),
        about(p),
        socialBox(p.username),
        h('h2', t('rating.ratings')),
        ratingCards(p),
        h('h2', t('rating.history')),
        historyBox(history),
        activity(p),
        h('h2', t('rating.games')),
        record(p),
        gamesBox(p.username),
        tournamentsBox(p.username)));
    },
    err => mount(root, h('section.card', h('h1', name),
      h('p.error#profile-error', (err as { code?: string }).code === 'not_found' ? t('rating.not_found') : errorWords(err)))),
  );
}
