// The analysis board (issue 14): any position (`/analysis/<game>?fen=...`) or a finished game
// (`/analysis/game/<id>`, opened on its last position) or an imported one
// (`/analysis/import/<id>`), with the computer analysis of the whole game (analysis/review.ts),
// a move tree with variations, stepping
// with the arrow keys, the engine's live analysis with its best line (a click plays it), and the
// tree as a PGN or PDN record. Every position's moves come from the server (`POST
// /api/positions`); the page computes no rule.

import { api, ApiError, type GameView, type LegalMove, type PositionView, type ImportView, type RecordGame, type RecordNode, type ReviewSubject, type Variant } from '../api';
import { Board } from '../board';
import { copyText, h, mount } from '../dom';
import { colorName, errorWords, locale, resultHeadline, resultReason, t } from '../i18n';
import { navigate } from '../nav';
import { positionFaultWords } from '../position_words';
import { setTitle } from '../title';
import { startAnalysis, type EngineLine, type Score } from '../analysis/engine';
import { GLYPH, ReviewPanel } from '../analysis/review';
import { MoveTree, nagText, type TreeMove, type TreeNode } from '../analysis/tree';
import { deadEndPage } from './notfound';

/** The start positions (Antarctos A3, Ice Age Chess C4), as the server writes them. */
export const START_FEN: Record<Variant, string> = {
  antarctos: 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8',
  iceage: 'rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
};

const gameName = (v: Variant) => t(v === 'antarctos' ? 'game.antarctos' : 'game.iceage');

/** A score in words, from White's point of view: `+0.35`, or who wins in how many plies. */
export function scoreWords(score: Score, turn: 'white' | 'black'): string {
  const sign = turn === 'white' ? 1 : -1;
  if ('cp' in score) {
    const v = (sign * score.cp) / 100;
    return `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(v).toFixed(2)}`;
  }
  const wins = 'win' in score;
  const plies = wins ? score.win : score.loss;
  const winner = wins === (turn === 'white') ? 'white' : 'black';
  return t('analysis.wins_in', { color: colorName(winner), n: plies });
}

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
      for (const m of g.moves) node = tree.add(node, { id: m.id, text: m.text, path: m.path, event: m.event, number: m.number, color: m.color }, m.fen);
      // This tab's own variations and notes on the game, kept across a reload.
      const kept = restoreTree(store, g.variant, t => t.root.fen === g.start_fen);
      if (kept) [tree, node] = kept;
      // As the server's own record names them (the tags are data, not the page's language).
      const seat = (c: 'white' | 'black') => g[c].kind === 'engine' ? `icebound engine level ${g[c].level ?? '?'}` : g[c].kind === 'open' ? '?' : 'Human';
      open(tree, node, store, {
        game: g.id,
        review: { kind: 'games', id: g.id },
        about: g.result ? `${resultHeadline(g.result, [])} · ${resultReason(g.result)}` : t('result.aborted'),
        standardStart: g.start_fen === START_FEN[g.variant],
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
      open(tree, node, store, {
        review: { kind: 'imports', id: g.id },
        about: [`${tags.White ?? '?'} – ${tags.Black ?? '?'}`, tags.Event, g.record.result].filter(Boolean).join(' · '),
        standardStart: g.record.start_fen === START_FEN[g.variant],
        tags: { ...tags, Result: g.record.result },
      });
  });
}

/** A stored game's analysis page: "loading" until `load` answers, then `show` opens the board
 * (through `open`, which keeps the tab's tree under `store`); a 404 is the not-found page. */
