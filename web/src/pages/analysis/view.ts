// The analysis board's view: the board and its stepping buttons, the engine's and the solver's
// boxes, the whole game's review, the move tree with its variations and notes, the tools, the
// FEN box and the import of a record. snabbdom patches the page with it, so typed text (a note,
// the FEN box, the import box) stays while the engine's lines redraw the page.

import type { ImportView } from '../../api';
import type { Score } from '../../analysis/engine';
import { GLYPH } from '../../analysis/review';
import { nagText, type TreeNode } from '../../analysis/tree';
import { colorName, locale, resultHeadline, resultReason, t } from '../../i18n';
import { navigate } from '../../nav';
import { h, keep, type VNode } from '../../snabbdom';
import { variantOf } from '../../variants';
import type { AnalysisCtrl } from './ctrl';

export const gameName = (v: AnalysisCtrl['variant']) => t(variantOf(v).nameKey);

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

const importUrl = (id: string) => `/analysis/import/${id}`;

export function view(ctrl: AnalysisCtrl): VNode {
  const { variant, game, setting, tree } = ctrl;
  const editorUrl = `/editor/${variant}?fen=${encodeURIComponent(ctrl.current.fen)}`;
  const step = (label: string, id: string, icon: string, to: () => TreeNode | null | undefined) =>
    h(`button#${id}.icon`, { attrs: { type: 'button', title: label, 'aria-label': label }, on: { click: () => { const n = to(); if (n) ctrl.go(n); } } }, icon);
  return h('section.game.analysis', [
    h('div.board-col', [
      h('div.board-box', [
        h('div.cg-wrap', { key: 'board', hook: { insert: v => ctrl.mountBoard(v.elm as HTMLElement) } }),
      ]),
      h('div.browse.analysis-nav', [
        step(t('game.first'), 'nav-first', '|◀', () => tree.root),
        step(t('game.prev'), 'nav-prev', '◀', () => ctrl.current.parent),
        step(t('game.next'), 'nav-next', '▶', () => ctrl.current.children[0]),
        step(t('analysis.line_end'), 'nav-last', '▶|', () => tree.lineEnd(ctrl.current)),
        h('button#flip', { attrs: { type: 'button' }, on: { click: () => ctrl.flip() } }, t('game.flip')),
      ]),
    ]),
    h('aside.panel', [
      h('div.panel-head', [h('h1#analysis-title', `${t('analysis.title')} · ${gameName(variant)}`)]),
      setting.about ? h('p#analysis-about.muted', setting.about) : null,
      h('div#analysis-status.status', { attrs: { 'aria-live': 'polite' } }, statusWords(ctrl)),
      localSwitch(ctrl),
      ctrl.ice.view(ctrl.current, ctrl.pos, n => ctrl.go(n)),
      h('div.actions', [
        h('button#engine-toggle', { class: { primary: ctrl.engineOn }, attrs: { type: 'button', 'aria-pressed': ctrl.engineOn ? 'true' : 'false' }, on: { click: () => ctrl.setEngine(!ctrl.engineOn) } }, t('analysis.engine')),
        h('button#solve', { attrs: { type: 'button', title: t('analysis.solve_title'), disabled: ctrl.solving }, on: { click: () => ctrl.runSolver() } }, t('analysis.solve')),
      ]),
      engineBox(ctrl),
      solveBox(ctrl),
      ctrl.review ? keep('div.review-box', ctrl.review.el) : null,
      h('h2', t('game.moves')),
      treeBox(ctrl),
      // A note belongs to a move: none on the start position.
      h('textarea#comment', {
        attrs: { rows: 2, maxlength: 500, 'aria-label': t('analysis.comment'), placeholder: t('analysis.comment'), hidden: !ctrl.current.move },
        props: { value: ctrl.current.comment },
        on: { input: e => ctrl.setComment((e.target as HTMLTextAreaElement).value) },
      }),
      branchTools(ctrl),
      h('div.actions.tools', [
        h('button#copy-fen', { attrs: { type: 'button' }, on: { click: () => void ctrl.copyFen() } }, ctrl.fenCopied ?? t('game.copy_fen')),
        h('button#download', { attrs: { type: 'button' }, on: { click: () => ctrl.download() } }, t(game.downloadKey)),
        h('a#to-editor.button', { attrs: { href: editorUrl }, on: { click: (e: Event) => { e.preventDefault(); navigate(editorUrl); } } }, t('analysis.editor')),
        setting.game ? h('a#game-link.button', { attrs: { href: `/game/${setting.game}` } }, t('analysis.to_game')) : null,
        h('a#other-game.button', { attrs: { href: `/analysis/${game.other}` } }, gameName(game.other)),
      ]),
      fenBox(ctrl),
      lastImport(ctrl),
      importBox(ctrl),
      ctrl.engineNote ? h('p#engine-note', { attrs: { role: 'status' } }, ctrl.engineNote) : null,
      h('p#message.error', { attrs: { role: 'alert' } }, ctrl.message),
    ]),
  ]);
}

