// The game page's state and actions: the newest GameView (an HTTP answer or a WebSocket
// `state`, applied only when newer than the one shown), the ply looked at, the moves sent and
// kept, premoves, offers and their answers, and what the page says. The server is the only
// judge of moves and of what a player may do: the board offers `legal`, the buttons follow
// `actions`. Every change ends in `redraw()`, which patches the view (view.ts).

import { offerPush } from '../../notify/push_offer';
import { ConditionalBox } from '../../game/conditional';
import { GoneBox } from '../../game/gone';
import { api, ApiError, type Answer, type Color, type GameView, type LegalMove } from '../../api';
import { boardsMoved, copyText } from '../../dom';
import type { ActionEvents } from '../../game/actions';
import { GameClocks } from '../../game/clock';
import { keyboardInput, type KeyboardInput } from '../../game/keyboard';
import { actionsOf, isNewer, lastIceAge, waitingForFriend } from '../../game/model';
import type { Promotion } from '../../game/promotion';
import { moveFaultWords } from '../../game/words';
import { colorName, errorWords, has, orList, t } from '../../i18n';
import { navigate } from '../../nav';
import { tournamentsApi } from '../../tournaments/api';
import { prefs, setFlipped, setPrefs } from '../../prefs';
import * as sound from '../../sound';
import { GameGround } from './ground';
import { GameSocket } from './socket';
import type { ChatBox } from '../../chat/box';
import { forgetMe } from '../../account';
import { GameChatLink } from './chat_link';
import { moveSound } from './sounds';
import { PremoveQueue, type Premove } from './premoves';

/** A second tap on "Take back" against the engine this soon after the first (ms) is the same
 * tap. */
const TAKEBACK_TAP_MS = 600;

/** A move whose request never reached the server, kept to be sent again at its ply. */
type Kept = { text: string; ply: number };

export class GameCtrl {
  game: GameView | null = null;
  /** The ply shown while looking back; null: the live position. */
  browsing: number | null = null;
  /** Showing the position just before the shown move's Ice Age. */
  beforeIceAge = false;
  /** A button's request is on its way: one at a time. */
  pending = false;
  /** The page's message (a failed request), in words. */
  message = '';
  /** The hint line (a premove queued or dropped, a compulsory capture). */
  hint: string | null = null;
  notice: { code: string; words: string } | null = null;
  /** The live connection: open, lost, or not yet tried. */
  live: boolean | null = null;
  /** The squares of a jump sequence being entered. */
  jump: string[] = [];
  /** A promotion being chosen: its moves and where the answer goes. */
  promotion: Promotion | null = null;
  /** The copy buttons' answer while it shows: the FEN button's words, the invitation's. */
  fenCopied: string | null = null;
  inviteCopied: boolean | null = null;
  /** The game just ended: its box is scrolled into view once drawn. */
  endedNow = false;
  kbd: KeyboardInput | null = null;
  readonly clocks: GameClocks;
  readonly ground: GameGround;
  readonly socket: GameSocket;

  private busy = false;
  private closed = false;
  private asking: string | null = null;
  /** Moves queued while the opponent is to move, played one per turn while each is legal. */
  private readonly queue = new PremoveQueue();
  /** A move made on the board that waits for the confirm button (the `confirm_move`
   * preference, correspondence games only), by its id. */
  pendingMove: string | null = null;
  private seenNotice = -1;
  private networkError = false;
  private hadRematch: string | null | undefined;
  private retryTimer: number | undefined;
  private ownPly = -1; // the ply whose sound was played when the move was made here
  private unsent: Kept | null = null;
  private lastTakeback = -Infinity;
  /** The log-in ended while the page was open (a 1008 close): it only shows the game now. */
  private loggedOut = false;
  /** The player's conditional line of a correspondence game (issue 38). */
  readonly cond: ConditionalBox;
  /** The countdown and claim of a gone opponent (issue 38). */
  readonly gone: GoneBox;
  /** The game's chat over its socket. */
  private readonly chatLink: GameChatLink;

