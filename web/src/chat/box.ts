// Chat (issue 41, docs/api.md "Chat"): one box for a game's rooms (players, watchers), a
// tournament's room and the lobby's. Every message is drawn as text nodes, never as HTML: a
// link or markup in a message shows as the characters sent. Canned phrases come as codes and
// are worded in the reader's language. The chat-off setting (an account's, for all games)
// hides the messages and the input.

import { call } from '../api';
import { h, mount } from '../dom';
import { errorWords, t, type Key } from '../i18n';
import { loginHref } from '../account';

export type Phrase = 'good_luck' | 'have_fun' | 'well_played' | 'thanks' | 'good_game';
export const PHRASES: Phrase[] = ['good_luck', 'have_fun', 'well_played', 'thanks', 'good_game'];
/** Most characters of a message (the server refuses more). */
export const MAX_CHAT = 140;

export interface ChatMessage {
  id: string;
  room: string;
  author: string | null;
  text?: string;
  phrase?: Phrase;
  at: number;
}

export type ChatContent = { text: string } | { phrase: Phrase };

export interface ChatOptions {
  /** Sends a message to `room`; rejects with the server's error. */
  send: (room: string, content: ChatContent) => Promise<void>;
  /** The reader's account name (`null` anonymous, `undefined` unknown yet). */
  me: () => string | null | undefined;
  /** A game's players: mutes (or unmutes) the other player's chat in this game; resolves with
   * the setting. */
  mute?: (on: boolean) => Promise<boolean>;
}

export const chatApi = {
  setting: () => call<{ chat_off: boolean }>('GET', '/api/me/chat'),
  setOff: (off: boolean) => call<{ chat_off: boolean }>('PUT', '/api/me/chat', { chat_off: off }),
  game: (id: string) => call<{ players?: ChatMessage[]; watchers: ChatMessage[]; chat_off: boolean; opponent_muted?: boolean; watchers_hidden?: boolean }>('GET', `/api/games/${encodeURIComponent(id)}/chat`),
  /** A player mutes the other player's chat in this game (issue 41: anonymous players too). */
  mute: (id: string, mute: boolean) => call<{ mute: boolean }>('PUT', `/api/games/${encodeURIComponent(id)}/chat/mute`, { mute }),
  lobby: () => call<{ messages: ChatMessage[]; chat_off: boolean }>('GET', '/api/lobby/chat'),
  tournament: (id: string) => call<{ messages: ChatMessage[]; chat_off: boolean }>('GET', `/api/tournaments/${encodeURIComponent(id)}/chat`),
  sendLobby: (c: ChatContent) => call<ChatMessage>('POST', '/api/lobby/chat', c),
  sendTournament: (id: string, c: ChatContent) => call<ChatMessage>('POST', `/api/tournaments/${encodeURIComponent(id)}/chat`, c),
};

/** The words of a message: its text as sent, or its phrase in the reader's language. */
export function messageWords(m: ChatMessage): string {
  return m.phrase ? t(`chat.phrase.${m.phrase}` as Key) : (m.text ?? '');
}

export class ChatBox {
  readonly el: HTMLElement;
  private readonly lists = new Map<string, ChatMessage[]>();
  private rooms: string[] = [];
  private room = '';
  private off = false;
  private readonly tabs = h('div.chat-tabs', { role: 'tablist' });
  private readonly list = h('ol.chat-list', { 'aria-live': 'polite' });
  private readonly input = h('input.chat-input', { type: 'text', maxlength: MAX_CHAT * 2, autocomplete: 'off', placeholder: t('chat.placeholder_short'), title: t('chat.placeholder'), 'aria-label': t('chat.placeholder') }) as HTMLInputElement;
  private readonly error = h('p.error.chat-error', { role: 'alert' });
  private readonly offBox = h('input.chat-off', { type: 'checkbox' }) as HTMLInputElement;
  private readonly offLabel = h('label.check.chat-off-label', this.offBox, ' ', t('chat.off'));
  private readonly offNote = h('p.muted.chat-off-note', { hidden: true }, t('chat.off_note'));
  private readonly muteBox = h('input.chat-mute', { type: 'checkbox' }) as HTMLInputElement;
  private readonly muteLabel = h('label.check.chat-mute-label', { hidden: true }, this.muteBox, ' ', t('chat.mute_opponent'));
  private muted: boolean | undefined;
  private readonly writer: HTMLElement;
  /** For a logged-out reader of a room only accounts write in: a link to log in instead of
   * buttons that always fail (browser finding 23). */
  private readonly loginNote = h('p.muted.chat-login', { hidden: true }, h('a#chat-login', { href: loginHref() }, t('chat.login_to_chat')));

