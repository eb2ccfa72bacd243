// The analysis board's state and actions: the move tree and the node shown, the engine's line,
// the solver's answer, the FEN box and the import of a record. Every position's moves come from
// the rules crates, through the server or the engine in the browser; the page computes no
// rule. The engine and the solver run in the browser by default (local.ts), on the server when
// the player switches that off or the site has no wasm module. Every change ends in `redraw()`
// (view.ts).

import { api, ApiError, type ImportView, type LegalMove, type PositionView, type ReviewSubject, type Variant as VariantKey } from '../../api';
import type { EngineLine } from '../../analysis/engine';
import { noteFreshImports, ReviewPanel } from '../../analysis/review';
import type { MoveTree, TreeNode } from '../../analysis/tree';
import { Board } from '../../board';
import { copyText } from '../../dom';
import { errorWords, t } from '../../i18n';
import { navigate } from '../../nav';
import { positionFaultWords } from '../../position_words';
import { variantOf, type Variant } from '../../variants';
import { EngineError, engineFailure, localEngine, type LocalEngine } from '../../engine/client';
import { engineInBrowser, setEngineInBrowser } from '../../prefs';
import { LocalRunner, solveLocally } from './local';
import { AnalysisIceAge } from './ice';
import { EngineRunner, Positions } from './server';
import { loadImport, saveImport, saveTree } from './store';

export interface Setting {
  /** The stored game analysed, if any. */
  game?: string;
  standardStart: boolean;
  tags: Record<string, string>;
  /** Where the tab keeps the tree (session storage key). */
  store?: string;
  /** A line about the stored game: how it ended. */
  about?: string;
  /** The whole game's computer analysis (a stored or imported game). */
  review?: ReviewSubject;
  /** The side seen at the bottom at first (`?orientation=black`); White's by default. */
  orientation?: 'white' | 'black';
}

/** Where the engine runs: in the player's browser or on the server. */
export type EngineWhere = 'browser' | 'server';

/** What the engine's box shows. */
export type EngineState =
  | { kind: 'off' | 'searching' | 'no_search' }
  | { kind: 'line'; pos: PositionView; line: EngineLine; ended: boolean; where: EngineWhere }
  | { kind: 'error'; words: string };

/** What the solver's box shows (null: nothing asked here). */
export type SolveState =
  | { kind: 'solving' | 'no_proof'; max?: number }
  | { kind: 'proof'; winner: 'white' | 'black'; plies: number; line: string[]; where: EngineWhere }
  | { kind: 'error'; words: string };

export type ImportState = { kind: 'read'; read: ImportView } | { kind: 'error'; words: string } | null;

/** The words of a refused position: why, in the page's language. */
const positionError = (err: unknown) =>
  err instanceof ApiError && err.code === 'bad_request' ? `${t('analysis.bad_position')} ${positionFaultWords(err)}`
    // The engine in the browser gives the same fault as data; else its English words.
    : err instanceof EngineError
      ? `${t('analysis.bad_position')} ${err.position ? positionFaultWords(new ApiError('bad_request', err.message, 400, undefined, undefined, err.position)) : err.message}`
      : errorWords(err);

export class AnalysisCtrl {
  readonly variant: VariantKey;
  readonly game: Variant;
  current: TreeNode;
  /** The answer about the shown position, once it came. */
  pos: PositionView | null = null;
  message = '';
  /** Why the engine in the browser did not load (a failed or stalled download), said once
   * and kept: the server's engine works instead. Empty otherwise. */
  engineNote = '';
  engineOn = false;
  engine: EngineState = { kind: 'off' };
  solve: SolveState | null = null;
  solving = false;
  fenCopied: string | null = null;
  importText = '';
  importing = false;
  imported: ImportState = null;
  board: Board | null = null;
  readonly review: ReviewPanel | null;
  /** The answer of the last import when the page opened: its games stay listed. */
  readonly lastImport = loadImport();
  /** The node the move list last scrolled to. */
  treeScrolledTo: TreeNode | null = null;
  /** The engine in this browser, once loaded (null: the site has none, or it cannot run). */
  local: LocalEngine | null = null;
  /** Whether the player wants the engine in the browser (prefs). */
  localWanted = engineInBrowser();
  /** The Ice Age's countdown, account and marks (ice.ts). */
  readonly ice = new AnalysisIceAge();

