// The analysis board (issue 14): any position (`/analysis/<game>?fen=...`) or a finished game
// (`/analysis/game/<id>`, opened on its last position) or an imported one
// (`/analysis/import/<id>`), with the computer analysis of the whole game (analysis/review.ts),
// a move tree with variations, stepping with the arrow keys, the engine's live analysis with
// its best line (a click plays it), and the tree as a PGN or PDN record. Made as lichess's
// analysis page is: the controller (ctrl.ts), its view (view.ts), the server's part
// (server.ts) and what the tab keeps (store.ts).

import { api, ApiError, type GameView } from '../../api';
import { MoveTree, type TreeNode } from '../../analysis/tree';
import { h, mount } from '../../dom';
import { errorWords, resultHeadline, resultReason, t } from '../../i18n';
import { mountView } from '../../snabbdom';
import { setTitle } from '../../title';
import { variantOr } from '../../variants';
import { deadEndPage } from '../notfound';
import { AnalysisCtrl, type Setting } from './ctrl';
import { restoreTree, treeOfRecord } from './store';
import { gameName, view } from './view';

/** `/analysis/game/<id>`: the stored game as the tree's main line, on its last position. */
export function analysisGamePage(root: HTMLElement, id: string): () => void {
  return storedPage(root, api.game(id), (g: GameView, open) => {
    if (g.status === 'ongoing') {
      return deadEndPage(root, 'analysis.ongoing_title', t('analysis.ongoing'),
        [h('a.button.primary#game-link', { href: `/game/${g.id}` }, t('game.back_to_game'))]);
    }
    const store = `icebound.analysis.game.${g.id}`;
    let tree = new MoveTree(g.variant, g.start_fen);
    let node = tree.root;
    for (const m of g.moves) node = tree.add(node, { id: m.id, text: m.text, path: m.path, event: m.event, ice_age: m.ice_age, number: m.number, color: m.color }, m.fen);
    // This tab's own variations and notes on the game, kept across a reload.
    const kept = restoreTree(store, g.variant, t => t.root.fen === g.start_fen);
    if (kept) [tree, node] = kept;
    // As the server's own record names them (the tags are data, not the page's language).
    const seat = (c: 'white' | 'black') => g[c].kind === 'engine' ? `icebound engine level ${g[c].level ?? '?'}` : g[c].kind === 'open' ? '?' : 'Human';
    open(tree, node, {
      store,
      game: g.id,
      review: { kind: 'games', id: g.id },
      about: g.result ? `${resultHeadline(g.result, [])} · ${resultReason(g.result)}` : t('result.aborted'),
      standardStart: g.start_fen === variantOr(g.variant).startFen,
      tags: { Event: `icebound game ${g.id}`, White: seat('white'), Black: seat('black'), Result: g.result?.result ?? '*' },
    });
  });
}

/** `/analysis/import/<id>`: an imported game (`POST /api/import`), on its last position. */
export function analysisImportPage(root: HTMLElement, id: string): () => void {
  return storedPage(root, api.imported(id), (g, open) => {
    const store = `icebound.analysis.import.${g.id}`;
    const tags = Object.fromEntries(g.record.tags);
    let tree = treeOfRecord(g.variant, g.record);
    let node = tree.lineEnd(tree.root);
    const kept = restoreTree(store, g.variant, t => t.root.fen === g.record.start_fen);
    if (kept) [tree, node] = kept;
    open(tree, node, {
      store,
      review: { kind: 'imports', id: g.id },
      about: [`${tags.White ?? '?'} – ${tags.Black ?? '?'}`, tags.Event, g.record.result].filter(Boolean).join(' · '),
      standardStart: g.record.start_fen === variantOr(g.variant).startFen,
      tags: { ...tags, Result: g.record.result },
    });
  });
}

/** A stored game's analysis page: "loading" until `load` answers, then `show` opens the board
 * (through `open`); a 404 is the not-found page. */
function storedPage<T>(
  root: HTMLElement,
  load: Promise<T>,
  show: (value: T, open: (tree: MoveTree, node: TreeNode, setting: Setting) => void) => void,
): () => void {
  let close: (() => void) | undefined;
  let gone = false;
  setTitle(t('page.loading'));
  mount(root, h('section.card', h('p', t('page.loading'))));
  load.then(
    value => { if (!gone) show(value, (tree, node, setting) => { close = board(root, tree, node, setting); }); },
    err => {
      if (gone) return;
      if (err instanceof ApiError && err.status === 404) deadEndPage(root, 'gamenf.title', t('gamenf.text'));
      else mount(root, h('section.card', h('p.error', errorWords(err))));
    },
  );
  return () => {
    gone = true;
    close?.();
  };
}

/** `/analysis/<game>`: the position of `?fen=`, or the start; `?orientation=black` turns the board. */
export function analysisPage(root: HTMLElement, variant?: string): () => void {
  const game = variantOr(variant);
  const v = game.key;
  const query = new URLSearchParams(location.search);
  const fen = query.get('fen')?.trim() || game.startFen;
  const store = `icebound.analysis.${v}`;
  // The tab's analysis, when the address shows one of its positions (a reload, a language switch).
  const kept = restoreTree(store, v, (_, node) => node.fen === fen);
  const [tree, first] = kept ?? [new MoveTree(v, fen), null];
  // `?orientation=black`: seen from Black's side (a puzzle's "Analyse" for a Black solver).
  const orientation = query.get('orientation') === 'black' ? 'black' : undefined;
  return board(root, tree, first ?? tree.root, { store, standardStart: tree.root.fen === game.startFen, tags: {}, orientation });
}

/** Opens the board on `first` of `tree`; returns what closes it. */
function board(root: HTMLElement, tree: MoveTree, first: TreeNode, setting: Setting): () => void {
  let patch = () => {};
  const ctrl = new AnalysisCtrl(tree, first, setting, () => patch());
  setTitle(`${t('analysis.title')} · ${gameName(ctrl.variant)}`);
  document.body.dataset.theme = ctrl.variant;
  patch = mountView(root, () => view(ctrl));
  ctrl.refresh();

  const keys = (e: KeyboardEvent) => {
    const tag = (e.target as HTMLElement)?.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    const current = ctrl.current;
    if (e.key === 'ArrowLeft' && current.parent) ctrl.go(current.parent);
    else if (e.key === 'ArrowRight' && current.children[0]) ctrl.go(current.children[0]);
    else if (e.key === 'Home') ctrl.go(tree.root);
    else if (e.key === 'End') ctrl.go(tree.lineEnd(current));
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