  constructor(readonly id: string, readonly redraw: () => void) {
    this.cond = new ConditionalBox(id, redraw);
    this.gone = new GoneBox(id, redraw, g => this.update(g));
    this.clocks = new GameClocks(() => this.resync());
    this.ground = new GameGround(this);
    this.chatLink = new GameChatLink(id, frame => this.socket.send(frame));
    this.socket = new GameSocket(id, {
      state: g => this.update(g),
      error: err => {
        // A refused chat message: its reason goes beside the chat box, not the board's status.
        if (this.chatLink.refused(err)) return;
        this.showError(err);
        this.redraw();
      },
      chat: m => this.chatLink.received(m),
      chatRemoved: id => this.chat.remove(id),
      loginEnded: () => {
        // Not "reconnecting": the message says why the seat went. The page shows the game as
        // anyone sees it, with no controls that would answer with a wrong reason (browser
        // finding 6 of round 4), and follows it over a watcher's socket (the socket's
        // next state). The chat is read again then, as a guest's.
        this.live = null;
        this.loggedOut = true;
        this.message = t('game.login_ended');
        this.queue.clear();
        this.pendingMove = null;
        this.chatLink.end(new ApiError('login_ended', '', 0));
        void forgetMe().then(() => this.redraw());
        this.redraw();
      },
      live: on => {
        // Connected again: the history brings what was said meanwhile.
        if (on) this.loadChat();
        if (!on) this.chatLink.lost();
        this.live = on;
        if (on && this.networkError) this.clearError();
        if (!on) this.clocks.offline();
        this.redraw();
      },
    });
  }

  /** The game's chat box: the players' room for its players, the watchers' for all. */
  get chat(): ChatBox {
    return this.chatLink.box;
  }

  /** The premoves queued, oldest first. */
  get premoves(): Premove[] {
    return this.queue.list;
  }

  shownPly(): number {
    return this.browsing ?? this.game?.ply ?? 0;
  }

  /** The Ice Age whose account and marks show: the last one, at its ply or the reply's. */
  iceShown() {
    const g = this.game;
    if (!g) return null;
    const at = this.shownPly();
    const m = lastIceAge(g, at);
    return m && (at === m.ply || at === m.ply + 1) ? m : null;
  }

  canMoveNow(): boolean {
    const g = this.game;
    return !!g && !this.loggedOut && this.browsing === null && !this.beforeIceAge && g.status === 'ongoing' && actionsOf(g).has('move');
  }

  /** Whether the keyboard entry shows: for a player of a game under way. */
  playing(): boolean {
    const g = this.game;
    return !!g && !this.loggedOut && g.you !== null && g.status === 'ongoing' && !waitingForFriend(g);
  }

  private showError(err: unknown): void {
    // After the log-in ended, its words stay: nothing else may be said in their place.
    if (this.loggedOut) return;
    this.networkError = err instanceof ApiError && err.code === 'network';
    this.message = errorWords(err);
    // Unreachable: ask again every 2 s; the first answer clears the message (update()).
    if (this.networkError && this.retryTimer === undefined) {
      const again = () => {
        this.retryTimer = window.setTimeout(() => {
          api.game(this.id).then(
            g => {
              this.retryTimer = undefined;
              this.clearError();
              this.update(g);
            },
            () => { if (!this.closed) again(); },
          );
        }, 2000);
      };
      again();
    }
  }

  private clearError(): void {
    this.networkError = false;
    this.message = '';
  }

  private say(text: string | null): void {
    this.hint = text;
  }

  private resync(): void {
    api.game(this.id).then(g => this.update(g), () => undefined);
  }

  choosePromotion(cands: LegalMove[]): Promise<LegalMove | null> {
    return new Promise(resolve => {
      this.promotion = {
        cands,
        color: this.game?.turn ?? 'white',
        resolve: m => {
          this.promotion = null;
          this.redraw();
          resolve(m);
        },
      };
      this.redraw();
    });
  }

  setJump(squares: string[]): void {
    if (squares.join() === this.jump.join()) return;
    this.jump = squares;
    this.redraw();
  }

  /** A premove entered on the board: queued behind the others (at most `PREMOVE_MAX`); the
   * board shows the position they would make, so the next one is entered from there. */
  addPremove(p: Premove): void {
    this.say(this.queue.add(p));
    this.redraw();
  }

  /** Drops every queued premove (Esc, the cancel button). */
  cancelPremoves(): void {
    if (!this.queue.list.length) return;
    this.queue.clear();
    this.say(null);
    this.redraw();
  }

  /** A man that cannot move was picked: say why (A9: a capture is compulsory elsewhere). */
  explainSelection(square: string): void {
    const g = this.game;
    if (!g || !this.canMoveNow() || g.legal.some(m => m.path[0] === square)) return;
    if (g.capture_compulsory) {
      const from = [...new Set(g.legal.map(m => m.path[0]))];
      this.say(t('game.capture_compulsory', { squares: orList(from) }));
      this.redraw();
    }
  }

