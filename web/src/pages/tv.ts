// Watch, `/tv` and `/tv/{antarctos|iceage}` (issue 41): the game in progress most worth watching
// (`GET /api/tv`: rated games of two accounts first, then the highest mean rating), shown live
// by the game page's own spectator view (its WebSocket), and the next one once it ends: the page
// asks the server again every few seconds and switches when the answer names another game,
// after the shown one has stayed `HOLD_MS` with its result.

import { call, type Variant } from '../api';
import { h, mount } from '../dom';
import { errorWords, t } from '../i18n';
import { setTitle } from '../title';
import { gamePage } from './game';

interface TvAnswer {
  game: string | null;
  variant: Variant | null;
  white: string | null;
  black: string | null;
  ratings: { white: number; black: number } | null;
  rated: boolean | null;
}

/** How often the page asks which game to show, ms. */
const POLL_MS = 4000;
/** How long a game the server no longer names (it ended) stays on the screen, ms: its
 * watchers see the result and the last move (browser finding 12 of round 4). */
const HOLD_MS = 8000;

export function tvPage(root: HTMLElement, variant?: string): () => void {
  const query = variant ? `?variant=${encodeURIComponent(variant)}` : '';
  const tabs = h('div.tabs.wrap', ([['', t('tv.all')], ['antarctos', t('game.antarctos')], ['iceage', t('game.iceage')]] as const)
    .map(([v, label]) => h('a.button', { href: v ? `/tv/${v}` : '/tv', class: (variant ?? '') === v ? 'primary' : undefined }, label)));
  const line = h('p#tv-players.muted');
  const board = h('div#tv-board');
  mount(root, h('section.card#tv', h('h1', t('tv.title')), tabs, line), board);
  setTitle(t('tv.title'));
  // `undefined`: nothing drawn yet, so a first answer of "no game" draws its words too
  // (browser finding 25).
  let shown: string | null | undefined = undefined;
  let stopGame: (() => void) | null = null;
  let timer = 0;
  let stopped = false;
  /** When the server first named another game than the shown one (0: it names the shown one). */
  let leaving = 0;
  const name = (n: string | null) => n ?? t('search.anonymous');
  const poll = () => {
    call<TvAnswer>('GET', `/api/tv${query}`).then(a => {
      if (stopped) return;
      if (a.game === shown) leaving = 0;
      else if (shown && (leaving === 0 || Date.now() - leaving < HOLD_MS)) {
        if (leaving === 0) leaving = Date.now();
        return;
      }
      if (a.game !== shown) {
        leaving = 0;
        stopGame?.();
        stopGame = null;
        shown = a.game;
        if (a.game) {
          const inner = h('div');
          mount(board, inner);
          stopGame = gamePage(inner, a.game);
        } else {
          mount(board, h('p.muted#tv-none', t('tv.none'), ' ', h('a#tv-lobby', { href: '/' }, t('tv.to_lobby'))));
        }
      }
      board.dataset.game = a.game ?? '';
      mount(line, a.game && a.ratings
        ? t('tv.players', { white: name(a.white), wr: a.ratings.white, black: name(a.black), br: a.ratings.black })
        : '');
    }, err => { if (!stopped) mount(line, h('span.error', errorWords(err))); })
      .finally(() => { if (!stopped) timer = window.setTimeout(poll, POLL_MS); });
  };
  poll();
  return () => {
    stopped = true;
    window.clearTimeout(timer);
    stopGame?.();
  };
}
