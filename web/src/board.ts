// The board: chessgroundx showing an Antarctos or Ice Age Chess position, and move entry that
// offers only the server's legal moves (`legal` of the GameView; the page computes no rules).
// Antarctos jump sequences are entered hop by hop: each hop offers only the squares that keep the
// squares entered so far a prefix of some legal `path`; the final square of a sequence may also
// be clicked at once when exactly one legal sequence from that man ends there.
// Premoves: while the opponent is to move, moves may be queued (the page plays each when a
// state offers it as legal, and drops the queue otherwise); the board shows the position the
// queue would make, so each premove is entered from there. Marks: classes on squares drawn over
// the board (the Ice Age's frozen squares and new ice, an Antarctos turn's captured men).

import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type * as cg from 'chessgroundx/types';
import type { Color, LegalMove, Variant as VariantKey } from './api';
import { variantOf, type Variant } from './variants';

/** The square between two squares a jump apart (`c3`,`e5` -> `d4`), or null when not a jump. */
export function jumpedSquare(from: string, to: string): string | null {
  const f1 = from.charCodeAt(0), r1 = Number(from[1]);
  const f2 = to.charCodeAt(0), r2 = Number(to[1]);
  if (Math.abs(f1 - f2) !== 2 || Math.abs(r1 - r2) !== 2) return null;
  return `${String.fromCharCode((f1 + f2) / 2)}${(r1 + r2) / 2}`;
}

function startsWith(path: string[], prefix: string[]): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => path[i] === s);
}

export interface ShowOptions {
  /** Legal moves to offer; an empty list makes the board view-only for now. */
  legal: LegalMove[];
  /** Which colour the user plays here (`both` on a shared screen), or null to watch. */
  movable: Color | 'both' | null;
  /** Whether a move may be queued while the opponent is to move. */
  premove?: boolean;
  /** Premoves queued, in order: drawn on the position, their squares marked. */
  queued?: { from: string; to: string }[];
  /** Squares of the last move (its whole `path`), highlighted. */
  lastMove?: string[];
  /** Whether the side to move is in check (chess: the last SAN ends with + or #). */
  check?: boolean;
  /** Classes per square, drawn over the board (see `Marks`). */
  marks?: Map<string, string[]>;
}

export interface BoardEvents {
  /** A complete legal move was entered. */
  move: (m: LegalMove) => void;
  /** An Antarctos jump sequence is in progress (squares entered so far) or was reset (`[]`). */
  partial?: (squares: string[]) => void;
  /** Several legal moves share the squares entered (a chess promotion): let the user pick one. */
  choose?: (candidates: LegalMove[]) => Promise<LegalMove | null>;
  /** A premove was entered (`from`, `to`): the page queues it and shows the board again. */
  premove?: (p: { from: string; to: string }) => void;
  /** The user selected a square (clicked a piece). */
  select?: (square: string) => void;
}

export class Board {
  readonly cg: Api;
  private legal: LegalMove[] = [];
  private partial: string[] = [];
  private fen = '';
  private opts: ShowOptions = { legal: [], movable: null };
  private orientation: Color = 'white';
  private readonly game: Variant;
  private marksEl: HTMLElement;

  constructor(
    readonly el: HTMLElement,
    variant: VariantKey,
    private events: BoardEvents,
    viewOnly = false,
  ) {
    this.game = variantOf(variant);
    el.classList.add('board', this.game.boardClass);
    this.cg = Chessground(el, {
      coordinates: !viewOnly,
      viewOnly,
      autoCastle: this.game.autoCastle,
      animation: { enabled: true, duration: 180 },
      highlight: { lastMove: true, check: true },
      movable: { free: false, showDests: true, events: { after: (o, d) => void this.after(o, d) } },
      draggable: { enabled: true, showGhost: true },
      premovable: {
        enabled: false,
        ...(this.game.premoveFunc ? { premoveFunc: this.game.premoveFunc } : {}),
        events: {
          // chessground's own premove is taken into the page's queue at once (`show` clears it):
          // its unset is that clearing, not the player's.
          set: (orig, dest) => this.events.premove?.({ from: String(orig), to: String(dest) }),
        },
      },
      events: { select: key => this.events.select?.(key) },
      drawable: { enabled: !viewOnly },
      kingRoles: this.game.kingRoles,
    });
    this.marksEl = document.createElement('div');
    this.marksEl.className = 'marks';
    this.marksEl.setAttribute('aria-hidden', 'true');
    el.append(this.marksEl);
  }