function storedPage<T>(
  root: HTMLElement,
  load: Promise<T>,
  show: (value: T, open: (tree: MoveTree, node: TreeNode, store: string, setting: Setting) => void) => void,
): () => void {
  let close: (() => void) | undefined;
  let gone = false;
  setTitle(t('page.loading'));
  mount(root, h('section.card', h('p', t('page.loading'))));
  const open = (tree: MoveTree, node: TreeNode, store: string, setting: Setting) => {
    const reopen = (t2: MoveTree, n: TreeNode, s: Setting) => open(t2, n, store, s);
    close?.();
    close = board(root, tree, node, { ...setting, reopen, store });
  };
  load.then(
    value => { if (!gone) show(value, open); },
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

/** `/analysis/<game>`: the position of `?fen=`, or the start. */
export function analysisPage(root: HTMLElement, variant?: string): () => void {
  const v: Variant = variant === 'iceage' ? 'iceage' : 'antarctos';
  const fen = new URLSearchParams(location.search).get('fen')?.trim() || START_FEN[v];
  const store = `icebound.analysis.${v}`;
  // The tab's analysis, when the address shows one of its positions (a reload, a language switch).
  const kept = restoreTree(store, v, (_, node) => node.fen === fen);
  const [tree, first] = kept ?? [new MoveTree(v, fen), null];
  let close = () => {};
  const open = (t: MoveTree, node: TreeNode, setting: Setting) => {
    close();
    close = board(root, t, node, { ...setting, reopen: open, store });
  };
  open(tree, first ?? tree.root, { standardStart: tree.root.fen === START_FEN[v], tags: {} });
  return () => close();
}

const importUrl = (id: string) => `/analysis/import/${id}`;
const IMPORT_KEY = 'icebound.import.last';

/** Keeps the answer of the last import for this tab. */
function saveImport(read: ImportView): void {
  try {
    sessionStorage.setItem(IMPORT_KEY, JSON.stringify(read));
  } catch {
    // Storage full or off: the list lives as long as the page.
  }
}

function loadImport(): ImportView | null {
  try {
    return JSON.parse(sessionStorage.getItem(IMPORT_KEY) ?? 'null') as ImportView | null;
  } catch {
    return null;
  }
}

/** A link to a stored game of an import (`current`: the game shown). */
function importLink(g: ImportView['games'][number], current = false): HTMLElement {
  return h('a.button.import-game', {
    href: importUrl(g.id),
    'data-game': g.game,
    'aria-current': current ? 'page' : undefined,
    class: current ? 'current' : undefined,
    onclick: (e: Event) => { e.preventDefault(); navigate(importUrl(g.id)); },
  },
  t('analysis.import_game', { n: g.game, white: g.white, black: g.black, plies: g.plies }),
  g.event ? h('span.muted', ` · ${g.event}`) : null);
}

/** A game of a record file that could not be read: where, in the page's words, and why. */
function importError(e: ImportView['errors'][number]): HTMLElement {
  const where = e.move_number !== null
    ? t('analysis.import_error_move', { n: e.game, move: `${e.move_number}${e.side === 'black' ? '…' : ''}`, line: e.line ?? '?' })
    : t('analysis.import_error', { n: e.game, line: e.line ?? '?' });
  return h('p.error.import-error', where, ' ', h('code', e.reason));
}

/** A game of a record file as a tree: its main line, comments and variations. */
function treeOfRecord(variant: Variant, game: RecordGame): MoveTree {
  const tree = new MoveTree(variant, game.start_fen);
  const add = (parent: TreeNode, line: RecordNode[]) => {
    let at = parent;
    for (const n of line) {
      const child = tree.add(at, { id: n.id, text: n.text, path: n.path, event: n.event, number: n.number, color: n.color }, n.fen);
      child.comment = n.comments.join(' ');
      if (n.nags.length) child.nags = n.nags;
      for (const v of n.variations) add(at, v);
      at = child;
    }
  };
  add(tree.root, game.moves);
  return tree;
}

/** A tree as plain data, for the tab's session storage. */
interface SavedNode {
  fen: string;
  move: TreeMove | null;
  comment: string;
  nags?: number[];
  children: SavedNode[];
}

function saveNode(n: TreeNode): SavedNode {
  return { fen: n.fen, move: n.move, comment: n.comment, nags: n.nags, children: n.children.map(saveNode) };
}

/** Keeps `tree` and the node shown for this tab: a language switch or a reload redraws the page,
 * and the analysis must survive it. */
function saveTree(key: string, tree: MoveTree, current: TreeNode): void {
  const path = tree.pathTo(current).slice(1).map(n => n.parent!.children.indexOf(n));
  try {
    sessionStorage.setItem(key, JSON.stringify({ variant: tree.variant, root: saveNode(tree.root), path }));
  } catch {
    // Storage full or off: the analysis lives as long as the page.
  }
}

/** The tree saved under `key` and its shown node, if there is one for `variant` that `accept`s. */
function restoreTree(key: string, variant: Variant, accept: (tree: MoveTree, node: TreeNode) => boolean): [MoveTree, TreeNode] | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(key) ?? 'null') as { variant: Variant; root: SavedNode; path: number[] } | null;
    if (!saved || saved.variant !== variant) return null;
    const tree = new MoveTree(variant, saved.root.fen);
    const grow = (node: TreeNode, from: SavedNode) => {
      for (const c of from.children) {
        if (!c.move) continue;
        const child = tree.add(node, c.move, c.fen);
        child.comment = c.comment;
        if (c.nags?.length) child.nags = c.nags;
        grow(child, c);
      }
    };
    grow(tree.root, saved.root);
    let node = tree.root;
    for (const i of saved.path) node = node.children[i] ?? node;
    return accept(tree, node) ? [tree, node] : null;
  } catch {
    return null;
  }
}