  private closed = false;
  private searched: TreeNode | null = null; // the node the engine searches (or last searched)
  private readonly positions: Positions;
  private readonly runner: EngineRunner;
  private localRunner: LocalRunner | null = null;
  private stopSolve: (() => void) | null = null;
  /** A file that is not UTF-8 goes as its bytes: the server guesses its encoding (chardetng). */
  private fileBytes: { base64: string; shown: string } | null = null;

  constructor(readonly tree: MoveTree, first: TreeNode, readonly setting: Setting, readonly redraw: () => void) {
    this.variant = tree.variant;
    this.game = variantOf(tree.variant);
    this.current = first;
    const loaded = localEngine().then(e => {
      this.local = e;
      this.localRunner = e ? new LocalRunner(e, this.variant) : null;
      // A failed or stalled download (engine/client.ts's timeout): said once, and the server's
      // engine does the work from then on. Until then the server is not asked (issue 42).
      const why = engineFailure();
      if (why !== null) this.engineNote = t('local.failed', { why });
      return e;
    });
    this.positions = new Positions(this.variant, () => loaded.then(e => (this.localWanted ? e : null)));
    this.runner = new EngineRunner(this.variant);
    void loaded.then(() => { if (!this.closed) this.redraw(); });
    this.review = setting.review
      ? new ReviewPanel({ subject: setting.review, tree, go: n => this.go(n), redraw: () => { if (!this.closed) this.redraw(); } })
      : null;
  }

  /** Makes the board in `el` (snabbdom's insert hook); `refresh()` shows the position. */
  mountBoard(el: HTMLElement): void {
    this.board = new Board(el, this.variant, { move: m => void this.play(m) });
    this.board.setOrientation(this.setting.orientation ?? 'white');
  }

  /** The move number of a move by `color` after `parent`: counted along the tree from the
   * root's (an Antarctos position text carries no move number). */
  private numberAfter(parent: TreeNode, color: 'white' | 'black', pos: PositionView): number {
    return !parent.move ? pos.number : color === 'white' ? parent.move.number + 1 : parent.move.number;
  }

  private async play(m: LegalMove): Promise<void> {
    const here = this.current;
    const pos = await this.positions.get(here.fen);
    const next = pos.legal.find(l => l.id === m.id);
    if (!next || this.closed) return;
    this.go(this.tree.add(here, { id: next.id, text: next.text, path: next.path, event: next.event, ice_age: next.ice_age, number: this.numberAfter(here, pos.turn, pos), color: pos.turn }, next.fen));
  }

  /** Plays the engine's line up to its move `upto` (0: the best move) from the current node. */
  async playLine(line: string[], upto: number): Promise<void> {
    let node = this.current;
    for (const text of line.slice(0, upto + 1)) {
      const pos = await this.positions.get(node.fen);
      const next = pos.legal.find(l => l.text === text);
      if (!next || this.closed) break;
      node = this.tree.add(node, { id: next.id, text: next.text, path: next.path, event: next.event, ice_age: next.ice_age, number: this.numberAfter(node, pos.turn, pos), color: pos.turn }, next.fen);
    }
    this.go(node);
  }

  /** Where the engine and the solver run now. */
  where(): EngineWhere {
    return this.localWanted && this.local ? 'browser' : 'server';
  }

  /** Runs the engine (and the solver) in the browser or on the server; remembered. */
  setLocal(on: boolean): void {
    setEngineInBrowser(on);
    this.localWanted = on;
    this.searched = null;
    this.refresh();
  }

  go(node: TreeNode): void {
    this.current = node;
    this.stopSolve?.();
    this.stopSolve = null;
    this.solving = false;
    this.solve = null;
    this.refresh();
  }