  constructor(private readonly opts: ChatOptions, rooms: string[]) {
    const form = h('form.chat-form', {
      onsubmit: (e: Event) => {
        e.preventDefault();
        const text = this.input.value.trim();
        // The server counts characters (code points); `maxlength` counts UTF-16 units, twice
        // for an emoji, so it only stops what can never fit.
        const n = [...text].length;
        if (n > MAX_CHAT) {
          this.error.textContent = t('chat.too_long', { n, max: MAX_CHAT });
          return;
        }
        if (text) this.send({ text }, () => { this.input.value = ''; });
      },
    }, this.input, h('button.chat-send', { type: 'submit' }, t('chat.send')));
    const phrases = h('div.chat-phrases', PHRASES.map(p =>
      h('button.chat-phrase', { type: 'button', 'data-phrase': p, onclick: () => this.send({ phrase: p }) }, t(`chat.phrase.${p}` as Key))));
    this.writer = h('div.chat-writer', phrases, form);
    this.offBox.addEventListener('change', () => this.setOffByPlayer(this.offBox.checked));
    this.muteBox.addEventListener('change', () => {
      const want = this.muteBox.checked;
      this.opts.mute?.(want).then(m => { this.error.textContent = ''; this.setMuted(m); }, err => {
        this.error.textContent = errorWords(err);
        this.muteBox.checked = !!this.muted;
      });
    });
    this.el = h('section.chat', { 'aria-label': t('chat.title') },
      h('div.chat-head', h('h2', t('chat.title')), this.offLabel, this.muteLabel),
      this.tabs, this.offNote, this.list, this.error, this.writer, this.loginNote);
    this.setRooms(rooms);
    this.showSetting();
  }

  /** The rooms the reader has (a game's players see two tabs, others one). */
  setRooms(rooms: string[]): void {
    if (rooms.join() === this.rooms.join()) return;
    this.rooms = rooms;
    if (!rooms.includes(this.room)) this.room = rooms[0] ?? '';
    this.draw();
  }

  /** Replaces a room's messages (the history, read on load and after a reconnect). */
  load(room: string, messages: ChatMessage[]): void {
    this.lists.set(room, messages.slice());
    this.draw();
  }

  /** The chat setting as the server has it. */
  setOff(off: boolean): void {
    this.off = off;
    this.draw();
  }

  /** Whether the reader muted the other player in this game (`undefined`: not a player, no
   * toggle). */
  setMuted(muted: boolean | undefined): void {
    this.muted = muted;
    this.muteLabel.hidden = muted === undefined || !this.opts.mute;
    this.muteBox.checked = !!muted;
  }

  /** A message a moderator removed: it leaves every room of the box. */
  remove(id: string): void {
    for (const [room, list] of this.lists) this.lists.set(room, list.filter(m => m.id !== id));
    this.draw();
  }

  /** A live message. */
  add(m: ChatMessage): void {
    const list = this.lists.get(m.room) ?? [];
    if (list.some(x => x.id === m.id)) return;
    list.push(m);
    this.lists.set(m.room, list.slice(-100));
    this.draw();
  }

  private showSetting(): void {
    const me = this.opts.me();
    this.offLabel.hidden = !me;
    if (me) chatApi.setting().then(s => this.setOff(s.chat_off), () => undefined);
  }

