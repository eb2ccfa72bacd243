// The statistics page's table of rated games between players (issue 13: the seed's table for
// rated human games), per game: White, Black and draws with percentages, with a filter by
// rating band (the mean rating of both players before the game).

import type { Variant, VariantStats } from '../api';
import { h, mount } from '../dom';
import { errorWords, t } from '../i18n';
import { ratingsApi } from '../ratings_api';
import { leaderboardLinks } from './leaderboard';

/** The bands offered: `[min, max]`, either end open. */
const BANDS: [number | null, number | null][] = [[null, null], [null, 1400], [1400, 1600], [1600, 1800], [1800, 2000], [2000, null]];

function bandName([min, max]: [number | null, number | null]): string {
  if (min === null && max === null) return t('rating.band_all');
  if (min === null) return t('rating.band_under', { n: max! });
  if (max === null) return t('rating.band_over', { n: min });
  return t('rating.band_range', { a: min, b: max });
}

/** The section: band filter, then one table per game drawn by `table` (the site table's own
 * look). */
export function ratedStats(table: (s: VariantStats | undefined) => HTMLElement): HTMLElement {
  const body = h('div#rated-tables');
  let band = 0;
  const load = () => {
    const [min, max] = BANDS[band];
    ratingsApi.ratedStats(min, max).then(
      s => mount(body, (['antarctos', 'iceage'] as Variant[]).map(v =>
        h('div.stats-block', { 'data-variant': v }, h('h3', t(`game.${v}` as 'game.antarctos')), table(s[v])))),
      err => mount(body, h('p.error', errorWords(err))),
    );
  };
  const select = h('select#rating-band', {
    'aria-label': t('rating.band'),
    onchange: (e: Event) => { band = Number((e.target as HTMLSelectElement).value); load(); },
  }, BANDS.map((b, i) => h('option', { value: String(i) }, bandName(b))));
  load();
  return h('div.rated-stats#rated-stats',
    h('h2', t('rating.rated_table')),
    h('p.muted', t('rating.rated_note')),
    h('label.actions', t('rating.band'), ' ', select),
    body,
    h('h2', t('rating.leaderboards')),
    leaderboardLinks());
}
