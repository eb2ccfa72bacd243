// The game page's board: made once, when the page first shows it, and kept; after each redraw
// it is told the position and moves to offer, and redrawn only when those changed, so that a
// state that changes nothing on the board (a draw offer, a repeated broadcast) keeps a
// half-entered jump sequence.

import type { Color, MoveView } from '../../api';
import { Board } from '../../board';
import { iceBoardMarks } from '../../game/iceage';
import { myColors, other, waitingForFriend } from '../../game/model';
import { isFlipped } from '../../prefs';
import type { GameCtrl } from './ctrl';

export class GameGround {
  board: Board | null = null;
  private shownKey = '';

  constructor(private readonly ctrl: GameCtrl) {}

  /** Makes the board in `el` (snabbdom's insert hook). */
  mount(el: HTMLElement): void {
    const ctrl = this.ctrl;
    const g = ctrl.game;
    if (!g) return;
    this.board = new Board(el, g.variant, {
      move: m => ctrl.boardMove(m.id),
      choose: cands => ctrl.choosePromotion(cands),
      partial: squares => ctrl.setJump(squares),
      premove: p => ctrl.addPremove(p),
      select: square => ctrl.explainSelection(square),
    });
    const mine: Color = g.you === 'black' ? 'black' : 'white';
    this.board.setOrientation(isFlipped(g.id) ? other(mine) : mine);
    this.shownKey = '';
  }

  /** Drops the board (snabbdom's destroy hook, or the page closing). */
  destroy(): void {
    this.board?.destroy();
    this.board = null;
  }

  orientation(): Color {
    return this.board?.getOrientation() ?? 'white';
  }

  /** Shows the position the page is at; `force` redraws it even if nothing changed (a move the
   * server refused goes back). */
  sync(force = false): void {
    const ctrl = this.ctrl;
    const g = ctrl.game;
    const board = this.board;
    if (!g || !board) return;
    const at = ctrl.shownPly();
    const shown: MoveView | undefined = at > 0 ? g.moves[at - 1] : undefined;
    const iceMove = ctrl.iceShown();
    const before = ctrl.beforeIceAge && !!shown?.ice_age;
    const fen = before && shown?.ice_age ? shown.ice_age.before_fen : at === 0 ? g.start_fen : ctrl.browsing === null ? g.fen : shown?.fen ?? g.fen;
    const mine = myColors(g);
    const canMove = ctrl.canMoveNow();
    const single = g.you === 'white' || g.you === 'black' ? g.you : null;
    // The marks of the last Ice Age stay on the board through the reply to it; an Antarctos
    // turn's captured men are marked on the position after it.
    const marks = iceBoardMarks(iceMove?.ice_age, iceMove && at === iceMove.ply + 1 ? shown?.path : []);
    if (shown?.captured && !before) for (const sq of shown.captured) marks.set(sq, [...(marks.get(sq) ?? []), 'captured']);
    const movable = ctrl.browsing === null && !before && g.status === 'ongoing' && mine.length && !waitingForFriend(g) ? (g.you === 'both' ? 'both' : single) : null;
    const premoves = ctrl.browsing === null && g.status === 'ongoing' && !!single && !waitingForFriend(g);
    // The queued premoves show on the live position (not while looking back).
    const queued = premoves ? ctrl.premoves : [];
    const key = JSON.stringify([fen, canMove ? g.legal.map(m => m.id) : [], movable, premoves, queued, at, before, g.ply, g.status, [...marks]]);
    if (key === this.shownKey && !force) return;
    this.shownKey = key;
    board.show(fen, {
      legal: canMove ? g.legal : [],
      movable,
      premove: premoves,
      queued,
      lastMove: before || at === 0 ? undefined : shown?.path,
      check: !before && !!shown && /[+#]$/.test(shown.text),
      marks,
    });
  }
}