interface Setting {
  /** The stored game analysed, if any. */
  game?: string;
  standardStart: boolean;
  tags: Record<string, string>;
  /** Opens another tree in the page's place (an imported game). */
  reopen?: (tree: MoveTree, node: TreeNode, setting: Setting) => void;
  /** Where the tab keeps the tree (session storage key). */
  store?: string;
  /** A line about the stored game: how it ended. */
  about?: string;
  /** The whole game's computer analysis (a stored or imported game). */
  review?: ReviewSubject;
}

function board(root: HTMLElement, tree: MoveTree, first: TreeNode, setting: Setting): () => void {
  const variant = tree.variant;
  let current = first;
  let closed = false;
  let engineOn = false;
  let stopEngine: (() => void) | null = null;
  let lastLine: EngineLine | null = null;
  let searched: TreeNode | null = null; // the node the engine searches (or last searched)
  const positions = new Map<string, Promise<PositionView>>();
  const position = (fen: string) => {
    let p = positions.get(fen);
    if (!p) {
      p = api.position(variant, fen);
      p.catch(() => positions.delete(fen));
      positions.set(fen, p);
    }
    return p;
  };

  const boardEl = h('div.cg-wrap');
  const status = h('div.status#analysis-status', { 'aria-live': 'polite' });
  const message = h('p.error#message', { role: 'alert' });
  const treeBox = h('div.moves.tree#tree');
  const engineBox = h('div.engine#engine', { hidden: true });
  const solveBox = h('div.engine#solve-result', { hidden: true });
  const solveBtn = h('button#solve', { type: 'button', title: t('analysis.solve_title'), onclick: () => solve() }, t('analysis.solve'));
  const engineBtn = h('button#engine-toggle', { type: 'button', 'aria-pressed': 'false', onclick: () => setEngine(!engineOn) }, t('analysis.engine'));
  const fenInput = h('input#fen-input', { type: 'text', spellcheck: 'false', autocomplete: 'off', 'aria-label': t('analysis.position') }) as HTMLInputElement;
  const branchTools = h('div.actions.branch');
  const commentBox = h('textarea#comment', { rows: 2, maxlength: 500, 'aria-label': t('analysis.comment'), placeholder: t('analysis.comment') }) as HTMLTextAreaElement;
  commentBox.addEventListener('input', () => {
    current.comment = commentBox.value;
    if (setting.store) saveTree(setting.store, tree, current);
  });
  let cg: Board | null = null;
  const review = setting.review
    ? new ReviewPanel({ subject: setting.review, tree, go: n => go(n), redraw: () => { if (!closed) drawTree(); } })
    : null;

  function make(): Board {
    const b = new Board(boardEl, variant, { move: m => void play(m) });
    b.setOrientation('white');
    return b;
  }

  /** The move number of a move by `color` after `parent`: counted along the tree from the
   * root's (an Antarctos position text carries no move number). */
  const numberAfter = (parent: TreeNode, color: 'white' | 'black', pos: PositionView) =>
    !parent.move ? pos.number : color === 'white' ? parent.move.number + 1 : parent.move.number;

  async function play(m: LegalMove): Promise<void> {
    const here = current;
    const pos = await position(here.fen);
    const next = pos.legal.find(l => l.id === m.id);
    if (!next || closed) return;
    go(tree.add(here, { id: next.id, text: next.text, path: next.path, event: next.event, number: numberAfter(here, pos.turn, pos), color: pos.turn }, next.fen));
  }

  /** Plays the engine's line up to its move `upto` (0: the best move) from the current node. */
  async function playLine(line: string[], upto: number): Promise<void> {
    let node = current;
    for (const text of line.slice(0, upto + 1)) {
      const pos = await position(node.fen);
      const next = pos.legal.find(l => l.text === text);
      if (!next || closed) break;
      node = tree.add(node, { id: next.id, text: next.text, path: next.path, event: next.event, number: numberAfter(node, pos.turn, pos), color: pos.turn }, next.fen);
    }
    go(node);
  }

  function go(node: TreeNode): void {
    current = node;
    solveBox.hidden = true;
    render();
  }

  /** Runs the exact solver on the shown position and says what it proved. */
  function solve(): void {
    const node = current;
    solveBox.hidden = false;
    solveBtn.setAttribute('disabled', '');
    mount(solveBox, h('p.muted', t('analysis.solving')));
    api.solve(variant, node.fen).then(
      r => {
        if (closed || node !== current) return;
        if (r.result === 'unknown' || !r.winner || r.plies === null) {
          mount(solveBox, h('p', t('analysis.no_proof', { n: r.max_plies })));
          return;
        }
        mount(solveBox,
          h('p', h('strong#solve-words', t('analysis.wins_in', { color: colorName(r.winner), n: r.plies }))),
          h('div.pv#solve-line', ...r.line.map((text, i) => h('button.move', { type: 'button', 'data-index': i, title: t('analysis.play_line'), onclick: () => void playLine(r.line, i) }, text))));
      },
      err => {
        if (closed || node !== current) return;
        mount(solveBox, h('p.error', err instanceof ApiError && err.code === 'too_many_analyses' ? t('analysis.busy') : err instanceof ApiError && err.code === 'bad_request' ? t('analysis.no_search') : errorWords(err)));
      },
    ).finally(() => solveBtn.removeAttribute('disabled'));
  }

  function setEngine(on: boolean): void {
    engineOn = on;
    engineBtn.setAttribute('aria-pressed', on ? 'true' : 'false');
    engineBtn.classList.toggle('primary', on);
    engineBox.hidden = !on;
    searched = null;
    render();
  }

  function runEngine(pos: PositionView): void {
    stopEngine?.();
    stopEngine = null;
    lastLine = null;
    if (!engineOn) return;
    if (!pos.legal.length) {
      mount(engineBox, h('p.muted', t('analysis.no_search')));
      return;
    }
    mount(engineBox, h('p.muted', t('analysis.searching')));
    // The node searched: what the page shows may be another by the time a line arrives.
    const node = current;
    // Stepping through moves (a held arrow key) starts a search only where the player pauses.
    let timer: number | undefined = window.setTimeout(() => {
      timer = undefined;
      if (!closed && current === node && engineOn) search(node, pos);
    }, 250);
    stopEngine = () => window.clearTimeout(timer);
  }

  function search(node: TreeNode, pos: PositionView): void {
    stopEngine = startAnalysis(variant, pos.fen, {
      line: l => {
        if (closed || current !== node) return;
        lastLine = l;
        drawEngine(pos, l, false);
      },
      end: err => {
        if (closed || current !== node) return;
        if (err?.code === 'rate_limited') {
          // Too many starts a minute: try again shortly, as long as the position stays.
          const retry = window.setTimeout(() => { if (!closed && current === node && engineOn) search(node, pos); }, 1500);
          stopEngine = () => window.clearTimeout(retry);
          return;
        }
        if (err) mount(engineBox, h('p.error', err.code === 'too_many_analyses' ? t('analysis.busy') : errorWords(err)));
        else if (lastLine) drawEngine(pos, lastLine, true);
      },
    });
  }

  function drawEngine(pos: PositionView, l: EngineLine, ended: boolean): void {
    const facts = [t('analysis.depth', { depth: l.depth })];
    if (l.nps) facts.push(t('analysis.nps', { mnps: (l.nps / 1e6).toLocaleString(locale(), { maximumFractionDigits: 1, minimumFractionDigits: 1 }) }));
    if (ended) facts.push(t('analysis.ended'));
    mount(engineBox,
      h('div.engine-head', h('strong.score#engine-score', scoreWords(l.score, pos.turn)), h('span.muted', facts.join(' · '))),
      h('div.pv#engine-pv', { 'aria-label': t('analysis.best_line') },
        ...l.pv.map((text, i) => h('button.move', { type: 'button', 'data-index': i, title: t('analysis.play_line'), onclick: () => void playLine(l.pv, i) }, text))));
  }

  function drawTree(): void {
    const cell = (n: TreeNode, numbered: boolean) => {
      const m = n.move!;
      const label = m.color === 'white' ? `${m.number}. ${m.text}` : numbered ? `${m.number}… ${m.text}` : m.text;
      const mark = review?.markOf(n);
      return h('button.move', {
        type: 'button',
        'data-key': n.key,
        class: [n === current ? 'current' : '', mark ? `marked ${mark.kind}` : ''].join(' ').trim() || undefined,
        'aria-current': n === current ? 'step' : undefined,
        title: mark ? t(`review.${mark.kind}`) : undefined,
        onclick: () => go(n),
      }, label, (n.nags ?? []).filter(g => g >= 1 && g <= 6).map(nagText).join(''), mark ? h(`span.glyph.${mark.kind}`, GLYPH[mark.kind]) : null);
    };
    const line = (start: TreeNode, numbered: boolean): HTMLElement[] => {
      const out: HTMLElement[] = [];
      let n: TreeNode | undefined = start;
      let num = numbered;
      while (n) {
        out.push(cell(n, num));
        num = false;
        const p: TreeNode = n.parent!;
        if (p.children[0] === n && p.children.length > 1) {
          for (const v of p.children.slice(1)) out.push(h('span.variation', ...line(v, true)));
          num = true;
        }
        n = n.children[0];
      }
      return out;
    };
    mount(treeBox, ...(tree.root.children.length ? line(tree.root.children[0], true) : [h('p.muted', t('analysis.no_moves'))]));
    // Only the move list scrolls to the current move: the page (and the board) stays put.
    const cur = treeBox.querySelector<HTMLElement>('.current');
    if (cur && treeBox.scrollHeight > treeBox.clientHeight) {
      const top = cur.offsetTop; // .tree is the offset parent
      if (top < treeBox.scrollTop || top + cur.offsetHeight > treeBox.scrollTop + treeBox.clientHeight) {
        treeBox.scrollTop = Math.max(0, top - treeBox.clientHeight / 2);
      }
    }
    const inVariation = tree.pathTo(current).some(n => n.parent && n.parent.children[0] !== n);
    mount(branchTools,
      inVariation ? h('button#promote', { type: 'button', onclick: () => { tree.promote(current); render(); } }, t('analysis.promote')) : null,
      current.parent && !setting.game ? h('button#delete', { type: 'button', onclick: () => { const p = tree.remove(current); if (p) go(p); } }, t('analysis.delete')) : null);
  }

  function render(): void {
    if (closed) return;
    cg ??= make();
    if (setting.store) saveTree(setting.store, tree, current);
    drawTree();
    review?.show(current);
    fenInput.value = current.fen;
    // A note belongs to a move: none on the start position.
    commentBox.hidden = !current.move;
    commentBox.value = current.comment;
    // A stored or imported game keeps its own address; a free analysis shows its position.
    if (!setting.game && !setting.review) history.replaceState(history.state, '', `/analysis/${variant}${current === tree.root && setting.standardStart ? '' : `?fen=${encodeURIComponent(current.fen)}`}`);
    const node = current;
    position(node.fen).then(
      pos => {
        if (closed || node !== current) return;
        message.textContent = '';
        cg?.show(pos.fen, { legal: pos.legal, movable: pos.legal.length ? 'both' : null, lastMove: node.move?.path, check: !!node.move && /[+#]$/.test(node.move.text) });
        mount(status, pos.result
          ? h('strong', `${resultHeadline(pos.result, [])} · ${resultReason(pos.result)}`)
          : `${t(pos.turn === 'white' ? 'turn.white' : 'turn.black')}${pos.capture_compulsory ? ` · ${t('analysis.capture')}` : ''}${pos.ice_age_in ? ` · ❄ ${t('analysis.ice_age_in', { n: pos.ice_age_in })}` : ''}`);
        if (searched !== node) {
          searched = node;
          runEngine(pos);
        }
      },
      err => {
        if (closed || node !== current) return;
        message.textContent = err instanceof ApiError && err.code === 'bad_request' ? `${t('analysis.bad_position')} ${positionFaultWords(err)}` : errorWords(err);
      },
    );
  }

  const keys = (e: KeyboardEvent) => {
    const tag = (e.target as HTMLElement)?.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    if (e.key === 'ArrowLeft' && current.parent) go(current.parent);
    else if (e.key === 'ArrowRight' && current.children[0]) go(current.children[0]);
    else if (e.key === 'Home') go(tree.root);
    else if (e.key === 'End') go(tree.lineEnd(current));
    else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', keys);

  const download = () => {
    const text = tree.record(setting.tags, setting.standardStart);
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = h('a', { href: url, download: `icebound-analysis.${variant === 'antarctos' ? 'pdn' : 'pgn'}` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const copyBtn = h('button#copy-fen', {
    type: 'button',
    onclick: async () => {
      const ok = await copyText(current.fen);
      copyBtn.textContent = ok ? t('game.copied') : current.fen;
      setTimeout(() => { copyBtn.textContent = t('game.copy_fen'); }, 1500);
    },
  }, t('game.copy_fen'));
  const load = () => {
    const fen = fenInput.value.trim();
    if (!fen) return;
    api.position(variant, fen).then(
      pos => navigate(`/analysis/${variant}?fen=${encodeURIComponent(pos.fen)}`),
      err => { message.textContent = err instanceof ApiError && err.code === 'bad_request' ? `${t('analysis.bad_position')} ${positionFaultWords(err)}` : errorWords(err); },
    );
  };
  fenInput.addEventListener('keydown', e => { if (e.key === 'Enter') load(); });

  const importText = h('textarea#import-text', { rows: 4, spellcheck: 'false', 'aria-label': t('analysis.import_text'), placeholder: t('analysis.import_text') }) as HTMLTextAreaElement;
  const importFile = h('input#import-file', { type: 'file', accept: variant === 'antarctos' ? '.pdn,.txt' : '.pgn,.txt', 'aria-label': t('analysis.import_file') }) as HTMLInputElement;
  const importOut = h('div#import-result');
  // A file that is not UTF-8 goes as its bytes: the server guesses its encoding (chardetng).
  let fileBytes: { base64: string; shown: string } | null = null;
  importFile.addEventListener('change', async () => {
    const f = importFile.files?.[0];
    if (!f) return;
    const bytes = new Uint8Array(await f.arrayBuffer());
    fileBytes = null;
    try {
      importText.value = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      importText.value = new TextDecoder('windows-1252').decode(bytes);
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      fileBytes = { base64: btoa(bin), shown: importText.value };
    }
  });
  const importRecords = () => {
    const text = importText.value;
    mount(importOut);
    if (!text.trim()) return;
    importBtn.setAttribute('disabled', '');
    const file = fileBytes && fileBytes.shown === text ? { base64: fileBytes.base64 } : { text };
    api.importRecords(file).then(
      read => {
        if (closed) return;
        saveImport(read);
        if (read.games.length === 1 && !read.errors.length && !read.warnings.length) return navigate(importUrl(read.games[0].id));
        mount(importOut,
          ...read.games.map(g => importLink(g)),
          ...read.errors.map(importError),
          ...read.warnings.map(w => h('p.muted.import-warning', w.game ? `${t('analysis.import_game_no', { n: w.game })}${w.line ? ` (${t('analysis.line_no', { n: w.line })})` : ''}: ` : '', h('code', w.message))));
      },
      err => {
        if (!closed) mount(importOut, h('p.error', err instanceof ApiError && err.code === 'too_large' ? t('analysis.import_too_large') : errorWords(err)));
      },
    ).finally(() => importBtn.removeAttribute('disabled'));
  };
  const importBtn = h('button#import-open', { type: 'button', onclick: importRecords }, t('analysis.load'));

  // The games of the last record opened stay listed (Back from one of them, or the next one).
  const last = loadImport();
  const lastBox = last && last.games.length && (last.games.length > 1 || last.errors.length)
    ? h('div.import-last#import-last',
      h('h2', t('analysis.import_last')),
      ...last.games.map(g => importLink(g, g.id === setting.review?.id && setting.review?.kind === 'imports')),
      ...last.errors.map(importError))
    : null;

  const step = (label: string, id: string, icon: string, to: () => TreeNode | null | undefined) =>
    h(`button.icon#${id}`, { type: 'button', title: label, 'aria-label': label, onclick: () => { const n = to(); if (n) go(n); } }, icon);

  setTitle(`${t('analysis.title')} · ${gameName(variant)}`);
  document.body.dataset.theme = variant;
  mount(root,
    h('section.game.analysis',
      h('div.board-col',
        h('div.board-box', boardEl),
        h('div.browse.analysis-nav',
          step(t('game.first'), 'nav-first', '|◀', () => tree.root),
          step(t('game.prev'), 'nav-prev', '◀', () => current.parent),
          step(t('game.next'), 'nav-next', '▶', () => current.children[0]),
          step(t('analysis.line_end'), 'nav-last', '▶|', () => tree.lineEnd(current)),
          h('button#flip', { type: 'button', onclick: () => { cg?.flip(); } }, t('game.flip')))),
      h('aside.panel',
        h('div.panel-head', h('h1#analysis-title', `${t('analysis.title')} · ${gameName(variant)}`)),
        setting.about ? h('p.muted#analysis-about', setting.about) : null,
        status,
        h('div.actions', engineBtn, solveBtn),
        engineBox,
        solveBox,
        review?.el,
        h('h2', t('game.moves')),
        treeBox,
        commentBox,
        branchTools,
        h('div.actions.tools',
          copyBtn,
          h('button#download', { type: 'button', onclick: download }, t(variant === 'antarctos' ? 'game.download_pdn' : 'game.download_pgn')),
          h('a.button#to-editor', { href: `/editor/${variant}?fen=${encodeURIComponent(current.fen)}`, onclick: (e: Event) => { e.preventDefault(); navigate(`/editor/${variant}?fen=${encodeURIComponent(current.fen)}`); } }, t('analysis.editor')),
          setting.game ? h('a.button#game-link', { href: `/game/${setting.game}` }, t('analysis.to_game')) : null,
          h('a.button#other-game', { href: `/analysis/${variant === 'antarctos' ? 'iceage' : 'antarctos'}` }, gameName(variant === 'antarctos' ? 'iceage' : 'antarctos'))),
        h('label.kbd', h('span', t('analysis.position')), fenInput, h('button#fen-load', { type: 'button', onclick: load }, t('analysis.load'))),
        lastBox,
        h('details.import#import',
          h('summary', t(variant === 'antarctos' ? 'analysis.import_pdn' : 'analysis.import_pgn')),
          importText, h('div.actions', importFile, importBtn), importOut),
        message)));
  render();

  return () => {
    closed = true;
    stopEngine?.();
    review?.close();
    document.removeEventListener('keydown', keys);
    delete document.body.dataset.theme;
    cg?.destroy();
  };
}
