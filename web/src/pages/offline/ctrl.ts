// A game against the computer with no server (issue 42): the moves and the position's facts
// come from the engine in the browser (engine/client.ts, the rules crates compiled to
// WebAssembly), the computer's replies from the same engine at the server's levels, and the
// game is kept in this browser after every move (store.ts). A finished game may be uploaded
// to the site (`POST /api/games/upload`) once online.

import { ApiError, type Color, type GameView, type LegalMove, type MoveView, type PositionView, type ResultView } from '../../api';
import { Board } from '../../board';
import { errorWords, t } from '../../i18n';
import type { LocalEngine } from '../../engine/client';
import { iceMarks } from '../../game/iceage';
import { other } from '../../game/model';
import type { Promotion } from '../../game/promotion';
import { navigate } from '../../nav';
import { isOffline, noteServer, onConnectivity } from '../../online';
import * as sound from '../../sound';
import { deleteGame, saveGame, type OfflineGame } from './store';

/** `POST /api/games/upload`'s body (the offline-app helper's endpoint). */
export interface UploadBody {
  variant: OfflineGame['variant'];
  moves: string[];
  level: number;
  color: Color;
  result: string;
}

/** The upload: under way, done, refused by the server (`error`), or waiting for the server to
 * be reachable again (`waiting`: it is sent again by itself then). */
export type UploadState = { kind: 'sending' } | { kind: 'done'; id: string } | { kind: 'error'; words: string } | { kind: 'waiting' } | null;

/** The result of a resignation by `loser`. */
function resignation(loser: Color): ResultView {
  const winner = other(loser);
  return { result: winner === 'white' ? '1-0' : '0-1', winner, reason: 'resignation', words: `${winner} wins (resignation)` };
}

export class OfflineCtrl {
  /** The position shown (the game's current one), once the engine answered. */
  pos: PositionView | null = null;
  /** The computer is choosing its move. */
  thinking = false;
  message = '';
  upload: UploadState = null;
  board: Board | null = null;
  /** Set when the game has just ended: the game-over box is brought into view once. */
  endedNow = false;
  /** A promotion being chosen (the picker shows). */
  promotion: Promotion | null = null;

  private closed = false;

  constructor(readonly game: OfflineGame, private readonly engine: LocalEngine, readonly redraw: () => void) {}

  /** The player's side to move now. */
  private myTurn(): boolean {
    return !!this.pos && !this.game.result && this.pos.turn === this.game.color && !this.thinking;
  }

  /** The position after the last move. */
  fen(): string {
    const g = this.game;
    return g.moves.length ? g.moves[g.moves.length - 1].fen : g.startFen;
  }

  /** The game in the game page's shape, for the shared move list and result words. */
  view(): GameView {
    const g = this.game;
    const pos = this.pos;
    const seat = (c: Color) => (c === g.color ? { kind: 'human' as const } : { kind: 'engine' as const, level: g.level });
    return {
      id: g.id,
      variant: g.variant,
      title: '',
      you: g.color,
      white: seat('white'),
      black: seat('black'),
      status: g.result ? 'finished' : 'ongoing',
      fen: this.fen(),
      start_fen: g.startFen,
      turn: pos?.turn ?? 'white',
      ply: g.moves.length,
      moves: g.moves,
      legal: [],
      draw_offer: null,
      result: g.result,
      ice_age_in: pos?.ice_age_in ?? null,
      capture_compulsory: pos?.capture_compulsory ?? false,
    };
  }

  /** Makes the board in `el` (snabbdom's insert hook). */
  mountBoard(el: HTMLElement): void {
    this.board = new Board(el, this.game.variant, {
      move: m => void this.play(m),
      // A promotion: the mover picks the piece, as on the game page.
      choose: cands => this.choosePromotion(cands),
    });
    this.board.setOrientation(this.game.color);
    this.showBoard();
  }

  /** Shows the promotion picker for `cands`; its answer (null: cancelled) is the move. */
  choosePromotion(cands: LegalMove[]): Promise<LegalMove | null> {
    return new Promise(resolve => {
      this.promotion = {
        cands,
        color: this.game.color,
        resolve: m => {
          this.promotion = null;
          this.redraw();
          resolve(m);
        },
      };
      this.redraw();
    });
  }

  /** Reads the current position from the engine, then lets the side to move move. */
  async start(): Promise<void> {
    await this.refresh();
    void this.engineTurn();
  }

  private async refresh(): Promise<void> {
    try {
      this.pos = await this.engine.view({ variant: this.game.variant, fen: this.fen() });
    } catch (e) {
      this.message = e instanceof Error ? e.message : String(e);
    }
    if (this.closed) return;
    // A position that ended the game (a rule's end, or a game kept before its result was).
    if (this.pos?.result && !this.game.result) this.finish(this.pos.result);
    this.showBoard();
    this.redraw();
  }

