// The live notification count of every page (issue 38): one `EventSource` on
// `GET /api/notifications/stream` for the whole visit (pages and headers come and go; this stays),
// the unread count in the bell and the window's title, a chime for what is new, and an incoming
// challenge popped up on any page (challenge_popup.ts).

import { forgetMe } from '../account';
import { setUnread } from '../title';
import { chime } from './beep';
import { notifyApi, type NotificationKind, type NotifyView } from './api';
import { showChallenges } from './challenge_popup';

/** The notifications a game's page reads by being on the screen: its turns, and the accepted
 * challenge or seek that started it. */
const READ_ON_GAME_PAGE: NotificationKind[] = ['your_move', 'challenge_accepted', 'seek_accepted', 'tournament_game'];

let source: EventSource | undefined;
let view: NotifyView = { unread: 0, latest: null };
/** The newest notification's id when last seen: what is newer chimes. */
let newest: string | null | undefined;
const listeners = new Set<(v: NotifyView) => void>();

/** The count and newest notification as last sent. */
export function current(): NotifyView {
  return view;
}

/** Calls `listener` at each change; returns the unsubscription. */
export function onNotify(listener: (v: NotifyView) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(next: NotifyView): void {
  const first = newest === undefined;
  const latest = next.latest;
  const fresh = latest !== null && latest.id !== newest && !latest.read;
  view = next;
  newest = latest?.id ?? null;
  // The game on the screen needs no notification of its own turns, nor of its start.
  if (fresh && READ_ON_GAME_PAGE.includes(latest.kind) && latest.game && location.pathname === `/game/${latest.game}`) {
    void notifyApi.read([latest.id]).catch(() => undefined);
  } else if (fresh && !first) {
    chime();
  }
  setUnread(next.unread);
  for (const l of [...listeners]) l(next);
  // Open challenges pop up at the first look (one that came while away) and when one comes;
  // while some show, any change of the count reads them again: one cancelled by its challenger
  // or answered in another tab goes (browser finding 2 of round 5).
  const showing = document.getElementById('challenge-popup')?.hidden === false;
  if (first || (fresh && latest.kind === 'challenge') || showing) void showChallenges();
}

/** How long after a refused stream (a 429 or 503: the browser then gives up) it is opened
 * again, ms. */
const REOPEN_MS = 30_000;

/** Opens the stream once for the whole visit. The browser reconnects it after a network error
 * by itself; a stream the server refused is opened again after [`REOPEN_MS`]. */
export function startNotifications(): void {
  if (source || typeof EventSource === 'undefined') return;
  const s = new EventSource(notifyApi.streamUrl);
  source = s;
  s.addEventListener('error', () => {
    if (s.readyState !== EventSource.CLOSED) return;
    source = undefined;
    window.setTimeout(startNotifications, REOPEN_MS);
  });
  // The log-in ended (here or in another tab or process): the stream is the account's no more.
  // The count goes, the header asks who is here now, and a stream of the new state opens.
  s.addEventListener('ended', () => {
    s.close();
    source = undefined;
    changed({ unread: 0, latest: null });
    void forgetMe().then(startNotifications);
  });
  s.addEventListener('notify', e => {
    try {
      changed(JSON.parse((e as MessageEvent<string>).data) as NotifyView);
    } catch {
      // a malformed event is skipped; the next one carries the whole state
    }
  });
}

/** A log-in, registration or log-out on this page: the stream was opened as the player who
 * was here before (the cookie at its start), so a new one opens as the player now here (browser
 * finding 3: a new account stayed offline, with no bell, until a reload). */
export function restartNotifications(): void {
  source?.close();
  source = undefined;
  changed({ unread: 0, latest: null });
  startNotifications();
}

/** The count after the player read some here (the stream confirms it soon after). */
export function setCount(unread: number): void {
  changed({ unread, latest: view.latest ? { ...view.latest, read: unread === 0 || view.latest.read } : null });
}

/** The page of game `id` is on the screen: its unread turns and the accepted challenge or seek
 * that started it (which may have come before the page opened) are marked read, once there is
 * anything unread. Returns the page's teardown. */
export function readOnGamePage(id: string): () => void {
  let looked = false;
  const look = (v: NotifyView) => {
    if (looked || v.unread === 0) return;
    looked = true;
    notifyApi.list().then(r => {
      const ids = r.items.filter(n => !n.read && n.game === id && READ_ON_GAME_PAGE.includes(n.kind)).map(n => n.id);
      if (ids.length) return notifyApi.read(ids).then(x => setCount(x.unread));
    }).catch(() => undefined);
  };
  const off = onNotify(look);
  look(view);
  return () => { off(); };
}
