// The home page's daily puzzles (issue 39): for each game, the day's puzzle on a small board,
// oriented to the side that plays and wins, who begins and wins in words, and a link to solve it
// (`/training/<game>/daily`). A game without a daily puzzle (none mined, the server out of
// reach) shows nothing; with neither, the section stays hidden.

import type { Variant } from '../api';
import { Board } from '../board';
import { h, mount } from '../dom';
import { colorName, t } from '../i18n';
import { variantOf } from '../variants';
import { puzzlesApi, type Puzzle } from './api';

const VARIANTS: Variant[] = ['antarctos', 'iceage'];

export function dailySection(): { el: HTMLElement; destroy: () => void } {
  const boards: Board[] = [];
  let gone = false;
  const cards = h('div.daily-cards');
  const el = h('section.card.daily#daily-puzzles', { hidden: true },
    h('h2', t('puzzle.daily')),
    h('p.muted', t('puzzle.daily_card')),
    cards);
  const card = (p: Puzzle): HTMLElement => {
    const game = variantOf(p.variant);
    const solver = game.turnOf(p.fen);
    const pic = h('div.cg-wrap');
    const href = `/training/${p.variant}/daily`;
    const c = h('div.daily-card', { 'data-variant': p.variant, 'data-id': p.id },
      h('h3', t(game.nameKey)),
      // Who plays: the board is turned to that side, but a newcomer does not know it.
      h('p.daily-who', { 'data-color': solver }, t(solver === 'white' ? 'puzzle.white_wins' : 'puzzle.black_wins')),
      h('a.daily-pic', { href, 'aria-label': t('puzzle.daily_board', { game: t(game.nameKey), color: colorName(solver) }) }, pic),
      h('a.button.primary.daily-solve', { href }, t('puzzle.daily_solve')));
    // chessgroundx measures its element: the board is drawn once the page holds it.
    requestAnimationFrame(() => {
      if (gone || !pic.isConnected) return;
      const board = new Board(pic, p.variant, { move: () => undefined }, true);
      board.setOrientation(solver);
      board.show(p.fen, { legal: [], movable: null });
      boards.push(board);
    });
    return c;
  };
  Promise.all(VARIANTS.map(v => puzzlesApi.daily(v).catch(() => null))).then(found => {
    if (gone) return;
    const shown = found.filter((p): p is Puzzle & { date: string } => p !== null);
    if (!shown.length) return;
    mount(cards, shown.map(card));
    el.hidden = false;
  });
  return {
    el,
    destroy: () => {
      gone = true;
      boards.forEach(b => b.destroy());
    },
  };
}