  /** Keeps the tree, writes the address and asks about the shown position. */
  refresh(): void {
    if (this.closed) return;
    const { setting, tree, current } = this;
    if (setting.store) saveTree(setting.store, tree, current);
    // A stored or imported game keeps its own address; a free analysis shows its position.
    if (!setting.game && !setting.review) this.writeAddress();
    this.redraw();
    this.review?.show(current);
    this.showPosition();
  }

  /** Asks the server about the shown position, then shows it on the board with its moves and
   * starts the engine there. */
  private showPosition(): void {
    const node = this.current;
    this.positions.get(node.fen).then(
      pos => {
        if (this.closed || node !== this.current) return;
        this.message = '';
        this.pos = pos;
        const ice = this.ice.board(node, pos);
        this.board?.show(ice.fen, { legal: ice.legal, movable: ice.legal.length ? 'both' : null, lastMove: ice.before ? undefined : node.move?.path, check: !ice.before && !!node.move && /[+#]$/.test(node.move.text), marks: ice.marks });
        if (this.searched !== node) {
          this.searched = node;
          this.runEngine(pos);
        }
        this.redraw();
      },
      err => {
        if (this.closed || node !== this.current) return;
        this.message = positionError(err);
        this.redraw();
      },
    );
  }

  setEngine(on: boolean): void {
    this.engineOn = on;
    this.searched = null;
    this.refresh();
  }

  private runEngine(pos: PositionView): void {
    this.runner.stop();
    this.localRunner?.stop();
    if (!this.engineOn) {
      this.engine = { kind: 'off' };
      return;
    }
    if (!pos.legal.length) {
      this.engine = { kind: 'no_search' };
      return;
    }
    this.engine = { kind: 'searching' };
    // The node searched: what the page shows may be another by the time a line arrives.
    const node = this.current;
    let last: EngineLine | null = null;
    const where = this.where();
    const still = () => !this.closed && this.current === node && this.engineOn && this.where() === where;
    const line = (l: EngineLine) => {
      last = l;
      this.engine = { kind: 'line', pos, line: l, ended: false, where };
      this.redraw();
    };
    const ended = () => {
      if (last) this.engine = { kind: 'line', pos, line: last, ended: true, where };
      this.redraw();
    };
    if (where === 'browser' && this.localRunner) {
      this.localRunner.start(pos.fen, still, {
        line,
        end: err => {
          if (err) {
            this.engine = { kind: 'error', words: err };
            this.redraw();
          } else ended();
        },
      });
      return;
    }
    this.runner.start(pos.fen, still, {
      line,
      end: err => {
        if (err) {
          this.engine = { kind: 'error', words: err.code === 'too_many_analyses' ? t('analysis.busy') : errorWords(err) };
          this.redraw();
        } else ended();
      },
    });
  }

  /** Runs the exact solver on the shown position and says what it proved. */
  runSolver(): void {
    const node = this.current;
    this.solve = { kind: 'solving' };
    this.solving = true;
    this.redraw();
    const where = this.where();
    const local = this.local;
    const asked = where === 'browser' && local
      // The side to move names the winner: from the position's answer (asked once, kept).
      ? this.positions.get(node.fen).then(pos => solveLocally(local, this.variant, node.fen, pos.turn, stop => { this.stopSolve = stop; }))
      : api.solve(this.variant, node.fen);
    asked.then(
      r => {
        if (this.closed || node !== this.current) return;
        this.solve = r.result === 'unknown' || !r.winner || r.plies === null
          ? { kind: 'no_proof', max: r.max_plies }
          : { kind: 'proof', winner: r.winner, plies: r.plies, line: r.line, where };
      },
      err => {
        if (this.closed || node !== this.current || (err as { stopped?: boolean })?.stopped) return;
        this.solve = { kind: 'error', words: err instanceof ApiError && err.code === 'too_many_analyses' ? t('analysis.busy') : err instanceof ApiError && err.code === 'bad_request' ? t('analysis.no_search') : err instanceof ApiError ? errorWords(err) : String((err as Error)?.message ?? err) };
      },
    ).finally(() => {
      if (node !== this.current) return;
      this.stopSolve = null;
      this.solving = false;
      this.redraw();
    });
  }

  setComment(text: string): void {
    this.current.comment = text;
    if (this.setting.store) saveTree(this.setting.store, this.tree, this.current);
    this.redraw();
  }

  promote(): void {
    this.tree.promote(this.current);
    this.refresh();
  }

  remove(): void {
    const p = this.tree.remove(this.current);
    if (p) this.go(p);
  }

  flip(): void {
    this.board?.flip();
    if (!this.setting.game && !this.setting.review) this.writeAddress();
  }

  /** A free analysis's address: its position, and the side seen when Black's. */
  private writeAddress(): void {
    const { setting, tree, current } = this;
    const q: string[] = [];
    if (current !== tree.root || !setting.standardStart) q.push(`fen=${encodeURIComponent(current.fen)}`);
    if ((this.board?.getOrientation() ?? setting.orientation) === 'black') q.push('orientation=black');
    history.replaceState(history.state, '', `/analysis/${this.variant}${q.length ? `?${q.join('&')}` : ''}`);
  }

  /** Opens the position typed into the FEN box (the server judges it first). */
  loadFen(text: string): void {
    const fen = text.trim();
    if (!fen) return;
    this.positions.get(fen).then(
      pos => navigate(`/analysis/${this.variant}?fen=${encodeURIComponent(pos.fen)}`),
      err => {
        this.message = positionError(err);
        this.redraw();
      },
    );
  }

  async copyFen(): Promise<void> {
    const fen = this.current.fen;
    const ok = await copyText(fen);
    this.fenCopied = ok ? t('game.copied') : fen;
    this.redraw();
    setTimeout(() => {
      this.fenCopied = null;
      this.redraw();
    }, 1500);
  }

  /** The tree as a PGN or PDN file. */
  download(): void {
    const text = this.tree.record(this.setting.tags, this.setting.standardStart);
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `icebound-analysis.${this.game.recordExt}`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  setImportText(text: string): void {
    this.importText = text;
    this.redraw();
  }

  /** Reads a record file into the import box; one that is not UTF-8 is shown as Windows-1252
   * and sent as its bytes. */
  async readFile(f: File): Promise<void> {
    const bytes = new Uint8Array(await f.arrayBuffer());
    this.fileBytes = null;
    try {
      this.importText = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      this.importText = new TextDecoder('windows-1252').decode(bytes);
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      this.fileBytes = { base64: btoa(bin), shown: this.importText };
    }
    this.redraw();
  }

  /** Sends the record in the import box; one clean game opens at once, otherwise the games
   * read and the faults are listed. */
  importRecords(): void {
    const text = this.importText;
    this.imported = null;
    if (!text.trim()) return this.redraw();
    this.importing = true;
    this.redraw();
    const file = this.fileBytes && this.fileBytes.shown === text ? { base64: this.fileBytes.base64 } : { text };
    api.importRecords(file).then(
      read => {
        if (this.closed) return;
        saveImport(read);
        noteFreshImports(read.games.map(g => g.id));
        if (read.games.length === 1 && !read.errors.length && !read.warnings.length) return navigate(`/analysis/import/${read.games[0].id}`);
        this.imported = { kind: 'read', read };
      },
      err => {
        if (!this.closed) this.imported = { kind: 'error', words: err instanceof ApiError && err.code === 'too_large' ? t('analysis.import_too_large') : errorWords(err) };
      },
    ).finally(() => {
      this.importing = false;
      if (!this.closed) this.redraw();
    });
  }

  close(): void {
    this.closed = true;
    this.runner.stop();
    this.localRunner?.stop();
    this.stopSolve?.();
    this.review?.close();
    this.board?.destroy();
    this.board = null;
  }
}
