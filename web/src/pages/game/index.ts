// The game page (`/game/<id>`), made as lichess's round page is: a controller (ctrl.ts) holds
// the state and the actions, the view (view.ts) draws it with snabbdom, the socket
// (socket.ts) brings each new state, and the board (ground.ts) is made once and kept.

import { h, mount } from '../../dom';
import { myColors, waitingForFriend } from '../../game/model';
import { errorWords, resultHeadline, t } from '../../i18n';
import { mountView } from '../../snabbdom';
import { setTitle } from '../../title';
import { readOnGamePage } from '../../notify/live';
import { deadEndPage } from '../notfound';
import { GameCtrl } from './ctrl';
import { gameName, view } from './view';

export { joinPage } from './join';

export function gamePage(root: HTMLElement, id: string): () => void {
  let patch = () => {};
  let redrawing = false;
  let again = false;
  const ctrl = new GameCtrl(id, () => {
    // A redraw asked for while one is under way (the board reporting back) runs after it.
    if (redrawing) {
      again = true;
      return;
    }
    redrawing = true;
    try {
      do {
        again = false;
        patch();
        ctrl.ground.sync();
        pageTitle(ctrl);
      } while (again);
    } finally {
      redrawing = false;
    }
  });
  patch = mountView(root, () => view(ctrl));
  setTitle(t('page.loading'));

  const keys = (e: KeyboardEvent) => {
    const tag = (e.target as HTMLElement)?.tagName;
    const g = ctrl.game;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || !g) return;
    const at = ctrl.shownPly();
    if (e.key === 'Escape') ctrl.cancelEntry();
    else if (e.key === 'ArrowLeft') ctrl.browse(at - 1);
    else if (e.key === 'ArrowRight') ctrl.browse(at + 1);
    else if (e.key === 'Home') ctrl.browse(0);
    else if (e.key === 'End') ctrl.browse(g.ply);
    // Zen mode on and off (issue 41), as lichess's "z".
    else if ((e.key === 'z' || e.key === 'Z') && !e.ctrlKey && !e.metaKey && !e.altKey) ctrl.toggleZen();
    else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', keys);

  ctrl.start(
    () => deadEndPage(root, 'gamenf.title', t('gamenf.text')),
    err => mount(root, h('section.card', h('p.error', errorWords(err)))),
  );

  const readNotices = readOnGamePage(id);

  return () => {
    readNotices();
    ctrl.close();
    document.removeEventListener('keydown', keys);
    delete document.body.dataset.theme;
  };
}

/** The tab's title says whose move it is (or how the game ended); the page takes the game's
 * colours. */
function pageTitle(ctrl: GameCtrl): void {
  const g = ctrl.game;
  if (!g) return;
  document.body.dataset.theme = g.variant;
  const mine = myColors(g);
  const prefix = g.status !== 'ongoing'
    ? (g.result ? resultHeadline(g.result, mine) : t('result.aborted'))
    : waitingForFriend(g) ? t(g.you === null ? 'game.watching' : 'title.waiting')
      : g.you !== 'both' && mine.includes(g.turn) ? t('title.your_move')
        : t(g.turn === 'white' ? 'turn.white' : 'turn.black');
  setTitle(`${prefix} · ${gameName(g)}`);
}
