// The puzzle trainer's pages (issue 39), made as lichess's puzzle page is: the controller
// (ctrl.ts) and its view (view.ts). `/training` and `/training/<game>`: a puzzle near the
// player's puzzle rating; `/training/<game>/<id>`: that puzzle; `/training/<game>/daily`: the
// daily puzzle; `/training/<game>/streak`: puzzles of rising difficulty until the first
// mistake. The dashboard is dashboard.ts.

import { t } from '../../i18n';
import { mountView } from '../../snabbdom';
import { setTitle } from '../../title';
import { variantOr } from '../../variants';
import { TrainerCtrl, type Mode } from './ctrl';
import { view } from './view';

export { dashboardPage } from './dashboard';

/** `/training[/<game>[/<id>|daily|streak]]`. */
export function trainingPage(root: HTMLElement, game?: string, what?: string): () => void {
  const v = variantOr(game).key;
  const mode: Mode = what === undefined ? { kind: 'next' }
    : what === 'daily' ? { kind: 'daily' }
    : what === 'streak' ? { kind: 'streak' }
    : { kind: 'id', id: what };
  let patch = () => {};
  const ctrl = new TrainerCtrl(v, mode, () => patch());
  const name = t(ctrl.game.nameKey);
  setTitle(mode.kind === 'daily' ? `${t('puzzle.daily')} · ${name}` : mode.kind === 'streak' ? `${t('puzzle.streak')} · ${name}` : t('puzzle.title', { game: name }));
  document.body.dataset.theme = v;
  patch = mountView(root, () => view(ctrl));
  void ctrl.start();

  // The arrow keys step through the solution once the attempt is over.
  const keys = (e: KeyboardEvent) => {
    const tag = (e.target as HTMLElement)?.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || !ctrl.solution) return;
    if (e.key === 'ArrowLeft') ctrl.go(ctrl.shown - 1);
    else if (e.key === 'ArrowRight') ctrl.go(ctrl.shown + 1);
    else if (e.key === 'Home') ctrl.go(0);
    else if (e.key === 'End') ctrl.go(ctrl.solution.length - 1);
    else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', keys);
  return () => {
    ctrl.close();
    document.removeEventListener('keydown', keys);
    delete document.body.dataset.theme;
  };
}
