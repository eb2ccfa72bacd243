// The puzzle trainer's state and actions (issue 39): a puzzle from the server, the solver's
// moves entered on the board (the moves and their legality come from the rules through
// `POST /api/positions`, as on the analysis board: the page computes no rule), the solution's
// defence played after a short pause, the attempt sent when the puzzle is solved or at the
// first wrong move, then the solution to step through. Modes: a puzzle near the player's rating
// (by theme), one by its id, the daily one, and a streak. Every change ends in `redraw()`.

import { ApiError, type Color, type LegalMove, type NextMove, type PositionView, type Variant } from '../../api';
import { currentUser, loadMe } from '../../account';
import { Board } from '../../board';
import { iceBoardMarks } from '../../game/iceage';
import type { Promotion } from '../../game/promotion';
import { errorWords, t } from '../../i18n';
import { navigate } from '../../nav';
import { puzzlesApi, type AttemptResult, type Puzzle, type ThemeCounts } from '../../puzzles/api';
import * as store from '../../puzzles/session';
import * as sound from '../../sound';
import { variantOf, type Variant as Game } from '../../variants';
import { Positions } from '../analysis/server';

export type Mode = { kind: 'next' } | { kind: 'id'; id: string } | { kind: 'daily' } | { kind: 'streak' };

/** One position of a line: the move that led to it, and the trainer's verdict on that move. */
export interface LineNode {
  fen: string;
  move: NextMove | null;
  verdict?: 'good' | 'bad';
}

export type Phase =
  | 'loading' // asking for a puzzle
  | 'play' // the solver to move
  | 'answer' // the defence comes after a pause
  | 'saving' // the attempt is being sent
  | 'solved' | 'failed'
  | 'none_left' // no puzzle left for the theme
  | 'not_found' | 'error';

export interface Streak {
  puzzles: Puzzle[];
  index: number;
  score: number;
  over: boolean;
  /** The streak beat the best one of this browser. */
  record: boolean;
}

/** The pause before the defence, and between the solution's moves when shown. */
const REPLY_MS = 500;
const STEP_MS = 800;