/** The switch between the engine in the browser and the server's; only where the browser can
 * run it. */
function localSwitch(ctrl: AnalysisCtrl): VNode | null {
  if (!ctrl.local) return null;
  return h('label#engine-where.choice.switch', { attrs: { title: t('local.switch_title') } }, [
    h('input#engine-local', {
      attrs: { type: 'checkbox' },
      props: { checked: ctrl.localWanted },
      on: { change: (e: Event) => ctrl.setLocal((e.target as HTMLInputElement).checked) },
    }),
    ' ', t('local.switch'),
  ]);
}

function statusWords(ctrl: AnalysisCtrl): (string | VNode)[] {
  const pos = ctrl.pos;
  if (!pos) return [];
  if (pos.result) return [h('strong', `${resultHeadline(pos.result, [])} · ${resultReason(pos.result)}`)];
  return [`${t(pos.turn === 'white' ? 'turn.white' : 'turn.black')}${pos.capture_compulsory ? ` · ${t('analysis.capture')}` : ''}`];
}

/** A line of moves to play from the shown position (the engine's best line, a proof). */
const playable = (ctrl: AnalysisCtrl, line: string[]) =>
  line.map((text, i) => h('button.move', { attrs: { type: 'button', 'data-index': i, title: t('analysis.play_line') }, on: { click: () => void ctrl.playLine(line, i) } }, text));

function engineBox(ctrl: AnalysisCtrl): VNode {
  const e = ctrl.engine;
  const body = (): VNode[] => {
    switch (e.kind) {
      case 'off': return [];
      case 'no_search': return [h('p.muted', t('analysis.no_search'))];
      case 'searching': return [h('p.muted', t('analysis.searching'))];
      case 'error': return [h('p.error', e.words)];
      case 'line': {
        const l = e.line;
        const facts = [t('analysis.depth', { depth: l.depth })];
        if (l.nps) facts.push(t('analysis.nps', { mnps: (l.nps / 1e6).toLocaleString(locale(), { maximumFractionDigits: 1, minimumFractionDigits: 1 }) }));
        if (e.ended) facts.push(t('analysis.ended'));
        facts.push(t(e.where === 'browser' ? 'local.in_browser' : 'local.on_server'));
        return [
          h('div.engine-head', [h('strong#engine-score.score', scoreWords(l.score, e.pos.turn)), h('span.muted', facts.join(' · '))]),
          h('div#engine-pv.pv', { attrs: { 'aria-label': t('analysis.best_line') } }, playable(ctrl, l.pv)),
        ];
      }
    }
  };
  return h('div#engine.engine', { attrs: { hidden: !ctrl.engineOn } }, body());
}

