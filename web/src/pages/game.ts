// The game page: board, players, whose turn, the move list, the result in words, the Ice Age's
// account, offers and their answers, and the tools (flip, sound, copy, download, keyboard entry).
// The server is the only judge of moves and of what a player may do: the board offers `legal`,
// the buttons follow `actions`, and every change arrives as a GameView (an HTTP answer or a
// WebSocket `state`), applied only when it is newer than the one shown.

import { api, ApiError, type Answer, type Color, type GameView, type LegalMove, type MoveView } from '../api';
import { Board } from '../board';
import { copyText, h, mount } from '../dom';
import { ratingBadge } from '../game/ratings';
import { colorName, dateTime, errorWords, has, orList, resultHeadline, resultReason, t, type Key } from '../i18n';
import { navigate } from '../nav';
import { isFlipped, setFlipped } from '../prefs';
import * as sound from '../sound';
import { setTitle } from '../title';
import { deadEndPage } from './notfound';
import { afterButtons, offers, playButtons } from '../game/actions';
import { countdownText, drawIcePanel, iceMarks } from '../game/iceage';
import { GameClocks, controlLabel } from '../game/clock';
import { keyboardInput, type KeyboardInput } from '../game/keyboard';
import { actionsOf, isNewer, lastIceAge, myColors, other, waitingForFriend } from '../game/model';
import { drawMoveList } from '../game/movelist';
import { waitingRoom } from '../game/waiting';
import { moveFaultWords, moveLabel, seatName, speakerIcon } from '../game/words';

/** A second tap on "Take back" against the engine this soon after the first (ms) is the same
 * tap. */
const TAKEBACK_TAP_MS = 600;

/** `/join/<invite>`: takes the open seat, then shows the game. A used or cancelled invitation
 * says what happened and offers the game to watch; an unknown one is a page of its own. */
export function joinPage(root: HTMLElement, invite: string): void {
  setTitle(t('page.loading'));
  mount(root, h('section.card', h('p', t('page.loading'))));
  api.join(invite).then(
    game => navigate(`/game/${game.id}`, true),
    async err => {
      if (!(err instanceof ApiError)) return mount(root, h('section.card', h('p.error', errorWords(err))));
      if (err.status === 404) return deadEndPage(root, 'invitenf.title', t('game.invite_not_found'));
      const watch = (key: Key) => err.game ? [h('a.button.primary#watch-link', { href: `/game/${err.game}` }, t(key))] : [];
      if (err.code === 'own_invite' && err.game) {
        return deadEndPage(root, 'invite.own_title', t('invite.own'),
          [h('a.button.primary#back-link', { href: `/game/${err.game}` }, t('invite.back'))]);
      }
      if (err.code === 'invite_cancelled') return deadEndPage(root, 'invite.cancelled_title', t('invite.cancelled'), watch('invite.see'));
      if (err.code === 'invite_used') {
        // Under way or over: the game says which.
        const over = err.game ? await api.game(err.game).then(g => g.status !== 'ongoing', () => false) : false;
        return deadEndPage(root, 'invite.used_title', t(over ? 'invite.used_over' : 'invite.used_live'), watch(over ? 'invite.see' : 'invite.watch'));
      }
      mount(root, h('section.card', h('p.error', errorWords(err))));
    },
  );
}

const gameName = (g: GameView) => t(g.variant === 'antarctos' ? 'game.antarctos' : 'game.iceage');

