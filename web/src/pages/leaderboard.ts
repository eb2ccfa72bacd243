// The leaderboard of a game, `/leaderboard/{variant}` (issue 13): the 50 best ratings per speed
// class among players with a settled rating (RD under 110) and a rated game in the last 30 days.

import type { Variant } from '../api';
import { h, mount } from '../dom';
import { errorWords, num, t } from '../i18n';
import { navigate } from '../nav';
import { SPEEDS, ratingsApi, type BoardLine, type Speed } from '../ratings_api';
import { setTitle } from '../title';
import { notFoundPage } from './notfound';
import { parseVariant } from '../variants';

const gameName = (v: Variant) => t(`game.${v}` as 'game.antarctos');

function table(speed: Speed, lines: BoardLine[]): HTMLElement {
  const title = h('h2', t(`rating.${speed}`));
  if (lines.length === 0) return h('div.board', { 'data-speed': speed }, title, h('p.muted', t('rating.board_empty')));
  const head = h('tr', h('th.num', t('rating.rank')), h('th', t('rating.player')), h('th.num', t('rating.rating')), h('th.num', t('rating.games')));
  const rows = lines.map(l => h('tr', { 'data-username': l.username },
    h('td.num', String(l.rank)),
    h('td', h('a', { href: `/@/${l.username}` }, l.username)),
    h('td.num', h('strong', String(l.rating))),
    h('td.num', num(l.games))));
  return h('div.board', { 'data-speed': speed }, title,
    h('div.table-scroll', h('table.list.leaderboard', h('thead', head), h('tbody', rows))));
}

/** Links to both games' leaderboards (`current` marked). */
export function leaderboardLinks(current?: Variant): HTMLElement {
  return h('div.tabs.wrap', (['antarctos', 'iceage'] as Variant[]).map(v =>
    h('a.button', { href: `/leaderboard/${v}`, class: v === current ? 'primary' : undefined, 'aria-current': v === current ? 'page' : undefined }, gameName(v))));
}

export function leaderboardPage(root: HTMLElement, variant?: string): void {
  const game = parseVariant(variant);
  if (!game) {
    // `/leaderboard` alone (the header's link) shows the first game's.
    if (variant === undefined) navigate('/leaderboard/antarctos', true);
    else notFoundPage(root, location.pathname);
    return;
  }
  const v: Variant = game.key;
  setTitle(t('rating.leaderboard_title', { game: gameName(v) }));
  const head = [h('h1', t('rating.leaderboard_title', { game: gameName(v) })), leaderboardLinks(v), h('p.muted', t('rating.leaderboard_note'), ' ', h('a#leaderboard-search', { href: '/games/search' }, t('search.nav')), ' · ', h('a#leaderboard-tv', { href: '/tv' }, t('tv.title')))];
  mount(root, h('section.card', head, h('p.muted', t('page.loading'))));
  ratingsApi.leaderboard(v).then(
    b => mount(root, h('section.card#leaderboard', { 'data-variant': v }, head, h('div.boards', SPEEDS.map(s => table(s, b[s]))))),
    err => mount(root, h('section.card', head, h('p.error', errorWords(err)))),
  );
}