function solveBox(ctrl: AnalysisCtrl): VNode {
  const s = ctrl.solve;
  const body = (): VNode[] => {
    if (!s) return [];
    switch (s.kind) {
      case 'solving': return [h('p.muted', t('analysis.solving'))];
      case 'no_proof': return [h('p', t('analysis.no_proof', { n: s.max ?? 0 }))];
      case 'error': return [h('p.error', s.words)];
      case 'proof': return [
        h('p', [h('strong#solve-words', t('analysis.wins_in', { color: colorName(s.winner), n: s.plies })), ' ', h('span#solve-where.muted', `· ${t(s.where === 'browser' ? 'local.in_browser' : 'local.on_server')}`)]),
        h('div#solve-line.pv', playable(ctrl, s.line)),
      ];
    }
  };
  return h('div#solve-result.engine', { attrs: { hidden: !s } }, body());
}

function treeBox(ctrl: AnalysisCtrl): VNode {
  const { tree, current, review } = ctrl;
  const cell = (n: TreeNode, numbered: boolean) => {
    const m = n.move!;
    const label = m.color === 'white' ? `${m.number}. ${m.text}` : numbered ? `${m.number}… ${m.text}` : m.text;
    const mark = review?.markOf(n);
    return h('button.move', {
      key: n.key,
      class: { current: n === current, marked: !!mark, ...(mark ? { [mark.kind]: true } : {}) },
      attrs: { type: 'button', 'data-key': n.key, 'aria-current': n === current ? 'step' : false, ...(mark ? { title: t(`review.${mark.kind}`) } : {}) },
      on: { click: () => ctrl.go(n) },
    }, [label, (n.nags ?? []).filter(g => g >= 1 && g <= 6).map(nagText).join(''), mark ? h(`span.glyph.${mark.kind}`, GLYPH[mark.kind]) : null]);
  };
  const line = (start: TreeNode, numbered: boolean): VNode[] => {
    const out: VNode[] = [];
    let n: TreeNode | undefined = start;
    let num = numbered;
    while (n) {
      out.push(cell(n, num));
      num = false;
      const p: TreeNode = n.parent!;
      if (p.children[0] === n && p.children.length > 1) {
        for (const v of p.children.slice(1)) out.push(h('span.variation', { key: `v${v.key}` }, line(v, true)));
        num = true;
      }
      n = n.children[0];
    }
    return out;
  };
  // Only the move list scrolls to the current move, and only when that changed: the page (and
  // the board) stays put, and so does a list the player scrolled while the engine thinks.
  const scroll = (v: VNode) => {
    if (ctrl.treeScrolledTo === current) return;
    ctrl.treeScrolledTo = current;
    const box = v.elm as HTMLElement;
    const cur = box.querySelector<HTMLElement>('.current');
    if (cur && box.scrollHeight > box.clientHeight) {
      const top = cur.offsetTop; // .tree is the offset parent
      if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = Math.max(0, top - box.clientHeight / 2);
      }
    }
  };
  return h('div#tree.moves.tree', { hook: { insert: scroll, postpatch: (_, v) => scroll(v) } },
    tree.root.children.length ? line(tree.root.children[0], true) : [h('p.muted', t('analysis.no_moves'))]);
}

function branchTools(ctrl: AnalysisCtrl): VNode {
  const { tree, current } = ctrl;
  const inVariation = tree.pathTo(current).some(n => n.parent && n.parent.children[0] !== n);
  return h('div.actions.branch', [
    inVariation ? h('button#promote', { attrs: { type: 'button' }, on: { click: () => ctrl.promote() } }, t('analysis.promote')) : null,
    current.parent && !ctrl.setting.game ? h('button#delete', { attrs: { type: 'button' }, on: { click: () => ctrl.remove() } }, t('analysis.delete')) : null,
  ]);
}

