// The game page's part of the ratings (issue 13): once a rated game is rated, each seat's line
// shows the player's name (a link to the profile), the rating after the game ("1662?" while
// provisional) and the change ("+12", "−8"). Kept apart from the game page, which only calls
// `ratingBadge` for each seat.

import type { Color, GameView } from '../api';
import { h } from '../dom';
import { t } from '../i18n';
import { shownDiff, shownRating, type GameRatings } from '../ratings_api';

/** The rating line of seat `c` of a rated game, or `null` (unrated, or not yet). */
export function ratingBadge(g: GameView, c: Color): HTMLElement | null {
  const ratings = (g as GameView & { ratings?: GameRatings }).ratings;
  const side = ratings?.[c];
  if (!side) return null;
  const cls = side.diff > 0 ? 'up' : side.diff < 0 ? 'down' : 'same';
  return h('span.rating-badge', { 'data-color': c },
    ' · ', h('a', { href: `/@/${side.username}` }, side.username),
    ' ', h('span.rating-after', { title: side.provisional ? t('rating.provisional') : undefined }, shownRating(side.after, side.provisional)),
    ' ', h('span.rating-diff', { class: cls, title: t('rating.change') }, shownDiff(side.diff)));
}