  /** Sends the kept move `kept` if it is still kept and the game still at its ply; while
   * another move is on its way, a little later. The server judges it again (typed text that
   * named no listed move is sent as it was typed). */
  private sendKept(kept: Kept): void {
    const g = this.game;
    if (this.unsent !== kept || !g || g.ply !== kept.ply || g.status !== 'ongoing') {
      if (this.unsent === kept) this.unsent = null;
      return;
    }
    if (this.busy) {
      window.setTimeout(() => this.sendKept(kept), 300);
      return;
    }
    this.unsent = null;
    void this.sendMove(kept.text);
  }

  /** A move made on the board: sent, or in a correspondence game with `confirm_move` set,
   * held for the confirm button (the board shows it made meanwhile). */
  boardMove(id: string): void {
    const g = this.game;
    if (g && prefs().confirm_move && g.clock?.kind === 'correspondence') {
      this.pendingMove = id;
      this.redraw();
      return;
    }
    void this.sendMove(id);
  }

  /** The confirm button: sends the held move. */
  confirmMove(): void {
    const id = this.pendingMove;
    this.pendingMove = null;
    if (id) void this.sendMove(id);
    this.redraw();
  }

  /** The cancel button (or Esc): drops the held move, and the board shows the position again. */
  cancelMove(): void {
    this.pendingMove = null;
    this.ground.sync(true);
    this.redraw();
  }

  /** Zen mode on or off (the `zen` preference; kept like the others). */
  toggleZen(): void {
    setPrefs({ zen: !prefs().zen }).then(() => this.redraw(), err => this.showError(err));
    this.redraw();
  }