function fenBox(ctrl: AnalysisCtrl): VNode {
  // The box keeps what was typed until the shown position changes (props patch only changes).
  const input = h('input#fen-input', {
    attrs: { type: 'text', spellcheck: 'false', autocomplete: 'off', 'aria-label': t('analysis.position') },
    props: { value: ctrl.current.fen },
    on: { keydown: (e: KeyboardEvent) => { if (e.key === 'Enter') ctrl.loadFen((e.target as HTMLInputElement).value); } },
  });
  return h('label.kbd', [
    h('span', t('analysis.position')),
    input,
    h('button#fen-load', {
      attrs: { type: 'button' },
      on: { click: () => ctrl.loadFen((input.elm as HTMLInputElement).value) },
    }, t('analysis.load')),
  ]);
}

/** A link to a stored game of an import (`current`: the game shown). */
function importLink(g: ImportView['games'][number], current = false): VNode {
  return h('a.button.import-game', {
    class: { current },
    attrs: { href: importUrl(g.id), 'data-game': g.game, ...(current ? { 'aria-current': 'page' } : {}) },
    on: { click: (e: Event) => { e.preventDefault(); navigate(importUrl(g.id)); } },
  }, [
    t('analysis.import_game', { n: g.game, white: g.white, black: g.black, plies: g.plies }),
    g.event ? h('span.muted', ` · ${g.event}`) : null,
    g.bad_move ? h('span.import-cut', [' · ', t('analysis.import_cut', {
      move: `${g.bad_move.move_number ?? '?'}${g.bad_move.side === 'black' ? '…' : ''}`, text: g.bad_move.text, n: g.bad_move.left_out,
    })]) : null,
  ]);
}

/** A game of a record file that could not be read: where, in the page's words, and why. */
function importError(e: ImportView['errors'][number]): VNode {
  const where = e.move_number !== null
    ? t('analysis.import_error_move', { n: e.game, move: `${e.move_number}${e.side === 'black' ? '…' : ''}`, line: e.line ?? '?' })
    : t('analysis.import_error', { n: e.game, line: e.line ?? '?' });
  return h('p.error.import-error', [where, ' ', h('code', e.reason)]);
}

/** The games of the last record opened stay listed (Back from one of them, or the next one). */
function lastImport(ctrl: AnalysisCtrl): VNode | null {
  const last = ctrl.lastImport;
  if (!last || !last.games.length || (last.games.length === 1 && !last.errors.length)) return null;
  const review = ctrl.setting.review;
  return h('div#import-last.import-last', [
    h('h2', t('analysis.import_last')),
    ...last.games.map(g => importLink(g, g.id === review?.id && review?.kind === 'imports')),
    ...last.errors.map(importError),
  ]);
}

function importBox(ctrl: AnalysisCtrl): VNode {
  const out = ctrl.imported;
  const result: VNode[] = !out ? []
    : out.kind === 'error' ? [h('p.error', out.words)]
      : [
        ...out.read.games.map(g => importLink(g)),
        ...out.read.errors.map(importError),
        ...out.read.warnings.map(w => h('p.muted.import-warning', [
          w.game ? `${t('analysis.import_game_no', { n: w.game })}${w.line ? ` (${t('analysis.line_no', { n: w.line })})` : ''}: ` : '',
          h('code', w.message)])),
      ];
  return h('details#import.import', [
    h('summary', t(ctrl.game.importKey)),
    h('textarea#import-text', {
      attrs: { rows: 4, spellcheck: 'false', 'aria-label': t('analysis.import_text'), placeholder: t('analysis.import_text') },
      props: { value: ctrl.importText },
      on: { input: e => ctrl.setImportText((e.target as HTMLTextAreaElement).value) },
    }),
    h('div.actions', [
      h('input#import-file', {
        attrs: { type: 'file', accept: `.${ctrl.game.recordExt},.txt`, 'aria-label': t('analysis.import_file') },
        on: { change: e => { const f = (e.target as HTMLInputElement).files?.[0]; if (f) void ctrl.readFile(f); } },
      }),
      h('button#import-open', { attrs: { type: 'button', disabled: ctrl.importing }, on: { click: () => ctrl.importRecords() } }, t('analysis.load')),
    ]),
    h('div#import-result', result),
  ]);
}
