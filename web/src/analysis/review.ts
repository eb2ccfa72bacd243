// The computer analysis of a whole game on the analysis board (issue 14): a button that asks
// the server for it (`POST /api/games|imports/<id>/review`), its progress while the server
// evaluates every position in the background, then the evaluation graph (White's winning
// chances over the game, as on lichess), the marked moves (inaccuracy ?!, mistake ?, blunder ??)
// with the better move, and each side's count. The server computes every figure and mark; the
// page only draws them.

import { api, ApiError, type ReviewSubject, type ReviewView, type WhiteScore } from '../api';
import { h, mount } from '../dom';
import { colorName, errorWords, t } from '../i18n';
import type { MoveTree, TreeNode } from './tree';

export type Mark = ReviewView['marks'][number];
type Eval = ReviewView['evals'][number];

/** The glyph of a mark in the move list (PGN's NAG glyphs). */
export const GLYPH: Record<Mark['kind'], string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** White's winning chances in -1..1 (the server's curve, lichess's). */
function chances(s: WhiteScore): number {
  if ('cp' in s) return 2 / (1 + Math.exp(-0.00368208 * s.cp)) - 1;
  if ('mate' in s) return Math.sign(s.mate);
  return s.end === '1-0' ? 1 : s.end === '0-1' ? -1 : 0;
}