export function gamePage(root: HTMLElement, id: string): () => void {
  let game: GameView | null = null;
  let browsing: number | null = null; // ply shown while looking back, null = the live position
  let beforeIceAge = false; // showing the position just before the shown move's Ice Age
  let busy = false;
  let closed = false;
  let ws: WebSocket | null = null;
  let retry = 0;
  let premove: { from: string; to: string } | null = null;
  let premoveSaid = ''; // the hint that announced the queued premove
  let seenNotice = -1;
  let networkError = false;
  let hadRematch: string | null | undefined;

  const boardEl = h('div.cg-wrap');
  const boardBox = h('div.board-box', boardEl);
  const topPlayer = h('div.player.top');
  const bottomPlayer = h('div.player.bottom');
  const status = h('div.status#status', { 'aria-live': 'polite' });
  const notice = h('div.notice#notice', { role: 'status', hidden: true });
  const hint = h('div.hint#hint', { role: 'status', hidden: true });
  const countdown = h('div.countdown#ice-countdown', { hidden: true, title: t('ice.countdown_title') });
  const icePanel = h('div.ice-panel#ice-panel', { hidden: true });
  const jumpBox = h('div.jump', { hidden: true });
  const waitBox = h('div.wait-box');
  const offerBox = h('div.offers');
  const overBox = h('div.game-over#game-over', { hidden: true });
  const moveList = h('div.moves#moves');
  const browseBar = h('div.browse');
  const actions = h('div.actions.game-actions');
  const tools = h('div.actions.tools');
  const message = h('p.error#message', { role: 'alert' });
  const live = h('span.live');
  const title = h('h1#game-title', '…');
  const soundBtn = h('button.icon#sound', { type: 'button', title: t('game.sound_toggle'), 'aria-label': t('game.sound_toggle') });
  const kbdBox = h('div.kbd-box');

  let board: Board | null = null;
  let kbd: KeyboardInput | null = null;
  const clocks = new GameClocks(() => resync());
  const controlLine = h('p.control#time-control', { hidden: true });

  let retryTimer: number | undefined;
  let reconnectTimer: number | undefined;
  let panelStatus: string | null = null; // the status the panel last showed
  const showError = (err: unknown) => {
    networkError = err instanceof ApiError && err.code === 'network';
    message.textContent = errorWords(err);
    // Unreachable: ask again every 2 s; the first answer clears the message (update()).
    if (networkError && retryTimer === undefined) {
      const again = () => {
        retryTimer = window.setTimeout(() => {
          api.game(id).then(
            g => {
              retryTimer = undefined;
              clearError();
              update(g);
            },
            () => { if (!closed) again(); },
          );
        }, 2000);
      };
      again();
    }
  };
  const clearError = () => {
    networkError = false;
    message.textContent = '';
  };
  const say = (text: string | null) => {
    hint.hidden = !text;
    hint.textContent = text ?? '';
  };

  const choosePromotion = (cands: LegalMove[]): Promise<LegalMove | null> =>
    new Promise(resolve => {
      const color: Color = game?.turn ?? 'white';
      const dialog = h('div.promotion', { role: 'dialog', 'aria-label': t('game.promote') }, h('span', t('game.promote')),
        ...cands.map(m => {
          const role = m.id.slice(4) || 'q';
          return h('button', {
            type: 'button', title: m.text, 'aria-label': m.text, 'data-move': m.id,
            onclick: () => { dialog.remove(); resolve(m); },
          }, h('span.piece-icon', { class: `${role}-piece ${color}` }));
        }),
        h('button', { type: 'button', 'aria-label': t('game.promote_cancel'), title: t('game.promote_cancel'), onclick: () => { dialog.remove(); resolve(null); } }, '✕'),
      );
      boardBox.append(dialog);
    });

  const resync = () => {
    api.game(id).then(update, () => undefined);
  };

  let ownPly = -1; // the ply whose sound was played when the move was made here
  /** Sends move `text`; `true` when the server took it, otherwise the words of why not (for
   * the keyboard's box; a failure of a board move is shown as the page's message). */
  /** A move whose request never reached the server (the network was gone): sent again by the
   * first state after the connection is back, if the game is still where it was played. */
  let unsent: { text: string; ply: number } | null = null;
  /** Sends the kept move `kept` if it is still kept and the game still at its ply; while
   * another move is on its way, a little later. The server judges it again (typed text that
   * named no listed move is sent as it was typed). */
  const sendKept = (kept: { text: string; ply: number }): void => {
    if (unsent !== kept || !game || game.ply !== kept.ply || game.status !== 'ongoing') {
      if (unsent === kept) unsent = null;
      return;
    }
    if (busy) {
      window.setTimeout(() => sendKept(kept), 300);
      return;
    }
    unsent = null;
    void sendMove(kept.text);
  };
  const sendMove = async (text: string): Promise<true | string> => {
    if (!game || busy) return t('game.kbd_busy');
    busy = true;
    // The move's sound at once, as on a real board; the state that confirms it stays quiet.
    const known = game.legal.find(m => m.id === text);
    if (known) {
      ownPly = game.ply + 1;
      sound.play(/[+#]$/.test(known.text) ? 'check' : known.text.includes('x') ? 'capture' : 'move');
    }
    clearError();
    say(null);
    try {
      update(await api.move(game.id, text, game));
      return true;
    } catch (err) {
      if (game) drawBoard(game, true);
      // Typed text no legal move fits: why, in the page's language, beside the box.
      if (err instanceof ApiError && err.move && !game.legal.some(m => m.id === text)) {
        return moveFaultWords(game, err.move);
      }
      showError(err);
      if (err instanceof ApiError && err.code === 'network') {
        // Kept, and said so: a player who looked away would not know the move was lost.
        unsent = { text, ply: game.ply };
        message.textContent = t('game.move_unsent');
        wentOffline();
        return t('game.move_unsent');
      }
      if (err instanceof ApiError && err.code === 'clocks_owed') {
        // Nothing was stored while the clocks get an outage back: kept, and sent again soon
        // (or by the next state, as a move made offline).
        const kept = { text, ply: game.ply };
        unsent = kept;
        window.setTimeout(() => sendKept(kept), 1500);
      }
      if (err instanceof ApiError && err.code === 'conflict') resync();
      return errorWords(err);
    } finally {
      busy = false;
    }
  };

  // One request of the buttons at a time: a double click sends once, and the buttons stay
  // disabled until the answer (whose state redraws them).
  let pending = false;
  const disableButtons = () => {
    for (const box of [actions, offerBox, overBox, waitBox]) {
      for (const b of box.querySelectorAll<HTMLButtonElement>('button')) b.disabled = true;
    }
  };
  const act = async (f: () => Promise<GameView>) => {
    if (pending) return;
    pending = true;
    disableButtons();
    clearError();
    try {
      const v = await f();
      // A rematch answers with the new game: go there.
      if (v.id !== id) navigate(`/game/${v.id}`);
      else update(v);
    } catch (err) {
      showError(err);
      if (err instanceof ApiError && err.code === 'conflict') resync();
    } finally {
      pending = false;
      if (game && !closed) drawPanel(game);
    }
  };

  let lastTakeback = -Infinity;
  const actionEvents = {
    resign: () => void act(() => api.resign(id)),
    abort: () => void act(() => api.abort(id)),
    draw: (a: Answer) => void act(() => api.draw(id, a)),
    takeback: (a: Answer) => {
      if (!game) return;
      // Against the engine a double tap is one takeback: the second tap, landing on the
      // position the first one brought back, would take back another turn. (On one screen a
      // tap takes back one ply, and quick taps are meant; offers and answers stand once.)
      const againstEngine = game.white.kind === 'engine' || game.black.kind === 'engine';
      const now = performance.now();
      if (againstEngine && a === 'offer') {
        if (now - lastTakeback < TAKEBACK_TAP_MS) return;
        lastTakeback = now;
      }
      const ply = game.ply;
      void act(() => api.takeback(id, a, ply));
    },
    rematch: (a: Answer) => void act(() => api.rematch(id, a)),
  };

  let shownKey = '';
  const shownPly = (g: GameView) => browsing ?? g.ply;

  function canMoveNow(g: GameView): boolean {
    return browsing === null && !beforeIceAge && g.status === 'ongoing' && actionsOf(g).has('move');
  }

  function drawBoard(g: GameView, force = false): void {
    if (!board) {
      board = new Board(boardEl, g.variant, {
        move: m => void sendMove(m.id),
        choose: choosePromotion,
        partial: squares => {
          jumpBox.hidden = squares.length < 2;
          mount(jumpBox,
            h('span', t('game.jump_progress', { path: squares.join('x') })),
            h('button#cancel-jump', { type: 'button', onclick: () => board?.reset() }, t('game.cancel_jump')));
        },
        premove: p => {
          premove = p;
          // chessground reports a cancelled premove a moment later (a timer): by then the
          // hint may say something newer (the premove was dropped), which stays.
          if (p) {
            premoveSaid = t('game.premove_set', p);
            say(premoveSaid);
          } else if (hint.textContent === premoveSaid) say(null);
        },
        select: square => explainSelection(square),
      });
      const mine = g.you === 'black' ? 'black' : 'white';
      board.setOrientation(isFlipped(g.id) ? other(mine) : mine);
      boardEl.setAttribute('role', 'region');
    }
    boardEl.setAttribute('aria-label', t('game.board_label', { game: gameName(g), color: colorName(board.getOrientation()) }));
    const at = shownPly(g);
    const shown: MoveView | undefined = at > 0 ? g.moves[at - 1] : undefined;
    const iceMove = lastIceAge(g, at);
    const before = beforeIceAge && !!shown?.ice_age;
    const fen = before && shown?.ice_age ? shown.ice_age.before_fen : at === 0 ? g.start_fen : browsing === null ? g.fen : shown?.fen ?? g.fen;
    const mine = myColors(g);
    const canMove = canMoveNow(g);
    const single = g.you === 'white' || g.you === 'black' ? g.you : null;
    // The marks of the last Ice Age stay on the board through the reply to it; an Antarctos
    // turn's captured men are marked on the position after it.
    const marks = new Map<string, string[]>();
    if (iceMove?.ice_age && (at === iceMove.ply || at === iceMove.ply + 1)) {
      const reply = at === iceMove.ply + 1 ? shown?.path ?? [] : [];
      for (const [sq, cls] of iceMarks(iceMove.ice_age)) if (!reply.includes(sq)) marks.set(sq, cls);
    }
    if (shown?.captured && !before) for (const sq of shown.captured) marks.set(sq, [...(marks.get(sq) ?? []), 'captured']);
    const movable = browsing === null && !before && g.status === 'ongoing' && mine.length && !waitingForFriend(g) ? (g.you === 'both' ? 'both' : single) : null;
    const premoves = browsing === null && g.status === 'ongoing' && !!single && !waitingForFriend(g);
    // Redraw only when what the board shows changed, so that a state message that changes
    // nothing on the board (a draw offer, a repeated broadcast) keeps a half-entered sequence.
    const key = JSON.stringify([fen, canMove ? g.legal.map(m => m.id) : [], movable, premoves, at, before, g.ply, g.status, [...marks]]);
    if (key === shownKey && !force) return;
    shownKey = key;
    board.show(fen, {
      legal: canMove ? g.legal : [],
      movable,
      premove: premoves,
      lastMove: before || at === 0 ? undefined : shown?.path,
      check: !before && !!shown && /[+#]$/.test(shown.text),
      marks,
    });
    boardBox.classList.toggle('ice-age', !!iceMove && (at === iceMove.ply || at === iceMove.ply + 1));
  }

  /** A man that cannot move was picked: say why (A9: a capture is compulsory elsewhere). */
  function explainSelection(square: string): void {
    const g = game;
    if (!g || !canMoveNow(g) || g.legal.some(m => m.path[0] === square)) return;
    if (g.capture_compulsory) {
      const from = [...new Set(g.legal.map(m => m.path[0]))];
      say(t('game.capture_compulsory', { squares: orList(from) }));
    }
  }

  function statusLines(g: GameView): (string | HTMLElement)[] {
    if (browsing !== null) {
      return [
        h('span.viewing', browsing === 0 || !g.moves[browsing - 1]
          ? t('game.viewing_start') : t('game.viewing', { move: moveLabel(g.moves[browsing - 1]) })),
        h('button#back-to-game', { type: 'button', onclick: () => browse(g.ply) }, t('game.back_to_game')),
      ];
    }
    if (g.status === 'aborted') return [h('strong', t('result.aborted'))];
    if (g.result) return [h('strong', resultHeadline(g.result, myColors(g)))];
    if (waitingForFriend(g)) return [t(g.you === null ? 'status.watching_waiting' : 'status.waiting_friend')];
    const mine = myColors(g);
    const seat = g[g.turn];
    if (g.engine_thinking || seat.kind === 'engine') return [t('turn.engine')];
    if (g.you === null) return [`${t(g.turn === 'white' ? 'turn.white' : 'turn.black')} · ${t('game.watching')}`];
    if (g.you === 'both') return [t(g.turn === 'white' ? 'turn.white' : 'turn.black')];
    return [mine.includes(g.turn) ? t('turn.you') : t('turn.waiting')];
  }

  function drawPlayers(g: GameView): void {
    const bottom: Color = board?.getOrientation() ?? 'white';
    const line = (c: Color) => h('span.seat', { 'data-color': c },
      h('span.dot', { class: c }), ' ', colorName(c), ': ',
      g.you === c || (g.you === 'both' && g[c].kind === 'human') ? h('strong', seatName(g, c)) : seatName(g, c),
      g.status === 'ongoing' && g.turn === c && !waitingForFriend(g) ? h('span.turn-mark', { 'aria-hidden': 'true' }, ' ◀') : null,
      ratingBadge(g, c),
      clocks.faces[c]);
    mount(topPlayer, line(other(bottom)));
    mount(bottomPlayer, line(bottom));
  }

  function drawPanel(g: GameView): void {
    const can = actionsOf(g);
    const waiting = waitingForFriend(g);
    mount(waitBox, waiting && g.invite_url ? waitingRoom(g, { cancel: actionEvents.abort }) : null);
    mount(offerBox, ...offers(g, can, actionEvents));
    mount(actions, ...(g.status === 'ongoing' && !waiting ? playButtons(g, can, actionEvents) : []));
    const endsNow = panelStatus === 'ongoing' && g.status !== 'ongoing';
    panelStatus = g.status;
    overBox.hidden = g.status === 'ongoing';
    if (g.status !== 'ongoing') {
      mount(overBox,
        h('p.over-reason', g.result ? resultReason(g.result) : t('result.aborted_words')),
        h('div.actions', ...afterButtons(g, can, actionEvents)));
    }
    // The game just ended (a resignation from the buttons below, a flag, the last move): its
    // result and the rematch must not stay above a scrolled phone screen.
    if (endsNow) {
      const box = overBox.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) overBox.scrollIntoView({ block: 'nearest' });
    }
    if (pending) disableButtons();
    const copyBtn = h('button#copy-fen', {
      type: 'button',
      onclick: async () => {
        const ok = await copyText(g.fen);
        copyBtn.textContent = ok ? t('game.copied') : g.fen;
        setTimeout(() => { copyBtn.textContent = t('game.copy_fen'); }, 1500);
      },
    }, t('game.copy_fen'));
    mount(tools,
      h('button#flip', { type: 'button', onclick: flip }, t('game.flip')),
      copyBtn,
      h('a.button#download', { href: api.recordUrl(g.id), download: `icebound-${g.id}.${g.variant === 'antarctos' ? 'pdn' : 'pgn'}` },
        t(g.variant === 'antarctos' ? 'game.download_pdn' : 'game.download_pgn')),
      h('a.button#rules-link', { href: `/rules/${g.variant}` }, t('game.rules_link', { game: gameName(g) })));
    const cd = countdownText(g);
    countdown.hidden = !cd || browsing !== null;
    countdown.textContent = cd ? `❄ ${cd}` : '';
    const at = shownPly(g);
    const iceMove = lastIceAge(g, at);
    const showIce = !!iceMove && (at === iceMove.ply || at === iceMove.ply + 1);
    icePanel.hidden = !showIce;
    if (showIce && iceMove) {
      drawIcePanel(icePanel, g, iceMove, beforeIceAge && at === iceMove.ply, {
        before: show => {
          if (show) browsing = iceMove.ply === g.ply ? null : iceMove.ply;
          beforeIceAge = show;
          render();
        },
      });
    }
    const player = g.you !== null && g.status === 'ongoing' && !waiting;
    kbdBox.hidden = !player;
    if (player && !kbd) {
      kbd = keyboardInput(g.variant, {
        live: () => { if (browsing !== null || beforeIceAge) browse(game?.ply ?? 0); },
        canMove: () => !!game && canMoveNow(game),
        legal: () => game?.legal ?? [],
        send: text => sendMove(text),
      });
      mount(kbdBox, kbd.element);
    }
  }

  function render(): void {
    if (!game) return;
    const g = game;
    drawBoard(g);
    drawPlayers(g);
    drawMoveList(moveList, browseBar, g, shownPly(g), { go: browse });
    mount(status, ...statusLines(g));
    status.className = `status ${g.status !== 'ongoing' && browsing === null ? 'over' : ''} ${browsing !== null ? 'browsing' : ''}`;
    status.dataset.status = g.status;
    if (browsing !== null) status.dataset.browsing = String(browsing);
    else delete status.dataset.browsing;
    drawPanel(g);
    title.textContent = gameName(g);
    controlLine.hidden = !g.clock && !g.rated;
    // A phone has no hover: the correspondence deadline is written out, not only a tooltip.
    const due = g.status === 'ongoing' && g.clock?.kind === 'correspondence' && g.clock.deadline_ms !== null
      ? ` · ${t('clock.deadline', { when: dateTime(g.clock.deadline_ms) })}` : '';
    controlLine.textContent = `${controlLabel(g.clock)} · ${t(g.rated ? 'clock.rated' : 'clock.casual')}${due}`;
    document.body.dataset.theme = g.variant;
    const mine = myColors(g);
    const prefix = g.status !== 'ongoing'
      ? (g.result ? resultHeadline(g.result, mine) : t('result.aborted'))
      : waitingForFriend(g) ? t(g.you === null ? 'game.watching' : 'title.waiting')
        : g.you !== 'both' && mine.includes(g.turn) ? t('title.your_move')
          : t(g.turn === 'white' ? 'turn.white' : 'turn.black');
    setTitle(`${prefix} · ${gameName(g)}`);
  }

  /** The sound of what changed from `prev` to `g`: the game's end, an Ice Age, a check, a
   * capture or a move. */
  function soundOf(prev: GameView, g: GameView): void {
    if (g.status !== 'ongoing' && prev.status === 'ongoing') return sound.play('end');
    if (g.ply <= prev.ply) return;
    const last = g.moves[g.moves.length - 1];
    if (!last) return;
    if (last.ice_age || last.event) sound.play('iceage');
    else if (last.ply === ownPly) return;
    else if (/[+#]$/.test(last.text)) sound.play('check');
    else if (last.text.includes('x') || (last.captured?.length ?? 0) > 0) sound.play('capture');
    else sound.play('move');
  }

  function showNotice(g: GameView, first: boolean): void {
    const n = g.notice;
    if (!n || n.version <= seenNotice) return;
    seenNotice = n.version;
    // An offer shows as its own box; an abort as the status ("Game aborted"), once.
    if (first || n.code.endsWith('_offered') || n.code === 'aborted') return;
    const by = n.by ?? null;
    const engine = by !== null && g[by].kind === 'engine';
    const key = `notice.${n.code}`;
    const words = n.code === 'draw_declined' && engine ? t('notice.draw_declined_engine')
      : has(key) ? t(key, { color: by ? colorName(by) : '' }) : null;
    if (!words) return;
    notice.hidden = false;
    notice.textContent = words;
    notice.dataset.code = n.code;
  }

  /** A notice belongs to the moment it was made: it goes with the next move or the game's end
   * (as on lichess), not on a timer. */
  function clearNotice(): void {
    notice.hidden = true;
    notice.textContent = '';
    delete notice.dataset.code;
  }

  /** Plays the premove `p` (taken before the board was redrawn, which drops it from the
   * board) if the new state offers it as legal; drops it and says so otherwise. */
  function playPremove(g: GameView, p: { from: string; to: string } | null): void {
    if (!p) return;
    if (!canMoveNow(g)) {
      // Still the opponent's turn (an offer, a draw answer): the premove stays queued.
      if (g.status === 'ongoing' && !premove) premove = p;
      return;
    }
    premove = null;
    board?.cancelPremove();
    const cands = g.legal.filter(m => m.path[0] === p.from && m.path[m.path.length - 1] === p.to);
    const pick = cands.length === 1 ? cands[0] : cands.find(m => m.id.endsWith('q')) ?? null;
    if (pick) {
      say(null);
      void sendMove(pick.id);
    } else {
      say(t('game.premove_dropped', p));
    }
  }

  function update(g: GameView): void {
    if (unsent && g.id === id) {
      // The server answers again: the kept move goes if the game is still where it was.
      // (A move whose answer alone was lost is already in `g`: its ply moved on.)
      // Kept until then; `sendKept` drops it if `g` moved on. (Typed text that named no
      // listed move is sent as typed: the server judges it.)
      const u = unsent;
      if (g.ply === u.ply && g.status === 'ongoing') {
        window.setTimeout(() => sendKept(u), 0);
      } else {
        unsent = null;
      }
    }
    if (!isNewer(g, game)) {
      // The same state again (the first message of a reconnected socket): its clock times
      // were taken when it was sent, so the clocks go live from them.
      if (game && g.id === game.id && g.version !== undefined && g.version === game.version) clocks.set(g);
      return;
    }
    const prev = game;
    game = g;
    if (networkError) clearError();
    if (browsing !== null && browsing > g.ply) browsing = null;
    if (prev && g.ply !== prev.ply) beforeIceAge = false;
    if (prev) soundOf(prev, g);
    if (prev && (g.ply !== prev.ply || g.status !== prev.status)) {
      clearNotice();
      kbd?.moved();
    }
    showNotice(g, !prev);
    // A rematch both sides agreed to opens for both players.
    if (prev && hadRematch === null && g.rematch && g.you !== null) {
      navigate(`/game/${g.rematch}`);
      return;
    }
    hadRematch = g.rematch ?? null;
    const queued = premove;
    clocks.set(g);
    render();
    playPremove(g, queued);
  }

  function connect(): void {
    if (closed) return;
    reconnectTimer = undefined;
    const socket = new WebSocket(api.wsUrl(id));
    ws = socket;
    // The moves this socket has sent: its states carry only the ones after the first
    // `moves_from` (docs/api.md, moves=changes), so a state costs the same at any ply.
    let held: MoveView[] | null = null;
    socket.onopen = () => {
      retry = 0;
      live.textContent = `● ${t('game.live')}`;
      live.className = 'live on';
      if (networkError) clearError();
    };
    socket.onmessage = e => {
      let msg: { type?: string; game?: GameView; moves_from?: number; error?: { code?: string; message?: string } };
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return;
      }
      if (msg.type === 'state' && msg.game) {
        const from = msg.moves_from;
        if (typeof from === 'number') {
          // The server counts what it sent on this socket; a gap means the two disagree:
          // a new socket starts with the whole list.
          if (held === null || held.length < from) {
            socket.close();
            return;
          }
          held = held.slice(0, from).concat(msg.game.moves);
        } else {
          held = msg.game.moves;
        }
        update({ ...msg.game, moves: held });
      }
      else if (msg.type === 'error' && msg.error) showError(new ApiError(msg.error.code ?? 'other', msg.error.message ?? '', 0));
    };
    socket.onclose = () => {
      if (closed || ws !== socket) return;
      lost();
    };
  }

  /** The live connection is gone: says so, marks the clocks and tries again soon. */
  function lost(): void {
    ws = null;
    live.textContent = `○ ${t('game.offline')}`;
    live.className = 'live off';
    clocks.offline();
    // Soon and steadily: 1 s, 2 s, then every 4 s, each with a random quarter either way
    // so that the sockets of a restarted server do not all come back at once. (A longer
    // wait costs a real-time player clock time while the server is back.)
    retry = Math.min(retry + 1, 3);
    const wait = Math.min(4000, 500 * 2 ** retry) * (0.75 + Math.random() / 2);
    reconnectTimer = window.setTimeout(connect, wait);
  }

  /** The browser says the network is gone (a phone out of coverage): an open socket may not
   * notice for minutes, and the page went on saying "live". Drops it and says so now. */
  function wentOffline(): void {
    const socket = ws;
    if (closed || socket === null) return;
    lost();
    socket.close();
  }

  /** Reconnects at once when the browser says it is back online or the tab is shown again. */
  function reconnectNow(): void {
    if (closed || ws !== null || document.visibilityState === 'hidden') return;
    window.clearTimeout(reconnectTimer);
    connect();
  }
  window.addEventListener('online', reconnectNow);
  window.addEventListener('offline', wentOffline);
  document.addEventListener('visibilitychange', reconnectNow);

  function browse(ply: number): void {
    if (!game) return;
    const p = Math.max(0, Math.min(game.ply, ply));
    browsing = p === game.ply ? null : p;
    beforeIceAge = false;
    render();
  }

  function flip(): void {
    if (!board || !game) return;
    board.flip();
    const mine: Color = game.you === 'black' ? 'black' : 'white';
    setFlipped(game.id, board.getOrientation() !== mine);
    drawPlayers(game);
    drawBoard(game, true);
  }

  function drawSound(): void {
    const on = sound.enabled();
    mount(soundBtn, speakerIcon(on));
    soundBtn.setAttribute('aria-pressed', on ? 'true' : 'false');
    soundBtn.title = on ? t('game.sound_on') : t('game.sound_off');
  }
  soundBtn.addEventListener('click', () => {
    sound.setEnabled(!sound.enabled());
    drawSound();
  });
  drawSound();

  const keys = (e: KeyboardEvent) => {
    const tag = (e.target as HTMLElement)?.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || !game) return;
    const at = browsing ?? game.ply;
    if (e.key === 'Escape') {
      board?.reset();
      board?.cancelPremove();
    } else if (e.key === 'ArrowLeft') browse(at - 1);
    else if (e.key === 'ArrowRight') browse(at + 1);
    else if (e.key === 'Home') browse(0);
    else if (e.key === 'End') browse(game.ply);
    else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', keys);

  mount(root,
    h('section.game',
      h('div.board-col', topPlayer, boardBox, bottomPlayer, kbdBox),
      h('aside.panel',
        h('div.panel-head', title, h('span.head-tools', live, soundBtn)),
        controlLine,
        // Offers and the end before the Ice Age's account: on a phone they must not fall below the fold.
        // The page's message (a move that could not be sent) beside the status: at the end of
        // the panel it fell below a phone's screen.
        status, message, clocks.firstMove, notice, hint, jumpBox, waitBox, offerBox, overBox, countdown, icePanel,
        h('h2', t('game.moves')),
        moveList,
        browseBar,
        actions,
        tools,
      ),
    ),
  );
  setTitle(t('page.loading'));

  api.game(id).then(
    g => {
      update(g);
      connect();
    },
    err => err instanceof ApiError && err.status === 404
      ? deadEndPage(root, 'gamenf.title', t('gamenf.text'))
      : mount(root, h('section.card', h('p.error', errorWords(err)))),
  );

  return () => {
    closed = true;
    clocks.stop();
    ws?.close();
    window.clearTimeout(retryTimer);
    window.clearTimeout(reconnectTimer);
    window.removeEventListener('online', reconnectNow);
    window.removeEventListener('offline', wentOffline);
    document.removeEventListener('visibilitychange', reconnectNow);
    document.removeEventListener('keydown', keys);
    delete document.body.dataset.theme;
    board?.destroy();
  };
}
