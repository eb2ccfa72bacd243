// The game page: board, players, whose turn, move list, result in words, and the actions
// (flip, resign, draw offers, rematch, copy position, download record, invitation link).
// The server is the only judge of moves: the board offers `legal`, and every change arrives
// as a GameView (HTTP answer or WebSocket `state` message).

import { api, ApiError, errorText, type Color, type GameView, type LegalMove, type MoveView, type Seat } from '../api';
import { Board } from '../board';
import { copyText, h, mount } from '../dom';
import { resultWords, t } from '../i18n';
import { navigate } from '../nav';

/** `/join/<invite>`: takes the open seat, then shows the game. */
export function joinPage(root: HTMLElement, invite: string): void {
  mount(root, h('section.card', h('p', '…')));
  api.join(invite).then(
    game => navigate(`/game/${game.id}`, true),
    err => mount(root, h('section.card', h('p.error',
      err instanceof ApiError && err.status === 404 ? t('game.invite_not_found') : errorText(err)))),
  );
}

const other = (c: Color): Color => (c === 'white' ? 'black' : 'white');

function seatName(seat: Seat): string {
  if (seat.kind === 'engine') return t('game.engine_level', { level: seat.level ?? '?' });
  if (seat.kind === 'open') return t('game.open_seat');
  return t('game.human');
}