/** An evaluation in words: `+0.35`, who wins in how many plies, or the result. */
export function evalWords(s: WhiteScore): string {
  if ('cp' in s) {
    const v = s.cp / 100;
    return `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(v).toFixed(2)}`;
  }
  if ('mate' in s) return t('analysis.wins_in', { color: colorName(s.mate > 0 ? 'white' : 'black'), n: Math.abs(s.mate) });
  return s.end;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** What the panel needs of the board it sits on. */
export interface ReviewHost {
  subject: ReviewSubject;
  tree: MoveTree;
  /** Shows `node` on the board. */
  go(node: TreeNode): void;
  /** Redraws the move list (its marks changed). */
  redraw(): void;
}

const POLL_MS = 1000;

/** Imports stored by this page since it loaded: none can have a computer analysis yet, so their
 * panel offers one without asking the server (whose `GET .../review` answers 404 for "none",
 * which the browser logs as an error). */
const freshImports = new Set<string>();

/** Notes imports the page has just stored (`POST /api/imports`' games). */
export function noteFreshImports(ids: string[]): void {
  for (const id of ids) freshImports.add(id);
}
const W = 600;
const H = 120;

export class ReviewPanel {
  readonly el = h('section.review#review');
  private view: ReviewView | null = null;
  private marks = new Map<TreeNode, Mark>();
  private evals = new Map<TreeNode, Eval>();
  private nodes: TreeNode[] = [];
  private timer: number | undefined;
  private closed = false;
  private current: TreeNode | null = null;
  private cursor: SVGElement | null = null;

  constructor(private host: ReviewHost) {
    this.drawAsk();
    const { kind, id } = host.subject;
    if (!(kind === 'imports' && freshImports.has(id))) this.fetch(false);
  }

  /** The mark of the move that led to `node`, once the analysis has it. */
  markOf(node: TreeNode): Mark | undefined {
    return this.marks.get(node);
  }

  /** Follows the board: the graph's cursor and the words on the shown move. */
  show(node: TreeNode): void {
    this.current = node;
    this.drawNow();
    const i = this.nodes.indexOf(node);
    if (this.cursor) {
      this.cursor.setAttribute('visibility', i < 0 ? 'hidden' : 'visible');
      if (i >= 0) {
        const x = this.x(i);
        this.cursor.setAttribute('x1', String(x));
        this.cursor.setAttribute('x2', String(x));
      }
    }
  }

  close(): void {
    this.closed = true;
    window.clearTimeout(this.timer);
  }

  private fetch(ask: boolean): void {
    window.clearTimeout(this.timer);
    if (ask) freshImports.delete(this.host.subject.id);
    (ask ? api.requestReview(this.host.subject) : api.review(this.host.subject)).then(
      v => this.take(v),
      err => {
        if (this.closed) return;
        if (!ask && err instanceof ApiError && err.status === 404) return this.drawAsk();
        const words = err instanceof ApiError && err.code === 'too_many_analyses' ? t('review.one_at_a_time') : errorWords(err);
        this.drawAsk(words);
      },
    );
  }

  private take(v: ReviewView): void {
    if (this.closed) return;
    this.view = v;
    // The main line's nodes by ply, found by the moves the analysis names.
    this.nodes = [this.host.tree.root];
    for (const e of v.evals.slice(1)) {
      const at = this.nodes[this.nodes.length - 1];
      const next = at.children.find(c => c.move?.text === e.played);
      if (!next) break;
      this.nodes.push(next);
    }
    this.marks = new Map(v.marks.flatMap(m => (this.nodes[m.ply] ? [[this.nodes[m.ply], m] as const] : [])));
    this.evals = new Map(v.evals.flatMap(e => (this.nodes[e.ply] ? [[this.nodes[e.ply], e] as const] : [])));
    this.draw();
    this.host.redraw();
    if (v.status === 'running') this.timer = window.setTimeout(() => this.fetch(false), POLL_MS);
  }

  private drawAsk(error?: string): void {
    mount(this.el,
      h('h2', t('review.title')),
      h('p.muted', t('review.about')),
      h('button.primary#review-request', { type: 'button', onclick: () => { mount(this.el, h('h2', t('review.title')), h('p.muted', t('page.loading'))); this.fetch(true); } }, t('review.request')),
      error ? h('p.error#review-error', error) : null);
  }

  private x(ply: number): number {
    const total = Math.max(1, (this.view?.total ?? 2) - 1);
    return (ply / total) * W;
  }

  private y(e: Eval): number {
    return H / 2 - (chances(e.score) * (H / 2 - 4));
  }

  private draw(): void {
    const v = this.view;
    if (!v) return;
    if (v.status === 'failed') {
      mount(this.el, h('h2', t('review.title')), h('p.error', t('review.failed')),
        h('button#review-request', { type: 'button', onclick: () => this.fetch(true) }, t('review.retry')));
      return;
    }
    const graph = svg('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', class: 'review-graph', id: 'review-graph', role: 'img' });
    graph.setAttribute('aria-label', t('review.graph'));
    graph.append(svg('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'black-side' }));
    graph.append(svg('rect', { x: 0, y: H / 2, width: W, height: H / 2, class: 'white-side' }));
    if (v.evals.length > 1) {
      const pts = v.evals.map(e => `${this.x(e.ply).toFixed(1)},${this.y(e).toFixed(1)}`);
      graph.append(svg('path', { d: `M0,${H} L${pts.join(' L')} L${this.x(v.evals.length - 1).toFixed(1)},${H} Z`, class: 'area' }));
      graph.append(svg('polyline', { points: pts.join(' '), class: 'line' }));
    }
    graph.append(svg('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'mid' }));
    for (const m of v.marks) {
      const e = v.evals[m.ply];
      if (!e) continue;
      const dot = svg('circle', { cx: this.x(m.ply), cy: this.y(e), r: 4, class: `mark ${m.kind}`, 'data-ply': m.ply });
      const tip = svg('title', {});
      tip.textContent = `${m.played}: ${t(`review.${m.kind}`)}`;
      dot.append(tip);
      graph.append(dot);
    }
    this.cursor = svg('line', { x1: 0, y1: 0, x2: 0, y2: H, class: 'cursor', visibility: 'hidden' });
    graph.append(this.cursor);
    graph.addEventListener('click', e => {
      const box = graph.getBoundingClientRect();
      const total = Math.max(1, v.total - 1);
      const ply = Math.round(((e.clientX - box.left) / Math.max(1, box.width)) * total);
      const node = this.nodes[Math.max(0, Math.min(this.nodes.length - 1, ply))];
      if (node) this.host.go(node);
    });
    const running = v.status === 'running';
    const side = (c: 'white' | 'black') => {
      const s = v.summary[c];
      return h('tr', h('th', { scope: 'row' }, colorName(c)), h('td', s.inaccuracies), h('td', s.mistakes), h('td', s.blunders));
    };
    mount(this.el,
      h('h2', t('review.title')),
      running
        ? h('div#review-progress', h('p.muted', t('review.progress', { done: v.done, total: v.total })),
          h('progress', { max: v.total, value: v.done, 'aria-label': t('review.title') }))
        : null,
      graph as unknown as HTMLElement,
      h('p.muted.small', t('review.graph')),
      h('p#review-now', { 'aria-live': 'polite' }),
      running ? null : h('table.review-summary#review-summary',
        h('thead', h('tr', h('th', ''), h('th', { scope: 'col' }, t('review.inaccuracies')), h('th', { scope: 'col' }, t('review.mistakes')), h('th', { scope: 'col' }, t('review.blunders')))),
        h('tbody', side('white'), side('black'))));
    if (this.current) this.show(this.current);
  }

  /** The words on the shown move: its evaluation, and its mark with the better move. */
  private drawNow(): void {
    const box = this.el.querySelector<HTMLElement>('#review-now');
    const node = this.current;
    if (!box || !node) return;
    const e = this.evals.get(node);
    const m = this.marks.get(node);
    // Moves keep their hyphens on one line.
    const move = (text: string) => text.replace(/-/g, '\u2011');
    mount(box,
      e ? h('span#review-eval', 'end' in e.score ? t('review.over', { result: e.score.end }) : t('review.eval', { score: evalWords(e.score), depth: e.depth })) : null,
      m ? h('span', ' ', h(`strong.mark-words.${m.kind}#review-mark`, t(`review.${m.kind}`)), ' ',
        t('review.better', { played: move(m.played), loss: m.loss, better: move(m.better) })) : null);
  }
}
