// `/training/dashboard` (issue 39): a logged-in player's puzzle ratings in both games, the
// recent attempts (each leads back to its puzzle) and the themes they miss most. An anonymous
// player is asked to log in.

import { ApiError, type Variant } from '../../api';
import { h, mount } from '../../dom';
import { dateTime, errorWords, t } from '../../i18n';
import { puzzlesApi, type Dashboard, type DashboardAttempt, type DashboardRating } from '../../puzzles/api';
import { setChosenTheme } from '../../puzzles/session';
import { themeName } from '../../puzzles/themes';
import { shownDiff } from '../../ratings_api';
import { setTitle } from '../../title';
import { variantOf } from '../../variants';
import { loginHref } from '../../account';

const VARIANTS: Variant[] = ['antarctos', 'iceage'];
const gameName = (v: Variant) => t(variantOf(v).nameKey);

function ratingCard(v: Variant, r: DashboardRating | null): HTMLElement {
  return h('div.rating-card', { 'data-variant': v },
    h('div', gameName(v)),
    r ? [
      h('div.rating-value', String(r.rating), r.provisional ? provisionalMark() : null),
      h('div.muted.small', t('puzzle.solved_of', { solved: r.solved, n: r.attempts })),
    ] : h('div.muted.small.rating-none', t('puzzle.no_rating')));
}

/** A provisional rating's "?", with what it means (the legend below the cards says it too). */
const provisionalMark = () => h('abbr.provisional', { title: t('puzzle.provisional') }, '?');

/** A row of the recent attempts; on a phone each row is a small card (puzzles.css), each
 * number labelled by its column's heading (`data-label`). */
function attemptRow(a: DashboardAttempt, prev: number | null): HTMLElement {
  const diff = a.rating_after !== null && prev !== null ? a.rating_after - prev : null;
  return h('tr', { 'data-id': a.id, class: a.solved ? 'solved' : 'failed' },
    h('td.when.muted.small', dateTime(a.at)),
    h('td.game', gameName(a.variant)),
    h('td.outcome', a.solved ? `✓ ${t('puzzle.result_solved')}` : `✗ ${t('puzzle.result_failed')}`),
    h('td.num.mine', { 'data-label': t('puzzle.col_rating') }, a.rating_after !== null
      ? [String(a.rating_after), diff !== null ? h('div.small', h('span.rating-diff', { class: diff > 0 ? 'up' : diff < 0 ? 'down' : undefined, 'data-diff': String(diff) }, shownDiff(diff))) : null]
      : h('span.muted.small', t('puzzle.casual'))),
    h('td.num.theirs', { 'data-label': t('puzzle.col_puzzle_rating') }, String(a.puzzle_rating)),
    h('td.themes.small', a.themes.map(th => themeName(a.variant, th)).join(', ')),
    h('td.open', h('a.button', { href: `/training/${a.variant}/${encodeURIComponent(a.id)}` }, t('puzzle.open'))));
}

/** The rating before each rated attempt of the list, as the server stored it. */
function ratingsBefore(d: Dashboard): (number | null)[] {
  return d.recent.map(a => (a.rating_after === null ? null : a.rating_before));
}

function recentBox(d: Dashboard): HTMLElement {
  if (!d.recent.length) return h('p.muted#no-attempts', t('puzzle.no_attempts'));
  const before = ratingsBefore(d);
  const rows = d.recent.map((a, i) => attemptRow(a, before[i]));
  const head = h('tr', h('th', t('puzzle.col_when')), h('th', t('puzzle.col_game')), h('th', t('puzzle.col_result')),
    h('th.num', t('puzzle.col_rating')), h('th.num', t('puzzle.col_puzzle_rating')), h('th', t('puzzle.col_themes')),
    h('th', h('span.sr-only', t('puzzle.open'))));
  return h('div.table-scroll', h('table.list#puzzle-recent', h('thead', head), h('tbody', rows)));
}

function themesBox(d: Dashboard): HTMLElement {
  const missed = d.themes.filter(x => x.failed > 0);
  if (!missed.length) return h('p.muted#no-misses', t('puzzle.no_misses'));
  const head = h('tr', h('th', t('puzzle.col_theme')), h('th', t('puzzle.col_game')), h('th.num', t('puzzle.col_attempts')),
    h('th.num', t('puzzle.col_solved')), h('th.num', t('puzzle.col_failed')));
  return h('div.table-scroll', h('table.list#puzzle-missed', h('thead', head), h('tbody', missed.map(x =>
    h('tr', { 'data-variant': x.variant, 'data-theme': x.theme },
      // Training the theme: the trainer opens with it chosen.
      h('td.theme', h('a.button', { href: `/training/${x.variant}`, onclick: () => setChosenTheme(x.variant, x.theme) }, themeName(x.variant, x.theme))),
      h('td.game', gameName(x.variant)),
      h('td.num', { 'data-label': t('puzzle.col_attempts') }, String(x.attempts)),
      h('td.num', { 'data-label': t('puzzle.col_solved') }, String(x.solved)),
      h('td.num', { 'data-label': t('puzzle.col_failed') }, String(x.failed)))))));
}

export function dashboardPage(root: HTMLElement): () => void {
  let gone = false;
  setTitle(t('puzzle.dashboard_title'));
  mount(root, h('section.card#puzzle-dashboard', h('h1', t('puzzle.dashboard_title')), h('p.muted', t('page.loading'))));
  puzzlesApi.dashboard().then(
    d => {
      if (gone) return;
      mount(root, h('section.card#puzzle-dashboard',
        h('h1', t('puzzle.dashboard_title')),
        h('div.rating-cards#puzzle-ratings', VARIANTS.map(v => ratingCard(v, d.ratings[v] ?? null))),
        VARIANTS.some(v => d.ratings[v]?.provisional) ? h('p.muted.small#provisional-legend', h('strong', '? '), t('puzzle.provisional')) : null,
        h('h2', t('puzzle.recent')),
        recentBox(d),
        h('h2', t('puzzle.missed_most')),
        themesBox(d),
        h('div.actions', VARIANTS.map(v => h('a.button', { href: `/training/${v}` }, `${t('puzzle.nav')} · ${gameName(v)}`)))));
    },
    err => {
      if (gone) return;
      const login = err instanceof ApiError && err.status === 401;
      mount(root, h('section.card#puzzle-dashboard',
        h('h1', t('puzzle.dashboard_title')),
        login
          ? [h('p#dashboard-login', t('puzzle.dashboard_login')), h('div.actions', h('a.button.primary', { href: loginHref() }, t('nav.login')))]
          : h('p.error', errorWords(err))));
    },
  );
  return () => { gone = true; };
}