  private showBoard(): void {
    const pos = this.pos;
    if (!this.board || !pos) return;
    const last: MoveView | undefined = this.game.moves[this.game.moves.length - 1];
    const marks = new Map<string, string[]>();
    if (last?.ice_age) for (const [sq, cls] of iceMarks(last.ice_age)) marks.set(sq, cls);
    this.board.show(pos.fen, {
      legal: this.myTurn() ? pos.legal : [],
      movable: this.game.result ? null : this.game.color,
      lastMove: last?.path,
      check: !!last && /[+#]$/.test(last.text),
      marks,
    });
  }

  /** Plays legal move `m` of the current position (the player's or the computer's). */
  private async add(m: LegalMove): Promise<void> {
    const pos = this.pos;
    const next = pos?.legal.find(l => l.id === m.id);
    if (!pos || !next) return;
    const ply = this.game.moves.length + 1;
    // Counted along the game (an Antarctos position text carries no move number).
    const prev = this.game.moves[ply - 2];
    const number = !prev ? pos.number : pos.turn === 'white' ? prev.number + 1 : prev.number;
    this.game.moves.push({ ply, number, color: pos.turn, text: next.text, id: next.id, path: next.path, fen: next.fen, event: next.event });
    if (!saveGame(this.game)) this.message = t('solo.not_kept');
    sound.play(/x/.test(next.text) ? 'capture' : 'move');
    await this.refresh();
  }

  private async play(m: LegalMove): Promise<void> {
    if (!this.myTurn()) return;
    await this.add(m);
    await this.engineTurn();
  }

  /** The computer's move, when it is its turn. */
  private async engineTurn(): Promise<void> {
    const pos = this.pos;
    if (this.closed || !pos || this.game.result || pos.turn === this.game.color || this.thinking) return;
    this.thinking = true;
    this.redraw();
    try {
      const job = this.engine.chooseMove({ variant: this.game.variant, fen: pos.fen }, this.game.level, this.game.seed + this.game.moves.length);
      const text = await job.result;
      if (this.closed) return;
      const mv = pos.legal.find(l => l.text === text);
      this.thinking = false;
      if (mv) await this.add(mv);
    } catch (e) {
      this.message = e instanceof Error ? e.message : String(e);
    } finally {
      this.thinking = false;
      if (!this.closed) {
        this.showBoard();
        this.redraw();
      }
    }
  }

  private finish(r: ResultView): void {
    this.game.result = r;
    this.endedNow = true;
    saveGame(this.game);
    sound.play('end');
  }

  /** Before the second move a game is aborted, not resigned, as on the site (docs/api.md:
   * the upload refuses a resignation of fewer than two moves). */
  get abortable(): boolean {
    return !this.game.result && this.game.moves.length < 2;
  }

  /** Ends the game without a result: it is removed from the browser's storage. */
  abort(): void {
    if (!this.abortable) return;
    this.closed = true;
    deleteGame(this.game.id);
    navigate('/offline', true);
  }

  resign(): void {
    if (this.game.result || this.abortable) return;
    this.finish(resignation(this.game.color));
    this.showBoard();
    this.redraw();
  }

  flip(): void {
    this.board?.flip();
  }

  /** Sends the finished game to the site as an unrated game. */
  async uploadGame(): Promise<void> {
    const g = this.game;
    if (!g.result) return;
    this.upload = { kind: 'sending' };
    this.redraw();
    const body: UploadBody = { variant: g.variant, moves: g.moves.map(m => m.text), level: g.level, color: g.color, result: g.result.result };
    try {
      const res = await fetch('/api/games/upload', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await res.json().catch(() => null)) as { id?: string; error?: { code?: string; message?: string } } | null;
      if (!res.ok || !answer?.id) {
        throw new ApiError(answer?.error?.code ?? 'http', answer?.error?.message ?? `${res.status} ${res.statusText}`, res.status);
      }
      g.uploaded = answer.id;
      saveGame(g);
      this.upload = { kind: 'done', id: answer.id };
    } catch (e) {
      if (e instanceof ApiError) {
        // errorWords says the server's message for a generic code; others get it in brackets.
        const words = errorWords(e);
        this.upload = { kind: 'error', words: words.toLowerCase().includes(e.message.trim().toLowerCase().replace(/\.$/, '')) ? words : `${words} (${e.status ? `${e.status}: ` : ''}${e.message})` };
      } else {
        // The server cannot be reached: sent again once it can (online.ts tries it meanwhile).
        this.upload = { kind: 'waiting' };
        noteServer(false);
        this.retryWhenOnline();
      }
    }
    if (!this.closed) this.redraw();
  }

  private stopWaiting: (() => void) | null = null;

  /** Uploads again as soon as the server is reachable (once). */
  private retryWhenOnline(): void {
    if (this.stopWaiting) return;
    const off = onConnectivity(() => {
      if (this.closed || isOffline()) return;
      this.stopWaiting = null;
      off();
      if (this.upload?.kind === 'waiting') void this.uploadGame();
    });
    this.stopWaiting = () => { off(); };
  }

  close(): void {
    this.closed = true;
    this.stopWaiting?.();
    this.stopWaiting = null;
    this.board?.destroy();
    this.board = null;
  }
}