  /** Shows a position (its text in the game's notation) and what may be moved from it. */
  show(fen: string, opts: ShowOptions): void {
    this.fen = fen;
    this.opts = opts;
    this.legal = opts.movable ? opts.legal : [];
    this.partial = [];
    this.events.partial?.([]);
    const turn = this.game.turnOf(fen);
    const single = opts.movable === 'white' || opts.movable === 'black' ? opts.movable : null;
    // Ice takes a colour the user never moves: the opponent's, or on a shared screen (and for a
    // watcher) the side not to move.
    const iceColor: Color = single ? (single === 'white' ? 'black' : 'white') : turn === 'white' ? 'black' : 'white';
    const canPremove = !!single && !!opts.premove && turn !== single;
    this.cg.set({
      fen: this.game.boardFen(fen, iceColor),
      orientation: this.orientation,
      turnColor: turn,
      lastMove: opts.lastMove && opts.lastMove.length >= 2 ? (opts.lastMove as cg.Key[]) : undefined,
      check: this.game.showsCheck && opts.check ? turn : false,
      movable: {
        color: this.legal.length || canPremove ? (opts.movable ?? undefined) : undefined,
        dests: this.dests(),
      },
      premovable: { enabled: canPremove },
    });
    this.cg.cancelPremove();
    const queued = canPremove ? opts.queued ?? [] : [];
    const marks = new Map(opts.marks);
    queued.forEach((p, i) => {
      this.moveShown(p.from, p.to);
      marks.set(p.from, [...(marks.get(p.from) ?? []), 'queued-premove']);
      // The number on the square the premove goes to: the order they are played in.
      marks.set(p.to, [...(marks.get(p.to) ?? []), 'queued-premove', `queued-${i + 1}`]);
    });
    this.cg.selectSquare(null);
    this.drawMarks(marks);
  }

  /** Forgets a half-entered jump sequence and shows the position again. */
  reset(): void {
    this.show(this.fen, this.opts);
  }

  /** Shows a piece moved from `from` to `to` (a queued premove; the position is not checked). */
  private moveShown(from: string, to: string): void {
    const piece = this.cg.state.boardState.pieces.get(from as cg.Key);
    if (!piece) return;
    const diff: cg.PiecesDiff = new Map();
    diff.set(from as cg.Key, undefined);
    diff.set(to as cg.Key, piece);
    // An Antarctos jump takes the man or ice it jumps, as the move would.
    const over = this.game.hops ? jumpedSquare(from, to) : null;
    if (over) diff.set(over as cg.Key, undefined);
    this.cg.setPieces(diff);
  }

  flip(): void {
    this.setOrientation(this.orientation === 'white' ? 'black' : 'white');
  }

  setOrientation(c: Color): void {
    this.orientation = c;
    this.cg.set({ orientation: c });
    this.drawMarks(this.opts.marks);
  }

  getOrientation(): Color {
    return this.orientation;
  }

  /** The marks layer: one cell per marked square, placed by the orientation. */
  private drawMarks(marks: Map<string, string[]> | undefined): void {
    // chessgroundx empties its element when it redraws everything (a new orientation).
    if (!this.marksEl.isConnected) this.el.append(this.marksEl);
    this.marksEl.replaceChildren();
    if (!marks) return;
    const white = this.orientation === 'white';
    for (const [sq, classes] of marks) {
      if (!/^[a-h][1-8]$/.test(sq) || !classes.length) continue;
      const file = sq.charCodeAt(0) - 97;
      const rank = Number(sq[1]) - 1;
      const cell = document.createElement('div');
      cell.className = ['mark', ...classes].join(' ');
      cell.dataset.square = sq;
      cell.style.left = `${(white ? file : 7 - file) * 12.5}%`;
      cell.style.top = `${(white ? 7 - rank : rank) * 12.5}%`;
      this.marksEl.append(cell);
    }
  }