export function gamePage(root: HTMLElement, id: string): () => void {
  let game: GameView | null = null;
  let browsing: number | null = null; // ply shown while looking back, null = the live position
  let busy = false;
  let closed = false;
  let ws: WebSocket | null = null;
  let retry = 0;
  let flipped = false;

  const boardEl = h('div.cg-wrap');
  const boardBox = h('div.board-box', boardEl);
  const topPlayer = h('div.player.top');
  const bottomPlayer = h('div.player.bottom');
  const status = h('div.status#status', { 'aria-live': 'polite' });
  const eventBanner = h('div.event-banner', { hidden: true });
  const jumpBox = h('div.jump', { hidden: true });
  const moveList = h('div.moves#moves');
  const browseBar = h('div.browse');
  const actions = h('div.actions.game-actions');
  const invite = h('div.invite', { hidden: true });
  const message = h('p.error#message', { role: 'alert' });
  const live = h('span.live');

  let board: Board | null = null;

  const choosePromotion = (cands: LegalMove[]): Promise<LegalMove | null> =>
    new Promise(resolve => {
      const names: Record<string, string> = { q: '♛', r: '♜', b: '♝', n: '♞', k: '♚' };
      const dialog = h('div.promotion', h('span', t('game.promote')),
        ...cands.map(m => h('button', {
          type: 'button', title: m.text, 'data-move': m.id,
          onclick: () => { dialog.remove(); resolve(m); },
        }, names[m.id.slice(4)] ?? m.text)),
        h('button', { type: 'button', onclick: () => { dialog.remove(); resolve(null); } }, '✕'),
      );
      boardBox.append(dialog);
    });

  const sendMove = async (m: LegalMove) => {
    if (!game || busy) return;
    busy = true;
    message.textContent = '';
    const ply = game.ply;
    try {
      update(await api.move(game.id, m.id, ply));
    } catch (err) {
      message.textContent = errorText(err);
      if (game) drawBoard(game, true);
    } finally {
      busy = false;
    }
  };

  const act = async (f: () => Promise<GameView>) => {
    message.textContent = '';
    try {
      update(await f());
    } catch (err) {
      message.textContent = errorText(err);
    }
  };

  const myColors = (g: GameView): Color[] => (g.you === 'both' ? ['white', 'black'] : g.you ? [g.you] : []);

  let shownKey = '';

  function drawBoard(g: GameView, force = false): void {
    if (!board) {
      board = new Board(boardEl, g.variant, {
        move: m => void sendMove(m),
        choose: choosePromotion,
        partial: squares => {
          jumpBox.hidden = squares.length < 2;
          mount(jumpBox,
            h('span', t('game.jump_progress', { path: squares.join('x') })),
            h('button#cancel-jump', { type: 'button', onclick: () => board?.reset() }, t('game.cancel_jump')));
        },
      });
      board.setOrientation(g.you === 'black' ? 'black' : 'white');
      if (flipped) board.flip();
    }
    const shown: MoveView | undefined = browsing !== null ? g.moves[browsing - 1] : g.moves[g.moves.length - 1];
    const fen = browsing !== null ? (browsing === 0 ? g.start_fen : shown?.fen ?? g.fen) : g.fen;
    const mine = myColors(g);
    const canMove = browsing === null && g.status === 'ongoing' && mine.includes(g.turn);
    // Redraw only when what the board shows changed, so that a state message that changes
    // nothing on the board (a draw offer, a repeated broadcast) keeps a half-entered sequence.
    const key = JSON.stringify([fen, canMove ? g.legal.map(m => m.id) : [], browsing, g.you, g.ply]);
    if (key === shownKey && !force) return;
    shownKey = key;
    board.show(fen, {
      legal: canMove ? g.legal : [],
      movable: canMove ? (g.you === 'both' ? 'both' : g.turn) : null,
      lastMove: browsing === 0 ? undefined : shown?.path,
      check: !!shown && /[+#]$/.test(shown.text),
    });
    const event = browsing === 0 ? null : shown?.event;
    boardBox.classList.toggle('ice-age', !!event);
    eventBanner.hidden = !event;
    eventBanner.textContent = event ? `❄ ${event}` : '';
  }

  function drawMoves(g: GameView): void {
    if (!g.moves.length) {
      mount(moveList, h('p.muted', t('game.no_moves')));
      return;
    }
    const rows: HTMLElement[] = [];
    let row: HTMLElement | null = null;
    let rowNumber = -1;
    const cell = (m: MoveView) =>
      h('button.move', {
        type: 'button',
        class: (browsing ?? g.ply) === m.ply ? 'current' : undefined,
        'data-ply': m.ply,
        onclick: () => browse(m.ply),
      }, m.text);
    for (const m of g.moves) {
      if (!row || m.number !== rowNumber || m.color === 'white') {
        rowNumber = m.number;
        row = h('div.move-row', h('span.num', `${m.number}.`));
        rows.push(row);
        if (m.color === 'black') row.append(h('span.move.empty', '…'));
      }
      row.append(cell(m));
      if (m.event) {
        rows.push(h('div.move-event', { 'data-ply': m.ply }, `❄ ${m.event}`));
        row = null;
      }
    }
    if (g.result) rows.push(h('div.move-result', g.result.result));
    mount(moveList, ...rows);
    const at = browsing ?? g.ply;
    mount(browseBar,
      h('button', { type: 'button', title: 'Start position', disabled: at === 0, onclick: () => browse(0) }, '«'),
      h('button', { type: 'button', title: 'Previous move', disabled: at === 0, onclick: () => browse(at - 1) }, '◀'),
      h('button', { type: 'button', title: 'Next move', disabled: at >= g.ply, onclick: () => browse(at + 1) }, '▶'),
      h('button', { type: 'button', title: 'Current position', disabled: at >= g.ply, onclick: () => browse(g.ply) }, '»'),
    );
    const current = moveList.querySelector<HTMLElement>('.current');
    if (current) scrollWithin(moveList, current);
  }

  function statusText(g: GameView): string {
    if (g.result) return resultWords(g.result);
    const mine = myColors(g);
    const seat = g[g.turn];
    if (g.engine_thinking || seat.kind === 'engine') return t('turn.engine');
    if (g.you === null) return `${t(g.turn === 'white' ? 'turn.white' : 'turn.black')} · ${t('game.watching')}`;
    if (g.you === 'both') return t(g.turn === 'white' ? 'turn.white' : 'turn.black');
    return mine.includes(g.turn) ? t('turn.you') : t('turn.waiting');
  }

  function drawPlayers(g: GameView): void {
    const bottom: Color = board?.getOrientation() ?? 'white';
    const line = (c: Color) => h('span', h('span.dot', { class: c }), ' ', t(c === 'white' ? 'color.white' : 'color.black'), ': ', seatName(g[c]),
      g.you === c ? h('em', ` (${t('game.you')})`) : null,
      g.status === 'ongoing' && g.turn === c ? h('span.turn-mark', ' ◀') : null);
    mount(topPlayer, line(other(bottom)));
    mount(bottomPlayer, line(bottom));
  }

  function drawActions(g: GameView): void {
    const buttons: HTMLElement[] = [
      h('button#flip', { type: 'button', onclick: () => { flipped = !flipped; board?.flip(); drawPlayers(g); } }, t('game.flip')),
    ];
    const player = g.you !== null;
    if (player && g.status === 'ongoing') {
      buttons.push(h('button#resign', { type: 'button', onclick: () => { if (confirm(t('game.resign_confirm'))) void act(() => api.resign(g.id)); } }, t('game.resign')));
      if (g.variant === 'iceage') {
        const mine = myColors(g);
        if (g.draw_offer === null) {
          buttons.push(h('button#offer-draw', { type: 'button', onclick: () => void act(() => api.draw(g.id, 'offer')) }, t('game.offer_draw')));
        } else if (g.you === 'both' || !mine.includes(g.draw_offer)) {
          buttons.push(
            h('span.draw-note', t('game.draw_offered_by', { color: t(g.draw_offer === 'white' ? 'color.white' : 'color.black') })),
            h('button#accept-draw', { type: 'button', onclick: () => void act(() => api.draw(g.id, 'accept')) }, t('game.accept_draw')),
            h('button#decline-draw', { type: 'button', onclick: () => void act(() => api.draw(g.id, 'decline')) }, t('game.decline_draw')),
          );
        } else {
          buttons.push(h('span.draw-note', t('game.draw_sent')));
        }
      }
    }
    if (g.rematch) {
      buttons.push(h('a.button#to-rematch', { href: `/game/${g.rematch}` }, t('game.to_rematch')));
    } else if (player && g.status === 'finished') {
      buttons.push(h('button.primary#rematch', {
        type: 'button',
        onclick: async () => {
          try {
            const next = await api.rematch(g.id);
            navigate(`/game/${next.id}`);
          } catch (err) {
            message.textContent = errorText(err);
          }
        },
      }, t('game.rematch')));
    }
    const copyBtn = h('button#copy-fen', {
      type: 'button',
      onclick: async () => {
        const ok = await copyText(g.fen);
        copyBtn.textContent = ok ? t('game.copied') : g.fen;
        setTimeout(() => { copyBtn.textContent = t('game.copy_fen'); }, 1500);
      },
    }, t('game.copy_fen'));
    buttons.push(copyBtn);
    buttons.push(h('a.button#download', { href: api.recordUrl(g.id), download: `icebound-${g.id}.${g.variant === 'antarctos' ? 'pdn' : 'pgn'}` },
      t(g.variant === 'antarctos' ? 'game.download_pdn' : 'game.download_pgn')));
    mount(actions, ...buttons);

    invite.hidden = !g.invite_url;
    if (g.invite_url) {
      const url = `${location.origin}${g.invite_url}`;
      const input = h('input#invite-url', { type: 'text', readonly: true, value: url }) as HTMLInputElement;
      const btn = h('button', { type: 'button', onclick: async () => { btn.textContent = (await copyText(url)) ? t('game.copied') : t('game.copy'); } }, t('game.copy'));
      mount(invite, h('p', t('game.invite')), h('div.copy-row', input, btn));
    }
  }

  function render(): void {
    if (!game) return;
    const g = game;
    drawBoard(g);
    drawPlayers(g);
    drawMoves(g);
    status.textContent = statusText(g);
    status.className = `status ${g.result ? 'over' : ''}`;
    status.dataset.status = g.status;
    drawActions(g);
    document.title = `${g.title} · icebound`;
  }

  function update(g: GameView): void {
    if (game && g.id !== game.id) return;
    if (game && g.ply < game.ply && g.status === game.status) return; // a late, older state
    game = g;
    if (browsing !== null && browsing > g.ply) browsing = null;
    render();
  }

  function connect(): void {
    if (closed) return;
    const socket = new WebSocket(api.wsUrl(id));
    ws = socket;
    socket.onopen = () => {
      retry = 0;
      live.textContent = `● ${t('game.live')}`;
      live.className = 'live on';
    };
    socket.onmessage = e => {
      let msg: { type?: string; game?: GameView; error?: { message?: string } };
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return;
      }
      if (msg.type === 'state' && msg.game) update(msg.game);
      else if (msg.type === 'error' && msg.error?.message) message.textContent = msg.error.message;
    };
    socket.onclose = () => {
      if (closed) return;
      live.textContent = `○ ${t('game.offline')}`;
      live.className = 'live off';
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 500 * 2 ** retry);
    };
  }

  function browse(ply: number): void {
    if (!game) return;
    const p = Math.max(0, Math.min(game.ply, ply));
    browsing = p === game.ply ? null : p;
    render();
  }

  const keys = (e: KeyboardEvent) => {
    if ((e.target as HTMLElement)?.tagName === 'INPUT') return;
    if (e.key === 'Escape') board?.reset();
    else if (e.key === 'ArrowLeft' && game) browse((browsing ?? game.ply) - 1);
    else if (e.key === 'ArrowRight' && game) browse((browsing ?? game.ply) + 1);
  };
  document.addEventListener('keydown', keys);

  mount(root,
    h('section.game',
      h('div.board-col', topPlayer, boardBox, bottomPlayer),
      h('aside.panel',
        h('div.panel-head', h('h1#game-title', '…'), live),
        status, eventBanner, jumpBox,
        h('h2', t('game.moves')),
        moveList,
        browseBar,
        actions,
        invite,
        message,
      ),
    ),
  );

  api.game(id).then(
    g => {
      (root.querySelector('#game-title') as HTMLElement).textContent = g.title;
      update(g);
      connect();
    },
    err => mount(root, h('section.card', h('p.error', err instanceof ApiError && err.status === 404 ? t('game.not_found') : String(err instanceof Error ? err.message : err)))),
  );

  return () => {
    closed = true;
    ws?.close();
    document.removeEventListener('keydown', keys);
    board?.destroy();
  };
}

/** Scrolls `box` (the move list) so that `el` shows, moving nothing else: `scrollIntoView`
 * would also scroll the window, which on a phone (list below the board) pulled the board
 * off the screen at every move. */
function scrollWithin(box: HTMLElement, el: HTMLElement): void {
  const b = box.getBoundingClientRect();
  const e = el.getBoundingClientRect();
  if (e.top < b.top) box.scrollTop -= b.top - e.top;
  else if (e.bottom > b.bottom) box.scrollTop += e.bottom - b.bottom;
}