/** Move text without its marks (`#`, `+`, `!`, `?`): the same move. */
const same = (a: string, b: string) => a.replace(/[+#!?]+$/, '') === b.replace(/[+#!?]+$/, '');

export class TrainerCtrl {
  readonly game: Game;
  phase: Phase = 'loading';
  puzzle: Puzzle | null = null;
  /** The moves played in this attempt, from the puzzle's position. */
  line: LineNode[] = [];
  /** The whole solution, once the attempt ended (the played line when solved). */
  solution: LineNode[] | null = null;
  /** The node of `solution` shown after the attempt. */
  shown = 0;
  /** The number of the solver's first move (for the move list). */
  startNumber = 1;
  pos: PositionView | null = null;
  result: AttemptResult | null = null;
  /** Whether the attempt asked to be rated. */
  askedRated = false;
  /** The solver's wrong move, when the attempt failed. */
  wrong: string | null = null;
  hintOpen = false;
  message = '';
  themes: ThemeCounts | null = null;
  theme: string;
  rated = store.ratedWanted();
  streak: Streak | null = null;
  promotion: Promotion | null = null;
  board: Board | null = null;
  /** Whether the solution is being played out on the board. */
  playing = false;

  private closed = false;
  /** A streak's next batch is being asked for. */
  private fetchingMore = false;
  private timers = new Set<number>();
  private readonly positions: Positions;

  constructor(readonly variant: Variant, readonly mode: Mode, readonly redraw: () => void) {
    this.game = variantOf(variant);
    this.theme = store.chosenTheme(variant);
    this.positions = new Positions(variant, () => Promise.resolve(null));
  }

  /** Whether the player is logged in (the server's `you`, else the header's answer). */
  loggedIn(): boolean {
    return this.puzzle ? this.puzzle.you !== null : typeof currentUser() === 'string';
  }

  /** The solver's colour: the side to move in the puzzle's position. */
  solver(): Color {
    return this.puzzle ? this.game.turnOf(this.puzzle.fen) : 'white';
  }

  mountBoard(el: HTMLElement): void {
    this.board = new Board(el, this.variant, {
      move: m => void this.played(m),
      choose: cands => this.choosePromotion(cands),
    });
    this.board.setOrientation(this.solver());
    this.showBoard();
  }

  async start(): Promise<void> {
    if (this.mode.kind !== 'streak') {
      puzzlesApi.themes(this.variant).then(th => { this.themes = th; this.redraw(); }, () => undefined);
    }
    // Who the player is decides what `next` is told (an anonymous player's own rating).
    if (currentUser() === undefined) await loadMe().catch(() => undefined);
    if (this.mode.kind === 'streak') return this.newStreak();
    this.load();
  }

  /** Asks for the mode's puzzle and opens it. */
  private load(): void {
    this.phase = 'loading';
    this.redraw();
    const v = this.variant;
    const anon = typeof currentUser() !== 'string';
    const ask = this.mode.kind === 'id' ? puzzlesApi.get(this.mode.id)
      : this.mode.kind === 'daily' ? puzzlesApi.daily(v)
      : puzzlesApi.next(v, {
        theme: this.theme === 'mix' ? undefined : this.theme,
        rating: anon ? store.sessionRating(v)?.rating : undefined,
        exclude: anon ? store.donePuzzles(v) : undefined,
      });
    ask.then(
      p => {
        if (this.closed) return;
        // A puzzle of the other game under this game's address (`/training/iceage/seed-1`):
        // the page of its own game in its place, which asks for it again.
        if (p.variant !== v) return navigate(`/training/${p.variant}/${encodeURIComponent(p.id)}`, true);
        // The address names the puzzle shown: a reload or a shared link opens it again.
        if (this.mode.kind === 'next') history.replaceState(history.state, '', `/training/${v}/${encodeURIComponent(p.id)}`);
        this.open(p);
      },
      err => {
        if (this.closed) return;
        this.phase = err instanceof ApiError && err.status === 404 ? (this.mode.kind === 'next' ? 'none_left' : 'not_found') : 'error';
        this.message = this.phase === 'error' ? errorWords(err) : '';
        this.redraw();
      },
    );
  }

  /** Shows `p` from its first position, the solver to move. */
  private open(p: Puzzle): void {
    this.puzzle = p;
    this.line = [{ fen: p.fen, move: null }];
    this.solution = null;
    this.shown = 0;
    this.result = null;
    this.wrong = null;
    this.hintOpen = false;
    this.message = '';
    this.phase = 'play';
    this.playing = false;
    this.board?.setOrientation(this.solver());
    // A phone scrolled down to "next" sees the new puzzle's board.
    const box = this.board?.el.getBoundingClientRect();
    if (box && box.top < 0) this.board?.el.scrollIntoView({ block: 'start' });
    this.positions.get(p.fen).then(pos => { this.startNumber = pos.number; this.redraw(); }, () => undefined);
    this.showBoard();
  }

  /** The line shown on the board: the attempt while it lasts, then the solution. */
  shownLine(): LineNode[] {
    return this.solution ?? this.line;
  }

  shownIndex(): number {
    return this.solution ? this.shown : this.line.length - 1;
  }

  /** Shows the current node on the board, with its moves when the solver is to move. */
  private showBoard(): void {
    const nodes = this.shownLine();
    const node = nodes[this.shownIndex()];
    if (!node || !this.board) return;
    const live = this.phase === 'play' && !this.solution;
    this.positions.get(node.fen).then(
      pos => {
        if (this.closed || this.shownLine()[this.shownIndex()] !== node) return;
        this.pos = pos;
        const marks = iceBoardMarks(node.move?.ice_age);
        const dest = node.move?.path[node.move.path.length - 1];
        if (dest && node.verdict) marks.set(dest, [...(marks.get(dest) ?? []), node.verdict === 'good' ? 'puzzle-good' : 'puzzle-bad']);
        this.board?.show(node.fen, {
          legal: live && this.phase === 'play' ? pos.legal : [],
          movable: this.solver(),
          lastMove: node.move?.path,
          check: !!node.move && /[+#]$/.test(node.move.text),
          marks,
        });
        this.redraw();
      },
      err => {
        if (this.closed) return;
        this.message = errorWords(err);
        this.redraw();
      },
    );
  }

  choosePromotion(cands: LegalMove[]): Promise<LegalMove | null> {
    return new Promise(resolve => {
      this.promotion = {
        cands,
        color: this.solver(),
        resolve: m => {
          this.promotion = null;
          this.redraw();
          resolve(m);
        },
      };
      this.redraw();
    });
  }

  private sound(m: NextMove): void {
    if (m.ice_age || m.event) sound.play('iceage');
    else if (/[+#]$/.test(m.text)) sound.play('check');
    else if (m.text.includes('x')) sound.play('capture');
    else sound.play('move');
  }

  private later(ms: number, f: () => void): void {
    const id = window.setTimeout(() => {
      this.timers.delete(id);
      if (!this.closed) f();
    }, ms);
    this.timers.add(id);
  }

  /** The solver entered `m` on the board. */
  private async played(m: LegalMove): Promise<void> {
    const p = this.puzzle;
    if (!p || this.phase !== 'play' || this.solution) return;
    const here = this.line[this.line.length - 1];
    const pos = await this.positions.get(here.fen);
    const next = pos.legal.find(l => l.id === m.id);
    if (!next || this.closed) return;
    const ply = this.line.length - 1;
    const good = same(next.text, p.solution[ply] ?? '');
    this.line.push({ fen: next.fen, move: next, verdict: good ? 'good' : 'bad' });
    this.sound(next);
    if (!good) {
      this.wrong = next.text;
      this.showBoard();
      return this.finish(false);
    }
    if (ply + 1 >= p.solution.length) {
      this.showBoard();
      return this.finish(true);
    }
    this.phase = 'answer';
    this.showBoard();
    this.later(REPLY_MS, () => void this.reply());
  }

  /** Plays the solution's defence. */
  private async reply(): Promise<void> {
    const p = this.puzzle;
    if (!p) return;
    const here = this.line[this.line.length - 1];
    const ply = this.line.length - 1;
    try {
      const pos = await this.positions.get(here.fen);
      const next = pos.legal.find(l => same(l.text, p.solution[ply]));
      if (this.closed || this.puzzle !== p) return;
      if (!next) throw new Error(`the solution's move ${p.solution[ply]} is not legal here`);
      this.line.push({ fen: next.fen, move: next });
      this.sound(next);
      // A line may end with the defence: an Ice Age after Black's move freezes Black's king.
      if (this.line.length - 1 >= p.solution.length) {
        this.showBoard();
        return void this.finish(true);
      }
      this.phase = 'play';
      this.showBoard();
    } catch (err) {
      this.phase = 'error';
      this.message = err instanceof ApiError ? errorWords(err) : String((err as Error)?.message ?? err);
      this.redraw();
    }
  }

  /** Sends the attempt, then shows its verdict and the solution. */
  private async finish(solved: boolean): Promise<void> {
    const p = this.puzzle!;
    const v = this.variant;
    const anon = !this.loggedIn();
    const streak = this.mode.kind === 'streak';
    this.phase = 'saving';
    this.redraw();
    sound.play(solved ? 'success' : 'failure');
    // An anonymous player's rated attempt counts once per puzzle and session; an account's
    // second one the server itself leaves unrated.
    const rated = !streak && this.rated && !(anon && store.ratedThisSession(p.id));
    this.askedRated = rated;
    const session = anon && rated ? store.sessionRating(v) : null;
    try {
      const r = await puzzlesApi.attempt(p.id, {
        moves: this.line.slice(1).map(n => n.move!.text),
        rated,
        ...(session ? { session_rating: session } : {}),
      });
      if (this.closed || this.puzzle !== p) return;
      this.result = r;
      solved = r.solved;
      if (anon && r.session_rating) store.setSessionRating(v, r.session_rating);
      if (anon && rated) store.noteRated(p.id);
    } catch (err) {
      if (this.closed || this.puzzle !== p) return;
      this.message = t('puzzle.save_failed', { why: errorWords(err) });
    }
    store.noteDone(v, p.id);
    this.phase = solved ? 'solved' : 'failed';
    if (streak) this.streakStep(solved);
    await this.buildSolution(solved);
  }

  /** The whole solution as a line (the played one when solved); a failed attempt shows the
   * wrong move a moment, then the solution's move in its place. */
  private async buildSolution(solved: boolean): Promise<void> {
    const p = this.puzzle!;
    if (solved) {
      this.solution = this.line;
      this.shown = this.line.length - 1;
      this.showBoard();
      return;
    }
    const nodes: LineNode[] = [{ fen: p.fen, move: null }];
    try {
      for (const text of p.solution) {
        const pos = await this.positions.get(nodes[nodes.length - 1].fen);
        const next = pos.legal.find(l => same(l.text, text));
        if (!next) break;
        nodes.push({ fen: next.fen, move: next });
      }
    } catch {
      // The board keeps the played line; the solution is still written in the panel.
    }
    if (this.closed || this.puzzle !== p) return;
    const failedAt = Math.min(this.result?.failed_at ?? this.line.length - 2, nodes.length - 2);
    this.redraw();
    this.later(900, () => {
      if (this.puzzle !== p) return;
      this.solution = nodes;
      this.shown = Math.max(0, failedAt + 1);
      // The right move in the wrong one's place.
      nodes[this.shown] = { ...nodes[this.shown], verdict: 'good' };
      this.showBoard();
    });
  }

  /** Shows node `i` of the solution. */
  go(i: number): void {
    if (!this.solution) return;
    this.playing = false;
    this.shown = Math.max(0, Math.min(this.solution.length - 1, i));
    const m = this.solution[this.shown].move;
    if (m) this.sound(m);
    this.showBoard();
  }

  /** Plays the solution out on the board, from its start when shown to its end. */
  viewSolution(): void {
    const nodes = this.solution;
    if (!nodes) return;
    if (this.shown >= nodes.length - 1) this.shown = 0;
    this.playing = true;
    this.showBoard();
    const step = () => {
      if (!this.playing || this.solution !== nodes) return;
      if (this.shown >= nodes.length - 1) {
        this.playing = false;
        return this.redraw();
      }
      this.shown++;
      const m = nodes[this.shown].move;
      if (m) this.sound(m);
      this.showBoard();
      this.later(STEP_MS, step);
    };
    this.later(STEP_MS, step);
  }

  /** The puzzle after this one: a new one near the player's rating (with the chosen theme). */
  next(): void {
    if (this.mode.kind === 'streak') return this.streakNext();
    navigate(`/training/${this.variant}`);
  }

  setTheme(theme: string): void {
    this.theme = theme;
    store.setChosenTheme(this.variant, theme);
    // A puzzle not yet begun gives way to one of the theme at once; one under way is finished
    // first.
    const fresh = this.line.length <= 1 && (this.phase === 'play' || this.phase === 'loading');
    const stuck = this.phase === 'none_left' || this.phase === 'error';
    if (this.mode.kind === 'next' && (fresh || stuck)) return this.load();
    if (fresh || stuck || this.phase === 'solved' || this.phase === 'failed') return this.next();
    this.redraw();
  }

  setRated(on: boolean): void {
    this.rated = on;
    store.setRatedWanted(on);
    this.redraw();
  }

  toggleHint(): void {
    this.hintOpen = !this.hintOpen;
    this.redraw();
  }

  toggleSound(): void {
    sound.setEnabled(!sound.enabled());
    this.redraw();
  }

  flip(): void {
    this.board?.flip();
    this.redraw();
  }

  // ---------- streak ----------

  newStreak(): void {
    this.phase = 'loading';
    this.streak = null;
    this.redraw();
    puzzlesApi.streak(this.variant).then(
      r => {
        if (this.closed) return;
        this.streak = { puzzles: r.puzzles, index: 0, score: 0, over: false, record: false };
        if (!r.puzzles.length) {
          this.phase = 'none_left';
          return this.redraw();
        }
        this.open(r.puzzles[0]);
      },
      err => {
        if (this.closed) return;
        this.phase = 'error';
        this.message = errorWords(err);
        this.redraw();
      },
    );
  }

  private streakStep(solved: boolean): void {
    const s = this.streak;
    if (!s) return;
    if (solved) {
      s.score++;
      s.record = store.noteStreak(this.variant, s.score) || s.record;
      // The next puzzle follows by itself, after a moment to see the last move; after the
      // batch's last one, the next batch is asked for.
      this.later(1200, () => { if (this.phase === 'solved') this.streakNext(); });
    } else {
      s.over = true;
      s.record = store.noteStreak(this.variant, s.score) || s.record;
    }
  }

  private streakNext(): void {
    const s = this.streak;
    if (!s || s.over) return this.newStreak();
    if (s.index + 1 >= s.puzzles.length) return void this.streakMore(s);
    s.index++;
    this.open(s.puzzles[s.index]);
  }

  /** Every puzzle of the batch solved: another batch, harder than the last puzzle and without
   * the puzzles this streak played; the streak ends, won, when none is left. */
  private async streakMore(s: Streak): Promise<void> {
    if (this.fetchingMore) return;
    this.fetchingMore = true;
    try {
      const ids = s.puzzles.map(p => p.id);
      const r = await puzzlesApi.streak(this.variant, ids[ids.length - 1], ids);
      if (this.closed || this.streak !== s) return;
      const played = new Set(s.puzzles.map(p => p.id));
      const fresh = r.puzzles.filter(p => !played.has(p.id));
      if (!fresh.length) {
        s.over = true;
        return this.redraw();
      }
      s.puzzles.push(...fresh);
      s.index++;
      this.open(s.puzzles[s.index]);
    } catch (err) {
      if (this.closed || this.streak !== s) return;
      this.message = errorWords(err);
      this.redraw();
    } finally {
      this.fetchingMore = false;
    }
  }

  bestStreak(): number {
    return store.bestStreak(this.variant);
  }

  close(): void {
    this.closed = true;
    for (const id of this.timers) window.clearTimeout(id);
    this.timers.clear();
    this.board?.destroy();
    this.board = null;
  }
}