  /** Sends move `text`; `true` when the server took it, otherwise the words of why not (for
   * the keyboard's box; a failure of a board move is shown as the page's message). */
  async sendMove(text: string): Promise<true | string> {
    const game = this.game;
    if (!game || this.busy) return t('game.kbd_busy');
    this.busy = true;
    // The move's sound at once, as on a real board; the state that confirms it stays quiet.
    const known = game.legal.find(m => m.id === text);
    if (known) {
      this.ownPly = game.ply + 1;
      sound.play(/[+#]$/.test(known.text) ? 'check' : known.text.includes('x') ? 'capture' : 'move');
    }
    this.clearError();
    this.say(null);
    try {
      this.update(await api.move(game.id, text, game));
      return true;
    } catch (err) {
      const g = this.game ?? game;
      this.ground.sync(true);
      this.redraw();
      // Typed text no legal move fits: why, in the page's language, beside the box.
      if (err instanceof ApiError && err.move && !g.legal.some(m => m.id === text)) {
        return moveFaultWords(g, err.move);
      }
      this.showError(err);
      if (err instanceof ApiError && err.code === 'network') {
        // Kept, and said so: a player who looked away would not know the move was lost.
        this.unsent = { text, ply: g.ply };
        this.message = t('game.move_unsent');
        this.socket.wentOffline();
        this.redraw();
        return t('game.move_unsent');
      }
      if (err instanceof ApiError && err.code === 'clocks_owed') {
        // Nothing was stored while the clocks get an outage back: kept, and sent again soon
        // (or by the next state, as a move made offline).
        const kept = { text, ply: g.ply };
        this.unsent = kept;
        window.setTimeout(() => this.sendKept(kept), 1500);
      }
      if (err instanceof ApiError && err.code === 'conflict') this.resync();
      this.redraw();
      return errorWords(err);
    } finally {
      this.busy = false;
    }
  }

  /** One request of the buttons at a time: a double click sends once, and the buttons stay
   * disabled until the answer (whose state redraws them). */
  private async act(f: () => Promise<GameView>): Promise<void> {
    if (this.pending) return;
    this.pending = true;
    this.asking = null;
    this.clearError();
    this.redraw();
    try {
      const v = await f();
      // A rematch answers with the new game: go there.
      if (v.id !== this.id) navigate(`/game/${v.id}`);
      else this.update(v);
    } catch (err) {
      this.showError(err);
      if (err instanceof ApiError && err.code === 'conflict') this.resync();
    } finally {
      this.pending = false;
      if (!this.closed) this.redraw();
    }
  }

  /** What the panel's buttons do, and their state. */
  actionEvents(): ActionEvents {
    const id = this.id;
    return {
      resign: () => void this.act(() => api.resign(id)),
      abort: () => void this.act(() => api.abort(id)),
      draw: (a: Answer) => void this.act(() => api.draw(id, a)),
      takeback: (a: Answer) => {
        const g = this.game;
        if (!g) return;
        // Against the engine a double tap is one takeback: the second tap, landing on the
        // position the first one brought back, would take back another turn. (On one screen a
        // tap takes back one ply, and quick taps are meant; offers and answers stand once.)
        const againstEngine = g.white.kind === 'engine' || g.black.kind === 'engine';
        const now = performance.now();
        if (againstEngine && a === 'offer') {
          if (now - this.lastTakeback < TAKEBACK_TAP_MS) return;
          this.lastTakeback = now;
        }
        const ply = g.ply;
        void this.act(() => api.takeback(id, a, ply));
      },
      rematch: (a: Answer) => void this.act(() => api.rematch(id, a)),
      asking: this.asking,
      ask: which => {
        this.asking = which;
        this.redraw();
      },
      pending: this.pending,
    };
  }

  async copyFen(): Promise<void> {
    const g = this.game;
    if (!g) return;
    const ok = await copyText(g.fen);
    this.fenCopied = ok ? t('game.copied') : g.fen;
    this.redraw();
    setTimeout(() => {
      this.fenCopied = null;
      this.redraw();
    }, 1500);
  }

  copiedInvite(ok: boolean): void {
    this.inviteCopied = ok;
    this.redraw();
  }

  browse(ply: number): void {
    const g = this.game;
    if (!g) return;
    const p = Math.max(0, Math.min(g.ply, ply));
    this.browsing = p === g.ply ? null : p;
    this.beforeIceAge = false;
    this.redraw();
  }

  /** Shows the position before (`true`) or after the Ice Age whose account shows. */
  showBeforeIceAge(show: boolean): void {
    const g = this.game;
    const m = this.iceShown();
    if (!g || !m) return;
    if (show) this.browsing = m.ply === g.ply ? null : m.ply;
    this.beforeIceAge = show;
    this.redraw();
  }

  flip(): void {
    const board = this.ground.board;
    const g = this.game;
    if (!board || !g) return;
    board.flip();
    const mine: Color = g.you === 'black' ? 'black' : 'white';
    setFlipped(g.id, board.getOrientation() !== mine);
    this.ground.sync(true);
    this.redraw();
  }

  toggleSound(): void {
    sound.setEnabled(!sound.enabled());
    this.redraw();
  }

  /** Esc: drops a half-entered move and the queued premoves. */
  cancelEntry(): void {
    if (this.pendingMove) this.cancelMove();
    this.ground.board?.reset();
    this.cancelPremoves();
  }

  /** The keyboard entry, made once the player first needs it and kept (its typed text). */
  keyboard(): KeyboardInput | null {
    const g = this.game;
    if (!this.kbd && g && this.playing()) {
      this.kbd = keyboardInput(g.variant, {
        live: () => { if (this.browsing !== null || this.beforeIceAge) this.browse(this.game?.ply ?? 0); },
        canMove: () => this.canMoveNow(),
        legal: () => this.game?.legal ?? [],
        send: text => this.sendMove(text),
      });
    }
    return this.kbd;
  }

  private showNotice(g: GameView, first: boolean): void {
    const n = g.notice;
    if (!n || n.version <= this.seenNotice) return;
    this.seenNotice = n.version;
    // An offer shows as its own box; an abort as the status ("Game aborted"), once.
    if (first || n.code.endsWith('_offered') || n.code === 'aborted') return;
    const by = n.by ?? null;
    const engine = by !== null && g[by].kind === 'engine';
    const key = `notice.${n.code}`;
    const words = n.code === 'draw_declined' && engine ? t('notice.draw_declined_engine')
      : has(key) ? t(key, { color: by ? colorName(by) : '' }) : null;
    if (words) this.notice = { code: n.code, words };
  }

  /** On the player's turn, plays the first queued premove if `g` offers it as legal; one
   * that is not drops the queue, and the page says so ([`PremoveQueue::next`]). */
  private playPremove(g: GameView): void {
    // The game is over (aborted, resigned, flagged): the queue, its words ("At most 5
    // premoves", "Premove c1–d2 ...") and its cancel button go with it.
    if (g.status !== 'ongoing') {
      if (this.queue.list.length || this.hint) {
        this.queue.clear();
        this.say(null);
        this.redraw();
      }
      return;
    }
    // Still the opponent's turn (an offer, a draw answer): the queue waits.
    if (!this.queue.list.length || !this.canMoveNow()) return;
    const step = this.queue.next(g);
    if (!step) return;
    this.say(step.words);
    if (step.send) void this.sendMove(step.send);
    else this.redraw();
  }

  update(g: GameView): void {
    if (this.closed) return;
    const u = this.unsent;
    if (u && g.id === this.id) {
      // The server answers again: the kept move goes if the game is still where it was. (A
      // move whose answer alone was lost is already in `g`: its ply moved on.)
      if (g.ply === u.ply && g.status === 'ongoing') window.setTimeout(() => this.sendKept(u), 0);
      else this.unsent = null;
    }
    const prev = this.game;
    // After the log-in ended, the watcher's socket sends the same version without the seat.
    const seatGone = this.loggedOut && !!prev && g.id === prev.id && prev.you !== null && g.you === null;
    if (!seatGone && !isNewer(g, prev)) {
      // The same state again (the first message of a reconnected socket): its clock times
      // were taken when it was sent, so the clocks go live from them.
      if (prev && g.id === prev.id && g.version !== undefined && g.version === prev.version) this.clocks.set(g);
      return;
    }
    // A held move belongs to the position it was made on.
    if (this.pendingMove && prev && g.ply !== prev.ply) this.pendingMove = null;
    this.game = g;
    this.cond.refresh(g);
    this.gone.refresh(g);
    // A correspondence game's player may want its turns on this device (issue 38).
    // Not on a game that is over (browser finding 4 of round 5).
    if (!prev && g.clock?.kind === 'correspondence' && g.status === 'ongoing' && (g.you === 'white' || g.you === 'black')) void offerPush();
    if (this.networkError) this.clearError();
    if (this.browsing !== null && this.browsing > g.ply) this.browsing = null;
    if (prev && g.ply !== prev.ply) this.beforeIceAge = false;
    if (prev) moveSound(prev, g, this.ownPly);
    // A notice belongs to the moment it was made: it goes with the next move or the game's
    // end (as on lichess), not on a timer.
    if (prev && (g.ply !== prev.ply || g.status !== prev.status)) {
      this.notice = null;
      this.kbd?.moved();
    }
    if (prev && g.status !== prev.status) this.asking = null;
    this.showNotice(g, !prev);
    // A rematch both sides agreed to opens for both players.
    if (prev && this.hadRematch === null && g.rematch && g.you !== null) {
      navigate(`/game/${g.rematch}`);
      return;
    }
    this.hadRematch = g.rematch ?? null;
    // The game just ended (a resignation, a flag, the last move): its result and the rematch
    // must not stay above a scrolled phone screen.
    this.endedNow = prev?.status === 'ongoing' && g.status !== 'ongoing';
    // Its players now read the watchers' room.
    if (this.endedNow && g.you !== null) this.loadChat();
    // The push offer is for a game in progress (browser finding 4 of round 6).
    const offer = this.endedNow ? document.getElementById('push-offer') : null;
    if (offer) {
      offer.remove();
      boardsMoved();
    }
    if (this.endedNow && g.tournament && (g.you === 'white' || g.you === 'black')) this.followTournament(g.tournament);
    this.clocks.set(g);
    this.redraw();
    this.playPremove(g);
  }

  /** Loads the game, then listens for its changes. */
  start(notFound: () => void, failed: (err: unknown) => void): void {
    api.game(this.id).then(
      g => {
        if (this.closed) return;
        this.update(g);
        this.socket.connect();
      },
      err => {
        if (this.closed) return;
        if (err instanceof ApiError && err.status === 404) notFound();
        else failed(err);
      },
    );
  }

  /** After a tournament game ends, its player goes to their next game of the event once it
   * is paired (as lichess's arena does: the next game's clock is already running), asking
   * every 2 s for a minute. */
  private followTournament(id: string): void {
    let tries = 0;
    const look = () => {
      if (this.closed) return;
      tournamentsApi.get(id).then(v => {
        const next = v.me?.game;
        if (this.closed || v.status !== 'started') return;
        if (next && next !== this.id) { navigate(`/game/${next}`); return; }
        if (++tries < 30) window.setTimeout(look, 2000);
      }, () => undefined);
    };
    window.setTimeout(look, 1000);
  }

  /** Reads the game's chat history again ([`GameChatLink::load`]). */
  loadChat(): void {
    this.chatLink.load();
  }

  close(): void {
    this.closed = true;
    this.gone.stop();
    this.clocks.stop();
    this.socket.close();
    window.clearTimeout(this.retryTimer);
    this.ground.destroy();
  }
}
