// The game page's part of the ratings (issue 13): each seat's line shows, after the player's
// name (a link to the profile, written by the page once), the rating: while the game is played
// the rating at its start ("1500?" while provisional, issue 41); once a rated game is rated, the
// rating after it and the change ("+12", "−8"). Kept apart from the game page, which only calls
// `ratingBadge` for each seat.

import type { Color, GameView } from '../api';
import { t } from '../i18n';
import { h, type VNode } from '../snabbdom';
import { shownDiff, shownRating, type GameRatings } from '../ratings_api';

/** The rating of seat `c`: after a rated game its rating after and change, before that the
 * account's rating in the game and speed; `null` for a seat without one (anonymous, the
 * computer, an unlimited game). The name is not repeated (issue 41: "bob · bob 1662?"). */
export function ratingBadge(g: GameView, c: Color): VNode | null {
  const ratings = (g as GameView & { ratings?: GameRatings }).ratings;
  const side = ratings?.[c];
  if (!side) {
    const now = g[c].rating;
    if (!now) return null;
    return h('span.rating-badge.rating-now', { attrs: { 'data-color': c } }, [
      ' ', h('span.rating-after', { attrs: now.provisional ? { title: t('rating.provisional') } : {} }, shownRating(now.rating, now.provisional))]);
  }
  const cls = side.diff > 0 ? 'up' : side.diff < 0 ? 'down' : 'same';
  return h('span.rating-badge', { attrs: { 'data-color': c } }, [
    ' ', h('span.rating-after', { attrs: side.provisional ? { title: t('rating.provisional') } : {} }, shownRating(side.after, side.provisional)),
    ' ', h(`span.rating-diff.${cls}`, { attrs: { title: t('rating.change') } }, shownDiff(side.diff))]);
}

const unratedWords = { pair_limit: 'rating.pair_limit', sandbag: 'rating.sandbag', marked: 'rating.marked' } as const;

/** Why a game played as rated did not count (the pair's daily limit, sandbagging, a marked
 *  player), or `null`. */
export function unratedNote(g: GameView): VNode | null {
  return g.unrated ? h('p.over-reason.unrated-note', t(unratedWords[g.unrated])) : null;
}
