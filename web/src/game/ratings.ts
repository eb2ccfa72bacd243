// The game page's part of the ratings (issue 13): once a rated game is rated, each seat's line
// shows the player's name (a link to the profile), the rating after the game ("1662?" while
// provisional) and the change ("+12", "−8"). Kept apart from the game page, which only calls
// `ratingBadge` for each seat.

import type { Color, GameView } from '../api';
import { t } from '../i18n';
import { h, type VNode } from '../snabbdom';
import { shownDiff, shownRating, type GameRatings } from '../ratings_api';

/** The rating line of seat `c` of a rated game, or `null` (unrated, or not yet). */
export function ratingBadge(g: GameView, c: Color): VNode | null {
  const ratings = (g as GameView & { ratings?: GameRatings }).ratings;
  const side = ratings?.[c];
  if (!side) return null;
  const cls = side.diff > 0 ? 'up' : side.diff < 0 ? 'down' : 'same';
  return h('span.rating-badge', { attrs: { 'data-color': c } }, [
    ' · ', h('a', { attrs: { href: `/@/${side.username}` } }, side.username),
    ' ', h('span.rating-after', { attrs: side.provisional ? { title: t('rating.provisional') } : {} }, shownRating(side.after, side.provisional)),
    ' ', h(`span.rating-diff.${cls}`, { attrs: { title: t('rating.change') } }, shownDiff(side.diff))]);
}

const unratedWords = { pair_limit: 'rating.pair_limit', sandbag: 'rating.sandbag', marked: 'rating.marked' } as const;

/** Why a game played as rated did not count (the pair's daily limit, sandbagging, a marked
 *  player), or `null`. */
export function unratedNote(g: GameView): VNode | null {
  return g.unrated ? h('p.over-reason.unrated-note', t(unratedWords[g.unrated])) : null;
}