  /** The legal moves that start with the squares entered so far. */
  private candidates(): LegalMove[] {
    return this.legal.filter(m => startsWith(m.path, this.partial));
  }

  /** Destinations per origin for chessgroundx, from the legal list and the squares entered. */
  private dests(): cg.Dests {
    const dests: cg.Dests = new Map();
    const add = (from: string, to: string) => {
      const list = dests.get(from as cg.Key) ?? [];
      if (!list.includes(to as cg.Key)) list.push(to as cg.Key);
      dests.set(from as cg.Key, list);
    };
    if (!this.game.hops) {
      for (const m of this.legal) add(m.path[0], m.path[m.path.length - 1]);
      return dests;
    }
    const cands = this.candidates();
    const depth = Math.max(this.partial.length, 1);
    // Next hops: the square after the entered prefix (or the first landing square).
    for (const m of cands) if (m.path.length > depth) add(m.path[depth - 1], m.path[depth]);
    // Final squares reached by exactly one sequence from this man: one click enters it all.
    const finals = new Map<string, LegalMove[]>();
    for (const m of cands) {
      const k = `${m.path[depth - 1]}>${m.path[m.path.length - 1]}`;
      finals.set(k, [...(finals.get(k) ?? []), m]);
    }
    for (const [k, ms] of finals) if (ms.length === 1) add(...(k.split('>') as [string, string]));
    return dests;
  }

  private async after(orig: string, dest: string): Promise<void> {
    if (!this.game.hops) {
      const cands = this.legal.filter(m => m.path[0] === orig && m.path[m.path.length - 1] === dest);
      if (cands.length === 1) return this.events.move(cands[0]);
      if (cands.length > 1 && this.events.choose) {
        const picked = await this.events.choose(cands);
        if (picked) return this.events.move(picked);
      }
      return this.reset();
    }
    const prefix = this.partial.length ? this.partial : [orig];
    const cands = this.legal.filter(m => startsWith(m.path, prefix));
    const viaHop = cands.filter(m => m.path[prefix.length] === dest);
    if (viaHop.length) {
      const entered = [...prefix, dest];
      const complete = viaHop.find(m => m.path.length === entered.length);
      if (complete) return this.events.move(complete);
      this.partial = entered;
      this.showHop(prefix[prefix.length - 1], dest);
      return;
    }
    const viaFinal = cands.filter(m => m.path[m.path.length - 1] === dest);
    if (viaFinal.length === 1) return this.events.move(viaFinal[0]);
    this.reset();
  }

  /** After one hop of a sequence: jumped ice melts at once (A7), a jumped man is shown captured
   * until the turn ends (A8), and the next hops are offered from the landing square. */
  private showHop(from: string, to: string): void {
    const over = jumpedSquare(from, to);
    if (over) {
      const piece = this.cg.state.boardState.pieces.get(over as cg.Key);
      const diff: cg.PiecesDiff = new Map();
      if (piece && piece.role === 'm-piece') diff.set(over as cg.Key, { role: 'x-piece' as cg.Role, color: piece.color });
      else if (piece && piece.role === 'i-piece') diff.set(over as cg.Key, undefined);
      if (diff.size) this.cg.setPieces(diff);
    }
    const turn = this.game.turnOf(this.fen);
    this.cg.set({ turnColor: turn, lastMove: [...this.partial] as cg.Key[], movable: { dests: this.dests() } });
    this.cg.selectSquare(to as cg.Key);
    this.events.partial?.([...this.partial]);
  }

  destroy(): void {
    this.cg.destroy();
  }
}