  private setOffByPlayer(off: boolean): void {
    chatApi.setOff(off).then(s => { this.error.textContent = ''; this.setOff(s.chat_off); }, err => {
      this.error.textContent = errorWords(err);
      this.offBox.checked = this.off;
    });
  }

  private send(content: ChatContent, done?: () => void): void {
    this.error.textContent = '';
    this.opts.send(this.room, content).then(() => done?.(), err => { this.error.textContent = errorWords(err); });
  }

  private report(m: ChatMessage, button: HTMLButtonElement): void {
    if (!m.author) return;
    // One stray tap must not file a report (it also holds the reason "abuse" against this
    // player until a moderator closes it): the player confirms, naming whom.
    if (!window.confirm(t('chat.report_confirm', { name: m.author }))) return;
    button.disabled = true;
    call<{ id: string }>('POST', '/api/reports', { username: m.author, reason: 'abuse', message: m.id }).then(
      () => { button.textContent = t('chat.reported'); },
      err => { button.disabled = false; this.error.textContent = errorWords(err); },
    );
  }

  private draw(): void {
    const me = this.opts.me();
    this.offBox.checked = this.off;
    this.offLabel.hidden = !me;
    this.offNote.hidden = !this.off;
    this.list.hidden = this.off;
    // A guest player writes the phrases in the players' room; every other room is for accounts.
    const guestOnly = me === null && this.room !== 'players';
    this.writer.hidden = this.off || guestOnly;
    this.loginNote.hidden = this.off || !guestOnly;
    this.tabs.hidden = this.rooms.length < 2;
    mount(this.tabs, this.rooms.map(r => h('button.chat-tab', {
      type: 'button', role: 'tab', 'data-room': r, 'aria-selected': String(r === this.room), class: r === this.room ? 'active' : '',
      onclick: () => { this.room = r; this.draw(); },
    }, t(`chat.room.${r}` as Key))));
    const list = this.off ? [] : (this.lists.get(this.room) ?? []);
    mount(this.list, list.length ? list.map(m => {
      const mine = !!me && m.author === me;
      const report = !mine && m.author && me
        ? h('button.chat-report', { type: 'button', title: t('chat.report'), 'aria-label': t('chat.report') }, '⚑') as HTMLButtonElement
        : null;
      report?.addEventListener('click', () => this.report(m, report));
      return h('li.chat-line', { 'data-id': m.id },
        h('span.chat-author', m.author ?? t('chat.anonymous')), ' ',
        h('span.chat-text', { class: m.phrase ? 'chat-canned' : '' }, messageWords(m)), report ? [' ', report] : null);
    }) : h('li.muted.chat-empty', t('chat.empty')));
    this.list.scrollTop = this.list.scrollHeight;
  }
}

/** The box of a tournament's room (`id`) or the lobby's: history now, then `add` each
 * `chat` event of the page's stream. */
export function roomChat(tournament: string | null, me: () => string | null | undefined): ChatBox {
  const room = tournament ? 'tournament' : 'lobby';
  const box = new ChatBox({
    me,
    send: async (_room, c) => {
      const m = tournament ? await chatApi.sendTournament(tournament, c) : await chatApi.sendLobby(c);
      box.add(m);
    },
  }, [room]);
  const history = tournament ? chatApi.tournament(tournament) : chatApi.lobby();
  history.then(r => { box.load(room, r.messages); box.setOff(r.chat_off); }, () => undefined);
  return box;
}

/** Adds the `chat` events of `events` to `box`, and drops the messages of its
 * `chat_removed` events (a moderator's removal). */
export function listenChat(events: EventSource, box: ChatBox): void {
  events.addEventListener('chat_removed', e => {
    try {
      box.remove((JSON.parse((e as MessageEvent<string>).data) as { id: string }).id);
    } catch { /* a malformed event is skipped */ }
  });
  events.addEventListener('chat', e => {
    try {
      box.add(JSON.parse((e as MessageEvent<string>).data) as ChatMessage);
    } catch { /* a malformed event is skipped */ }
  });
}
