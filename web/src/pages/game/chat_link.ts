// The game page's chat over its socket (issue 41): a message goes out as a `chat` frame and
// is settled by the server's echo of it, or refused by an error frame that arrives while it
// waits (shown beside the chat box, the text kept), or by the socket's loss.

import { ApiError } from '../../api';
import { ChatBox, chatApi, type ChatMessage } from '../../chat/box';
import { currentUser } from '../../account';

/** How long a message waits for its echo before it is taken as sent (an old server), ms. */
const ECHO_WAIT_MS = 10_000;

type Pending = { room: string; done: () => void; fail: (err: unknown) => void };

export class GameChatLink {
  /** The game's chat: the players' room for its players, the watchers' for all. */
  readonly box: ChatBox;
  private pending: Pending | null = null;
  /** Why nothing can be sent any more (the log-in ended): every sending fails with it. */
  private ended: unknown = null;

  /** `send` puts a frame on the game's socket (false: not connected). */
  constructor(private readonly id: string, send: (frame: object) => boolean) {
    this.box = new ChatBox({
      me: currentUser,
      send: (room, content) => new Promise<void>((done, fail) => {
        this.pending?.done();
        if (this.ended) {
          fail(this.ended);
          return;
        }
        if (!send({ type: 'chat', room, ...content })) {
          fail(new ApiError('network', '', 0));
          return;
        }
        const pending: Pending = { room, done: () => settle(done), fail: (err: unknown) => settle(() => fail(err)) };
        const timer = window.setTimeout(() => pending.done(), ECHO_WAIT_MS);
        const settle = (f: () => void) => {
          window.clearTimeout(timer);
          if (this.pending === pending) this.pending = null;
          f();
        };
        this.pending = pending;
      }),
      // Muting or unmuting reloads the history: the server hides the muted player's lines.
      mute: on => chatApi.mute(this.id, on).then(r => { this.load(); return r.mute; }),
    }, []);
  }

  /** An error frame of the socket: true when it refused the message waiting for its echo
   * (the chat box shows it), false when it is the board's. */
  refused(err: unknown): boolean {
    if (!this.pending) return false;
    this.pending.fail(err);
    return true;
  }

  /** A message of the game's rooms arrived: shown, and the waiting one settled by its echo. */
  received(m: ChatMessage): void {
    const p = this.pending;
    if (p && m.room === p.room && (m.author ?? null) === (currentUser() ?? null)) p.done();
    this.box.add(m);
  }

  /** The socket is lost: the waiting message failed. */
  lost(): void {
    this.pending?.fail(new ApiError('network', '', 0));
  }

  /** Nothing can be sent any more, for `why` (an error the chat box words). */
  end(why: unknown): void {
    this.ended = why;
    this.pending?.fail(why);
  }

  /** Reads the game's chat history: the rooms the reader has, their messages, chat off. A
   * player of a game in progress has no watchers' room (the server hides it until the end:
   * no watcher feeds a player moves); the end reloads it. */
  load(): void {
    chatApi.game(this.id).then(c => {
      const players = c.players ? ['players'] : [];
      this.box.setRooms(c.watchers_hidden ? players : [...players, 'watchers']);
      if (c.players) this.box.load('players', c.players);
      this.box.load('watchers', c.watchers);
      this.box.setOff(c.chat_off);
      this.box.setMuted(c.opponent_muted);
    }, () => undefined);
  }
}
