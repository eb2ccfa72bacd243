// The game page's live connection: the WebSocket that pushes every new state of the game
// (docs/api.md), kept open through lost networks, sleeping tabs and restarted servers.

import { api, ApiError, type GameView, type MoveView } from '../../api';
import type { ChatMessage } from '../../chat/box';
import { recordRoundTrip } from '../../net_lag';

/** How often the socket times a round trip, ms. */
const PING_MS = 5000;

/** The close code of a socket dropped because the network went (docs/api.md, WebSocket): the
 * server counts it as a lost connection, not a closed tab, so the opponent waits longer before
 * claiming the game. */
export const OFFLINE_CLOSE = 4001;

/** The start of the reason of the 1008 close of a socket whose log-in ended (docs/api.md,
 * WebSocket): the page stops reconnecting and says so. */
const LOGIN_ENDED = 'log-in ended';

export interface SocketEvents {
  /** A new state, its move list whole again. */
  state: (g: GameView) => void;
  error: (err: ApiError) => void;
  /** The connection is open (`true`) or lost (`false`; it is tried again soon). */
  live: (on: boolean) => void;
  /** A chat message of the game's rooms (issue 41). */
  chat: (m: ChatMessage) => void;
  /** A chat message a moderator removed: its id. */
  chatRemoved: (id: string) => void;
  /** The server closed the socket because this browser's log-in ended: the socket opens
   * again as a watcher's. */
  loginEnded: () => void;
}

export class GameSocket {
  private ws: WebSocket | null = null;
  private retry = 0;
  private reconnectTimer: number | undefined;
  private closed = false;
  private pinger: number | undefined;
  private pingSent = 0;
  /** The last state's version and its moves: the states carry only the moves after the first
   * `moves_from` (docs/api.md, moves=changes), so a state costs the same at any ply. */
  private held: { version: number; moves: MoveView[] } | null = null;

  constructor(private readonly id: string, private readonly ev: SocketEvents) {
    window.addEventListener('online', this.reconnectNow);
    window.addEventListener('offline', this.wentOffline);
    document.addEventListener('visibilitychange', this.reconnectNow);
  }

  connect(): void {
    if (this.closed) return;
    this.reconnectTimer = undefined;
    // A socket that comes back asks for what it missed since the last state it had: the
    // server replays each state in order (the moves one by one, with their sounds) or, past
    // what it keeps, sends the state whole.
    const socket = new WebSocket(api.wsUrl(this.id, this.held?.version));
    this.ws = socket;
    socket.onopen = () => {
      this.retry = 0;
      this.ev.live(true);
      const ping = () => {
        if (socket.readyState !== WebSocket.OPEN) return;
        this.pingSent = performance.now();
        socket.send('{"type":"ping"}');
      };
      window.clearInterval(this.pinger);
      ping();
      this.pinger = window.setInterval(ping, PING_MS);
    };
    socket.onmessage = e => {
      let msg: { type?: string; game?: GameView; moves_from?: number; message?: ChatMessage; error?: { code?: string; message?: string } };
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return;
      }
      if (msg.type === 'pong') {
        if (this.pingSent) recordRoundTrip(performance.now() - this.pingSent);
        this.pingSent = 0;
        return;
      }
      if (msg.type === 'chat' && msg.message) {
        this.ev.chat(msg.message);
        return;
      }
      if (msg.type === 'chat_removed' && msg.message) {
        this.ev.chatRemoved(msg.message.id);
        return;
      }
      if (msg.type === 'state' && msg.game) {
        const from = msg.moves_from;
        let moves: MoveView[];
        if (typeof from === 'number') {
          // The server counts what it sent on this socket (or, replaying, what it had sent
          // by `since`); a gap means the two disagree: the next socket starts afresh.
          const held = this.held?.moves;
          if (held === undefined || held.length < from) {
            this.held = null;
            socket.close();
            return;
          }
          moves = held.slice(0, from).concat(msg.game.moves);
        } else {
          moves = msg.game.moves;
        }
        this.held = typeof msg.game.version === 'number' ? { version: msg.game.version, moves } : null;
        this.ev.state({ ...msg.game, moves });
      }
      else if (msg.type === 'error' && msg.error) this.ev.error(new ApiError(msg.error.code ?? 'other', msg.error.message ?? '', 0));
    };
    socket.onclose = (e: CloseEvent) => {
      if (this.closed || this.ws !== socket) return;
      if (e.code === 1008 && e.reason.startsWith(LOGIN_ENDED)) {
        // The seat was the log-in's. The page goes on as a watcher: the next socket has no
        // log-in, so the server sends the game as anyone sees it (browser finding 3 of
        // round 5: a closed socket left a frozen position under "You are watching").
        this.ws = null;
        window.clearInterval(this.pinger);
        this.ev.loginEnded();
        this.retry = 0;
        this.reconnectTimer = window.setTimeout(() => this.connect(), 250);
        return;
      }
      this.lost();
    };
  }

  /** The live connection is gone: says so and tries again soon. */
  private lost(): void {
    this.ws = null;
    window.clearInterval(this.pinger);
    this.ev.live(false);
    // Soon and steadily: 1 s, 2 s, then every 4 s, each with a random quarter either way
    // so that the sockets of a restarted server do not all come back at once. (A longer
    // wait costs a real-time player clock time while the server is back.)
    this.retry = Math.min(this.retry + 1, 3);
    const wait = Math.min(4000, 500 * 2 ** this.retry) * (0.75 + Math.random() / 2);
    this.reconnectTimer = window.setTimeout(() => this.connect(), wait);
  }

  /** The network is gone (the browser says so, or a move could not be sent): an open socket
   * may not notice for minutes, and the page went on saying "live". Drops it and says so now. */
  readonly wentOffline = (): void => {
    const socket = this.ws;
    if (this.closed || socket === null) return;
    this.lost();
    socket.close(OFFLINE_CLOSE, 'offline');
  };

  /** Reconnects at once when the browser says it is back online or the tab is shown again. */
  private readonly reconnectNow = (): void => {
    if (this.closed || this.ws !== null || document.visibilityState === 'hidden') return;
    window.clearTimeout(this.reconnectTimer);
    this.connect();
  };

  /** Sends `msg` on the open socket; false when none is open. */
  send(msg: unknown): boolean {
    const socket = this.ws;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(msg));
    return true;
  }

  close(): void {
    this.closed = true;
    window.clearInterval(this.pinger);
    this.ws?.close();
    window.clearTimeout(this.reconnectTimer);
    window.removeEventListener('online', this.reconnectNow);
    window.removeEventListener('offline', this.wentOffline);
    document.removeEventListener('visibilitychange', this.reconnectNow);
  }
}
